"""What an action caused: the backend response to wait for, and the visible outcome to assert — the URL it led to,
the status and alert texts it showed, and what the recorder saw it change (studio.export.assertions)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from studio.export.assertions import outcome_checks
from studio.export.literals import sentence_start
from studio.export.statements import ExpectState, ExpectUrl, Note, ResponseWait, Statement, Subject
from studio.export.urls import check_pattern, local_part, origin_of, same_local_part, url_pattern
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import NavigationObservation
from studio.models.recording import RecordedStep, RequestRecord
from studio.race.volatility import volatility

# Assets load on their own schedule and say nothing about the step's outcome.
STATIC_TYPES = {"script", "stylesheet", "image", "font", "media", "manifest", "texttrack"}
# "Loading…" or "Saving..." is gone again by the time a check runs; asserting it would race.
_IN_PROGRESS = re.compile(r"(…|\.\.\.)\s*$")
# A fragment that is a route of a single-page app (#/active, #!/inbox), not an anchor on the page.
_HASH_ROUTE = re.compile(r"^#!?/")


def response_wait(step: RecordedStep, origin: str | None, ordinal: int) -> ResponseWait | None:
    """The request worth waiting for: the first non-GET call, else the first XHR/fetch; same-origin ones first."""
    request = _awaited(step.requests, origin)
    if request is None:
        return None
    return ResponseWait(path=urlsplit(request.url).path or "/", method=request.method.upper(),
                        status=request.status, ordinal=ordinal)


def _awaited(requests: list[RequestRecord], origin: str | None) -> RequestRecord | None:
    calls = [r for r in requests if r.resource_type not in STATIC_TYPES]
    # A third-party beacon is no sign the app did its work; prefer the app's own backend when it has one.
    local = [r for r in calls if origin is None or origin_of(r.url) in (origin, None)]
    for pool in (local, calls):
        for request in pool:
            if request.method.upper() != "GET":
                return request
        for request in pool:
            if request.resource_type in ("xhr", "fetch"):
                return request
    return None


def checks_after(step: RecordedStep, target: str | None, asserted_by_steps: list[str] | None = None) -> list[Statement]:
    """Web-first checks of the visible outcome: the URL it led to, the status and alert texts it showed, then what
    the recorder saw it change."""
    return [*_url_checks(step, target), *_status_checks(step), *outcome_checks(step, asserted_by_steps or [])]


def _url_checks(step: RecordedStep, target: str | None) -> list[Statement]:
    outcome = step.outcome
    if outcome is None:
        return []
    if step.action == "navigate":
        if same_local_part(outcome.url_after, step.url):
            return []
        return [ExpectUrl(pattern=url_pattern(outcome.url_after), why=(
            f"Opening {local_part(step.url)} ended on {local_part(outcome.url_after)} when it was recorded "
            "(a redirect)."))]
    link = next((obs.linkAncestor for obs in step.observations if isinstance(obs, NavigationObservation)), None)
    if link is not None and link.target == "_blank":
        return [Note(why="The link opens a new tab (target=_blank) (navigation observation); this test stays on "
                         "the page it was on.")]
    if link is not None and link.href and outcome.url_after != outcome.url_before and _is_web_href(link.href):
        who = sentence_start(target or "the element")
        destination = urljoin(outcome.url_before, link.href)
        pattern = check_pattern(destination)
        if re.search(pattern, outcome.url_after):
            return [ExpectUrl(pattern=pattern, why=f"{who} goes to {link.href} (navigation observation).")]
        return [ExpectUrl(pattern=check_pattern(outcome.url_after), why=(
            f"{who} goes to {link.href} (navigation observation), but the page ended on "
            f"{local_part(outcome.url_after)} when it was recorded."))]
    if not same_local_part(outcome.url_after, outcome.url_before):
        return [ExpectUrl(pattern=check_pattern(outcome.url_after))]
    fragment = urlsplit(outcome.url_after).fragment
    if fragment != urlsplit(outcome.url_before).fragment and _HASH_ROUTE.match(f"#{fragment}"):
        return [ExpectUrl(pattern=check_pattern(outcome.url_after))]
    return []


def _status_checks(step: RecordedStep) -> list[Statement]:
    if step.outcome is None:
        return []
    statements: list[Statement] = []
    texts = [("status", t.strip()) for t in step.outcome.status_texts]
    texts += [("alert", t.strip()) for t in step.outcome.alert_texts]
    for role, text in dict.fromkeys(texts):
        if not text:
            continue
        if _IN_PROGRESS.search(text):
            statements.append(Note(why=f'Not checking the status "{text}": progress messages disappear, so '
                                       "asserting one would race."))
            continue
        if reason := volatility(text):
            statements.append(Note(why=f'Not checking the {role} "{text}": {reason}, so it would differ next run.'))
            continue
        # Filtered by text: a page can hold several live regions (a scrim, a form status line, earlier toasts).
        region = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role=role),
                                                     LocatorStep(kind="filter_text", value=text)])
        statements.append(ExpectState(subject=Subject(locator=region), state="visible"))
    return statements


def _is_web_href(href: str) -> bool:
    return not href.startswith(("#", "javascript:", "mailto:", "tel:"))
