"""Test export: turn a recorded session, or test cases, into a Playwright test project (pytest-playwright or
@playwright/test).

The writers (and the JavaScript parser that checks their output) load on first use: importing a small part of
this package, e.g. `studio.export.statements`, must not cost every studio start ~0.4 s.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.export.errors import DestinationRefused, ExportError, GeneratedSyntaxError
    from studio.export.from_cases import case_steps
    from studio.export.cases import export_cases
    from studio.export.project_writer import ExportResult, Language, export_session, export_tests, render_test

_WHERE = {
    "DestinationRefused": "studio.export.errors",
    "ExportError": "studio.export.errors",
    "GeneratedSyntaxError": "studio.export.errors",
    "ExportResult": "studio.export.project_writer",
    "Language": "studio.export.project_writer",
    "export_session": "studio.export.project_writer",
    "export_tests": "studio.export.project_writer",
    "case_steps": "studio.export.from_cases",
    "export_cases": "studio.export.cases",
    "render_test": "studio.export.project_writer",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'studio.export' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)
