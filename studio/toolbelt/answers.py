"""Typing the tester's answers (emails, passwords, one-time codes) into the app — and only into the app.

Every agent that signs in with an answer goes through `type_answer`: the field's own document must be on one of
the origins the job is pinned to, checked right before the keys are sent, so a redirect to a look-alike login
page on another origin never receives a password. The field is found once (a ref), so the value goes into the
very element whose document was checked; the fill goes through the driver's race preflight like any action.
"""

from __future__ import annotations

from studio.browser.errors import BrowserError
from studio.browser.origins import OriginPolicy
from studio.race.driver import PageDriver
from studio.race.targets import Target

FIELD_TIMEOUT_MS = 5000


class AnswerRefused(BrowserError):
    """An answer was not typed because the field is not on the app's origin; str() says where it was."""


async def type_answer(driver: PageDriver, field: Target, value: str, pin: OriginPolicy, what: str,
                      timeout_ms: float = FIELD_TIMEOUT_MS) -> None:
    """Fill `value` into `field` when the field's document is on a pinned origin; raises AnswerRefused otherwise
    (and RaceError when the field cannot be found or filled)."""
    ref = await driver.ref_of(field, timeout_ms=timeout_ms)
    found = await driver.race.world.with_ref("documentUrl", ref, during=f"checking {what}")
    where = str(found["value"])
    if not pin.allows(where):
        origin = OriginPolicy.origin_of(where) or where
        allowed = ", ".join(sorted(pin.allowed_origins)) or "none yet"
        raise AnswerRefused(f"The {what} was not typed: the field is on {origin}, not on the app's origin "
                            f"({allowed}). Answers are only ever typed into the app's own pages.")
    await driver.must("fill", ref, value=value, timeout_ms=timeout_ms)
