"""Feature flags of the demo app: UI variants that rename buttons, move routes and add required fields."""

from __future__ import annotations

from typing import Any

FLAG_DEFAULTS: dict[str, Any] = {
    "new_cta_labels": False,
    "alerts_route": "default",
    "dispute_phone_required": False,
}
ALERTS_ROUTES = ("default", "redirect", "gone")


class FlagError(ValueError):
    """A flag name or value the demo app does not know; the message is a sentence for the API caller."""


def validate_flag(flag: str, value: Any) -> Any:
    """Return `value` when it is a legal value of `flag`, else raise FlagError naming what is allowed."""
    if flag not in FLAG_DEFAULTS:
        known = ", ".join(sorted(FLAG_DEFAULTS))
        raise FlagError(f"Unknown flag {flag!r}. Known flags: {known}.")
    if flag == "alerts_route":
        if value not in ALERTS_ROUTES:
            raise FlagError(f"Flag 'alerts_route' must be one of: {', '.join(ALERTS_ROUTES)}.")
        return value
    if not isinstance(value, bool):
        raise FlagError(f"Flag {flag!r} must be true or false.")
    return value
