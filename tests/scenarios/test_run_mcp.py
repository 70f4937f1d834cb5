"""`studio run` with seed 004's servers apart, each a real `studio mcp … --http` process on loopback spoken to with
the SDK's client: the sign-in → credit report scenario passes with its data calls on an MCP-Data server
(--mcp-data, which logs them) and with its browser on an MCP-Web server (--mcp-web); the dispute wizard, which
needs a choice in a select and one radio of a group, passes through the MCP-Web server too (its nodes carry the seed's
six roles, the precise one as ariaRole); an MCP-Data address where nothing listens is one line and exit 2, before
anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.conftest import closed_port
from tests.mcp.http_servers import HttpToolServer
from tests.scenarios.test_run import SCENARIOS, records, studio

SCENARIO = SCENARIOS / "smoke" / "login-and-open-credit-report.yaml"

pytestmark = pytest.mark.browser


def ended(out: Path) -> dict:
    [end] = [r for r in records(out / "results.jsonl") if r["type"] == "scenario_end"]
    return end


@pytest.mark.timeout(240)
@pytest.mark.slow
def test_the_data_calls_go_to_the_mcp_data_server(demo, browser_info, tmp_path):
    log = tmp_path / "data.log"
    with HttpToolServer("-v", "mcp", "--data-tools", "--app-url", demo.base_url, log=log) as data:
        done = studio("run", str(SCENARIO), "--base-url", demo.base_url, "--mcp-data", data.url,
                      "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert ended(tmp_path / "out")["status"] == "success"
    said = log.read_text()
    assert "data.user.create answered" in said and "data.user.get answered" in said, said


@pytest.mark.timeout(300)
def test_the_browser_is_the_mcp_web_servers(demo, browser_info, tmp_path, monkeypatch):
    with HttpToolServer("mcp", "--web-tools", "--app-url", demo.base_url, log=tmp_path / "web.log") as web, \
            HttpToolServer("mcp", "--data-tools", "--app-url", demo.base_url, log=tmp_path / "data.log") as data:
        monkeypatch.setenv("STUDIO_BROWSER", str(tmp_path / "no-browser-here"))  # `studio run` cannot launch one
        done = studio("run", str(SCENARIO), "--base-url", demo.base_url, "--mcp-web", web.url, "--mcp-data",
                      data.url, "--repeat", "2", "--session-reuse", "--parallel", "2", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "one at a time" in done.stdout
    log = records(tmp_path / "out" / "results.jsonl")
    cold, warm = [r for r in log if r["type"] == "scenario_end"]
    assert cold["status"] == warm["status"] == "success"
    assert not cold["reusedSession"] and warm["reusedSession"] and warm["steps"] < cold["steps"] <= 12
    steps = [r for r in log if r["type"] == "step"]
    assert steps and all(r["action"]["type"].startswith("ui.act.") for r in steps)
    assert steps[0]["observation"]["url"].endswith("/login") and steps[0]["observation"]["nodeCount"] > 0


@pytest.mark.timeout(300)
def test_a_wizard_with_a_select_and_radios_passes_through_the_mcp_web_server(demo, browser_info, tmp_path):
    with HttpToolServer("mcp", "--scenario-tools", "--app-url", demo.base_url, log=tmp_path / "mcp.log") as tools:
        done = studio("run", str(SCENARIOS / "regression" / "file-a-dispute.yaml"), "--base-url", demo.base_url,
                      "--mcp-web", tools.url, "--mcp-data", tools.url, "--no-crawl", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert ended(tmp_path / "out")["status"] == "success"
    steps = [r for r in records(tmp_path / "out" / "results.jsonl") if r["type"] == "step"]
    done_by = {(r["action"]["type"], r["action"]["params"].get("nodeId")) for r in steps}
    assert ("ui.act.select", "account-select") in done_by  # the planner saw a combobox (ariaRole), not a textbox
    assert any(kind == "ui.act.check" and str(node).startswith("reason-") for kind, node in done_by)  # and radios
    assert not [r for r in steps if r.get("blocked")], [r["blocked"] for r in steps if r.get("blocked")]


def test_an_unreachable_mcp_data_server_is_one_line(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}"
    done = studio("run", str(SCENARIO), "--demo", "--mcp-data", url, "--out", str(tmp_path / "out"), timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"error: The MCP-Data server at {url}/mcp could not be reached") and \
        "studio mcp --data-tools" in line, line
    assert "Traceback" not in done.stderr and not (tmp_path / "out" / "results.jsonl").exists()
