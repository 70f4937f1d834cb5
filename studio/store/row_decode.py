"""Rows read back from a project file may have been written by someone else: invalid JSON, nesting a hundred
thousand levels deep, a number of five thousand digits, a text where a number belongs. Each such row is named by
its table and id, skipped, and remembered, so `studio jobs`, `studio export` and the window go on with the rest
instead of ending in a validation traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class DamagedRow:
    """One stored row that could not be read: where it is and why, in words."""

    table: str
    row_id: object
    reason: str

    def __str__(self) -> str:
        return f"{self.table} row {self.row_id!r} ({self.reason})"


class RowReader:
    """Decodes rows into models for the stores of one project; damaged rows are skipped and kept in `damaged`."""

    def __init__(self) -> None:
        self.damaged: list[DamagedRow] = []
        self._seen: set[tuple[str, str]] = set()

    def model(self, model: type[M], table: str, row_id: object, data: object) -> M | None:
        """The model stored as JSON text in one row, or None (the row noted) when it does not decode."""
        if not isinstance(data, (str, bytes)):
            return self._skip(table, row_id, f"its data is {type(data).__name__}, not JSON text")
        try:
            return model.model_validate_json(data)
        except ValidationError as error:
            return self._skip(table, row_id, _first_problem(error))

    def fields(self, model: type[M], table: str, row_id: object, values: Mapping[str, Any]) -> M | None:
        """The model built from one row's columns, or None (the row noted) when a column has the wrong type."""
        try:
            return model.model_validate(values)
        except ValidationError as error:
            return self._skip(table, row_id, _first_problem(error))

    def json(self, table: str, row_id: object, text: object) -> Any | None:
        """Plain JSON of one row (bounded in depth and number size, unlike json.loads), or None when damaged."""
        if not isinstance(text, (str, bytes)):
            return self._skip(table, row_id, f"its data is {type(text).__name__}, not JSON text")
        try:
            return from_json(text)
        except ValueError as error:
            return self._skip(table, row_id, f"not valid JSON: {str(error).splitlines()[0][:120]}")

    def models(self, model: type[M], table: str, rows: Iterable[tuple[object, object]]) -> list[M]:
        """Every (id, data) row that decodes, in order."""
        return [m for row_id, data in rows if (m := self.model(model, table, row_id, data)) is not None]

    def damaged_row(self, table: str, row_id: object, reason: str) -> None:
        """Note a row a reader of its own found damaged (the Events dock's events)."""
        self._skip(table, row_id, reason)

    def sentences(self) -> list[str]:
        """One sentence per damaged row found so far, for the command or window to show."""
        return [f"Skipped {row}: it was damaged, perhaps edited outside Preflight Studio; the rest of the project "
                "is intact." for row in self.damaged]

    def _skip(self, table: str, row_id: object, reason: str) -> Any:
        """Note the row (once) and return None, its value for the caller."""
        key = (table, repr(row_id))
        if key not in self._seen:
            self._seen.add(key)
            self.damaged.append(DamagedRow(table, row_id, reason))
            log.info("skipped damaged row %s %r: %s", table, row_id, reason)  # the command says it once
        return None


def _first_problem(error: ValidationError) -> str:
    problems = error.errors(include_url=False, include_input=False)
    if not problems:
        return "it does not match what the studio stores"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return f"{where + ': ' if where else ''}{first.get('msg', 'invalid')}{more}"[:200]
