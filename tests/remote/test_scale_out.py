"""Goal scenarios on several Playwright browser servers (`studio run --browser-endpoint URL` repeated, or a file of
them): each scenario goes to the least busy server, so two servers are both used; a server killed mid-run costs only
its scenario, which runs once more on the other server and says so (a console line, a scenario_retry record, the
end's retriedFrom); and a scenario whose only server dies ends with an error that says so, never hangs."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.remote.test_remote_browser import ROOT, studio

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "scenarios"
SEARCH = SCENARIOS / "smoke" / "search-help-centre.yaml"  # two short steps, no sign-in
LOGIN = SCENARIOS / "smoke" / "login-and-open-credit-report.yaml"  # six steps: long enough to die in


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.timeout(180)
def test_two_browser_servers_are_both_used(two_browser_servers, demo, tmp_path):
    first, second = two_browser_servers
    listing = tmp_path / "servers.txt"
    listing.write_text(f"# the second server, from a file\n\n{second.url}\n", encoding="utf-8")
    done = studio("run", str(SEARCH), "--base-url", demo.base_url, "--repeat", "2", "--parallel", "2", "--no-crawl",
                  "--browser-endpoint", first.url, "--browser-endpoints", str(listing), "--out", str(tmp_path / "out"),
                  timeout=170)
    assert done.returncode == 0, done.stdout + done.stderr
    ends = [r for r in records(tmp_path / "out" / "results.jsonl") if r["type"] == "scenario_end"]
    assert sorted(e["browser"] for e in ends) == sorted([first.url, second.url])  # one run on each
    assert all(e["status"] == "success" and "retriedFrom" not in e for e in ends)


@pytest.mark.timeout(240)
def test_a_server_killed_mid_run_costs_only_its_scenario(two_browser_servers, demo, tmp_path):
    first, second = two_browser_servers
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "studio", "run", str(LOGIN), "--base-url", demo.base_url,
                                "--repeat", "2", "--parallel", "2", "--no-crawl", "--browser-endpoint", first.url,
                                "--browser-endpoint", second.url, "--out", str(out)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
    killed = False
    deadline = time.monotonic() + 200
    while process.poll() is None and not killed and time.monotonic() < deadline:
        log = out / "results.jsonl"
        acting = {r.get("runNumber") for r in records(log) if r["type"] == "step"} if log.exists() else set()
        if acting == {1, 2}:  # both runs are on their pages, one on each server: kill the first server
            first.kill()
            killed = True
        time.sleep(0.05)
    output = process.communicate(timeout=200)[0]
    assert killed, output
    assert process.returncode == 0, output  # the lost run passed on the other server
    log = records(out / "results.jsonl")
    [retry] = [r for r in log if r["type"] == "scenario_retry"]
    assert retry["browser"] == first.url and "went away during the run" in retry["message"], retry
    ends = {r["runNumber"]: r for r in log if r["type"] == "scenario_end"}
    assert sorted(ends) == [1, 2] and all(e["status"] == "success" for e in ends.values())
    again, other = ends[retry["runNumber"]], ends[3 - retry["runNumber"]]
    assert again["retriedFrom"] == first.url and again["browser"] == second.url
    assert other["browser"] == second.url and "retriedFrom" not in other
    assert f"↻ login-and-open-credit-report: the browser at {first.url} went away during the run" in output
    assert "Pass Rate: 100% (2/2)" in output and log[-1]["type"] == "run_end"


@pytest.mark.timeout(120)
async def test_a_scenario_whose_only_server_dies_ends_with_an_error(browser_info, demo, tmp_path):
    from studio.runtime import EngineRuntime
    from studio.scenarios.batch import BatchHooks, BatchOptions, run_batch
    from studio.scenarios.driver import LocalScenarioPages
    from studio.scenarios.validation import load_scenario
    from studio.settings import StudioSettings
    from tests.remote.conftest import running_server

    lines: list[str] = []
    with running_server() as server:
        def kill_on_the_first_step(record: dict) -> None:
            if record["type"] == "step":
                server.kill()

        async with EngineRuntime(StudioSettings(), record=False, browser_endpoints=[server.url]) as runtime:
            hooks = BatchHooks(pages=LocalScenarioPages.on(runtime), record=kill_on_the_first_step)
            batch = await asyncio.wait_for(run_batch([load_scenario(LOGIN)], BatchOptions(
                base_url=demo.base_url, out=tmp_path, crawl=False), lines.append, hooks), 90)
    [result] = batch.results
    assert result.status == "error" and result.browser == server.url
    assert result.message.startswith(f"the browser at {server.url} went away during the run"), result.message
    log = records(tmp_path / "results.jsonl")
    assert [r["type"] for r in log][-2:] == ["scenario_end", "run_end"] and not any(
        r["type"] == "scenario_retry" for r in log)
    assert any("✗ login-and-open-credit-report" in line for line in lines), lines
