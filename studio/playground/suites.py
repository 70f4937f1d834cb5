"""NEW_TESTSUITE: propose 2–5 suites from the real module map, highlight modules no suite covers yet, ask
which to create, create them, then populate each through NEW_TEST_CASE."""

from __future__ import annotations

import time
from typing import Any

from studio.models.catalog import PageCatalog
from studio.models.context import SKIPPED, PendingQuestion
from studio.models.testcase import TestSuite
from studio.playground.filing import file_loose_cases, loose_cases, suite_for_module
from studio.playground.grounding import base_path, step_number
from studio.playground.main_job import MainJob, new_id
from studio.playground.new_cases import draft_cases, store_cases
from studio.playground.wording import name_suites
from studio.preflight.discovery import behaviours_of
from studio.preflight.flows import walk_wizard
from studio.preflight.run import NeedAnswers
from studio.wording import plural

CHOICE = "suites"
ALL = "All of the proposed suites"
MAX_CANDIDATES, MIN_CANDIDATES = 5, 2
AUTO_APPROVED = 1


def richness(catalog: PageCatalog) -> float:
    """How much there is to test on a page: forms and wizards most, then search, filters, uploads, actions."""
    return (3 * len(catalog.forms) + 2 * sum(1 for f in catalog.forms if f.step_text) + len(catalog.search_inputs)
            + len(catalog.filters) / 2 + 2 * len(catalog.file_inputs) + len(catalog.actions) / 10
            + 2 * len(catalog.inputs) + len(catalog.views) / 2)


def candidates(main: MainJob) -> list[dict]:
    """Modules of the UI map as suite candidates, uncovered ones first, richest first."""
    suites = main.run.project.cases.suites() if main.run.project else []
    pages = {base_path(c): c for c in main.catalogs if step_number(c) == 1}
    found: list[dict[str, Any]] = []
    for key_page in main.job.context.ui_map.key_pages:
        catalog = pages.get(key_page.url or "")
        if catalog is None:
            continue
        tried = len(behaviours_of(main.job.state, key_page.url or ""))  # what the preflight saw it do
        found.append({"module": key_page.name, "path": key_page.url, "how_to_reach": key_page.how_to_reach,
                      "richness": round(richness(catalog) + tried, 2),
                      "covered": suite_for_module(key_page.name, suites) is not None})
    found.sort(key=lambda c: (c["covered"], -c["richness"]))
    return [c for c in found if c["richness"] > 0][:MAX_CANDIDATES]


def ask(main: MainJob, proposed: list[dict]) -> NeedAnswers:
    uncovered = [c["module"] for c in proposed if not c["covered"]]
    note = f" Not covered by any suite yet: {', '.join(uncovered)}." if uncovered else ""
    return NeedAnswers([PendingQuestion.make(
        CHOICE, "Which suites?", f"I can create suites for these modules of the app: "
        f"{', '.join(c['module'] for c in proposed)}.{note} Which should I create? Pick one or all of them, or "
        "type several names under Other, separated by commas.",
        "Each suite gets cases for its own module only, so its scope decides which cases are written.",
        options=[c["module"] for c in proposed] + [ALL], kind="choice")])


def chosen(answer: str, proposed: list[dict]) -> list[dict]:
    if answer.strip() == ALL or answer.strip().lower() in ("all", "all of them"):
        return proposed
    wanted = {part.strip().lower() for part in answer.split(",") if part.strip()}
    exact = [c for c in proposed if c["module"].lower() in wanted]
    # A module named in other words ("the errands list" for "errands"): a name within the answer, or the answer
    # within a name.
    return exact or [c for c in proposed if any(c["module"].lower() in part or part in c["module"].lower()
                                                for part in wanted if len(part) > 2)]


