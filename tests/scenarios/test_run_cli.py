"""`studio run`'s seed flags: --mcp-web / --mcp-data alone take the seed's addresses, and --openai-key plans with
the model using that key — which the real openai client sends to a scripted server, and which appears in no file the
run writes (results, report, summary, artifacts), in no log or console line, nor in the settings or project file."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import zipfile
from argparse import Namespace
from pathlib import Path

import pytest

from studio.cli.main import build_parser
from studio.cli.scenario_run import MCP_DATA_DEFAULT, MCP_WEB_DEFAULT, OPENAI_BASE_URL, _model
from tests.llm.scripted_server import ScriptedLLM, json_reply

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "projects" / "demo-fintech" / "scenarios"
KEY = "sk-test-openai-key-NEVER-WRITTEN-7f3a"


def test_the_mcp_flags_alone_take_the_seeds_addresses():
    parse = build_parser().parse_args
    alone = parse(["run", "a.yaml", "--demo", "--mcp-web", "--mcp-data"])
    assert (alone.mcp_web, alone.mcp_data) == ("http://localhost:7001", "http://localhost:7002")
    assert (MCP_WEB_DEFAULT, MCP_DATA_DEFAULT) == (alone.mcp_web, alone.mcp_data)
    given = parse(["run", "a.yaml", "--mcp-web", "http://10.0.0.5:9001", "--mcp-data=http://10.0.0.5:9002"])
    assert (given.mcp_web, given.mcp_data) == ("http://10.0.0.5:9001", "http://10.0.0.5:9002")
    absent = parse(["run", "a.yaml", "--demo"])
    assert absent.mcp_web is None and absent.mcp_data is None and absent.openai_key is None


def test_an_mcp_flag_that_swallowed_a_scenario_file_says_so(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text((Path(__file__).with_name("seed_example.yaml")).read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "studio", "run", "--demo", "--mcp-web", str(path), str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ), check=False)
    assert done.returncode == 2
    assert "--mcp-web takes an http(s) address" in done.stderr and "--mcp-web=URL" in done.stderr


def model_args(**given: object) -> Namespace:
    return Namespace(**{"no_model": False, "model": None, "openai_key": None, **given})


def test_openai_key_without_an_endpoint_plans_with_openai(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDIO_CONFIG_DIR", str(tmp_path))  # no model configured
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert _model(model_args()) is None  # the deterministic planner, as before
    model = _model(model_args(openai_key=KEY))
    assert model is not None and model.base_url == OPENAI_BASE_URL
    asyncio.run(model.aclose())


@pytest.mark.browser
@pytest.mark.timeout(200)
def test_the_openai_key_is_used_and_never_written(browser_info, tmp_path):
    from studio.store.project import ProjectFile

    config = tmp_path / "config"
    config.mkdir()
    project = tmp_path / "app.studio"
    ProjectFile.create(project).close()
    out = tmp_path / "out"
    with ScriptedLLM() as llm:
        (config / "settings.json").write_text(json.dumps({"llm": {"base_url": llm.base_url, "timeout_s": 5}}),
                                              encoding="utf-8")
        llm.queue(json_reply({"reasoning": "search the help centre", "action": {
            "type": "ui.act.type", "params": {"nodeId": "help-search", "text": "dispute", "submit": True}}}))
        env = {**os.environ, "STUDIO_CONFIG_DIR": str(config)}
        env.pop("OPENAI_API_KEY", None)
        done = subprocess.run(
            [sys.executable, "-m", "studio", "-v", "run", str(SCENARIOS / "smoke" / "search-help-centre.yaml"),
             "--demo", "--no-crawl", "--trace", "--project", str(project), "--out", str(out), "--openai-key", KEY],
            capture_output=True, text=True, cwd=ROOT, timeout=180, env=env, check=False)
        requests = llm.requests
    assert done.returncode == 0, done.stdout + done.stderr
    # the model planned the step, and the key went to it as the bearer token
    assert requests and all(r.headers.get("Authorization") == f"Bearer {KEY}" for r in requests)
    log = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(r["type"] == "step" and r.get("reasoning", "").startswith("model:") for r in log)
    # ...and it is nowhere the run wrote, nor in what it printed or logged
    written = [p for p in out.rglob("*") if p.is_file()]
    assert {"results.jsonl", "index.html", "summary.json"} <= {p.name for p in written}
    assert any(p.name == "trace.zip" for p in written)
    for path in [*written, project, *config.rglob("*.json")]:
        assert KEY.encode() not in path.read_bytes(), path
        if path.suffix == ".zip":  # compressed: each member read as it is stored
            with zipfile.ZipFile(path) as archive:
                assert not [m for m in archive.namelist() if KEY.encode() in archive.read(m)], path
    assert KEY not in done.stdout and KEY not in done.stderr
