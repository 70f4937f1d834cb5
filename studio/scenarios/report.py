"""`studio report RUN.jsonl`: the metrics recomputed from the log alone (checked against the ones the run wrote) and
a self-contained HTML report — summary, metric cards with their spread, the scenario table with each run's steps,
a timeline, and the navigation path graph of all runs (pages as nodes, transitions as edges weighted by count,
backtracks dashed, the shortest path to the goal drawn green). No script, style or image comes from the network."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from studio.scenarios.navgraph import edges_in
from studio.scenarios.summary import navigation_edges, scenario_metrics, shortest_path, transitions

STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1f3b57;color:#fff;padding:18px 28px}h1{margin:0 0 4px;font-size:22px}
section{background:#fff;margin:16px 28px;padding:14px 20px;border-radius:8px;box-shadow:0 1px 2px #0002}
h2{font-size:17px;margin:4px 0 12px}.cards{display:flex;gap:14px;flex-wrap:wrap}
.card{border:1px solid #dde2e8;border-radius:6px;padding:10px 14px;min-width:170px}
.card h3{margin:0;font-size:13px;color:#556}.value{font-size:24px;font-weight:600}.note{color:#667;font-size:12px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e4e7eb;padding:6px 8px;text-align:left}
.ok{color:#1a7f37;font-weight:600}.bad{color:#b42318;font-weight:600}details{margin:4px 0}
code{background:#f0f2f5;padding:1px 4px;border-radius:3px}svg text{font:12px system-ui,sans-serif}"""


class ReportError(Exception):
    """The log cannot be reported on; str() says why."""


