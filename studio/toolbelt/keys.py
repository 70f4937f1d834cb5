"""Key presses that type text, and where the keyboard focus is: what the typing rules need to know about a key.

A key press that types a character is typing, and follows the same rules as browser_type: only on the pinned
origins, and never into a password or one-time-code field (browser_type keeps those out of recordings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.async_api import Frame, Page

from studio.browser.calls import bounded

# Playwright key names (KeyboardEvent.code style) that produce a character without a modifier.
_TEXT_CODES = re.compile(r"Key[A-Z]|Digit\d|Numpad\d|Space|Backquote|Minus|Equal|Backslash|BracketLeft|BracketRight|"
                         r"Semicolon|Quote|Comma|Period|Slash|Numpad(Add|Subtract|Multiply|Divide|Decimal)")
_FOCUSED_JS = """() => {
  const el = document.activeElement;
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
