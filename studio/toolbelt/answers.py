"""Typing the tester's answers (emails, passwords, one-time codes) into the app — and only into the app.

Every agent that signs in with an answer goes through `type_answer`: the field's own document must be on one of
the origins the job is pinned to, checked right before the keys are sent, so a redirect to a look-alike login
page on another origin never receives a password.
"""

from __future__ import annotations

from playwright.async_api import Locator

from studio.browser.calls import bounded
from studio.browser.errors import BrowserError
from studio.browser.origins import OriginPolicy


class AnswerRefused(BrowserError):
    """An answer was not typed because the field is not on the app's origin; str() says where it was."""


async def type_answer(field: Locator, value: str, pin: OriginPolicy, what: str) -> None:
    """Fill `value` into `field` when the field's document is on a pinned origin; raises AnswerRefused otherwise."""
    where = await bounded(field.page, field.evaluate("el => el.ownerDocument.location.href"), f"checking {what}")
    if not pin.allows(where):
        origin = OriginPolicy.origin_of(where) or where
        allowed = ", ".join(sorted(pin.allowed_origins)) or "none yet"
        raise AnswerRefused(f"The {what} was not typed: the field is on {origin}, not on the app's origin "
                            f"({allowed}). Answers are only ever typed into the app's own pages.")
    await field.fill(value)
