"""Answers files that Python's parsers cannot take (too deep, numbers too long, impossible dates) are refused like
any other bad answers file: exit 2 and a sentence, never a traceback. Real `studio` subprocesses; no browser starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DEEP = 30_000  # 60 KB: within the size cap, past what the parsers can nest
DIGITS = "1" * 5000

FILES = {
    "deep.json": ("[" * DEEP + "]" * DEEP, "nested too deeply"),
    "deep.yaml": ("[" * DEEP + "]" * DEEP, "nested too deeply"),
    "long-number.json": ('{"credentials.email": ' + DIGITS + "}", "number with more than"),
    "long-number.yaml": ("credentials.email: " + DIGITS + "\n", "number with more than"),
    # YAML reads 0x... as a number; it is small in hex but past the limit once written in decimal.
    "long-hex.yaml": ("credentials.email: 0x" + "f" * 4000 + "\n", "number with more than"),
    "impossible-date.yaml": ("credentials.email: 2024-13-45\n", "month must be in 1..12"),
}


def studio(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("name", list(FILES))
def test_preflight_refuses_an_answers_file_python_cannot_parse(tmp_path: Path, name: str) -> None:
    content, said = FILES[name]
    answers, project = tmp_path / name, tmp_path / "p.studio"
    answers.write_text(content)
    done = studio("preflight", "http://127.0.0.1:9/", "--project", project, "--answers", answers)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert str(answers) in done.stderr and said in done.stderr
    assert done.stderr.startswith("error: The answers file") and len(done.stderr.splitlines()) == 1
    assert not project.exists()  # refused before anything was created


def test_playground_refuses_a_too_deep_answers_file(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"suites": ' + "[" * DEEP + "]" * DEEP + "}")
    done = studio("playground", "new-suite", "--project", tmp_path / "p.studio", "--url", "http://127.0.0.1:9/",
                  "--answers", answers)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "nested too deeply" in done.stderr
