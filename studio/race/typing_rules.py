"""The typing rules every path that types follows: text goes only into pages of the origins a job is pinned to, and
a key press that types a character is typing too (never into a password or one-time-code field: filling those keeps
them out of recordings). Here: which keys type, where the keyboard focus is, and the pin check itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import Frame, Page

from studio.browser.calls import bounded
from studio.browser.origins import OriginPolicy
from studio.race.errors import RaceError

# Playwright key names (KeyboardEvent.code style) that produce a character without a modifier.
_TEXT_CODES = re.compile(r"Key[A-Z]|Digit\d|Numpad\d|Space|Backquote|Minus|Equal|Backslash|BracketLeft|BracketRight|"
                         r"Semicolon|Quote|Comma|Period|Slash|Numpad(Add|Subtract|Multiply|Divide|Decimal)")
_FOCUSED_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;  // into web components
  if (!el || el === document.body || el === document.documentElement) return null;
  return { tag: el.tagName.toLowerCase(), type: el.type || null, autocomplete: el.autocomplete || null,
           frame: el.tagName === 'IFRAME' || el.tagName === 'FRAME' };
}"""


def types_text(key: str) -> bool:
    """Whether pressing `key` ("a", "Shift+A", "KeyA", "Space") types a character, as opposed to a command key
    ("Enter", "ArrowLeft", "Control+A")."""
    if key in ("+", "Shift++"):
        return True
    *modifiers, last = key.split("+")
    if any(modifier != "Shift" for modifier in modifiers):
        return False
    return len(last) == 1 or bool(_TEXT_CODES.fullmatch(last))


def is_secret_field(field: dict | None) -> bool:
    """A password or one-time-code field (described by the in-page library or by `focused_field`)."""
    if not field:
        return False
    kind = field.get("inputType") or field.get("type")
    return kind == "password" or field.get("secret") is True or field.get("autocomplete") == "one-time-code"


@dataclass
class Focus:
    """Where typed keys go: the URL of the document that has the focus, and the focused element (None: the page)."""

    url: str
    field: dict | None


async def focused_field(page: Page) -> Focus:
    """Follow the focus into frames (cross-origin ones too) to the document and element that receive key presses."""
    frame: Frame = page.main_frame
    for _ in range(8):  # frames nest; a loop bound keeps a hostile page from holding us
        field = await bounded(page, frame.evaluate(_FOCUSED_JS), "finding the focused element")
        if not field or not field["frame"]:
            return Focus(frame.url, field)
        handle = await bounded(page, frame.evaluate_handle("document.activeElement"), "finding the focused frame")
        element = handle.as_element()
        child = await element.content_frame() if element is not None else None
        if child is None:
            return Focus(frame.url, field)
        frame = child
    return Focus(frame.url, None)


def check_pinned(pin: OriginPolicy | None, url: str, what: str) -> None:
    """Raise origin_refused when `url` (the page, or the document of the field typed into) is off the pinned origins;
    `what` names the action in the sentence ("browser_type", "typing into the email field")."""
    if pin is None or pin.allows(url):
        return
    allowed = ", ".join(sorted(pin.allowed_origins)) or "none yet"
    raise RaceError("origin_refused", f"{what} refused: the page is on {OriginPolicy.origin_of(url) or url}, "
                                      f"not on the app's origin ({allowed}). Text is only typed into the app's "
                                      "own pages; navigate back to the app first.")
