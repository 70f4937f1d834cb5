"""The seed's progress indicator, and the warning when it stops moving (seed 003, "Progress Validation").

The indicator is the first of: "Step X of Y" / "Шаг X из Y" in the page's text, then "X/Y", then the URL, then the
title. Only the visible text is read (innerText, not textContent: hidden wizard steps and scripts say nothing), and
"X/Y" must stand alone: a date (12/06/2024), a path (/api/1/2) or a version (1.2/3) is no progress indicator. The
risk stays for a visible fraction that is not a step ("4/5 stars", "2/10 items in cart"): it then acts as the
page's indicator, and a page that does not change it is reported as stuck.
"""

from __future__ import annotations

import re

STUCK_AFTER = 3  # the same indicator this many observations in a row is a stuck flow

STEP_PATTERN = re.compile(r"(?:Step|Шаг)\s*(\d+)\s*(?:of|из)\s*(\d+)", re.IGNORECASE)
# The seed's (\d+)\s*/\s*(\d+), standing alone: no digit, slash, dot, colon or dash glued to either side.
FRACTION_PATTERN = re.compile(r"(?<![\w/.:-])(\d{1,3})\s*/\s*(\d{1,3})(?![\w/.:-]|/)")


def progress_indicator(visible_text: str, url: str, title: str) -> str:
    """What says where the flow is: a step text, a fraction (X <= Y), else the URL, else the title."""
    match = STEP_PATTERN.search(visible_text)
    if match:
        return match.group(0)
    for fraction in FRACTION_PATTERN.finditer(visible_text):
        done, total = int(fraction.group(1)), int(fraction.group(2))
        if 0 < done <= total and total > 1:
            return fraction.group(0)
    return url or title


class ProgressTracker:
    """Counts how many observations in a row showed the same indicator; `stuck` from the STUCK_AFTER-th on."""

    def __init__(self, stuck_after: int = STUCK_AFTER) -> None:
        self.stuck_after = stuck_after
        self.indicator: str | None = None
        self.repeats = 0

    def see(self, indicator: str) -> bool:
        """Note the indicator of a new observation; True when it is the stuck_after-th same one in a row."""
        self.repeats = self.repeats + 1 if indicator == self.indicator else 1
        self.indicator = indicator
        return self.stuck

    @property
    def stuck(self) -> bool:
        return self.repeats >= self.stuck_after

    def warning(self) -> str:
        """The sentence for a stuck flow."""
        return (f"No progress: the page has shown {self.indicator!r} for {self.repeats} observations in a row. The "
                "last actions did not move the flow forward; read the page's error messages and newErrors, and try "
                "something else.")
