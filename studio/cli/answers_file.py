"""Answers files for `studio preflight` and `studio playground` (`--answers FILE`).

JSON (or YAML for .yaml/.yml files), either an object `{"credentials.email": "a@b.c", ...}` or a list
`[{"key": "credentials.email", "value": "a@b.c"}, ...]`. Values are text; numbers and booleans are taken as
written, and a list of texts (e.g. the suites to create) becomes one comma-separated answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from studio.yaml_bounds import YamlTooComplex, check_bounds

MAX_ANSWERS_BYTES = 64 * 1024
SHAPE = 'an object such as {"credentials.email": "tester@example.com"} or a list of {"key": ..., "value": ...}'


class AnswersFileError(Exception):
    """The answers file cannot be used; str() names the file and the problem."""


def load_answers(path: Path) -> dict[str, str]:
    """The answers in `path` by key (the last one wins for a repeated key); raises AnswersFileError."""
    try:
        size = path.stat().st_size
        if path.is_file() and size > MAX_ANSWERS_BYTES:
            raise AnswersFileError(f"The answers file {path} is {size:,} bytes, over the {MAX_ANSWERS_BYTES // 1024} "
                                   "KB an answers file may hold (a few answers are a few hundred bytes); it was not "
                                   "read.")
        with path.open("rb") as stream:  # never more than the cap, even from a file that grows meanwhile
            raw = stream.read(MAX_ANSWERS_BYTES + 1)
        if len(raw) > MAX_ANSWERS_BYTES:
            raise AnswersFileError(f"The answers file {path} grew over {MAX_ANSWERS_BYTES // 1024} KB while it was "
                                   "read; it was not read.")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise AnswersFileError(f"The answers file {path} does not exist. Write the answers there first.") from None
    except IsADirectoryError:
        raise AnswersFileError(f"The answers file {path} is a folder, not a file.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise AnswersFileError(f"The answers file {path} could not be read ({error}).") from None
    try:
        data = _parse(path, text)
    except RecursionError:
        raise AnswersFileError(f"The answers file {path} is nested too deeply to read. Answers are flat: "
                               f"write {SHAPE}.") from None
    except ValueError as error:
        raise AnswersFileError(_value_problem(path, error)) from None
    return _answers(path, data)


def _parse(path: Path, text: str) -> object:
    """The file's data; Python's own limits (nesting depth, digits in a number) surface as RecursionError or
    ValueError, which the caller turns into sentences."""
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            check_bounds(text)
            return yaml.safe_load(text)
        except YamlTooComplex as error:
            raise AnswersFileError(f"The answers file {path} cannot be used: {error} (line {error.line}, column "
                                   f"{error.column}).") from None
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            problem = getattr(error, "problem", None) or "unreadable YAML"
            raise AnswersFileError(f"The answers file {path} is not valid YAML: {problem}{where}.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise AnswersFileError(f"The answers file {path} is not valid JSON: {error.msg} at line {error.lineno}, "
                               f"column {error.colno}. Expected {SHAPE}.") from None


def _value_problem(path: Path, error: ValueError) -> str:
    if "integer string conversion" in str(error):
        return (f"The answers file {path} has a number with more than {sys.get_int_max_str_digits()} digits. "
                "Write a long value as quoted text.")
    # YAML builds dates and numbers while parsing, e.g. 2024-13-45 fails as a date.
    return f"The answers file {path} has a value that cannot be read ({error}). Write it as quoted text."


def _answers(path: Path, data: object) -> dict[str, str]:
    if isinstance(data, dict):
        pairs = list(data.items())
    elif isinstance(data, list):
        pairs = []
        for number, item in enumerate(data, start=1):
            if not isinstance(item, dict) or "key" not in item or "value" not in item:
                raise AnswersFileError(f"The answers file {path}: item {number} is not a {{\"key\": ..., \"value\": "
                                       f"...}} object. Expected {SHAPE}.")
            pairs.append((item["key"], item["value"]))
    else:
        found = "empty" if data is None else f"a {type(data).__name__}"
        raise AnswersFileError(f"The answers file {path} is {found}; expected {SHAPE}.")
    answers: dict[str, str] = {}
    for key, value in pairs:
        if not isinstance(key, str) or not key.strip():
            raise AnswersFileError(f"The answers file {path} has an answer without a key ({key!r}).")
        answers[key.strip()] = _text(path, key, value)
    return answers


def _text(path: Path, key: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        if isinstance(value, (str, int, float)):
            return str(value)
        if isinstance(value, list) and all(isinstance(item, (str, int, float)) for item in value):
            return ", ".join(str(item) for item in value)
    except ValueError as error:  # a number past the digit limit only fails when written out in decimal
        raise AnswersFileError(_value_problem(path, error)) from None
    found = "no value" if value is None else f"a {type(value).__name__} as its value"
    raise AnswersFileError(f"The answers file {path}: {key!r} has {found}; an answer is a text (or a list of texts).")
