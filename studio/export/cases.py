"""Test cases as Playwright tests: one test file per case in one project; each case's expected results — a step's
own and the case's — become assertions, or comments that say which could not be asserted and why. A case written
for a suspected defect checks the expected behaviour and is marked expected to fail (strictly); a dismissed
defect's case is no longer in the project, so it is never exported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.export.from_cases import case_base_url, case_steps
from studio.export.errors import ExportError
from studio.export.project_writer import ExportResult, Language, export_tests
from studio.models.testcase import TestCase

__all__ = ["case_base_url", "case_steps", "export_cases"]


def export_cases(cases: list[TestCase], base_url_of: Callable[[TestCase], str], lang: Language,
                 out: Path) -> ExportResult:
    """One test file per case, in one project; raises ExportError (nothing written) when a case cannot be."""
    empty = [case.id for case in cases if not case.steps]
    if empty:
        raise ExportError(f"Case {', '.join(empty)} has no steps yet, so no test can be written from it. Add its "
                          "steps in the case form (or leave it out), then export again.")
    return export_tests([(case_steps(case, base_url_of(case)), case.title) for case in cases], lang, out,
                        defects=[case.suspected_defect for case in cases])
