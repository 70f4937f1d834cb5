"""Test export: turn a recorded session into a Playwright test project (pytest-playwright or @playwright/test)."""

from studio.export.errors import DestinationRefused, ExportError, GeneratedSyntaxError

__all__ = ["DestinationRefused", "ExportError", "GeneratedSyntaxError"]
