"""Objective 1: resolve the base URL, even when the given one is missing or wrong.

A wrong deep link (404, unreachable path) falls back through its parent paths to the app's root; the base
is the origin the app answers on (plus a path prefix when the app lives under one). When nothing answers,
or several candidates are plausible, the human chooses.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from studio.browser.urls import normalize_url
from studio.models.context import PendingQuestion
from studio.preflight.run import Blocked, NeedAnswers, PreflightRun, origin_of

KEY = "base_url"
DOCUMENT_SUFFIXES = (".html", ".htm", ".xhtml", ".php", ".asp", ".aspx", ".jsp")


def parent_paths(url: str) -> list[str]:
    """'http://h/a/b/c' -> ['http://h/a/b/c', 'http://h/a/b/', 'http://h/a/', 'http://h/']"""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    found = [urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))]
    for cut in range(len(segments) - 1, -1, -1):
        path = "/" + "/".join(segments[:cut]) + ("/" if cut else "")
        candidate = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
        if candidate not in found:
            found.append(candidate)
    return found


async def _cached_base_answers(run: PreflightRun, given: str) -> bool:
    """Reuse the base URL an earlier job resolved on this origin, while it still answers (session caching)."""
    origin = origin_of(given)
    project = run.project
    cached = project.jobs.cached_site(origin) if project else None
    if project is None or not cached or run.answer(KEY):
        return False
    base = cached[0]
    run.objective = "resolve_base_url"
    run.progress(f"Trying the base URL cached for {origin}: {base}")
    status, survey = await run.visit(base, reached_by="the base URL cached by an earlier job", must_stay=True)
    if status is not None and status < 400 and survey is not None:
        run.context.resolved_base_url = base
        run.context.confidence.base_url = 0.95
        run.note(f"Reused the base URL cached for {origin} ({base} answered {status}).")
        return True
    project.jobs.forget_site(origin)
    run.note(f"The cached base URL {base} answered {status if status is not None else 'nothing'}: the cache for "
             f"{origin} is forgotten and the app is mapped again.")
    return False


def _app_root(final_url: str, directly: bool = False) -> str:
    # Login walls and dashboards live at the app's root; keep a path prefix only when the app sits under one
    # (e.g. /app/login -> /app/). A folder address the tester gave that answered without a redirect is the app's
    # own (an app served from /examples/todo/): its parent may be another app, or a directory listing.
    # A document the tester named (…/examples/basic_usage.html) is the app's page itself: its folder may hold
    # other apps' pages, or be a directory listing.
    parts = urlsplit(final_url)
    document = _is_document(parts.path)
    if directly and (parts.path.endswith("/") or document):
        return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query if document else "", ""))
    segments = [s for s in parts.path.split("/") if s]
    prefix = "/" + "/".join(segments[:-1]) + "/" if len(segments) > 1 else "/"
    return urlunsplit((parts.scheme, parts.netloc, prefix, "", ""))


def _is_document(path: str) -> bool:
    """A named page other than a folder's index (…/index.html is its folder's page)."""
    name = path.rsplit("/", 1)[-1].lower()
    return name.endswith(DOCUMENT_SUFFIXES) and not name.startswith(("index.", "default."))


async def _answering_root(run: PreflightRun, final_url: str, directly: bool = False) -> str:
    """The app's root for `final_url`: its path prefix (/app/ for /app/login) when that answers, else the origin's
    root when that does; a prefix that answers 404 is a folder of the app's pages (/items/ of /items/new), not an
    app under a prefix. Checked with a request that shares the browser's cookies; the page stays where it is."""
    root = _app_root(final_url, directly)
    origin_root = origin_of(final_url) + "/"
    for candidate in dict.fromkeys([root, origin_root]):
        status = await run.driver.status_of(candidate, timeout_ms=10_000, max_redirects=5)
        if status is None:
            continue
        if status < 400 or status in (401, 403):
            return candidate
    return root


async def resolve_base_url(run: PreflightRun) -> None:
    context = run.context
    given = run.answer(KEY) or run.job.start_url
    if run.skipped(KEY) and not await _answers(run, given):
        # Skipped: nothing else to try. Say so instead of asking the same question again.
        raise Blocked(f"No page answered at {given or 'the URL given'} and the base URL question was skipped, so "
                      "nothing could be checked. Start the job again with the address where the app runs.")
    if not given:
        cached = run.project.jobs.all() if run.project else []
        options = sorted({job.context.resolved_base_url for job in cached if job.context.resolved_base_url})
        raise NeedAnswers([PendingQuestion.make(
            KEY, "Base URL", "Where does the app run? (its base URL)",
            "No URL was given and none is known for this project.", options=options or None,
            kind="choice" if options else "text")])
    try:
        given = normalize_url(given, allow_files=run.session.options.allow_file_urls)
    except ValueError as error:
        raise NeedAnswers([PendingQuestion.make(KEY, "Base URL", f"{error} What is the app's base URL?",
                                                "The URL given cannot be opened.", kind="text")]) from error

    if await _cached_base_answers(run, given):
        return
    tried: list[str] = []
    for attempt, candidate in enumerate(parent_paths(given)):
        run.objective = "resolve_base_url"
        run.progress(f"Trying {candidate}")
        status, survey = await run.visit(candidate, reached_by="the URL given" if attempt == 0 else "a parent path",
                                         must_stay=True)
        tried.append(f"{candidate} -> {status if status is not None else 'no answer'}")
        if status is None:
            break  # the host itself does not answer: parent paths will not either
        if status < 400 and survey is not None:
            # Where the browser ended up (after redirects, e.g. to /login) says where the app's root is.
            directly = attempt == 0 and urlsplit(run.driver.url).path == urlsplit(candidate).path
            context.resolved_base_url = await _answering_root(run, run.driver.url, directly)
            context.confidence.base_url = 0.95 if attempt == 0 else 0.8
            if attempt:
                run.note(f"{given} answered {_first_status(tried)}; the app answers at {context.resolved_base_url}.")
            else:
                run.note(f"{given} answered {status}.")
            return
    run.note("Base URL not resolved: " + "; ".join(tried))
    context.confidence.base_url = 0.0
    suggested = [origin_of(given) + "/"] if status is not None else None
    raise NeedAnswers([PendingQuestion.make(
        KEY, "Base URL", f"Nothing usable answered at {given} (tried: {'; '.join(tried)}). Where does the app run?",
        "Without a working base URL no page can be checked.", options=suggested,
        kind="choice" if suggested else "text")])


async def _answers(run: PreflightRun, url: str | None) -> bool:
    """Whether `url` opens at all (a skipped base URL question leaves only the given one to try)."""
    if not url:
        return False
    try:
        status, _survey = await run.visit(normalize_url(url, allow_files=run.session.options.allow_file_urls),
                                          reached_by="the URL given", must_stay=True)
    except ValueError:
        return False
    return status is not None and status < 400


def _first_status(tried: list[str]) -> str:
    return tried[0].split(" -> ")[-1] if tried else "nothing"