async def new_testsuite(main: MainJob) -> list[TestSuite]:
    state = main.job.state.setdefault("main", {})
    proposed = state.get("proposed") or candidates(main)
    state["proposed"] = proposed
    if not proposed:
        # Nothing to choose from: asking "which of these: ." helps nobody (and no answer could satisfy it).
        main.notes.append("No module with something to test was found (no forms, lists, fields or actions on the "
                          "mapped pages), so no suite was proposed.")
        main.started(0)
        return []
    if len(proposed) < MIN_CANDIDATES:
        main.skipped.append(f"Only {plural(len(proposed), 'module')} with something to test were found; proposing "
                            "anyway.")
    answer = main.job.context.answer(CHOICE)
    if not answer:
        raise ask(main, proposed)
    if answer == SKIPPED:
        # Seed 000, two-pass generation: "auto-approve if user is silent" — the top candidate, said in the notes.
        picked = proposed[:AUTO_APPROVED]
        main.notes.append(f"The suite question was skipped: auto-approved the top candidate "
                          f"({', '.join(c['module'] for c in picked) or 'none'}).")
    else:
        picked = chosen(answer, proposed)
    if not picked:
        main.job.context.answers = [a for a in main.job.context.answers if a.key != CHOICE]
        raise ask(main, proposed)
    now = time.time() * 1000
    stored = main.run.project.cases.suites() if main.run.project else []
    # A module that has its suite already (New Cases made it, or the tester) gets its new cases there.
    existing = {c["path"]: suite for c in picked if (suite := suite_for_module(c["module"], stored)) is not None}
    fresh = [c for c in picked if c["path"] not in existing]
    suites = [TestSuite(id=new_id("ts"), title=f"{c['module']} suite", module=c["module"],
                        description=f"Cases for {c['module']} ({c['how_to_reach']}).", created_at=now,
                        updated_at=now) for c in fresh]
    texts = {c["module"]: _summary(main, c["path"]) for c in fresh}
    suites = await name_suites(main, suites, texts)
    for candidate in picked:
        await _deepen(main, candidate["path"])
    # One pass over every module, so a configured model can propose the grouping across the suites.
    by_path = {c["path"]: suite for suite, c in zip(suites, fresh)}
    cases = await draft_cases(main, [c["path"] for c in picked], include_gated=False, suites=by_path | existing)
    adopted = loose_cases(main, by_path)
    # A suite with no case would say its module is covered (and New Suite would not propose it again): it is only
    # made once something goes in it.
    used = {case.suite_id for case in cases} | {suite.id for _, suite in adopted}
    for suite in [s for s in suites if s.id not in used]:
        main.notes.append(f"No case could be written for {suite.module}, so its suite was not created.")
    suites = [suite for suite in suites if suite.id in used]
    total = len(suites) + len(cases) + len(adopted)
    main.started(total)
    project = main.run.project
    for index, suite in enumerate(suites, start=1):
        main.check()
        if project is not None:
            project.cases.save_suite(suite)
        main.item(f"suite {suite.id}", index, total, "created", f"Created the suite '{suite.title}'")
    file_loose_cases(main, adopted, len(suites), total)
    await store_cases(main, cases, done=len(suites) + len(adopted), total=total)
    return suites


async def _deepen(main: MainJob, path: str) -> None:
    """Re-survey the module's page with verified locators (and walk its wizard) before writing its cases."""
    run = main.run
    known = run.catalogs.get(path)
    if known is not None and any("#step-" in p for p in run.catalogs if p.startswith(path + "#")):
        return
    main.check()
    status, survey = await run.visit(run.url(path), reached_by=known.reached_by if known else path, deep=True,
                                     screenshot=True)
    if survey is not None and (status or 0) < 400 and any(f.step_text for f in survey.catalog.forms):
        await walk_wizard(run, survey)


def _summary(main: MainJob, path: str) -> str:
    catalog = main.run.catalogs.get(path)
    if catalog is None:
        return ""
    forms = "; ".join(f"form {f.name} ({len(f.fields)} fields)" for f in catalog.forms)
    return f"{catalog.heading}. {forms}. Controls: {', '.join(a.name for a in catalog.actions[:8])}"
