"""The HTML report of a run (seed 004's structure): its title `Agentic Test Report - {timestamp}`, the seed's table
columns beside the studio's, the execution timeline showing a step's screenshot when the tester hovers it (checked
in the real Chromium: no screenshot is fetched before), and `--compare` drawing a line chart per metric over runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.scenarios.report import recomputed, render, write_report

STARTED = "2025-10-31T10:00:00.000Z"


def at(second: float) -> str:
    return f"2025-10-31T10:00:{second:06.3f}Z"


def run_log(run_id: str = "run_abc123", started: str = STARTED, failing: bool = True,
            shots: bool = True) -> list[dict]:
    """Two scenarios: sign-in (2 steps, screenshots after each and at the end) and offers (one run that fails)."""
    folder = "artifacts/login-1"

    def step(number: int, node: str, url: str, second: float, scenario: str = "login") -> dict:
        record = {"type": "step", "step": number, "scenarioId": scenario, "runNumber": 1,
                  "action": {"type": "ui.act.click", "params": {"nodeId": node}},
                  "observation": {"url": url, "nodeCount": 12}, "timestamp": at(second)}
        if shots and scenario == "login":
            record["screenshot"] = f"{folder}/step-{number:03d}.png"
        return record

    def end(scenario: str, status: str, steps: int, second: float, **extra: object) -> dict:
        return {"type": "scenario_end", "scenarioId": scenario, "status": status, "steps": steps,
                "duration": second - 1, "metrics": {"entropy": 1.0, "backtracks": 0 if status == "success" else 2,
                                                    "optimality": 1.0 if status == "success" else None, "ttfa": 1.5},
                "cost": 0.01, "tokens": 0, "message": "the goal's success conditions hold" if status == "success"
                else "the goal was not reached within max_steps (2)", "clicks": ["a", "b"],
                "urlHistory": ["/login", "/dashboard", "/credit-report"], "hintsUsed": [], "reusedSession": False,
                "runNumber": 1, "timestamp": at(second), **extra}

    records = [{"type": "run_start", "runId": run_id, "scenarios": ["login", "offers"], "timestamp": started},
               {"type": "scenario_start", "scenarioId": "login", "runNumber": 1, "timestamp": at(1)},
               step(1, "login-button", "http://127.0.0.1:5173/login", 3),
               step(2, "view-credit-report", "http://127.0.0.1:5173/dashboard", 6),
               end("login", "success", 2, 8, screenshots=[f"{folder}/step-001.png", f"{folder}/step-002.png",
                                                          f"{folder}/success.png"])]
    if failing:
        records += [{"type": "scenario_start", "scenarioId": "offers", "runNumber": 1, "timestamp": at(2)},
                    step(1, "offers-tile", "http://127.0.0.1:5173/dashboard", 4, "offers"),
                    end("offers", "failure", 2, 9, trace="artifacts/offers-1/trace.zip",
                        screenshots=["artifacts/offers-1/failure.png"])]
    records.append({"type": "run_end", "runId": run_id, "passRate": 0.5 if failing else 1.0, "totalDuration": 9,
                    "timestamp": at(9.5)})
    return records


def page_of(records: list[dict], earlier: list[list[dict]] | None = None) -> str:
    metrics, _ = recomputed(records)
    return render(records, metrics, earlier or [])


def write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_the_title_and_the_table_are_the_seeds():
    page = page_of(run_log())
    assert f"<title>Agentic Test Report - {STARTED}</title>" in page
    assert "<h1>Test Run: run_abc123</h1>" in page and "<script" not in page
    header = re.findall(r"<th>([^<]+)</th>", page.split('id="scenarios"')[1].split("</thead>")[0])
    seeds = ["Scenario", "Status", "Steps", "Duration", "Entropy", "Backtracks", "Actions"]
    assert [name for name in header if name in seeds] == seeds  # the seed's columns, in its order
    assert {"Pass rate", "Optimality"} <= set(header)  # the studio's beside them
    rows = {cells[0]: cells for cells in (re.findall(r"<td[^>]*>(.*?)</td>", row) for row in
                                          re.findall(r"<tr>(<td>.*?)</tr>", page))}
    status, actions = header.index("Status"), header.index("Actions")
    assert rows["login"][status] == "success" and rows["offers"][status] == "failure"
    # Actions: the drill-down of the scenario's runs, the trace and the final screenshot of the failed run
    assert 'href="#runs-offers"' in rows["offers"][actions]
    assert 'href="artifacts/offers-1/trace.zip"' in rows["offers"][actions]
    assert 'href="artifacts/offers-1/failure.png"' in rows["offers"][actions]
    assert 'id="runs-offers"' in page and 'id="run-offers-1"' in page


def test_each_timeline_step_shows_its_screenshot_on_hover_and_the_end_its_outcome():
    timeline = page_of(run_log()).split('id="timeline"')[1].split("</section>")[0]
    markers = re.findall(r'<a class="tl-step ([^"]*)" href="#([^"]+)" style="left:([\d.]+)%" aria-label="([^"]+)">'
                         r'<span class="tl-tip">(.*?)</span></a>', timeline)
    assert [(m[3], m[1]) for m in markers] == [
        ("login: step 1", "run-login-1"), ("login: step 2", "run-login-1"), ("login: success", "run-login-1"),
        ("offers: step 1", "run-offers-1"), ("offers: failure", "run-offers-1")]
    tips = {m[3]: m[4] for m in markers}
    assert '<img src="artifacts/login-1/step-001.png" loading="lazy"' in tips["login: step 1"]
    assert "ui.act.click" in tips["login: step 1"] and "/login" in tips["login: step 1"]
    assert '<img src="artifacts/login-1/success.png"' in tips["login: success"]  # the end shows the final page
    assert "No screenshot of this step" in tips["offers: step 1"]  # said, not an empty box
    assert '<img src="artifacts/offers-1/failure.png"' in tips["offers: failure"]
    assert "max_steps" in tips["offers: failure"]
    # one time axis: 1 s .. 9 s; login's first step at 3 s is a quarter of the way
    assert float(markers[0][2]) == pytest.approx(25.0)
    assert ".tl-step:hover .tl-tip" in page_of(run_log())  # shown on hover (and on focus), with no script


def test_compare_draws_a_trend_chart_per_metric_over_the_runs(tmp_path, capsys):
    first = write(tmp_path / "first" / "results.jsonl", run_log("run_first", "2025-10-30T10:00:00.000Z"))
    second = write(tmp_path / "second" / "results.jsonl", run_log("run_second", "2025-10-29T10:00:00.000Z",
                                                                   failing=False))
    now = write(tmp_path / "now" / "results.jsonl", run_log())
    assert main(["report", str(now), "--compare", str(first), str(second)]) == 0, capsys.readouterr()
    page = (tmp_path / "now" / "index.html").read_text(encoding="utf-8")
    section = page.split('<section id="comparison">')[1].split("</section>")[0]
    assert "<ul>" not in section and "<script" not in page  # a chart per metric, not a line of text; no JS, no CDN
    charts = re.findall(r'<div class="trend"><h3>(.*?)</h3><svg.*?</svg>', section)
    titles = [re.sub(r"<[^>]+>", "", title) for title in charts]
    assert titles[:5] == ["Pass rate target ≥ 0.95", "Median steps target ≤ 12", "Click entropy target ≤ 2.5",
                          "Backtracks target ≤ 2", "Path optimality target ≥ 0.75"]
    # the pass rate over the runs in the order they started: second (100 %), first (50 %), this run (50 %)
    pass_rate = section.split("</svg>")[0]
    overall = re.findall(r"<title>all scenarios · (\w+): ([\d.]+)</title>", pass_rate)
    assert overall == [("run_second", "1"), ("run_first", "0.5"), ("run_abc123", "0.5")]
    assert pass_rate.count('<polyline fill="none" stroke="#1d2430"') == 1  # the bold line through all three
    table = re.findall(r"<tr[^>]*><td>#(\d)</td><td>([^<]+)</td>", section)
    assert table == [("1", "run_second"), ("2", "run_first"), ("3", "run_abc123 (this run)")]


@pytest.mark.timeout(120)
async def test_in_chromium_a_hovered_step_shows_its_screenshot_fetched_only_then(page, tmp_path):
    # real screenshots of a small page, where a run would have written them
    out = tmp_path / "out"
    await page.set_content("<h1 style='font-size:90px'>Credit report</h1>")
    for name in ("step-001.png", "step-002.png", "success.png"):
        (out / "artifacts" / "login-1").mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(out / "artifacts" / "login-1" / name))
    log = write(out / "results.jsonl", run_log())
    report, _ = write_report(log, tmp_path / "elsewhere" / "report.html", [write(
        tmp_path / "before.jsonl", run_log("run_before", "2025-10-30T09:00:00.000Z", failing=False))])
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    await page.set_viewport_size({"width": 1366, "height": 900})
    await page.goto(report.as_uri())
    assert await page.title() == f"Agentic Test Report - {STARTED}"
    assert not [url for url in fetched if url.endswith(".png")]  # nothing fetched before a hover
    marker = page.locator("#timeline a.tl-step", has=page.locator('img[alt="login step 2"]'))
    tip = marker.locator(".tl-tip")
    assert not await tip.is_visible()
    await marker.hover()
    await tip.wait_for(state="visible")
    shot = tip.locator("img")
    await page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=await shot.element_handle())
    box = await shot.bounding_box()
    assert box is not None and box["width"] >= 300 and box["height"] >= 150
    [png] = [url for url in fetched if url.endswith(".png")]
    assert png.endswith("/out/artifacts/login-1/step-002.png")  # found relative to the report, written elsewhere
    # the comparison's charts are drawn: a line through the runs in every chart
    lines = page.locator("#comparison .trend svg polyline")
    assert await lines.count() >= 8
    assert all(width > 100 for width in [(await lines.nth(i).bounding_box() or {"width": 0})["width"]
                                         for i in range(await lines.count())])

