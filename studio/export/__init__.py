"""Test export: turn a recorded session into a Playwright test project (pytest-playwright or @playwright/test)."""

from studio.export.errors import DestinationRefused, ExportError, GeneratedSyntaxError
from studio.export.project_writer import ExportResult, Language, export_session, render_test

__all__ = ["DestinationRefused", "ExportError", "ExportResult", "GeneratedSyntaxError", "Language",
           "export_session", "render_test"]
