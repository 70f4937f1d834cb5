"""Reading scenario files: every problem with its file, line and column and a plain sentence — an unknown key with
the key that was probably meant, a value of the wrong type, a `when:` expression that cannot be read, an MCP
endpoint the servers do not have, a parameter a data endpoint does not take, a `${name.field}` reference no
precondition stores (`${env.NAME}` is the environment variable NAME, read when the call is made)."""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from studio.scenarios.data_tools import ARGUMENTS
from studio.scenarios.spec import ENDPOINTS, Scenario, references
from studio.yaml_bounds import YamlTooComplex, check_bounds

Position = tuple[int, int]  # line, column (1-based)
ENV = "env"  # ${env.NAME}: the environment variable NAME (studio.scenarios.runner reads it)
BUILT_IN_NAMES = {ENV}


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class ScenarioError(Exception):
    """A scenario file that cannot be used; `problems` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class Located:
    """The file's data, and where each value (and each mapping key) starts."""

    data: Any
    values: dict[tuple, Position]
    keys: dict[tuple, Position]

    def at(self, loc: tuple, key: bool = False) -> Position:
        """The position of `loc`, or of its nearest ancestor the file has."""
        table = self.keys if key and loc in self.keys else self.values
        while loc and loc not in table:
            loc = loc[:-1]
            table = self.values
        return table.get(loc, (1, 1))


def load_scenario(path: Path) -> Scenario:
    """The scenario in `path`; raises ScenarioError with every problem found."""
    scenario, problems = check_scenario(path)
    if scenario is None or problems:
        raise ScenarioError(problems)
    return scenario


def check_scenario(path: Path) -> tuple[Scenario | None, list[Problem]]:
    """The scenario (None when it cannot be built) and the problems in `path`, in file order."""
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [Problem(where, 1, 1, f"the file cannot be read ({error})")]
    return check_text(text, where)


def check_text(text: str, where: str) -> tuple[Scenario | None, list[Problem]]:
    """check_scenario for text not saved yet (an editor's); `where` names it in the problems."""
    try:
        check_bounds(text)
        located = locate(text)
    except YamlTooComplex as error:
        return None, [Problem(where, error.line, error.column, str(error))]
    except RecursionError:
        return None, [Problem(where, 1, 1, "it is nested too deeply to read; a scenario is a few levels deep")]
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = getattr(error, "problem", None) or "unreadable YAML"
        return None, [Problem(where, line, column, f"this is not valid YAML: {problem}")]
    if not isinstance(located.data, dict):
        return None, [Problem(where, 1, 1, "a scenario is a mapping of keys (version, id, name, context, goal, ...); "
                                           "this file holds " + ("nothing" if located.data is None else
                                                                  f"a {type(located.data).__name__}"))]
    problems = _reference_problems(where, located) + _parameter_problems(where, located)
    scenario = None
    try:
        scenario = Scenario.model_validate(located.data)
    except ValidationError as error:
        problems += [_problem(where, located, raw) for raw in error.errors()]
    problems.sort(key=lambda p: (p.line, p.column))
    return scenario, list(dict.fromkeys(problems))


# -- positions -----------------------------------------------------------------------------------

