"""Parse every generated file before anything is written, so a bad export never reaches the disk."""

from __future__ import annotations

import ast
import json

import esprima

from studio.export.errors import GeneratedSyntaxError

JAVASCRIPT_SUFFIXES = (".ts", ".js", ".mjs")


def check_python(file_name: str, source: str) -> None:
    """Raise GeneratedSyntaxError naming the file, line and parser message when `source` does not parse."""
    try:
        ast.parse(source, filename=file_name)
    except SyntaxError as error:
        raise GeneratedSyntaxError(file_name, f"line {error.lineno}: {error.msg}") from error


def check_javascript(file_name: str, source: str) -> None:
    """The same for a TypeScript file written without annotations: it must parse as a JavaScript module."""
    try:
        esprima.parseModule(source)
    except esprima.Error as error:
        raise GeneratedSyntaxError(file_name, str(error)) from error


def check_json(file_name: str, source: str) -> None:
    try:
        json.loads(source)
    except json.JSONDecodeError as error:
        raise GeneratedSyntaxError(file_name, f"line {error.lineno}: {error.msg}") from error


def check_files(files: dict[str, str]) -> None:
    """Check each file by its suffix; other files (README, .gitignore, pytest.ini) are prose or plain config."""
    for name, text in files.items():
        if name.endswith(".py"):
            check_python(name, text)
        elif name.endswith(JAVASCRIPT_SUFFIXES):
            check_javascript(name, text)
        elif name.endswith(".json"):
            check_json(name, text)