def read_log(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ReportError(f"{path} does not exist. Give the results.jsonl a `studio run` wrote.") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ReportError(f"{path} line {number} is not JSON ({error.msg}).") from None
    if not any(r.get("type") == "scenario_end" for r in records):
        raise ReportError(f"{path} holds no scenario_end record: no scenario finished in that run.")
    return records


def recomputed(records: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """The per-scenario metrics from the scenario_end records, and how they differ from the run's own (if any)."""
    metrics = scenario_metrics([r for r in records if r.get("type") == "scenario_end"], edges_in(records))
    written = next((r.get("scenarioMetrics") for r in records if r.get("type") == "run_end"), None)
    differences = []
    if written is not None:
        for scenario_id in sorted(set(metrics) | set(written)):
            mine, theirs = metrics.get(scenario_id), written.get(scenario_id)
            if mine != theirs:
                differences.append(f"{scenario_id}: recomputed {mine} but the run wrote {theirs}")
    return metrics, differences


def _fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _bars(values: list[float]) -> str:
    """A tiny inline SVG of the values' spread (one bar per scenario)."""
    top = max(values, default=0) or 1
    bars = "".join(f'<rect x="{i * 14}" y="{30 - 28 * v / top:.1f}" width="10" height="{28 * v / top:.1f}" '
                   f'fill="#4a78a8"/>' for i, v in enumerate(values))
    return f'<svg width="{max(14 * len(values), 14)}" height="32" role="img" aria-label="spread">{bars}</svg>'


def path_graph(ends: list[dict[str, Any]], graph: set[tuple[str, str]] | None = None) -> str:
    """The navigation graph of all runs as an inline SVG laid out by distance from the start pages; the shortest
    path to each goal is searched in `graph` (the crawled edges) with the runs' transitions, and its edges no run
    took are drawn too (dotted)."""
    counted = transitions(ends)
    starts = sorted({(e.get("urlHistory") or ["/"])[0] for e in ends})
    goals = sorted({(e.get("urlHistory") or ["/"])[-1] for e in ends if e.get("status") == "success"})
    searched = navigation_edges(ends, graph or ())
    best: set[tuple[str, str]] = set()
    for start in starts:
        for goal in goals:
            path = shortest_path(searched, start, goal)
            if path is not None:
                best |= set(zip(path, path[1:]))
    for edge in best - set(counted):
        counted[edge] = 0  # on a shortest path, taken by no run
    depth: dict[str, int] = {s: 0 for s in starts}
    frontier = list(starts)
    while frontier:
        nxt = []
        for page in frontier:
            for a, b in sorted(counted):
                if a == page and b not in depth:
                    depth[b] = depth[page] + 1
                    nxt.append(b)
        frontier = nxt
    for a, b in counted:
        depth.setdefault(a, 0)
        depth.setdefault(b, depth[a] + 1)
    columns: dict[int, list[str]] = defaultdict(list)
    for page in sorted(depth, key=lambda p: (depth[p], p)):
        columns[depth[page]].append(page)
    pos = {page: (90 + 190 * d, 30 + 56 * i) for d, pages in columns.items() for i, page in enumerate(pages)}
    top = max(counted.values(), default=1) or 1
    lines = []
    for (a, b), n in sorted(counted.items()):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        back = depth[b] <= depth[a]
        colour = "#1a7f37" if (a, b) in best else ("#b42318" if back else "#7a8899")
        dash = ' stroke-dasharray="2 4"' if n == 0 else (' stroke-dasharray="5 4"' if back else "")
        lines.append(f'<line x1="{x1 + 70}" y1="{y1}" x2="{x2 - 70}" y2="{y2}" stroke="{colour}" '
                     f'stroke-width="{1 + 5 * n / top:.1f}"{dash}><title>{html.escape(a)} → {html.escape(b)}: {n}'
                     f"</title></line>")
    nodes = [f'<g><rect x="{x - 70}" y="{y - 16}" width="140" height="32" rx="6" fill="'
             f'{"#e3f3e7" if p in goals else "#eef2f6"}" stroke="#8796a8"/><text x="{x}" y="{y + 4}" '
             f'text-anchor="middle">{html.escape(p[:22])}</text></g>' for p, (x, y) in pos.items()]
    width = 80 + 190 * (max(columns, default=0) + 1)
    height = 40 + 56 * max((len(v) for v in columns.values()), default=1)
    return (f'<svg width="{width}" height="{height}" role="img" aria-label="navigation paths">'
            + "".join(lines) + "".join(nodes) + "</svg>")


def render(records: list[dict[str, Any]], metrics: dict[str, Any], earlier: list[list[dict[str, Any]]]) -> str:
    ends = [r for r in records if r.get("type") == "scenario_end"]
    run = next((r for r in records if r.get("type") == "run_start"), {})
    done = next((r for r in records if r.get("type") == "run_end"), {})
    passed = sum(1 for e in ends if e.get("status") == "success")
    steps_by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record.get("type") == "step":
            steps_by[str(record.get("scenarioId"))].append(record)
    cards = []
    for key, title, note in (("clickEntropy", "Click entropy", "< 2.0 clear · ≥ 3.5 confusing"),
                             ("medianBacktracks", "Backtracks", "≤ 2 acceptable"),
                             ("medianOptimality", "Path optimality", "≥ 0.75 target"),
                             ("medianTtfa", "Time to first action (s)", "< 5 s target"),
                             ("medianSteps", "Steps", "median per scenario")):
        values = [float(m[key]) for m in metrics.values() if m.get(key) is not None]
        middle = sorted(values)[len(values) // 2] if values else None
        cards.append(f'<div class="card"><h3>{title}</h3><div class="value">{_fmt(middle)}</div>'
                     f'{_bars(values)}<div class="note">{note}</div></div>')
    rows = []
    for scenario_id, m in metrics.items():
        runs = [e for e in ends if e.get("scenarioId") == scenario_id]
        details = "".join(
            f"<details><summary>run {i + 1}: <span class=\"{'ok' if e.get('status') == 'success' else 'bad'}\">"
            f"{html.escape(str(e.get('status')))}</span> in {e.get('steps')} steps — "
            f"{html.escape(str(e.get('message', '')))}</summary><ol>"
            + "".join(f"<li><code>{html.escape(s['action']['type'])}</code> "
                      f"{html.escape(json.dumps(s['action'].get('params', {}), ensure_ascii=False)[:120])} on "
                      f"{html.escape(s['observation']['url'])}</li>" for s in _steps_of(steps_by[scenario_id], i))
            + "</ol></details>" for i, e in enumerate(runs))
        status = "ok" if m["passRate"] == 1 else "bad"
        rows.append(f"<tr><td>{html.escape(scenario_id)}{details}</td><td class=\"{status}\">{m['passRate']:.0%}"
                    f"</td><td>{_fmt(m['medianSteps'], 1)}</td><td>{_fmt(m['medianDuration'], 1)} s</td>"
                    f"<td>{_fmt(m['clickEntropy'])}</td><td>{_fmt(m['medianBacktracks'], 1)}</td>"
                    f"<td>{_fmt(m['medianOptimality'])}</td></tr>")
    timeline = _timeline(records)
    comparison = ""
    if earlier:
        items = []
        for other in earlier:
            other_ends = [r for r in other if r.get("type") == "scenario_end"]
            rate = sum(1 for e in other_ends if e.get("status") == "success") / max(1, len(other_ends))
            first = next((r for r in other if r.get("type") == "run_start"), {})
            items.append(f"<li>{html.escape(str(first.get('runId', '?')))}: pass rate {rate:.0%}, "
                         f"{len(other_ends)} scenario runs</li>")
        comparison = f"<section id=\"comparison\"><h2>Run-over-run comparison</h2><ul>{''.join(items)}</ul></section>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Goal scenarios report - {html.escape(str(run.get('runId', '')))}</title>
<style>{STYLE}</style></head><body>
<header><h1>Test Run: {html.escape(str(run.get('runId', '?')))}</h1>
<div class="summary">Pass Rate: {passed / max(1, len(ends)):.0%} | Scenarios: {len(metrics)} ({len(ends)} runs) |
Duration: {_fmt(done.get('totalDuration'), 1)} s</div></header>
<section id="metrics"><h2>Aggregate metrics</h2><div class="cards">{''.join(cards)}</div></section>
<section id="scenarios"><h2>Scenario results</h2><table><thead><tr><th>Scenario</th><th>Passed</th><th>Steps</th>
<th>Duration</th><th>Entropy</th><th>Backtracks</th><th>Optimality</th></tr></thead><tbody>{''.join(rows)}</tbody>
</table></section>
<section id="timeline"><h2>Execution timeline</h2>{timeline}</section>
<section id="path-tree"><h2>Navigation paths</h2><p class="note">Pages as nodes, transitions as edges (thicker: taken
more often); dashed red: a step back to a page as near the start or nearer; green: the shortest path to the goal in
the navigation graph (dotted where no run took it). {html.escape(_graph_note(records))}</p>
{path_graph(ends, edges_in(records))}</section>
{comparison}
</body></html>"""


def _graph_note(records: list[dict[str, Any]]) -> str:
    graphs = [r["navGraph"] for r in records if isinstance(r.get("navGraph"), dict)]
    if not graphs:
        return "The run built no navigation graph: shortest paths use the runs' own transitions."
    return f"Navigation graph: {graphs[-1].get('note') or 'no note'}."


def _steps_of(steps: list[dict[str, Any]], run_index: int) -> list[dict[str, Any]]:
    """The steps of the `run_index`-th run of a scenario (a run's steps start again at 1)."""
    runs: list[list[dict[str, Any]]] = []
    for step in steps:
        if step.get("step") == 1 or not runs:
            runs.append([])
        runs[-1].append(step)
    return runs[run_index] if run_index < len(runs) else []


def _timeline(records: list[dict[str, Any]]) -> str:
    starts: dict[str, list[float]] = defaultdict(list)
    spans = []
    for record in records:
        when = record.get("timestamp")
        if not when:
            continue
        t = datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()
        if record.get("type") == "scenario_start":
            starts[str(record["scenarioId"])].append(t)
        elif record.get("type") == "scenario_end" and starts[str(record["scenarioId"])]:
            spans.append((str(record["scenarioId"]), starts[str(record["scenarioId"])].pop(0), t,
                          record.get("status") == "success"))
    if not spans:
        return "<p>No timed scenarios.</p>"
    first, last = min(s[1] for s in spans), max(s[2] for s in spans)
    scale = 700 / max(last - first, 0.001)
    bars = "".join(f'<rect x="{160 + (a - first) * scale:.1f}" y="{8 + 22 * i}" width="{max(2.0, (b - a) * scale):.1f}" '
                   f'height="16" fill="{"#3c8d5a" if ok else "#c2453a"}"><title>{html.escape(name)}: {b - a:.1f} s'
                   f'</title></rect><text x="4" y="{20 + 22 * i}">{html.escape(name[:24])}</text>'
                   for i, (name, a, b, ok) in enumerate(spans))
    return f'<svg width="880" height="{16 + 22 * len(spans)}" role="img" aria-label="timeline">{bars}</svg>'


def write_report(log: Path, out: Path, compare: list[Path]) -> tuple[Path, list[str]]:
    records = read_log(log)
    metrics, differences = recomputed(records)
    earlier = [read_log(path) for path in compare]
    out.write_text(render(records, metrics, earlier), encoding="utf-8")
    return out, differences
