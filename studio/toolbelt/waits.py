"""browser_wait_for: wait until a text appears or disappears, an element (by ref) is visible or hidden, or the URL
matches — the web-first waits a Playwright test makes. While recording, a wait that was met becomes a check step
(expect_text, expect_visible, expect_hidden, expect_url), so the exported test waits for the same thing.
"""

from __future__ import annotations

import asyncio
import time
from typing import Literal

from playwright.async_api import Error as PlaywrightError

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.recording import StepAction
from studio.race.errors import RaceError, unknown_ref
from studio.race.locators import synthesize
from studio.toolbelt.contexts import NamedContext
from studio.toolbelt.guard import Reply, ToolGuard
from studio.toolbelt.replies import WaitReply

ElementState = Literal["visible", "hidden"]
DEFAULT_WAIT_MS = 5000
MAX_WAIT_MS = 30_000
_POLL_S = 0.05


class WaitTools(ToolGuard):
    """browser_wait_for, on the page of a named context."""

    async def wait_for(self, context: str, text: str | None = None, text_gone: str | None = None,
                       ref: str | None = None, state: ElementState = "visible", url: str | None = None,
                       timeout_ms: int = DEFAULT_WAIT_MS) -> Reply:
        async def body(entry: NamedContext) -> WaitReply:
            given = [name for name, value in (("text", text), ("textGone", text_gone), ("ref", ref), ("url", url))
                     if value is not None]
            if len(given) != 1:
                raise RaceError("bad_input", "browser_wait_for waits for one thing: give exactly one of text, "
                                             f"textGone, ref (with state) or url (it got {', '.join(given) or 'none'}).")
            if not 0 < timeout_ms <= MAX_WAIT_MS:
                raise RaceError("bad_input", f"timeout is in milliseconds, 1 to {MAX_WAIT_MS}; it was {timeout_ms}.")
            if state not in ("visible", "hidden"):
                raise RaceError("bad_input", f"state is 'visible' or 'hidden'; it was {state!r}.")
            started = time.monotonic()
            page = entry.driver.page
            if text is not None or text_gone is not None:
                shown = text is not None
                wanted = text if text is not None else text_gone
                assert wanted is not None
                condition = f"text {wanted!r} {'visible' if shown else 'gone'}"
                met = await entry.driver.wait_for_text(wanted, shown, timeout_ms)
                spec = LocatorSpec(steps=[LocatorStep(kind="text", value=wanted)], strategy="text")
                check: tuple[StepAction, LocatorSpec | None, str | None] = (
                    ("expect_text", None, wanted) if shown else ("expect_hidden", spec, None))
            elif ref is not None:
                condition = f"{ref} {state}"
                spec_of_ref = await self._locator_to_record(entry, ref)
                met = await _element(entry, ref, state, timeout_ms)
                check = ("expect_visible" if state == "visible" else "expect_hidden", spec_of_ref, None)
            else:
                assert url is not None
                condition = f"URL matching {url!r}"
                met = await entry.driver.wait_for_url(url, timeout_ms)
                check = ("expect_url", None, None)
            elapsed = round((time.monotonic() - started) * 1000)
            if not met:
                return WaitReply(ok=False, condition=condition, elapsedMs=elapsed, url=page.url,
                                 message=f"Not met within {timeout_ms / 1000:g} s. Take a snapshot to see the page "
                                         "as it is, or wait again with a longer timeout.")
            action, locator, value = check
            if action in ("expect_text", "expect_url") or locator is not None:
                entry.driver.record_check(action, locator=locator, value=value)
            return WaitReply(ok=True, condition=condition, elapsedMs=elapsed, url=page.url)

        return await self._with_page("browser_wait_for", context, body)

    async def _locator_to_record(self, entry: NamedContext, ref: str) -> LocatorSpec | None:
        """The ref's locator, taken before waiting (a hidden element may be gone after), only while recording."""
        entry.driver.race.world.check_ref(ref)
        if not entry.driver.recording:
            return None
        try:
            return await synthesize(entry.driver.race, ref)
        except (RaceError, PlaywrightError):
            return None


async def _element(entry: NamedContext, ref: str, state: ElementState, timeout_ms: int) -> bool:
    """Poll the element's visibility in the isolated world; a removed element counts as hidden."""
    world = entry.driver.race.world
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        await world.prepare(ref)
        result = await world.call("visible", ref, during=f"checking whether {ref} is {state}")
        if result.get("status") == "unknown":
            raise unknown_ref(ref)
        if bool(result["value"]) == (state == "visible"):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(_POLL_S)
