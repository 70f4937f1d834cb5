"""The report's run-over-run comparison (`studio report RUN.jsonl --compare EARLIER.jsonl…`, seed 004: "line charts
showing metric trends across runs"): one inline-SVG line chart per metric over the runs in the order they started
— a bold line for all scenarios (their median; the pass rate over every scenario run), a thin line per scenario,
the seed's target dashed — and a table of the same numbers. The values come from the records the seed names:
scenario_end's status, steps, duration, cost and metrics.entropy / backtracks / optimality / ttfa."""

from __future__ import annotations

import html
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from studio.scenarios.metrics import median

TREND_STYLE = """.trend-charts{display:flex;flex-wrap:wrap;gap:14px}.trend{border:1px solid #dde2e8;border-radius:6px;
padding:8px 10px}.trend h3{margin:0 0 2px;font-size:13px;color:#556}.legend{display:flex;flex-wrap:wrap;gap:4px 14px;
margin:10px 0;font-size:12px}.legend i{display:inline-block;width:18px;height:3px;vertical-align:middle;
margin-right:5px}.legend i.all{height:4px;background:#1d2430}.current td{font-weight:600}.trend .target{color:#1a7f37;
font-weight:400}.trend-table td{white-space:nowrap}"""

# key, title, the seed's target, whether the target is a floor ("min") or a ceiling ("max"), a fixed 0..1 scale
TRENDS: tuple[tuple[str, str, float | None, str, bool], ...] = (
    ("passRate", "Pass rate", 0.95, "min", True),
    ("medianSteps", "Median steps", 12, "max", False),
    ("entropy", "Click entropy", 2.5, "max", False),
    ("backtracks", "Backtracks", 2, "max", False),
    ("optimality", "Path optimality", 0.75, "min", True),
    ("ttfa", "Time to first action (s)", 5, "max", False),
    ("medianDuration", "Median duration (s)", None, "max", False),
    ("totalCost", "Total cost (USD)", None, "max", False),
)
PALETTE = ("#4a78a8", "#d08a00", "#3c8d5a", "#b04a9a", "#c2453a", "#2a9d9d", "#7a5cc4", "#8a6d3b")
W, H, LEFT, RIGHT, TOP, BOTTOM = 300, 150, 40, 12, 12, 24
BOLD, CURRENT = ' font-weight="bold"', ' class="current"'


@dataclass
class RunPoint:
    """One run's numbers: over all its scenario runs, and per scenario."""

    run_id: str
    started: str
    current: bool
    overall: dict[str, float | None] = field(default_factory=dict)
    per_scenario: dict[str, dict[str, float | None]] = field(default_factory=dict)


def _numbers(ends: list[dict[str, Any]]) -> dict[str, float | None]:
    def metric(name: str) -> list[float]:
        return [float(v) for e in ends if isinstance(v := (e.get("metrics") or {}).get(name), int | float)]

    return {
        "passRate": sum(e.get("status") == "success" for e in ends) / len(ends) if ends else None,
        "medianSteps": median([float(e.get("steps") or 0) for e in ends]),
        "medianDuration": median([float(e.get("duration") or 0) for e in ends]),
        "totalCost": round(sum(float(e.get("cost") or 0) for e in ends), 4) if ends else None,
        **{name: median(metric(name)) for name in ("entropy", "backtracks", "optimality", "ttfa")},
    }


def run_point(records: list[dict[str, Any]], current: bool = False) -> RunPoint:
    start = next((r for r in records if r.get("type") == "run_start"), {})
    ends = [r for r in records if r.get("type") == "scenario_end"]
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for end in ends:
        by[str(end.get("scenarioId"))].append(end)
    return RunPoint(str(start.get("runId", "?")), str(start.get("timestamp", "")), current, _numbers(ends),
                    {scenario: _numbers(own) for scenario, own in sorted(by.items())})


