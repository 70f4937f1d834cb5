"""Never a silent nothing: when a preflight finds no control, or a New Suite / New Cases writes no case, the job says
what it tried (pages visited, controls found and tried) and why nothing came out — what the browser showed, what
blocked it — each reason a sentence with the tester's next step (models/nothing.py).

Counting is generic: controls are what the page surveys listed; a control counts as tried when a behaviour's steps
acted on it, a wizard step was walked, or an explorer said so with `tried_control` (for a try that changed nothing,
which leaves no behaviour behind).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from studio.models.behaviour import Behaviour
from studio.models.catalog import PageCatalog
from studio.models.context import JobRecord
from studio.models.nothing import NothingProduced, NothingReason, Tried
from studio.models.testcase import CaseStep
from studio.preflight.form_trials import writable_forms
from studio.wording import agree, plural

NOT_ACTING = {"navigate", "reload", "back", "expect_visible", "expect_hidden", "expect_text", "expect_url"}
LOGIN = "Answer the login question (in the window, or credentials.email and credentials.password in --answers FILE) " \
        "and run again."
TRY_FORMS = "Allow Try Forms (the Playground bar, or --try-forms) on a test or staging app, and run again."
BUDGET = "Give the job a larger budget (Settings › Model › Job budget, or --max-steps and --max-seconds) and run again."
AREA = "Name the area as the app's navigation names it (the request in the Playground bar, or --area), or start " \
       "the job at the address of the page where the work is."


def tried_control(state: dict, description: str) -> None:
    """Record in a job's state that an explorer tried a control (say it even when nothing changed: that counts)."""
    tried = state.setdefault("tried_controls", [])
    if description not in tried:
        tried.append(description)


def controls_of(catalog: PageCatalog) -> int:
    """How many controls the survey listed on one page: links, buttons, fields, filters, uploads, views, forms' fields."""
    fields = sum(len(form.fields) + (form.submit is not None) for form in catalog.forms)
    return (len(catalog.nav) + len(catalog.actions) + len(catalog.inputs) + len(catalog.search_inputs)
            + len(catalog.filters) + len(catalog.file_inputs) + len(catalog.views) + fields)


def controls_found(catalogs: list[PageCatalog]) -> int:
    return sum(controls_of(catalog) for catalog in catalogs if not catalog.is_error_page)


def controls_tried(job: JobRecord, catalogs: list[PageCatalog]) -> int:
    """Distinct controls acted on: by the behaviours' steps, a wizard's Next on each step walked, an explorer's say."""
    acted: set[str] = set()
    for behaviours in job.state.get("behaviours", {}).values():
        for raw in behaviours:
            behaviour = Behaviour.model_validate(raw)
            acted.update(_key(step) for step in [*behaviour.setup, *behaviour.steps] if step.action not in NOT_ACTING)
    walked = sum(1 for catalog in catalogs if "#step-" in catalog.path)
    return len(acted) + walked + len(job.state.get("tried_controls", []))


def _key(step: CaseStep) -> str:
    return f"{step.action}:{step.locator.model_dump_json() if step.locator else step.target}"


def pages_visited(job: JobRecord) -> list[str]:
    """The visited pages by path (the query and fragment kept), in the order they were opened."""
    paths = []
    for url in job.context.evidence.visited_urls:
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}"
                                                                                  if parts.fragment else "")
        if path not in paths:
            paths.append(path)
    return paths


def tried(job: JobRecord, catalogs: list[PageCatalog]) -> Tried:
    return Tried(pages_visited=pages_visited(job), controls_found=controls_found(catalogs),
                 controls_tried=controls_tried(job, catalogs))


def preflight_nothing(job: JobRecord, catalogs: list[PageCatalog]) -> NothingProduced | None:
    """A completed preflight that found no control on any page it opened; None when it found some."""
    done = tried(job, catalogs)
    if done.controls_found:
        return None
    return NothingProduced(what="found no control", tried=done, reasons=reasons(job, catalogs, done))


def cases_nothing(job: JobRecord, catalogs: list[PageCatalog], said: list[str],
                  duplicates: list[str]) -> NothingProduced:
    """A New Suite or New Cases that wrote no case: what it tried and why. `said`: the agent's own sentences (its
    summary and notes); `duplicates`: the drafts it skipped as already in the project."""
    done = tried(job, catalogs)
    found: list[NothingReason] = []
    if duplicates:
        found.append(NothingReason(kind="seen", sentence=(
            f"Every case it drafted is already in the project ({len(duplicates)}; e.g. {duplicates[0]})"),
            next_step="Open them in Test Cases; for new cases, ask for another area of the app."))
    for sentence in said:
        # The agent's own count ("Created 0 suites …", "Created no new case for / …") says nothing new here.
        if not sentence.strip() or sentence.startswith("Created ") and not sentence.startswith("Created no cases: "):
            continue
        next_step = AREA if "no area was validated" in sentence or "could not confirm" in sentence else (
            "Look at the page in the live view, then start the job again with the request narrowed to what you "
            "saw there.")
        found.append(NothingReason(kind="seen", sentence=_sentence(sentence.removeprefix("Created no cases: ")),
                                   next_step=next_step))
    return NothingProduced(what="wrote no test case", tried=done, reasons=_unique([*reasons(job, catalogs, done),
                                                                                  *found]))


