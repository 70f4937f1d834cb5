"""Which suite a module's cases belong in: the one named for the module (matched by its words, as New Suite matches
the modules it marks covered), or a new one. New Cases files into it, so New Suite then sees the module covered."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from studio.models.testcase import TestCase, TestSuite
from studio.playground.main_job import MainJob, new_id

# Words a suite's name adds to its module's that say nothing about which module it is.
_FILLER = {"suite", "suites", "test", "tests", "case", "cases", "the", "for", "of", "and", "page", "module"}


def name_words(text: str) -> frozenset[str]:
    """The words naming a module or suite, lower-case, plurals folded, filler left out ("Disputes suite" → dispute)."""
    words = (w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _FILLER)
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def suite_for_module(module: str, suites: list[TestSuite]) -> TestSuite | None:
    """The suite for `module`: its module named the same, else its module or title in the same words."""
    wanted = module.strip().lower()
    exact = next((s for s in suites if s.module.strip().lower() == wanted), None)
    if exact is not None or not name_words(module):
        return exact
    words = name_words(module)
    return next((s for s in suites if words in (name_words(s.module), name_words(s.title))), None)


def module_of(main: MainJob, path: str) -> str:
    """The module a page belongs to: its name in the UI map, else its entry point's label, else its address."""
    context = main.job.context
    page = next((p for p in context.ui_map.key_pages if (p.url or "").split("#")[0] == path), None)
    if page is not None and page.name:
        return page.name
    point = next((p for p in context.candidate_entry_points if p.url and p.url.split("#")[0] == path), None)
    if point is not None and point.label:
        return point.label
    words = [w for w in re.split(r"[^A-Za-z0-9]+", path) if w]
    return " ".join(words).capitalize() or "Home"


def suite_phrase(suite: TestSuite) -> str:
    """"the Disputes suite" (a title that says suite already is not told twice)."""
    title = suite.title.strip()
    return f"the {title}" if title.lower().endswith("suite") else f"the {title} suite"


@dataclass
class Filing:
    """The suite one page's new cases go in, and whether this job made it."""

    suite: TestSuite
    new: bool
    path: str


def suites_for(main: MainJob, paths: list[str]) -> dict[str, Filing]:
    """Each page's suite: an existing one for its module, or a new one (not stored yet: only once it gets cases)."""
    project = main.run.project
    existing = project.cases.suites() if project is not None else []
    found: dict[str, Filing] = {}
    for path in paths:
        module = module_of(main, path)
        made = [f.suite for f in found.values()]
        suite = suite_for_module(module, existing + made)
        if suite is not None:
            new = any(f.new and f.suite.id == suite.id for f in found.values())
            found[path] = Filing(suite, new, path)
            continue
        now = time.time() * 1000
        reach = next((p.how_to_reach for p in main.job.context.ui_map.key_pages if p.url == path), path)
        found[path] = Filing(TestSuite(id=new_id("ts"), title=f"{module} suite", module=module,
                                       description=f"Cases for {module} ({reach}).", created_at=now,
                                       updated_at=now), True, path)
    return found


def loose_cases(main: MainJob, by_path: dict[str, TestSuite]) -> list[tuple[TestCase, TestSuite]]:
    """Stored cases in no suite yet whose page is a new suite's module: they belong in it (a suite next to its
    own module's loose cases would say the module is covered twice and list them nowhere)."""
    project = main.run.project
    if project is None:
        return []
    found = []
    for case in project.cases.cases():
        if case.suite_id is not None:
            continue
        path = urlsplit(case.grounding.page_url or "").path or None
        suite = by_path.get(path) if path else None
        if suite is not None:
            found.append((case, suite))
    return found


def file_loose_cases(main: MainJob, loose: list[tuple[TestCase, TestSuite]], done: int, total: int) -> None:
    """Move each loose case into its suite (a new version saying so), one item of the job each."""
    project = main.run.project
    for index, (case, suite) in enumerate(loose, start=done + 1):
        main.check()
        if project is not None:
            project.cases.save_case(case.model_copy(update={"suite_id": suite.id}), "agent",
                                    f"Filed into the new suite '{suite.title}'.")
        main.item(f"case {case.id}", index, total, "filed", f"Filed '{case.title}' into '{suite.title}'")


def filed_records(filings: list[Filing], cases: list[TestCase]) -> list[dict]:
    """Where the cases went, for the job's result: one record per suite that got cases."""
    records = []
    for filing in {f.suite.id: f for f in filings}.values():
        count = sum(1 for case in cases if case.suite_id == filing.suite.id)
        if count:
            records.append({"suite_id": filing.suite.id, "suite": filing.suite.title, "module": filing.suite.module,
                            "cases": count, "new": filing.new})
    return records


def new_cases_summary(paths: list[str], cases: list[TestCase], filings: list[Filing], duplicates: int) -> str:
    """The job's sentence, e.g. "10 cases filed into the Disputes suite (new); 2 duplicates skipped"."""
    by_id = {f.suite.id: f for f in filings}
    parts = []
    for record in filed_records(filings, cases):
        filing = by_id[record["suite_id"]]
        noun = "case" if record["cases"] == 1 else "cases"
        parts.append(f"{record['cases']} {noun} filed into {suite_phrase(filing.suite)}"
                     f"{' (new)' if filing.new else ''}")
    loose = sum(1 for case in cases if case.suite_id is None)
    if loose:
        parts.append(f"{loose} case{'' if loose == 1 else 's'} in no suite")
    if not cases:
        parts.append(f"Created no new case for {', '.join(paths)}")
    skipped = f"{duplicates} duplicate{'' if duplicates == 1 else 's'} skipped" if duplicates else "no duplicates"
    return f"{'; '.join(parts)}; {skipped}."
