"""Which keys a page listens to: keydown/keyup/keypress listeners on the window, the document, the body and the first
canvas, read over Chrome DevTools (DOMDebugger.getEventListeners, as the snapshot finds click listeners), with the keys
their handlers name — so an explorer can press them on a page whose only controls are keys (a word game).
"""

from __future__ import annotations

import asyncio
import logging
import re

from studio.models.catalog import KeyboardListeners
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

log = logging.getLogger(__name__)

KEY_EVENTS = {"keydown", "keyup", "keypress"}
TARGETS = (("window", "window"), ("document", "document"), ("document.body", "the body"),
           ("document.querySelector('canvas')", "the canvas"))
_GROUP = "studio-keyboard"
_SOURCE_LIMIT = 20_000  # characters of a handler's source read

# Key names a handler compares with (event.key / event.code), as Playwright presses them.
_NAMED = {"enter": "Enter", "escape": "Escape", "esc": "Escape", "tab": "Tab", "backspace": "Backspace",
          "delete": "Delete", "del": "Delete", " ": "Space", "space": "Space", "spacebar": "Space",
          "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
          "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "home": "Home",
          "end": "End", "pageup": "PageUp", "pagedown": "PageDown", "shift": "Shift", "control": "Control"}
_CODES = {8: "Backspace", 9: "Tab", 13: "Enter", 27: "Escape", 32: "Space", 33: "PageUp", 34: "PageDown",
          35: "End", 36: "Home", 37: "ArrowLeft", 38: "ArrowUp", 39: "ArrowRight", 40: "ArrowDown", 46: "Delete"}
_COMPARED = re.compile(r"""\b(?:key|code)\s*(?:===?|!==?)\s*['"]([^'"]{1,12})['"]|['"]([^'"]{1,12})['"]\s*(?:===?|!==?)\s*\w+\.(?:key|code)\b|case\s+['"]([^'"]{1,12})['"]\s*:""")
_KEY_CODE = re.compile(r"\b(?:keyCode|which|charCode)\s*(?:===?|!==?|>=?|<=?)\s*(\d{1,3})")
_CODE_NAME = re.compile(r"""['"](Key[A-Z]|Digit\d|Arrow(?:Up|Down|Left|Right)|Numpad\d)['"]""")
_LETTERS = re.compile(r"\[a-z\]|\[A-Z\]|\[a-zA-Z\]|abcdefghijklmnopqrstuvwxyz|\b(?:keyCode|which)\s*>=?\s*6[45]\b"
                      r"|\bkeyCode\s*<=?\s*9[01]\b|\\p\{L\}|toLowerCase\(\)\s*!==?\s*\w+\.toUpperCase\(\)", re.IGNORECASE)
_DIGITS = re.compile(r"\[0-9\]|\\d|\bkeyCode\s*>=?\s*4[78]\b|\bDigit", re.IGNORECASE)


def keys_named(source: str) -> tuple[list[str], bool, bool]:
    """The keys a handler's source names (Playwright names), and whether it takes letters, digits."""
    found: list[str] = []
    for match in _COMPARED.finditer(source):
        raw = next(group for group in match.groups() if group is not None)
        name = _NAMED.get(raw.lower()) or (raw if len(raw) == 1 and raw.isprintable() else None)
        if name is None and re.fullmatch(r"Key[A-Z]|Digit\d|Arrow(?:Up|Down|Left|Right)|F\d{1,2}", raw):
            name = raw
        if name:
            found.append(name)
    for match in _KEY_CODE.finditer(source):
        code = int(match.group(1))
        if code in _CODES:
            found.append(_CODES[code])
    found += [match.group(1) for match in _CODE_NAME.finditer(source)]
    return list(dict.fromkeys(found)), bool(_LETTERS.search(source)), bool(_DIGITS.search(source))


async def read_keyboard(driver: PageDriver, timeout_s: float = 5.0) -> KeyboardListeners:
    """The page's keyboard listeners; none when it has none or they cannot be read (another browser than Chromium,
    a page that stopped answering)."""
    try:
        return await asyncio.wait_for(_read(driver), timeout_s)
    except (RaceError, TimeoutError, KeyError) as error:
        log.info("could not read the page's keyboard listeners: %s", error)
        return KeyboardListeners()


async def _read(driver: PageDriver) -> KeyboardListeners:
    found = KeyboardListeners()
    try:
        # Each step's commands go out together: one round trip per step instead of one per target.
        targets = await asyncio.gather(*(driver.devtools("Runtime.evaluate", {"expression": expression,
                                                                               "objectGroup": _GROUP})
                                         for expression, _ in TARGETS))
        named = [(reply["result"]["objectId"], name) for reply, (_, name) in zip(targets, TARGETS, strict=True)
                 if reply.get("result", {}).get("objectId")]
        replies = await asyncio.gather(*(driver.devtools("DOMDebugger.getEventListeners",
                                                         {"objectId": object_id, "objectGroup": _GROUP})
                                         for object_id, _ in named))
        handlers = []
        for reply, (_, name) in zip(replies, named, strict=True):
            keyed = [item for item in reply.get("listeners", []) if item.get("type") in KEY_EVENTS
                     and "__studio" not in str((item.get("handler") or {}).get("description") or "")]  # ours
            if keyed:
                found.where.append(f"{'/'.join(sorted({item['type'] for item in keyed}))} on {name}")
                handlers += keyed
        await asyncio.gather(*(_read_handler(driver, item, found) for item in handlers))
    finally:
        await driver.devtools("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
    return found


async def _read_handler(driver: PageDriver, listener: dict, found: KeyboardListeners) -> None:
    handler = (listener.get("handler") or {}).get("objectId")
    if not handler:
        return
    reply = await driver.devtools("Runtime.callFunctionOn", {
        "objectId": handler, "returnByValue": True,
        "functionDeclaration": f"function () {{ return Function.prototype.toString.call(this).slice(0, {_SOURCE_LIMIT}); }}"})
    source = reply.get("result", {}).get("value") or ""
    keys, letters, digits = keys_named(source)
    found.keys = list(dict.fromkeys([*found.keys, *keys]))
    found.letters = found.letters or letters
    found.digits = found.digits or digits
