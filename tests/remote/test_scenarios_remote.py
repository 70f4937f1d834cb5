"""`studio run --parallel 2 --browser-endpoint URL`: the goal scenarios' browsers run on a Playwright browser server
on loopback (`playwright run-server`), two scenarios at a time, and no Chromium is launched below the studio's own
process; a server that cannot launch a browser, or that does not answer, is one sentence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.mcp.conftest import descendants
from tests.remote.test_remote_browser import ROOT, studio

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "scenarios"


@pytest.mark.timeout(300)
@pytest.mark.slow
def test_two_scenarios_at_a_time_run_on_the_browser_server(browser_server, tmp_path):
    chosen = [str(SCENARIOS / "smoke" / "search-help-centre.yaml"), str(SCENARIOS / "exploration" / "open-an-offer.yaml"),
              str(SCENARIOS / "smoke" / "login-and-open-credit-report.yaml")]
    process = subprocess.Popen([sys.executable, "-m", "studio", "run", *chosen, "--demo", "--parallel", "2",
                                "--browser-endpoint", browser_server.url, "--out", str(tmp_path)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
    local, remote = set(), set()
    deadline = time.monotonic() + 280
    while process.poll() is None and time.monotonic() < deadline:
        local |= {name for name in descendants(process.pid).values() if "chrom" in name}
        remote |= {name for name in descendants(browser_server.pid).values() if "chrom" in name}
        time.sleep(0.2)
    output = process.communicate(timeout=30)[0]
    assert process.returncode == 0, output
    assert "Pass Rate: 100% (3/3)" in output
    assert remote and not local  # the browsers ran under the server, none under the studio
    ends = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
            if '"scenario_end"' in line]
    assert sorted(e["scenarioId"] for e in ends) == ["login-and-open-credit-report", "open-an-offer",
                                                     "search-help-centre"]
    assert all(e["status"] == "success" for e in ends)


def test_a_browser_server_with_no_browser_to_launch_is_one_sentence(browser_server, tmp_path):
    done = studio("run", str(SCENARIOS / "smoke" / "search-help-centre.yaml"), "--demo", "--browser-endpoint",
                  browser_server.url, "--out", str(tmp_path),
                  env={"STUDIO_BROWSER": str(tmp_path / "no-such-chromium")}, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "has no browser to launch" in done.stderr, done.stderr


def test_an_unreachable_browser_server_is_one_sentence(tmp_path):
    done = studio("run", str(SCENARIOS / "smoke" / "search-help-centre.yaml"), "--demo", "--browser-endpoint",
                  "ws://127.0.0.1:9/", "--out", str(tmp_path), timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "127.0.0.1:9" in done.stdout + done.stderr
