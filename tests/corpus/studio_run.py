"""The studio as a user runs it on a corpus app: `studio playground new-suite --url URL --json` in a subprocess,
answering what it asks as a tester who wants every suite proposed and has no login (a question with options gets all
of them; any other is skipped with an empty answer), then `studio export` of the cases it wrote.

Exit codes and JSON are read generically (no code is assumed beyond "3 asks questions"), so the runner keeps working
as the CLI's codes and payloads change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

PAUSED = 3
MAX_ROUNDS = 4  # question rounds before the run is taken as stuck
RUN_TIMEOUT = 900


@dataclass
class SuiteRun:
    """What one New Suite run left: its exit codes (one per round), what it printed, and the cases in its project."""

    project: Path
    exit_codes: list[int] = field(default_factory=list)
    payload: dict = field(default_factory=dict)  # the last JSON printed on stdout
    questions_answered: list[str] = field(default_factory=list)
    cases: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    stderr_tail: str = ""

    @property
    def exit_code(self) -> int | None:
        return self.exit_codes[-1] if self.exit_codes else None

    @property
    def findings(self) -> list[dict]:
        context = self.payload.get("context_collection", self.payload)
        return list(context.get("findings") or []) if isinstance(context, dict) else []


def studio(*args: str | Path, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=timeout, env=_env())


def new_suite(url: str, project: Path, extra: tuple[str, ...] = ()) -> SuiteRun:
    """Run New Suite on `url` into `project` to its end, answering its questions from a file between rounds."""
    run = SuiteRun(project)
    answers_file = project.with_suffix(".answers.json")
    answers: dict[str, object] = {}
    started = time.monotonic()
    command: list[str | Path] = ["playground", "new-suite", "--url", url, "--project", project, "--json", *extra]
    for _ in range(MAX_ROUNDS):
        done = studio(*command, *(["--answers", answers_file] if answers else []))
        run.exit_codes.append(done.returncode)
        # The sentences for people (not the JSON progress lines) say why a run ended as it did.
        run.stderr_tail = "\n".join([line for line in done.stderr.splitlines() if not line.startswith("{")][-12:])
        run.payload = last_json(done.stdout)
        questions = run.payload.get("questions") or [] if done.returncode == PAUSED else []
        new = {q["key"]: _answer(q) for q in questions if isinstance(q, dict) and q.get("key") not in answers}
        if not new:
            break
        answers.update(new)
        run.questions_answered.extend(new)
        answers_file.write_text(json.dumps(answers))
    run.seconds = round(time.monotonic() - started, 1)
    run.cases = project_cases(project)
    return run


def export_python(project: Path, out: Path) -> subprocess.CompletedProcess:
    return studio("export", "--project", project, "--cases", "all", "--lang", "python", "--out", out, timeout=300)


def project_cases(project: Path) -> list[dict]:
    """Every case in the project file, as plain data (read through the store, so its schema is the project's)."""
    if not project.exists():
        return []
    from studio.store.project import ProjectFile

    with ProjectFile.open(project, writable=False) as opened:
        return [case.model_dump(mode="json") for case in opened.cases.cases()]


def _answer(question: dict) -> object:
    options = question.get("options") or []
    return list(options) if options else ""  # all the suites proposed; no login to give: skipped


def last_json(stdout: str) -> dict:
    """The JSON object studio printed on stdout ({} when there is none)."""
    text = stdout.strip()
    start = text.find("{")
    if start < 0:
        return {}
    try:
        value = json.loads(text[start:])
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    return env
