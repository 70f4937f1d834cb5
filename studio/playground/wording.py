"""With a model configured: better names, grouping and wording. The browser's facts stay the ground truth —
the model may only reword titles, expectations and suite names; steps and locators are never taken from it.

Without a model, or when it fails (unavailable, unusable answers), the heuristic wording stays and the job
says so in its notes; a spent budget ends the job as usual.
"""

from __future__ import annotations

import json
import logging

from pydantic import BaseModel, Field

from studio.llm.errors import ModelOutputInvalid, ModelUnavailable
from studio.llm.safety import Untrusted
from studio.models.testcase import TestCase, TestSuite
from studio.playground.main_job import MainJob
from studio.wording import plural

log = logging.getLogger(__name__)

CASE_INSTRUCTIONS = (
    "You are a senior QA engineer reviewing draft test cases written by a tool from what a browser saw. Reword "
    "each case's title so a tester understands it at a glance (imperative, under 90 characters) and make each "
    "expected result concrete and checkable. Do not add, remove or reorder steps, do not change what is tested, "
    "and keep every page label exactly as quoted. Answer for every case, by its index.")
GROUP_INSTRUCTIONS = (
    "You are a senior QA engineer sorting new test cases into test suites. Each case has an index, a title and the "
    "suite it was drafted for; each suite has a name. Answer with the suite each case belongs in, by its exact "
    "name. Only move a case when it clearly belongs elsewhere; never invent a suite.")
SUITE_INSTRUCTIONS = (
    "You are a senior QA engineer naming test suites for modules of a web application. For each module give a "
    "short suite title (under 50 characters) and a one-sentence description of what the suite covers.")


class CaseWording(BaseModel):
    """The model's wording of one case (by index in the request)."""

    index: int
    title: str = Field(max_length=120)
    expected_results: list[str] = Field(max_length=8)


class CaseWordingBatch(BaseModel):
    cases: list[CaseWording]


class CaseGroup(BaseModel):
    """The suite (by name) the model puts one case in."""

    index: int
    suite: str = Field(max_length=120)


class CaseGroupingBatch(BaseModel):
    groups: list[CaseGroup]


class SuiteWording(BaseModel):
    """The model's name and description for one module's suite."""

    module: str
    title: str = Field(max_length=80)
    description: str = Field(max_length=300)


class SuiteWordingBatch(BaseModel):
    suites: list[SuiteWording]


def _fallback(main: MainJob, what: str, error: Exception) -> None:
    sentence = getattr(error, "sentence", str(error))
    main.notes.append(f"The model did not help with {what}; the offline wording was kept. {sentence}")
    log.info("%s: %s", what, sentence)


async def reword_cases(main: MainJob, cases: list[TestCase]) -> list[TestCase]:
    if main.model is None or not cases:
        return cases
    drafts = [{"index": i, "title": c.title, "gap_type": c.gap_type, "preconditions": c.preconditions,
               "steps": [f"{s.action} {s.target} {s.data or ''}".strip() for s in c.steps],
               "expected_results": c.expected_results} for i, c in enumerate(cases)]
    try:
        answer = await main.model.structured(
            "word test cases", CASE_INSTRUCTIONS,
            ["Draft test cases (their labels come from the application's pages):",
             Untrusted(json.dumps(drafts, ensure_ascii=False), source="the draft cases")],
            CaseWordingBatch, main.budget, job_id=main.job.id)
    except (ModelUnavailable, ModelOutputInvalid) as error:
        _fallback(main, "the case wording", error)
        return cases
    reworded = list(cases)
    for item in answer.cases:
        if 0 <= item.index < len(cases) and item.title.strip():
            reworded[item.index] = cases[item.index].model_copy(update={
                "title": item.title.strip(), "expected_results": [e for e in item.expected_results if e.strip()]
                or cases[item.index].expected_results})
    main.notes.append(f"The model reworded {len(answer.cases)} of {plural(len(cases), 'case')}; steps are the browser's.")
    return reworded


async def name_suites(main: MainJob, suites: list[TestSuite], page_texts: dict[str, str]) -> list[TestSuite]:
    if main.model is None or not suites:
        return suites
    try:
        answer = await main.model.structured(
            "name test suites", SUITE_INSTRUCTIONS,
            ["Modules (each with what its page shows):",
             *[Untrusted(f"{s.module}: {page_texts.get(s.module, '')}", source=s.module) for s in suites]],
            SuiteWordingBatch, main.budget, job_id=main.job.id)
    except (ModelUnavailable, ModelOutputInvalid) as error:
        _fallback(main, "the suite names", error)
        return suites
    by_module = {item.module.lower(): item for item in answer.suites}
    return [s.model_copy(update={"title": by_module[s.module.lower()].title,
                                 "description": by_module[s.module.lower()].description})
            if s.module.lower() in by_module else s for s in suites]


async def group_cases(main: MainJob, cases: list[TestCase], suites: list[TestSuite]) -> list[TestCase]:
    """Let the model propose which suite each new case belongs in (names only: steps and grounding stay)."""
    if main.model is None or len(suites) < 2 or not cases:
        return cases
    names = {s.id: s.title for s in suites}
    by_name = {s.title.lower(): s for s in suites} | {s.module.lower(): s for s in suites}
    drafts = [{"index": i, "title": c.title, "page": c.grounding.page_url, "suite": names.get(c.suite_id or "", "")}
              for i, c in enumerate(cases)]
    try:
        answer = await main.model.structured(
            "group test cases", GROUP_INSTRUCTIONS,
            [f"Suites: {json.dumps(list(names.values()), ensure_ascii=False)}",
             "New cases (titles come from the application's pages):",
             Untrusted(json.dumps(drafts, ensure_ascii=False), source="the new cases")],
            CaseGroupingBatch, main.budget, job_id=main.job.id)
    except (ModelUnavailable, ModelOutputInvalid) as error:
        _fallback(main, "the grouping of cases into suites", error)
        return cases
    grouped, moved = list(cases), 0
    for item in answer.groups:
        suite = by_name.get(item.suite.strip().lower())
        if 0 <= item.index < len(cases) and suite is not None and suite.id != cases[item.index].suite_id:
            grouped[item.index] = cases[item.index].model_copy(update={"suite_id": suite.id})
            moved += 1
    main.notes.append(f"The model grouped the new cases into the suites ({moved} moved); steps are the browser's.")
    return grouped
