"""Export a recorded session as a runnable test project: build, syntax-check, then move into place in one go.

Files are written to a temporary folder beside the destination and only then moved, so a failed export leaves
either the previous export or nothing — never half a folder. A folder that is not one of our exports is refused.
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from studio import __version__
from studio.export import python_writer, scaffold, typescript_writer
from studio.export.errors import DestinationRefused, ExportError
from studio.export.plan import build_plan
from studio.export.statements import ExportPlan
from studio.export.syntax import check_files
from studio.models.recording import RecordedStep
from studio.models.testcase import SuspectedDefect

Language = Literal["python", "typescript"]
MARKER = ".studio-export.json"
LANGUAGE_NAMES = {"python": "Python", "typescript": "TypeScript"}


class ExportMarker(BaseModel):
    """Written into every export folder, so a later export may replace exactly the files this one wrote."""

    tool: Literal["preflight-studio"] = "preflight-studio"
    studio_version: str = __version__
    session_id: str
    language: Language
    title: str
    exported_at: str = Field(description="UTC time, ISO 8601.")
    files: list[str]


class ExportResult(BaseModel):
    """What an export wrote: every file, the test file itself, and the environment variables the test reads."""

    out: Path
    language: Language
    files: list[Path]
    test_file: Path
    env_vars: list[str]
    test_files: list[Path] = Field(default_factory=list, description="Every test file (several for cases).")


def render_test(steps: list[RecordedStep], lang: Language, title: str | None = None) -> str:
    """The test file's text only (for a preview pane); raises ExportError like export_session."""
    _check_language(lang)
    plan = build_plan(steps, title)
    source = _render(plan, lang)
    check_files({_test_file_name(plan, lang): source})
    return source


def export_session(steps: list[RecordedStep], lang: Language, out: Path, title: str | None = None) -> ExportResult:
    """Write the session as a runnable test project in `out`; raises ExportError and writes nothing on failure."""
    return export_tests([(steps, title)], lang, out)


def export_tests(tests: list[tuple[list[RecordedStep], str | None]], lang: Language, out: Path,
                 defects: list[SuspectedDefect | None] | None = None) -> ExportResult:
    """Write one test file per (steps, title) into one runnable project in `out` (several test cases at once);
    `defects`, one per test, marks the ones that check expected behaviour the app does not show today. Raises
    ExportError and writes nothing when any of them cannot be written."""
    _check_language(lang)
    if not tests:
        raise ExportError("There is nothing to export: no session or case was given.")
    plans = [build_plan(steps, title) for steps, title in tests]
    for plan, defect in zip(plans, defects or []):
        plan.defect = defect
    names: list[str] = []
    for plan in plans:
        name = _test_file_name(plan, lang)
        stem, dot, suffix = name.partition(".")
        number = 2
        while name in names:  # two cases with the same title
            name, number = f"{stem}_{number}{dot}{suffix}", number + 1
        names.append(name)
    first, *rest = zip(plans, names)
    writer = scaffold.python_files if lang == "python" else scaffold.typescript_files
    files = {**{name: _render(plan, lang) for plan, name in zip(plans, names)}, **writer(*first, more=rest)}
    marker = ExportMarker(session_id=",".join(dict.fromkeys(plan.session_id for plan in plans)), language=lang,
                          title=plans[0].title if len(plans) == 1 else f"{len(plans)} tests",
                          exported_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), files=sorted(files))
    out = Path(out).expanduser().absolute()
    write_project(out, files, marker)
    env_vars = list(dict.fromkeys(name for plan in plans for name in plan.env_vars))
    return ExportResult(out=out, language=lang, files=[out / name for name in files], test_file=out / names[0],
                        env_vars=env_vars, test_files=[out / name for name in names])


def write_project(out: Path, files: dict[str, str], marker: ExportMarker) -> None:
    """Check every file's syntax, then move them into `out` at once; `out` must be new, empty or our export."""
    check_files(files)
    previous = _previous_export(out, marker.language)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        # mkdir rather than mkdtemp: the folder becomes `out`, so it gets the user's usual permissions.
        staging = out.parent / f".{out.name}.export-{secrets.token_hex(4)}"
        staging.mkdir()
    except OSError as error:
        raise DestinationRefused(out, f"its folder cannot be created or written ({error.strerror or error}). "
                                      "Choose a folder you can write to.") from error
    try:
        for name, text in {**files, MARKER: marker.model_dump_json(indent=2) + "\n"}.items():
            (staging / name).write_text(text, encoding="utf-8")
        if previous is None:
            if out.is_dir():
                out.rmdir()  # empty, checked above
            os.rename(staging, out)
        else:
            _replace_files(staging, out, files, previous)
    except OSError as error:
        raise DestinationRefused(out, f"writing failed ({error.strerror or error}). "
                                      "Check that the disk has space and the folder is writable.") from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _previous_export(out: Path, language: Language) -> ExportMarker | None:
    """The marker of an earlier export in `out`, None when `out` is new or empty; refuses anything else."""
    if out.exists() and not out.is_dir():
        raise DestinationRefused(out, "it is a file, not a folder. Choose a folder for the test project.")
    if not out.exists() or not any(out.iterdir()):
        return None
    try:
        previous = ExportMarker.model_validate_json((out / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError, ValidationError):
        raise DestinationRefused(out, "the folder already holds files that are not a Preflight Studio export. "
                                      "Choose an empty or new folder.") from None
    if previous.language != language:
        raise DestinationRefused(out, f"it holds a {LANGUAGE_NAMES[previous.language]} export. Choose another "
                                      f"folder for the {LANGUAGE_NAMES[language]} test.")
    return previous


def _replace_files(staging: Path, out: Path, files: dict[str, str], previous: ExportMarker) -> None:
    # Only files an export wrote are replaced or removed: node_modules, test results and the user's own files stay.
    for name in files:
        os.replace(staging / name, out / name)
    for name in set(previous.files) - set(files):
        if Path(name).name == name:  # a marker lists bare file names; never follow anything else
            (out / name).unlink(missing_ok=True)
    os.replace(staging / MARKER, out / MARKER)


def _check_language(lang: str) -> None:
    if lang not in LANGUAGE_NAMES:
        raise ExportError(f"Cannot export to {lang!r}: choose python or typescript.")


def _render(plan: ExportPlan, lang: Language) -> str:
    if lang == "python":
        return python_writer.render_python(plan)
    return typescript_writer.render_typescript(plan)


def _test_file_name(plan: ExportPlan, lang: Language) -> str:
    if lang == "python":
        return python_writer.file_name(plan)
    return typescript_writer.file_name(plan)

