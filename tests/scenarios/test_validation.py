"""Scenario files: the seed's own example is valid; every problem is reported with file, line, column and a plain
sentence; `studio validate` exits 1 on any; `studio scenario schema` prints a JSON Schema that accepts the same."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from studio.cli.main import main
from studio.scenarios.expressions import ExpressionError, parse_expression
from studio.scenarios.validation import ScenarioError, check_scenario, load_scenario

EXAMPLE = Path(__file__).with_name("seed_example.yaml")


def test_the_seeds_example_is_a_valid_scenario():
    scenario = load_scenario(EXAMPLE)
    assert scenario.id == "login-and-open-credit-report" and scenario.context.session_reuse
    assert [c.mcp for c in scenario.preconditions] == ["data.reset", "data.user.create"]
    assert scenario.preconditions[1].store_as == "testUser" and scenario.postconditions[1].on_failure == "ignore"
    assert scenario.goal.success.mode == "any" and len(scenario.goal.success.conditions) == 3
    assert scenario.goal.success.conditions[2].element_visible.testId == "credit-score-chart"
    assert scenario.constraints.max_cost_usd == 0.5 and len(scenario.hints.triggers) == 3
    assert "trace_always" in scenario.observability.capture and "hint_usage_count" in scenario.signals.collect


def broken(tmp_path: Path, **changes: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def messages(path: Path) -> list[str]:
    _scenario, problems = check_scenario(path)
    return [str(problem).split(": ", 1)[1] for problem in problems]


def test_every_problem_says_where_and_what(tmp_path):
    path = broken(tmp_path, **{
        "  platform: web\n": "  platform: web\n  colour: red\n",
        'url_contains: "/error"': 'url_contians: "/error"',
        'mcp: "data.user.create"': 'mcp: "data.user.creat"',
        "max_steps: 40": "max_steps: forty",
        'when: "stagnation >= 10"': 'when: "stagnaton >= 10"',
        "Use credentials from testUser.": "Use ${testUsr.email}.",
        "mode: any": "mode: some",
    })
    _scenario, problems = check_scenario(path)
    found = {str(p).split(": ", 1)[1]: (p.line, p.column) for p in problems}
    assert found == {
        "unknown key 'colour'; the keys here are platform, origins, start_url, viewport, session_reuse": (8, 3),
        "unknown MCP endpoint 'data.user.creat'; did you mean 'data.user.create'?": (19, 10),
        "'goal.success.mode' is 'some', which is not one of 'any' or 'all'": (27, 11),
        "unknown key 'url_contians'; did you mean 'url_contains'?": (35, 9),
        "'constraints.max_steps' must be a whole number, not 'forty'": (39, 14),
        "'${testUsr.email}' names 'testUsr', which no precondition before it stores; did you mean 'testUser'?":
            (47, 13),
        "'hints.triggers.1.when': unknown signal 'stagnaton' in 'stagnaton >= 10'; did you mean 'stagnation'?":
            (49, 13),
    }, found
    assert all(str(p).startswith(f"{path}:") for p in problems)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert len(caught.value.problems) == len(problems)


def test_references_need_an_earlier_store_as(tmp_path):
    path = broken(tmp_path, **{'params: { tenant: "qa" }\n  \n  - name: "Create test user"':
                               'params: { tenant: "${testUser.email}" }\n  \n  - name: "Create test user"'})
    assert messages(path) == ["'${testUser.email}' names 'testUser', which no precondition before it stores; "
                              "store a precondition's result with store_as first"]


def test_conditions_and_elements_are_one_thing_each(tmp_path):
    two = broken(tmp_path, **{'      - url_contains: "/credit-report"':
                              '      - url_contains: "/credit-report"\n        heading_text: "Credit Report"'})
    assert messages(two) == ["'goal.success.conditions.0': a condition is exactly one of url_contains, heading_text "
                             "or element_visible"]
    nameless = broken(tmp_path, **{'element_visible: { testId: "credit-score-chart" }':
                                   'element_visible: { name: "Score" }'})
    assert messages(nameless) == ["'goal.success.conditions.2.element_visible': an element is found one way: by "
                                  "testId, by role (with name), or by text"]


def test_files_that_are_not_scenarios(tmp_path):
    yaml_error = tmp_path / "a.yaml"
    yaml_error.write_text("id: x\n  name: [unclosed\n", encoding="utf-8")
    [problem] = check_scenario(yaml_error)[1]
    assert (problem.line, problem.column) == (2, 7) and "not valid YAML" in problem.message
    listed = tmp_path / "b.yaml"
    listed.write_text("- a\n- b\n", encoding="utf-8")
    assert "this file holds a list" in check_scenario(listed)[1][0].message
    empty = tmp_path / "c.yaml"
    empty.write_text("", encoding="utf-8")
    assert "holds nothing" in check_scenario(empty)[1][0].message
    missing = tmp_path / "d.yaml"
    missing.write_text("version: '0.1'\nid: x\nname: X\n", encoding="utf-8")
    assert messages(missing) == ["'context' is missing here (it is required)", "'goal' is missing here (it is required)"]


def test_hint_expressions():
    node = parse_expression("stagnation >= 5 and (steps > 30 or not circular_navigation)")
    assert node.evaluate({"stagnation": 5, "steps": 3, "circular_navigation": 0})
    assert not node.evaluate({"stagnation": 4, "steps": 40})
    assert not parse_expression("circular_navigation").evaluate({"circular_navigation": 0})
    for bad, said in (("stagnation >=", "ends too early"), ("steps >= many", "must be followed by a number"),
                      ("__import__('os')", "cannot be read"), ("", "empty"), ("(steps > 1", "not closed")):
        with pytest.raises(ExpressionError, match=said):
            parse_expression(bad)


def test_the_validate_command(tmp_path, capsys):
    assert main(["validate", str(EXAMPLE)]) == 0
    assert "1 of 1 scenario file valid." in capsys.readouterr().err
    bad = broken(tmp_path, **{"max_steps: 40": "max_steps: -1"})
    assert main(["validate", str(EXAMPLE), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{bad}:38:14: 'constraints.max_steps': input should be greater than 0")
    assert "1 of 2 scenario files valid; 1 with problems." in err
    assert main(["validate", str(tmp_path / "nothing.yaml")]) == 2


def test_the_json_schema_accepts_what_validation_accepts(capsys):
    assert main(["scenario", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    example = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert not list(validator.iter_errors(example))
    example["constraints"]["max_stepz"] = 3
    assert any("max_stepz" in error.message for error in validator.iter_errors(example))
    assert "stagnation" in schema["$defs"]["HintTrigger"]["properties"]["when"]["description"]


@pytest.mark.parametrize(("start", "why"), [
    ("file:///etc/passwd", "a file: URL cannot be a scenario's start page"),
    ("javascript:alert(document.cookie)", "a javascript: URL cannot be"),
    ("chrome://version", "a chrome: URL cannot be"),
    ("//evil.example/login", "a scheme-relative address cannot be"),
    ("https://evil.example/login", "it is on https://evil.example, another origin than the app under test; name it "
                                   "in context.origins"),
])
def test_a_start_url_off_the_app_is_refused_with_its_line_and_why(tmp_path, capsys, start, why):
    path = broken(tmp_path, **{'"http://localhost:5173/login"': f'"{start}"'})
    assert main(["validate", str(path)]) == 1
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{path}:8:14: 'context.start_url': ") and why in line


def test_another_origin_is_a_start_page_only_when_the_context_names_it(tmp_path):
    from studio.scenarios.runner import start_url

    named = load_scenario(broken(tmp_path, **{'"http://localhost:5173/login"': '"https://sso.example.com/login"\n'
                                              '  origins: ["https://sso.example.com"]'}))
    assert start_url(named, "http://127.0.0.1:8000/") == "https://sso.example.com/login"
    seed = load_scenario(EXAMPLE)  # the seed's dev-server address: its path is opened on the app under test
    assert start_url(seed, "http://127.0.0.1:8000/") == "http://127.0.0.1:8000/login"


def test_a_parameter_a_data_endpoint_does_not_take_is_refused_with_its_line(tmp_path, capsys):
    path = broken(tmp_path, **{'params: { plan: "plus", requires2FA: true }':
                               'params: { pln: "plus", requires2FA: true, colour: red }',
                               'params: { tenant: "qa" }\n  \n  - name: "Create test user"':
                               'params: { tenant: "qa", scope: "all" }\n  \n  - name: "Create test user"'})
    _scenario, problems = check_scenario(path)
    assert [(p.line, p.column, p.message) for p in problems] == [
        (19, 15, "data.user.create does not take 'pln'; did you mean 'plan'?"),
        (19, 47, "data.user.create does not take 'colour'; it takes plan, requires2FA, email, password, role")]
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}:19:15: data.user.create does not take 'pln'")
    cleanup = broken(tmp_path, **{'on_failure: ignore': 'on_failure: ignore\n    store_as: env'})
    assert messages(cleanup) == [("'store_as' cannot be 'env': ${env.NAME} reads the environment variable NAME; "
                                  "choose another name")]


def test_an_environment_reference_is_valid_without_a_precondition(tmp_path):
    path = broken(tmp_path, **{'params: { tenant: "qa" }\n  \n  - name: "Create test user"':
                               'params: { tenant: "${env.QA_TENANT}" }\n  \n  - name: "Create test user"'})
    assert messages(path) == []
