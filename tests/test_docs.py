"""Seed 004's three guides exist under docs/ and cannot drift from the code silently: every tool the MCP servers
register, with each of its arguments on its own row, is in mcp-protocol.md; every key (and every capture, signal and
hint-signal value) of the scenario schema is in yaml-spec.md; every metric name the log and run_end carry is in
metrics-guide.md. Each is looked for as written in the page, in backticks."""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel

DOCS = Path(__file__).resolve().parents[1] / "docs"
GUIDES = ("yaml-spec.md", "mcp-protocol.md", "metrics-guide.md")


def guide(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def named(text: str) -> set[str]:
    """Every name written in backticks in `text` (one word or a dotted name)."""
    return set(re.findall(r"`([^`\s]+)`", text))


async def registered_tools() -> dict[str, set[str]]:
    """Tool name -> its arguments, for every tool of the goal scenarios' server (both halves) and of `studio mcp`."""
    from studio.mcp.data_server_tools import DataServerTools
    from studio.mcp.scenario_server import build_scenario_server
    from studio.mcp.scenario_tools import WebTools
    from studio.mcp.server import build_server
    from studio.runtime import EngineRuntime
    from studio.settings import StudioSettings
    from studio.toolbelt import BrowserContexts

    app = "http://127.0.0.1:9"  # never called: listing tools opens no browser and no connection
    runtime = EngineRuntime(StudioSettings(), record=False)
    try:
        servers = [build_scenario_server({"web": WebTools(runtime, app), "data": DataServerTools(app)}, app),
                   build_server(BrowserContexts(runtime.fleet))]
        return {tool.name: set(tool.input_schema.get("properties", {}))
                for server in servers for tool in await server.list_tools()}
    finally:
        await runtime.aclose()


def schema_keys(model: type[BaseModel]) -> set[str]:
    """Every key a scenario file may hold, at any depth."""
    keys: set[str] = set()
    for name, field in model.model_fields.items():
        keys.add(name)
        for inner in _models_in(field.annotation):
            keys |= schema_keys(inner)
    return keys


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if get_origin(annotation) in (list, dict, typing.Union, types.UnionType):
        return [model for arg in get_args(annotation) for model in _models_in(arg)]
    return []


def literal_values(annotation: Any) -> set[str]:
    if get_origin(annotation) is Literal:
        return {str(value) for value in get_args(annotation)}
    return {value for arg in get_args(annotation) for value in literal_values(arg)}


@pytest.mark.parametrize("name", GUIDES)
def test_the_seeds_guides_are_pages_under_docs(name):
    text = guide(name)
    assert text.startswith("# ") and len(text) > 2000, name


async def test_every_mcp_tool_and_its_arguments_are_documented():
    text = guide("mcp-protocol.md")
    tools = await registered_tools()
    assert len(tools) >= 18 + 19  # seed 004's eleven web and seven data tools, and seed 001's browser tools
    missing = []
    for tool, arguments in sorted(tools.items()):
        row = next((line for line in text.splitlines() if line.startswith(f"| `{tool}` |")), None)
        if row is None:
            missing.append(f"{tool}: no table row")
            continue
        missing += [f"{tool}: argument {argument}" for argument in sorted(arguments - named(row))]
    assert not missing, "undocumented in docs/mcp-protocol.md: " + "; ".join(missing)


def test_every_key_of_the_scenario_schema_is_documented():
    from studio.scenarios.expressions import SIGNALS
    from studio.scenarios.spec import ENDPOINTS, Observability, Scenario, Signals

    written = named(guide("yaml-spec.md"))
    wanted = (schema_keys(Scenario) | literal_values(Observability.model_fields["capture"].annotation)
              | literal_values(Signals.model_fields["collect"].annotation) | set(SIGNALS))
    assert {"store_as", "url_contains", "element_visible", "max_cost_usd", "when", "testId"} <= wanted
    assert not sorted(wanted - written), f"undocumented in docs/yaml-spec.md: {sorted(wanted - written)}"
    assert not set(ENDPOINTS) - named(guide("mcp-protocol.md"))  # the endpoints a file's `mcp:` may name


def test_every_metric_name_is_documented():
    from studio.scenarios.runner import ScenarioResult
    from studio.scenarios.summary import scenario_metrics

    end = {"scenarioId": "s", "status": "success", "steps": 2, "duration": 1.0, "clicks": ["a"],
           "urlHistory": ["/", "/a"], "metrics": {"ttfa": 1.0}}
    per_scenario = set(scenario_metrics([end])["s"])
    per_run = set(ScenarioResult("s").metrics())
    text = guide("metrics-guide.md")
    written = named(text)
    undocumented = sorted({f"scenarioMetrics.{key}" for key in per_scenario} | {f"metrics.{key}" for key in per_run})
    undocumented = [name for name in undocumented if name not in written and name.split(".")[1] not in written]
    assert not undocumented, f"undocumented in docs/metrics-guide.md: {undocumented}"
    for formula in ("shortest_path_steps / actual_steps", "count(url_history[i] in url_history[0:i-1])",
                    "H = -Σ(p_i × log₂(p_i))", "timestamp(first_click) - timestamp(page_load)",
                    "total_tokens / (success_rate × scenarios_run)"):
        assert formula in text, formula  # the seed's formulas, as the seed writes them
