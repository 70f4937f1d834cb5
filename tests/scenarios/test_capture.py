"""What a scenario run keeps of itself, with a real Chromium against the embedded demo: screenshots per step and of
the end state as the scenario's observability.capture asks, referenced from the JSONL log; a Playwright trace with
--trace or when the scenario's capture asks for one (trace_on_failure); the report's drill-down showing the
screenshots, linked beside it; and a click the race preflight finds blocked, recorded on its step with the facts.
The runs skip the navigation crawl (--no-crawl): what is captured does not depend on it."""

from __future__ import annotations

import functools
import http.server
import re
import threading
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.scenarios.test_run import SCENARIOS, records, studio

pytestmark = pytest.mark.browser

PNG = b"\x89PNG\r\n\x1a\n"


def search_scenario(tmp_path: Path, capture: list[str]) -> Path:
    """The shipped help-centre search (two steps, no sign-in), capturing what `capture` says."""
    spec = yaml.safe_load((SCENARIOS / "smoke" / "search-help-centre.yaml").read_text(encoding="utf-8"))
    spec["observability"] = {"capture": capture}
    path = tmp_path / "search.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.timeout(200)
def test_screenshots_per_step_are_referenced_from_the_log_and_the_report(browser_info, tmp_path):
    path = search_scenario(tmp_path, ["screenshot_on_step", "screenshot_on_success", "dom_snapshot_on_success"])
    out = tmp_path / "out"
    done = studio("run", str(path), "--demo", "--repeat", "2", "--parallel", "2", "--no-crawl", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    log = records(out / "results.jsonl")
    steps = [r for r in log if r["type"] == "step"]
    ends = sorted((r for r in log if r["type"] == "scenario_end"), key=lambda r: r["runNumber"])
    assert [e["runNumber"] for e in ends] == [1, 2] and all(e["status"] == "success" for e in ends)
    assert steps and all(s.get("screenshot") for s in steps)
    for end in ends:
        own = [s for s in steps if s["runNumber"] == end["runNumber"]]
        folder = f"artifacts/search-help-centre-{end['runNumber']}"
        assert [s["screenshot"] for s in own] == [f"{folder}/step-{s['step']:03d}.png" for s in own]
        assert end["screenshots"] == [s["screenshot"] for s in own] + [f"{folder}/success.png"]
        for shot in end["screenshots"]:
            assert (out / shot).read_bytes().startswith(PNG), shot
        assert end["domSnapshot"] == f"{folder}/success.html"
        assert 'data-testid="help-result-count"' in (out / end["domSnapshot"]).read_text(encoding="utf-8")
        assert "trace" not in end

    # the report beside the log shows every screenshot as a lazy thumbnail linking to the full image
    page = (out / "index.html").read_text(encoding="utf-8")
    thumbnails = re.findall(r'<a class="shot" href="([^"]+)"[^>]*><img src="([^"]+)" loading="lazy"', page)
    assert sorted(src for _href, src in thumbnails) == sorted(s for e in ends for s in e["screenshots"])
    assert all(href == src and (out / src).is_file() for href, src in thumbnails)
    drilldowns = re.findall(r"<details>.*?</details>", page, re.DOTALL)
    assert len(drilldowns) == 2  # each run's steps with its own screenshots, though the two ran at once
    assert all(len({src.rsplit("/", 1)[0] for src in re.findall(r'<img src="([^"]+)"', block)}) == 1
               for block in drilldowns)
    # written elsewhere, the report still finds them (paths relative to where it is)
    report = studio("report", str(out / "results.jsonl"), "--out", str(tmp_path / "elsewhere" / "report.html"))
    assert report.returncode == 0, report.stdout + report.stderr
    moved = (tmp_path / "elsewhere" / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r'<img src="([^"]+)" loading="lazy"', moved)
    assert sources and all(src.startswith("../out/artifacts/") for src in sources)
    assert all((tmp_path / "elsewhere" / src).is_file() for src in sources)


@pytest.mark.timeout(200)
def test_the_default_capture_takes_no_screenshot_of_a_success(browser_info, tmp_path):
    path = search_scenario(tmp_path, ["screenshot_on_failure"])
    done = studio("run", str(path), "--demo", "--no-crawl", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    log = records(tmp_path / "out" / "results.jsonl")
    assert not any("screenshot" in r or "screenshots" in r or "trace" in r for r in log)
    assert not (tmp_path / "out" / "artifacts").exists()


def trace_entries(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        return archive.namelist()


@pytest.mark.timeout(200)
def test_trace_leaves_a_readable_trace_zip_per_scenario_run(browser_info, tmp_path):
    path = search_scenario(tmp_path, ["screenshot_on_failure"])
    out = tmp_path / "out"
    done = studio("run", str(path), "--demo", "--trace", "--no-crawl", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    [end] = [r for r in records(out / "results.jsonl") if r["type"] == "scenario_end"]
    assert end["trace"] == "artifacts/search-help-centre-1/trace.zip"
    names = trace_entries(out / end["trace"])
    assert "trace.trace" in names and "trace.network" in names
    assert any(name.startswith("screencast/") and name.endswith(".jpeg") for name in names)  # screenshots=True
    events = zipfile.ZipFile(out / end["trace"]).read("trace.trace").decode("utf-8")
    assert '"type":"frame-snapshot"' in events and "/help" in events  # snapshots=True: the demo's page


@pytest.mark.timeout(200)
def test_trace_on_failure_keeps_the_trace_and_a_screenshot_of_a_failed_run_only(browser_info, tmp_path):
    (tmp_path / "nowhere.yaml").write_text("""version: "0.1"
id: reach-nowhere
name: Reach a page that does not exist
context: { start_url: "/help" }
goal:
  description: "Open the quarterly tax statement"
  success: { conditions: [ { heading_text: "Quarterly tax statement" } ] }
constraints: { max_steps: 2 }
observability: { capture: [screenshot_on_failure, trace_on_failure] }
""", encoding="utf-8")
    search = search_scenario(tmp_path, ["trace_on_failure"])
    out = tmp_path / "out"
    done = studio("run", str(tmp_path / "nowhere.yaml"), str(search), "--demo", "--no-crawl", "--out", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    ends = {r["scenarioId"]: r for r in records(out / "results.jsonl") if r["type"] == "scenario_end"}
    failed, passed = ends["reach-nowhere"], ends["search-help-centre"]
    assert failed["status"] == "failure" and passed["status"] == "success"
    assert failed["trace"] == "artifacts/reach-nowhere-1/trace.zip" and "trace.trace" in trace_entries(
        out / failed["trace"])
    assert failed["screenshots"][-1] == "artifacts/reach-nowhere-1/failure.png"
    assert (out / failed["screenshots"][-1]).read_bytes().startswith(PNG)
    assert "trace" not in passed and not (out / "artifacts" / "search-help-centre-1").exists()


HOME = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><main>
<h1>Home</h1>
<div style="position: relative; width: 320px; height: 60px">
  <button data-testid="open-quarterly-report" style="width: 260px; height: 44px"
          onclick="location.href = 'report.html'">Open the quarterly report</button>
  <div data-testid="promo-banner" style="position: absolute; inset: 0; background: #fc0">Our new app is here</div>
</div>
<p><a href="report.html">Elsewhere</a></p>
</main></body></html>"""
REPORT = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Report</title></head><body>
<h1>Quarterly report</h1></body></html>"""


@pytest.fixture
def covered_site(tmp_path):
    """Two static pages served from a folder: a button under a banner that never goes away, and a link."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(HOME, encoding="utf-8")
    (site / "report.html").write_text(REPORT, encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.timeout(200)
def test_a_click_on_a_covered_element_records_the_race_facts_on_its_step(browser_info, covered_site, tmp_path):
    path = tmp_path / "covered.yaml"
    path.write_text("""version: "0.1"
id: open-the-quarterly-report
name: Open the quarterly report
context: { start_url: "/index.html" }
goal:
  description: "Open the quarterly report"
  success: { conditions: [ { heading_text: "Quarterly report" } ] }
constraints: { max_steps: 4 }
""", encoding="utf-8")
    out = tmp_path / "out"
    done = studio("run", str(path), "--base-url", covered_site, "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    log = records(out / "results.jsonl")
    first, second = [r for r in log if r["type"] == "step"]
    assert first["action"] == {"type": "ui.act.click", "params": {"nodeId": "open-quarterly-report"}}
    facts = first["blocked"]["facts"]
    [coverage] = [f for f in facts if f["type"] == "coverage"]
    assert coverage["elementAtPoint"]["testId"] == "promo-banner" and not coverage["isTargetOrDescendant"]
    assert coverage["targetElement"]["testId"] == "open-quarterly-report"
    assert "covered by div [data-testid=promo-banner]" in first["blocked"]["reason"]
    # the click did not happen (the page stayed), and the planner took the other way
    assert second["observation"]["url"].endswith("/index.html") and "blocked" not in second
    [end] = [r for r in log if r["type"] == "scenario_end"]
    assert end["status"] == "success" and end["urlHistory"] == ["/index.html", "/index.html", "/report.html"]
    assert '<div class="blocked">blocked: coverage: covered by div [data-testid=promo-banner]' in (
        out / "index.html").read_text(encoding="utf-8")
