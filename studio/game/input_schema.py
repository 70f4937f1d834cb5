"""The optional InputSchema a tester gives a game evaluation (seed 002): at most 10 KB of JSON, validated with
pydantic, every problem said as a sentence that names the field and what would be right."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from studio.models.game import INPUT_SCHEMA_MAX_BYTES, InputSchema

EXAMPLE = '{"controls": {"movement": ["W", "A", "S", "D"], "actions": ["Space"]}, "objectives": "Reach the goal"}'


class InputSchemaError(ValueError):
    """The input schema cannot be used; str() says why and what to change."""


class GameUrlError(ValueError):
    """The game's address cannot be used; str() says why and what would be right."""


NOT_WEB = ("file", "data", "about", "javascript", "ftp", "ws", "wss", "chrome", "view-source", "blob")


def game_url(text: str) -> str:
    """The game's address, normalised: http or https only (seed 002's input check)."""
    from studio.browser.urls import normalize_url

    cleaned = text.strip()
    scheme = cleaned.split(":", 1)[0].lower() if ":" in cleaned else ""
    if scheme in NOT_WEB:
        raise GameUrlError(f"{cleaned[:80]!r} is not a web address; a game URL starts with http:// or https://.")
    try:
        url = normalize_url(cleaned)
    except ValueError as error:
        raise GameUrlError(f"{error}.") from None
    if not url.startswith(("http://", "https://")):
        raise GameUrlError(f"{cleaned[:80]!r} is not a web address; a game URL starts with http:// or https://.")
    return url


def parse_input_schema(text: str | bytes) -> InputSchema:
    """The InputSchema in `text`; raises InputSchemaError with a sentence."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > INPUT_SCHEMA_MAX_BYTES:
        raise InputSchemaError(f"The input schema is {len(raw):,} bytes; the limit is 10 KB "
                               f"({INPUT_SCHEMA_MAX_BYTES:,} bytes). Keep it to controls, objectives and ui_elements.")
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputSchemaError("The input schema is not UTF-8 text; save it as a JSON file.") from None
    except json.JSONDecodeError as error:
        raise InputSchemaError(f"The input schema is not valid JSON (line {error.lineno}, column {error.colno}: "
                               f"{error.msg}). For example: {EXAMPLE}") from None
    if not isinstance(value, dict):
        raise InputSchemaError(f"The input schema must be a JSON object, for example: {EXAMPLE}")
    try:
        return InputSchema.model_validate(value)
    except ValidationError as error:
        raise InputSchemaError(f"The input schema is not valid: {describe(error)}.") from None


def load_input_schema(path: Path) -> InputSchema:
    """The InputSchema in the file at `path` (read no further than the size limit allows)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(INPUT_SCHEMA_MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputSchemaError(f"The input schema file {path} does not exist.") from None
    except OSError as error:
        raise InputSchemaError(f"The input schema file {path} could not be read ({error.strerror or error}).") \
            from None
    if len(raw) > INPUT_SCHEMA_MAX_BYTES:
        raise InputSchemaError(f"The input schema file {path} is larger than the 10 KB limit "
                               f"({INPUT_SCHEMA_MAX_BYTES:,} bytes). Keep it to controls, objectives and ui_elements.")
    return parse_input_schema(raw)


def describe(error: ValidationError) -> str:
    """Each problem as "where: what", joined; unknown fields name the allowed ones."""
    problems = []
    for item in error.errors(include_url=False, include_input=False)[:6]:
        where = ".".join(str(part) for part in item["loc"]) or "the schema"
        if item["type"] == "extra_forbidden":
            parent = item["loc"][:-1]
            allowed = "movement, actions, special" if parent and parent[-1] == "controls" \
                else "controls, objectives, ui_elements"
            problems.append(f"{where} is not a field of the input schema (allowed: {allowed})")
        else:
            problems.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    return "; ".join(problems)
