"""The JSON Schema of scenario files (`studio scenario schema`), for editors: completions and checks as one types.
It is generated from the models validation uses, so the two never disagree."""

from __future__ import annotations

from typing import Any

from studio.scenarios.expressions import SIGNALS
from studio.scenarios.spec import SCHEMA_VERSION, Scenario

SCHEMA_ID = f"https://preflight-studio.invalid/schemas/scenario-{SCHEMA_VERSION}.json"


def scenario_schema() -> dict[str, Any]:
    schema = Scenario.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
              "title": "Preflight Studio goal scenario", **{k: v for k, v in schema.items() if k != "title"}}
    schema["description"] = ("A goal an agent reaches in the browser (seed 004): preconditions, success and failure "
                             "conditions, constraints, progressive hints, observability, signals, postconditions.")
    trigger = schema.get("$defs", {}).get("HintTrigger", {}).get("properties", {}).get("when")
    if trigger is not None:
        trigger["description"] = ("A condition over the run's signals, e.g. 'stagnation >= 5' or 'steps >= 30 and "
                                  "no_progress_steps > 3'. Signals: " + ", ".join(SIGNALS) + ".")
    return schema
