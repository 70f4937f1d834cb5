"""The toolbelt's input tools: click, double-click, hover, type, key presses, select, check/uncheck and drag — each
through the race preflight on its target (facts instead of acting when something stands in the way), recorded as a
step while the context records, and typing only on the pinned origins.
"""

from __future__ import annotations

import time

from playwright.async_api import Error as PlaywrightError

from studio.models.race import ActionName
from studio.race.errors import RaceError
from studio.race.typing_rules import focused_field, is_secret_field, types_text
from studio.toolbelt.contexts import NamedContext
from studio.toolbelt.guard import Reply, ToolGuard
from studio.toolbelt.replies import ActionReply, KeyReply, ToolReply


class InputTools(ToolGuard):
    """The tools that act on a page through its PageDriver."""

    async def click(self, ref: str, context: str) -> Reply:
        return await self._action("browser_click", context, "click", ref, "clicked")

    async def dblclick(self, ref: str, context: str) -> Reply:
        return await self._action("browser_dblclick", context, "dblclick", ref, "doubleClicked")

    async def hover(self, ref: str, context: str) -> Reply:
        return await self._action("browser_hover", context, "hover", ref, "hovered")

    async def check(self, ref: str, context: str) -> Reply:
        return await self._action("browser_check", context, "check", ref, "checked")

    async def uncheck(self, ref: str, context: str) -> Reply:
        return await self._action("browser_uncheck", context, "uncheck", ref, "unchecked")

    async def select_option(self, ref: str, value: str, context: str) -> Reply:
        return await self._action("browser_select_option", context, "select", ref, "selected", value=value)

    async def drag(self, start_ref: str, end_ref: str, context: str) -> Reply:
        return await self._action("browser_drag", context, "drag", start_ref, "dragged", value=end_ref)

    async def type(self, ref: str, text: str, context: str, submit: bool = False) -> Reply:
        """Fill `text` into the field; a trailing newline (or `submit`) then presses Enter in it, as a person
        finishing a line does."""
        if text.endswith("\n"):
            text, submit = text.removesuffix("\n").removesuffix("\r"), True

        async def body(entry: NamedContext) -> ActionReply:
            self._check_pin(entry, "browser_type")
            typed = await entry.driver.act("fill", ref, value=text)
            if not (submit and typed.acted):
                return ActionReply(outcome=typed, flag="typed")
            # Facts that stop the Enter are reported (submitted: false); browser_press_key on the ref acknowledges them.
            pressed = await entry.driver.act("press", ref, key="Enter")
            return ActionReply(outcome=typed, flag="typed", submit=pressed)

        return await self._with_page("browser_type", context, body)

    async def press_key(self, key: str, context: str, ref: str | None = None) -> Reply:
        """Press a key (with modifiers: "Control+A") on a ref, or on whatever has the focus when no ref is given."""
        if not key or not key.strip():
            return await self._refuse("browser_press_key", context, "key is a key name such as 'Enter', 'ArrowLeft', "
                                                                    "'Control+A' or 'a'.")

        async def body(entry: NamedContext) -> ToolReply:
            if types_text(key):
                await self._check_typed_key(entry, key, ref)
            if ref is not None:
                return ActionReply(outcome=await entry.driver.act("press", ref, key=key), flag="pressed")
            try:
                await entry.driver.press(key, rules_checked=True)  # checked above, in the tool's words
            except PlaywrightError as error:
                if "Unknown key" in str(error):
                    raise RaceError("bad_input", f"Unknown key {key!r}. Keys are named as in Playwright: 'Enter', "
                                                 "'Tab', 'ArrowLeft', 'Control+A', 'a'.") from error
                raise
            return KeyReply(key=key, timestamp=time.time() * 1000)

        return await self._with_page("browser_press_key", context, body)

    # -- parts -------------------------------------------------------------------------------------

    async def _action(self, tool: str, context: str, action: ActionName, ref: str, flag: str,
                      value: str | None = None) -> Reply:
        async def body(entry: NamedContext) -> ActionReply:
            return ActionReply(outcome=await entry.driver.act(action, ref, value=value), flag=flag)

        return await self._with_page(tool, context, body)

    async def _check_typed_key(self, entry: NamedContext, key: str, ref: str | None) -> None:
        """A key that types a character is typing: pinned origins only, and never a secret (browser_type keeps
        those out of recordings; a key would be recorded as it is)."""
        if ref is not None:
            self._check_pin(entry, "browser_press_key")
            field: dict | None = await entry.driver.race.describe(ref)
        else:
            focus = await focused_field(entry.driver.page)
            self._check_pin(entry, "browser_press_key")
            self._check_pin(entry, "browser_press_key", url=focus.url)
            field = focus.field
        if is_secret_field(field):
            raise RaceError("bad_input", f"browser_press_key refused to type {key!r} into a password or one-time-code "
                                         "field: use browser_type on the field's ref, which never records secrets.")

    async def _refuse(self, tool: str, context: str, message: str) -> Reply:
        async def body() -> ToolReply:
            raise RaceError("bad_input", message)

        return await self._run(tool, context, body, needs_page=False)