def reasons(job: JobRecord, catalogs: list[PageCatalog], done: Tried) -> list[NothingReason]:
    """What blocked the job, then what the browser showed, each with a next step."""
    pages = [catalog for catalog in catalogs if "#step-" not in catalog.path]
    said: list[NothingReason] = [*_blocked(job, pages)]
    if pages and all(catalog.is_error_page for catalog in pages):
        said.append(NothingReason(kind="seen", sentence=(
            f"Every page it opened answered as an error page ({', '.join(_page_words(c) for c in pages[:3])})."),
            next_step="Check the address: start the job where the app itself runs."))
    elif not done.controls_found:
        plain = ", ".join(c.path for c in pages if not c.is_error_page)
        errors = [_page_words(c) for c in pages if c.is_error_page]
        probed = f"; {', '.join(errors)} answered as error pages (addresses it probed)" if errors else ""
        said.append(NothingReason(kind="seen", sentence=(
            f"No page it opened had a button, link, field or form to act on: {plain} shows text only{probed}."),
            next_step=("If the app does have controls, they may be drawn on a canvas, sit in a frame from another "
                       "site, or be made of elements with no role or click handler; open the page in the live view "
                       "and record the steps by hand, or start the job at the address where the work is.")))
    game = job.state.get("app_kind", {})
    if game.get("kind") == "game":
        evidence = "; ".join(game.get("evidence", [])[:2])
        said.append(NothingReason(kind="seen", sentence=f"It looks like a browser game ({evidence}), so its flows "
                                  "were not tried.", next_step="Evaluate it with Game evaluation (the Games "
                                  "workspace, or `studio game URL`)."))
    elif done.controls_found and not done.controls_tried:
        where = ", ".join(_page_words(c) for c in pages if not c.is_error_page and c.has_content) or "the pages"
        said.append(NothingReason(kind="seen", sentence=(
            f"It found {plural(done.controls_found, 'control')} on {where} but tried none of them, so it saw nothing they "
            "do."), next_step=AREA))
    elif done.controls_tried and not job.state.get("behaviours", {}) and not any("#step-" in c.path for c in catalogs):
        said.append(NothingReason(kind="seen", sentence=(
            f"It tried {plural(done.controls_tried, 'control')} and saw nothing change: no item, counter, message or "
            "address."), next_step=("Try them in the live view: a control that changes nothing may be a defect; if "
                                    "the page needs data first (an account, items), give the job that and run again.")))
    return _unique(said)


def _blocked(job: JobRecord, pages: list[PageCatalog]) -> list[NothingReason]:
    found = []
    for blocker in job.context.auth_state.blockers:
        login = any(word in blocker.lower() for word in ("login", "sign in", "signed in", "password"))
        found.append(NothingReason(kind="blocked", sentence=_sentence(blocker), next_step=LOGIN if login else
                                   "Answer the job's questions (Context, or --answers FILE) and run again."))
    forms = [(catalog, form) for catalog in pages for form in writable_forms(catalog)]
    if forms and not job.state.get("try_forms"):
        names = ", ".join(f"'{form.name}' on {catalog.path}" if form.name else f"one on {catalog.path}"
                          for catalog, form in forms[:3])
        found.append(NothingReason(kind="blocked", sentence=(
            f"{plural(len(forms), 'form')} {agree(len(forms), 'was', 'were')} not sent ({names}): sending a form reaches the app's server, which the "
            "preflight does only when allowed."), next_step=TRY_FORMS))
    for note in job.context.evidence.notes:
        if "the preflight stopped those requests" in note and not job.state.get("try_forms"):
            found.append(NothingReason(kind="blocked", sentence=_sentence(note), next_step=TRY_FORMS))
        elif "stay within the preflight's budget" in note:
            found.append(NothingReason(kind="blocked", sentence=_sentence(note), next_step=BUDGET))
        elif note.startswith(("Could not open", "Did not open")):
            found.append(NothingReason(kind="blocked", sentence=_sentence(note), next_step=(
                "Check that the app runs at that address (and that it is an address the job may open), then run "
                "again.")))
    return found


def _page_words(catalog: PageCatalog) -> str:
    status = f" {catalog.status}" if catalog.status and catalog.status >= 400 else ""
    return f"{catalog.path}{status}"


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _unique(reasons: list[NothingReason]) -> list[NothingReason]:
    seen: set[str] = set()
    kept = []
    for reason in reasons:
        if reason.sentence not in seen:
            seen.add(reason.sentence)
            kept.append(reason)
    return kept
