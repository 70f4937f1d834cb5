"""Why an export did not happen, said as a sentence with a next step; nothing was written when one is raised."""

from __future__ import annotations

from pathlib import Path


class ExportError(Exception):
    """The session could not be exported; `str()` is a sentence for the user."""


class GeneratedSyntaxError(ExportError):
    """A generated file did not parse; this is a bug in the exporter, so the message asks for a report."""

    def __init__(self, file_name: str, detail: str) -> None:
        super().__init__(
            f"The generated {file_name} is not valid code ({detail}), so nothing was written. "
            "This is a bug in Preflight Studio's exporter; please report it with the session."
        )
        self.file_name = file_name
        self.detail = detail


class DestinationRefused(ExportError):
    """The output folder cannot take the export (a file, someone else's folder, another language)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"Nothing was exported to {path}: {reason}")
        self.path = path
