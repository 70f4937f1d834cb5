"""Maps Qt key events to Playwright key names, so typing in the live view reaches the page faithfully."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

_NAMED = {
    Qt.Key.Key_Return: "Enter",
    Qt.Key.Key_Enter: "Enter",
    Qt.Key.Key_Tab: "Tab",
    Qt.Key.Key_Backtab: "Tab",
    Qt.Key.Key_Backspace: "Backspace",
    Qt.Key.Key_Delete: "Delete",
    Qt.Key.Key_Escape: "Escape",
    Qt.Key.Key_Left: "ArrowLeft",
    Qt.Key.Key_Right: "ArrowRight",
    Qt.Key.Key_Up: "ArrowUp",
    Qt.Key.Key_Down: "ArrowDown",
    Qt.Key.Key_Home: "Home",
    Qt.Key.Key_End: "End",
    Qt.Key.Key_PageUp: "PageUp",
    Qt.Key.Key_PageDown: "PageDown",
    Qt.Key.Key_Insert: "Insert",
    Qt.Key.Key_Space: "Space",
    Qt.Key.Key_Shift: "Shift",
    Qt.Key.Key_Control: "Control",
    Qt.Key.Key_Alt: "Alt",
    Qt.Key.Key_Meta: "Meta",
    Qt.Key.Key_CapsLock: "CapsLock",
}
_NAMED.update({getattr(Qt.Key, f"Key_F{n}"): f"F{n}" for n in range(1, 13)})

# Characters Playwright's US layout knows as keys; others are typed as text instead.
_LAYOUT = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`-=[]\\;',./~!@#$%^&*()_+{}|:\"<>?")


def playwright_key(event: QKeyEvent) -> str | None:
    """The Playwright key name for a key event, or None when it should be sent as typed text."""
    key = event.key()
    if key in _NAMED:
        return _NAMED[Qt.Key(key)]
    shortcut = event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.MetaModifier)
    if shortcut and Qt.Key.Key_A <= key <= Qt.Key.Key_Z:
        # With Ctrl held Qt reports a control character as text; the key code still names the letter.
        return chr(key).lower()
    text = event.text()
    if len(text) == 1 and text in _LAYOUT:
        return text
    return None
