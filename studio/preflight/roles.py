"""Which pages the current role cannot reach, and what the role is — read off the app, not assumed.

Candidates for privileged pages, best first: links the page has but hides or disables for this user, stored test
cases about permissions, links whose words look administrative, then a short conventional list. A bounded number
is probed; a page is permission-gated when it answers 401/403, sends a signed-in user back to the login, or says
"access denied". The role comes from the page (a badge, "Role: …") before it is guessed from the probes.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.models.context import PendingQuestion
from studio.preflight.changes import entry_path
from studio.preflight.entry_points import words
from studio.preflight.run import NeedAnswers, PreflightRun, origin_of
from studio.preflight.survey import Survey

ROLE = "role"
KEEP_ROLE = "Keep this role (test that access is denied)"
ADMIN_ROLES = {"admin", "administrator", "owner", "superuser"}
CONVENTIONAL = ("/admin", "/manage", "/settings/users")
MAX_PROBES = 3
ADMIN_NAMES = re.compile(r"\b(admin\w*|user management|manage (?:users|members|team|roles|accounts)|users|members|"
                         r"roles|permissions|billing|audit\w*|staff)\b", re.IGNORECASE)
ADMIN_SEGMENTS = {"admin", "administration", "manage", "management", "users", "roles", "permissions", "billing",
                  "audit", "audit-log", "staff"}
DENIED_WORDS = re.compile(r"access denied|forbidden|not authori[sz]ed|permission denied|not allowed|"
                          r"(?:no|don't have|do not have|without) (?:the )?(?:permission|access)", re.IGNORECASE)


def _path(run: PreflightRun, href: str | None) -> str | None:
    """The path of an in-app link (None for other origins and non-page links)."""
    if not href or href.startswith(("#", "mailto:", "tel:", "javascript:")):
        return None
    url = run.url(href)
    if origin_of(url) != origin_of(run.context.resolved_base_url):
        return None
    return urlsplit(url).path or "/"


def looks_administrative(name: str, path: str) -> bool:
    """Link text or path words that usually mean an admin area (admin, manage users, roles, billing, audit…)."""
    return bool(ADMIN_NAMES.search(name) or {s.lower() for s in path.split("/") if s} & ADMIN_SEGMENTS)


def candidates(run: PreflightRun, survey: Survey) -> list[tuple[str, str, str]]:
    """(path, label, why) of pages that may be closed to this role, best evidence first."""
    found: dict[str, tuple[str, str, str]] = {}
    for link in survey.hidden_links:
        path = _path(run, link.get("href"))
        if path and path != "/":
            found.setdefault(path, (path, link.get("name") or path, "a link the page hides or disables for this user"))
    if run.project is not None:
        for case in run.project.cases.cases():
            path = entry_path(case)
            if path and path.startswith("/") and (case.gap_type == "permissions" or case.grounding.required_role):
                found.setdefault(path, (path, case.title, f"stored case {case.id} is about permissions"))
    for catalog in [survey.catalog, *run.catalogs.values()]:
        for element in [*catalog.nav, *catalog.actions]:
            path = _path(run, element.href)
            if path and path != "/" and looks_administrative(element.name, path):
                found.setdefault(path, (path, element.name, "an administrative-looking link"))
    return list(found.values())


def _denied(survey: Survey | None, status: int | None, login_path: str | None) -> bool:
    if status in (401, 403):
        return True
    if survey is None:
        return False
    if survey.is_login_page or (login_path and survey.catalog.path.split("?")[0] == login_path):
        return True  # signed in, yet sent to the login: the page needs more than this account
    said = " ".join([survey.catalog.heading, survey.catalog.title, *survey.catalog.live_regions])
    return bool(DENIED_WORDS.search(said)) and not survey.catalog.forms


def _in_nav(survey: Survey, path: str, run: PreflightRun) -> bool:
    return any(_path(run, element.href) == path for element in survey.catalog.nav)


async def probe_privileged_pages(run: PreflightRun, survey: Survey) -> None:
    """Probe a few candidate pages; gated ones are permissions facts for the gaps objective.

    A gated page blocks the job only when the request is about it; then the human is asked which role to use
    (seed: "required role unknown").
    """
    environment = run.context.environment
    run.job.state["privileged_probed"] = True
    if environment.role in ADMIN_ROLES:
        return
    gated = run.job.state.setdefault("gated_pages", [])
    known = {page["path"] for page in gated}
    login_path = run.job.state.get("login_path")
    pool = candidates(run, survey)
    pool += [(path, path, "a conventional address") for path in CONVENTIONAL if path not in {p for p, _, _ in pool}]
    opened_any, probes = False, 0
    for path, label, why in pool:
        if probes >= MAX_PROBES or (why == "a conventional address" and gated):
            break  # bounded; the conventional list only while nothing better was found
        if path in known:
            continue
        probes += 1
        status, probed = await run.visit(run.url(path), reached_by=f"a direct visit to {path} ({why})")
        if status == 404 or (status is None and probed is None):
            continue
        if not _denied(probed, status, login_path):
            opened_any = opened_any or (status or 0) < 400
            continue
        heading = (probed.catalog.heading if probed else "") or "access denied"
        in_nav = _in_nav(survey, path, run)
        gated.append({"path": path, "status": status, "heading": heading, "label": label, "in_nav": in_nav,
                      "why": why})
        where = "is in its navigation" if in_nav else "is not in its navigation"
        run.note(f"{path} answers {status} ({heading}) for this account and {where}; found as {why}.")
        _ask_for_role(run, path, label, status, heading)
    if environment.role is None:
        # Nothing on the page says the role: a guess from the probes, said as a guess.
        if gated:
            environment.role = "viewer"
            run.note("The role is not shown on the page; it is taken as a viewer (privileged pages are closed).")
        elif opened_any:
            environment.role = "admin"
            run.note("The role is not shown on the page; it is taken as an admin (privileged pages open).")


def _ask_for_role(run: PreflightRun, path: str, label: str, status: int | None, heading: str) -> None:
    about = words(run.job.request) & (words(path.replace("/", " ").replace("-", " ")) | words(label))
    if not about or run.answer(ROLE) or run.skipped(ROLE):
        return
    run.context.auth_state.blockers.append(f"The request is about {path}, which answers {status} for this account.")
    raise NeedAnswers([PendingQuestion.make(
        ROLE, "Role", f"{path} is closed to this account ({status} {heading}). Which role should the tests use? "
        "Give an account with that role as the login.", "The requested area needs another role.",
        options=["admin", KEEP_ROLE])])