def locate(text: str) -> Located:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    data = yaml.safe_load(text)
    values: dict[tuple, Position] = {}
    keys: dict[tuple, Position] = {}

    def walk(current: yaml.Node, loc: tuple) -> None:
        values[loc] = (current.start_mark.line + 1, current.start_mark.column + 1)
        if isinstance(current, yaml.MappingNode):
            for key_node, value_node in current.value:
                key = key_node.value
                keys[loc + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                walk(value_node, loc + (key,))
        elif isinstance(current, yaml.SequenceNode):
            for index, item in enumerate(current.value):
                walk(item, loc + (index,))

    if node is not None:
        walk(node, ())
    return Located(data, values, keys)


# -- sentences -----------------------------------------------------------------------------------

def _problem(where: str, located: Located, raw: Any) -> Problem:
    loc = tuple(part for part in raw["loc"] if not (isinstance(part, str) and part[:1].isupper()))
    kind, value = raw["type"], raw.get("input")
    named = ".".join(str(p) for p in loc) or "the file"
    if kind == "extra_forbidden":
        line, column = located.at(loc, key=True)
        return Problem(where, line, column, _unknown_key(loc))
    if kind == "missing":
        line, column = located.at(loc[:-1])
        return Problem(where, line, column, f"'{loc[-1]}' is missing here (it is required)")
    line, column = located.at(loc)
    if kind == "literal_error" and loc and loc[-1] == "mcp":
        near = difflib.get_close_matches(str(value), ENDPOINTS, n=1)
        hint = f"; did you mean '{near[0]}'?" if near else f"; the endpoints are {', '.join(ENDPOINTS)}"
        return Problem(where, line, column, f"unknown MCP endpoint '{value}'{hint}")
    if kind == "literal_error":
        allowed = raw.get("ctx", {}).get("expected", "")
        return Problem(where, line, column, f"'{named}' is {value!r}, which is not one of {allowed}")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return Problem(where, line, column, f"'{named}' must be a whole number, not {value!r}")
    if kind in ("float_parsing", "float_type"):
        return Problem(where, line, column, f"'{named}' must be a number, not {value!r}")
    if kind in ("bool_parsing", "bool_type"):
        return Problem(where, line, column, f"'{named}' must be true or false, not {value!r}")
    if kind == "string_type":
        return Problem(where, line, column, f"'{named}' must be text, not {_shape(value)}")
    if kind in ("list_type", "model_type", "dict_type", "model_attributes_type"):
        wanted = "a list" if kind == "list_type" else "a mapping of keys"
        return Problem(where, line, column, f"'{named}' must be {wanted}, not {_shape(value)}")
    if kind == "string_pattern_mismatch" and loc == ("id",):
        return Problem(where, line, column, f"'id' {value!r} must be lowercase letters, digits, '.', '_' or '-', "
                                            "starting with a letter or digit (it names the scenario's results)")
    message = str(raw.get("msg", "is not valid")).removeprefix("Value error, ")
    return Problem(where, line, column, f"'{named}': {message[:1].lower() + message[1:]}")


def _shape(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: f"the text {value!r}", bool: f"{value}".lower()}.get(
        type(value), repr(value))


def _unknown_key(loc: tuple) -> str:
    key = str(loc[-1])
    model = _model_at(loc[:-1])
    known = list(model.model_fields) if model is not None else []
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if near:
        return f"unknown key '{key}'; did you mean '{near[0]}'?"
    return f"unknown key '{key}'" + (f"; the keys here are {', '.join(known)}" if known else "")


def _model_at(loc: tuple) -> type[BaseModel] | None:
    """The model a path of the file leads to (list indexes skipped), if any."""
    model: type[BaseModel] | None = Scenario
    for part in loc:
        if model is None:
            return None
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        model = _model_in(field.annotation) if field is not None else None
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = get_origin(annotation)
    if origin in (list, Union, types.UnionType) or origin is typing.Union:
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _reference_problems(where: str, located: Located) -> list[Problem]:
    """`${name.field}` references to names no earlier precondition stores (or, after them, none stores)."""
    data = located.data
    stored: list[str] = []
    problems: list[Problem] = []

    def check(value: Any, loc: tuple, known: list[str]) -> None:
        for name, _fields in references(value):
            if name in known or name in BUILT_IN_NAMES:
                continue
            near = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else (
                f"; the names stored are {', '.join(known)}" if known else
                "; store a precondition's result with store_as first")
            line, column = located.at(loc)
            problems.append(Problem(where, line, column, f"'${{{name}{_fields}}}' names '{name}', which no "
                                                         f"precondition before it stores{hint}"))

    for section in ("preconditions", "postconditions"):
        calls = data.get(section)
        for index, call in enumerate(calls if isinstance(calls, list) else []):
            if not isinstance(call, dict):
                continue
            check(call.get("params"), (section, index, "params"), list(stored))
            if section == "preconditions" and isinstance(call.get("store_as"), str):
                stored.append(call["store_as"])
    for key in ("goal", "hints", "context"):
        if key in data:
            _check_nested(data[key], (key,), lambda value, loc: check(value, loc, stored))
    return problems


def _parameter_problems(where: str, located: Located) -> list[Problem]:
    """Pre- and postcondition `params` a data endpoint does not take (data_tools.ARGUMENTS), each at its key, with
    the one probably meant; refused here rather than when the run makes the call. A `store_as: env` too: that name is
    the environment's."""
    problems: list[Problem] = []
    for section in ("preconditions", "postconditions"):
        calls = located.data.get(section)
        for index, call in enumerate(calls if isinstance(calls, list) else []):
            if not isinstance(call, dict):
                continue
            if call.get("store_as") == ENV:
                line, column = located.at((section, index, "store_as"))
                problems.append(Problem(where, line, column, f"'store_as' cannot be '{ENV}': ${{{ENV}.NAME}} reads "
                                                             "the environment variable NAME; choose another name"))
            takes, params = ARGUMENTS.get(str(call.get("mcp"))), call.get("params")
            if takes is None or not isinstance(params, dict):
                continue
            for key in params:
                if key in takes:
                    continue
                near = difflib.get_close_matches(str(key), takes, n=1, cutoff=0.6)
                hint = f"did you mean '{near[0]}'?" if near else f"it takes {', '.join(takes)}"
                line, column = located.at((section, index, "params", key), key=True)
                problems.append(Problem(where, line, column, f"{call['mcp']} does not take '{key}'; {hint}"))
    return problems


def _check_nested(value: Any, loc: tuple, check: Any) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _check_nested(item, loc + (key,), check)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_nested(item, loc + (index,), check)
    else:
        check(value, loc)


__all__ = ["Problem", "ScenarioError", "check_scenario", "load_scenario"]