def _nice(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k above `value` with some room (1 for nothing above 0)."""
    if value <= 0:
        return 1.0
    scale = 10 ** math.floor(math.log10(value * 1.1))
    return next(m * scale for m in (1, 2, 2.5, 5, 10) if m * scale >= value * 1.1)


def _fmt(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _cell(key: str, value: float | None) -> str:
    return f"{value:.0%}" if key == "passRate" and value is not None else _fmt(value)


def _chart(key: str, title: str, target: float | None, floor: str, unit_scale: bool, points: list[RunPoint],
           colours: dict[str, str]) -> str:
    values = [v for p in points for v in (p.overall.get(key), *(s.get(key) for s in p.per_scenario.values()))
              if v is not None]
    top = 1.0 if unit_scale else _nice(max([*values, target or 0]))
    inner_w, inner_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (inner_w / 2 if len(points) == 1 else inner_w * i / (len(points) - 1))

    def y(v: float) -> float:
        return TOP + inner_h * (1 - min(v, top) / top)

    def line(series: list[float | None], colour: str, width: float, name: str) -> str:
        drawn: list[str] = []
        segment: list[tuple[float, float]] = []
        for i, v in enumerate([*series, None]):
            if v is None:
                if len(segment) > 1:
                    drawn.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{width}" points="'
                                 + " ".join(f"{px:.1f},{py:.1f}" for px, py in segment) + '"/>')
                segment = []
                continue
            segment.append((x(i), y(v)))
        dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{width + 1.5:.1f}" fill="{colour}"><title>'
                       f'{html.escape(name)} · {html.escape(points[i].run_id)}: {_fmt(v)}</title></circle>'
                       for i, v in enumerate(series) if v is not None)
        return "".join(drawn) + dots

    grid = "".join(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e4e7eb"/>'
                   f'<text x="{LEFT - 5}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#667">{_fmt(v)}</text>'
                   for v in (0.0, top / 2, top))
    xs = "".join(f'<text x="{x(i):.1f}" y="{H - 6}" text-anchor="middle" fill="#667"'
                 f'{BOLD if p.current else ""}>#{i + 1}<title>{html.escape(p.run_id)} {html.escape(p.started)}'
                 f"</title></text>" for i, p in enumerate(points))
    goal, wanted = "", ""
    if target is not None:
        wanted = f' <span class="target">target {"≥" if floor == "min" else "≤"} {_fmt(target)}</span>'
        goal = (f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(target):.1f}" y2="{y(target):.1f}" stroke="#1a7f37" '
                f'stroke-dasharray="4 3"><title>target {_fmt(target)}</title></line>')
    scenario_lines = "".join(line([p.per_scenario.get(s, {}).get(key) for p in points], colour, 1.2, s)
                             for s, colour in colours.items())
    overall = line([p.overall.get(key) for p in points], "#1d2430", 2.5, "all scenarios")
    missing = "" if values else (f'<text x="{LEFT + inner_w / 2:.1f}" y="{TOP + inner_h / 2:.1f}" '
                                 f'text-anchor="middle" fill="#667">no values in these runs</text>')
    return (f'<div class="trend"><h3>{html.escape(title)}{wanted}</h3><svg width="{W}" height="{H}" role="img" '
            f'aria-label="{html.escape(title)} over runs">{grid}{goal}{scenario_lines}{overall}{xs}{missing}'
            f"</svg></div>")


def comparison(current: list[dict[str, Any]], earlier: list[list[dict[str, Any]]]) -> str:
    """The comparison section: a chart per metric and the table, runs in the order they started (a run without a
    start time keeps its place in the order given, this run last)."""
    given = [run_point(records) for records in earlier] + [run_point(current, current=True)]
    points = sorted(given, key=lambda p: p.started) if all(p.started for p in given) else given
    scenarios = sorted({s for p in points for s in p.per_scenario})
    colours = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(scenarios)}
    charts = "".join(_chart(*trend, points, colours) for trend in TRENDS)
    legend = ('<div class="legend"><span><i class="all"></i>all scenarios (median; pass rate over all runs)</span>'
              + "".join(f'<span><i style="background:{c}"></i>{html.escape(name)}</span>' for name, c in colours.items())
              + '<span><i style="background:repeating-linear-gradient(90deg,#1a7f37 0 4px,transparent 4px 7px)">'
                "</i>the seed's target</span></div>")
    head = "".join(f"<th>{html.escape(title)}</th>" for _key, title, *_rest in TRENDS)
    rows = "".join(
        f'<tr{CURRENT if p.current else ""}><td>#{i + 1}</td>'
        f"<td>{html.escape(p.run_id)}{' (this run)' if p.current else ''}</td>"
        f"<td>{html.escape(p.started.replace('T', ' ')[:19])}</td>"
        + "".join(f"<td>{_cell(key, p.overall.get(key))}</td>" for key, *_rest in TRENDS) + "</tr>"
        for i, p in enumerate(points))
    return (f'<section id="comparison"><h2>Run-over-Run Comparison</h2><p class="note">{len(points)} runs in the '
            f"order they started; hover a point for its run and value.</p>{legend}"
            f'<div class="trend-charts">{charts}</div><table class="trend-table"><thead><tr><th>Run</th><th>Id</th>'
            f"<th>Started</th>{head}</tr></thead><tbody>{rows}</tbody></table></section>")
