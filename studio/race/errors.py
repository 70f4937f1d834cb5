"""RaceError: a typed error for tool results — a kind an agent can branch on and a sentence a person can act on."""

from __future__ import annotations

from studio.models.race import RaceErrorInfo, RaceErrorKind


class RaceError(Exception):
    """A race-preflight operation could not be done; `kind` is one of RaceErrorKind."""

    def __init__(self, kind: RaceErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message

    def info(self) -> RaceErrorInfo:
        return RaceErrorInfo(type=self.kind, message=self.message)

    def to_json(self) -> dict:
        return {"error": self.info().model_dump()}


def unknown_ref(ref: str) -> RaceError:
    return RaceError("unknown_ref", f"There is no element {ref!r}. Take a snapshot (browser_snapshot) and use a ref from it.")


def stale_ref(ref: str) -> RaceError:
    return RaceError(
        "stale_ref",
        f"{ref} belongs to a page that is no longer shown (the page navigated or reloaded). "
        "Take a new snapshot and use the new ref.",
    )


def removed_ref(ref: str) -> RaceError:
    return RaceError(
        "stale_ref",
        f"{ref} was removed from the page (a re-render replaced it). Take a new snapshot and use the new ref.",
    )


def navigated_during(what: str) -> RaceError:
    return RaceError("navigated", f"The page navigated away while {what}. Take a new snapshot and try again.")


def context_closed(name: str = "") -> RaceError:
    where = f" {name!r}" if name else ""
    return RaceError("context_closed", f"The browser context{where} is closed. Navigate again to open a new page.")


def navigated_before_done(action: str, ref: str) -> RaceError:
    return RaceError("navigated", f"The page navigated away during the {action} on {ref}, before it was done. "
                                  "Take a new snapshot and try again.")


def page_unresponsive(what: str, seconds: float) -> RaceError:
    return RaceError("timeout", f"The page did not answer within {seconds:g} s while {what}: a script on it may be "
                                "stuck in a loop. Reload the page or open another one, then try again.")
