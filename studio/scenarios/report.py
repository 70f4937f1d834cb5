"""`studio report RUN.jsonl`: the metrics recomputed from the log alone (checked against the ones the run wrote) and
a self-contained HTML report in the seed's structure (`<title>Agentic Test Report - {timestamp}</title>`, the run's
start): summary, metric cards with their spread, the scenario table (the seed's columns Scenario, Status, Steps,
Duration, Entropy, Backtracks, Actions, with the studio's pass rate and path optimality beside them) with each run's
steps, the execution timeline with each step's screenshot on hover (report_timeline.py), the navigation path graph
of all runs (pages as nodes, transitions as edges weighted by count, backtracks dashed, the shortest path to the goal
drawn green) and, with --compare, trend line charts of the metrics over runs (report_trends.py). No script, style
or image comes from the network, and the page runs no script.

A run's screenshots (studio.scenarios.capture) are linked, not inlined: a thumbnail (loading="lazy", so only the
drill-downs opened load theirs) that opens the full image, at its path relative to the report. A batch of 5 scenarios
× 20 runs × a dozen steps is over a thousand screenshots; as data: URIs they would make the HTML hundreds of MB, parsed
in full before anything shows, and lazy loading would gain nothing. The report stays self-contained in its folder:
keep the log's folder (results.jsonl, index.html, artifacts/) together, as `studio run --out` writes it."""

from __future__ import annotations

import html
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from studio.scenarios.navgraph import edges_in
from studio.scenarios.paths import path_tree
from studio.scenarios.report_timeline import TIMELINE_STYLE, RunRecords, runs_of, step_html, timeline
from studio.scenarios.report_trends import TREND_STYLE, comparison
from studio.scenarios.summary import scenario_metrics
from studio.wording import plural

# The seed's table columns (Scenario, Status, Steps, Duration, Entropy, Backtracks, Actions), with the studio's pass
# rate over a scenario's runs and its path optimality beside them.
COLUMNS = ("Scenario", "Status", "Pass rate", "Steps", "Duration", "Entropy", "Backtracks", "Optimality", "Actions")

STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1f3b57;color:#fff;padding:18px 28px}h1{margin:0 0 4px;font-size:22px}
section{background:#fff;margin:16px 28px;padding:14px 20px;border-radius:8px;box-shadow:0 1px 2px #0002}
h2{font-size:17px;margin:4px 0 12px}.cards{display:flex;gap:14px;flex-wrap:wrap}
.card{border:1px solid #dde2e8;border-radius:6px;padding:10px 14px;min-width:170px}
.card h3{margin:0;font-size:13px;color:#556}.value{font-size:24px;font-weight:600}.note{color:#667;font-size:12px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e4e7eb;padding:6px 8px;text-align:left}
.ok{color:#1a7f37;font-weight:600}.bad{color:#b42318;font-weight:600}details{margin:4px 0}
code{background:#f0f2f5;padding:1px 4px;border-radius:3px}svg text{font:12px system-ui,sans-serif}
.shot img{width:160px;height:90px;object-fit:cover;object-position:top;border:1px solid #ccd3db;border-radius:3px;
vertical-align:top;margin:3px 6px 3px 0}.blocked{color:#9a5b00}"""


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
    tree = path_tree(ends, graph or ())
    counted, columns, goals, best = tree.edges, tree.columns, tree.goals, tree.best
    pos = {page: (90 + 190 * d, 30 + 56 * i) for d, pages in columns.items() for i, page in enumerate(pages)}
    top = max(counted.values(), default=1) or 1
    lines = []
    for (a, b), n in sorted(counted.items()):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        back = tree.is_backtrack((a, b))
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


def _thumbnail(path: str, label: str, media: Callable[[str], str]) -> str:
    """A screenshot as a lazy thumbnail opening the full image; `path` is relative to the log's folder."""
    where = html.escape(media(path))
    return (f'<a class="shot" href="{where}" target="_blank"><img src="{where}" loading="lazy" decoding="async" '
            f'alt="{html.escape(label)}"></a>')


def _step_item(step: dict[str, Any], media: Callable[[str], str]) -> str:
    return ("<li>" + step_html(step, 120)
            + (f"<div>{_thumbnail(step['screenshot'], 'step ' + str(step.get('step')), media)}</div>"
               if step.get("screenshot") else "") + "</li>")


def _run_details(run: RunRecords, media: Callable[[str], str]) -> str:
    """One run's drill-down: its outcome, its steps (with their screenshots) and what it captured at the end."""
    end, steps = run.end, run.steps
    in_steps = {s.get("screenshot") for s in steps}
    finals = [_thumbnail(path, os.path.basename(path), media) for path in end.get("screenshots") or []
              if path not in in_steps]
    trace = (f' <a href="{html.escape(media(end["trace"]))}">trace.zip</a> (<code>playwright show-trace</code>)'
             if end.get("trace") else "")
    dom = f' <a href="{html.escape(media(end["domSnapshot"]))}">page HTML</a>' if end.get("domSnapshot") else ""
    extra = f"<div>{''.join(finals)}{trace}{dom}</div>" if finals or trace or dom else ""
    number = run.number or run.anchor.rsplit("-", 1)[-1]
    return (f"<div class=\"run\" id=\"{html.escape(run.anchor)}\"><details><summary>run {number}: <span class=\""
            f"{'ok' if run.passed else 'bad'}\">{html.escape(str(end.get('status')))}</span> in "
            f"{plural(end.get('steps') or 0, 'step')} — {html.escape(str(end.get('message', '')))}</summary><ol>"
            + "".join(_step_item(s, media) for s in steps) + f"</ol>{extra}</details></div>")


def _status(runs: list[RunRecords]) -> str:
    """The scenario's status in the seed's words: its run's, or each status with how many runs ended so."""
    counted = Counter(str(run.end.get("status")) for run in runs)
    if len(counted) == 1:
        status, n = counted.popitem()
        return status if n == 1 else f"{status} ×{n}"
    return " · ".join(f"{n} {status}" for status, n in counted.most_common())


def _actions(scenario_id: str, runs: list[RunRecords], media: Callable[[str], str]) -> str:
    """The row's actions: its runs' drill-down, and the trace and final screenshot of its last failed run (of its
    last run when all passed)."""
    chosen = next((run for run in reversed(runs) if not run.passed), runs[-1] if runs else None)
    links = [f'<a href="#runs-{html.escape(scenario_id)}">{"steps" if len(runs) == 1 else f"{len(runs)} runs"}</a>']
    if chosen is not None:
        shots = chosen.end.get("screenshots") or []
        if chosen.end.get("trace"):
            links.append(f'<a href="{html.escape(media(chosen.end["trace"]))}" title="playwright show-trace">'
                         f"trace</a>")
        if shots:
            links.append(f'<a href="{html.escape(media(shots[-1]))}" target="_blank">screenshot</a>')
    return " · ".join(links)


def _rows(metrics: dict[str, Any], runs_by: dict[str, list[RunRecords]], media: Callable[[str], str]) -> str:
    """The seed's table row per scenario (Scenario, Status, Steps, Duration, Entropy, Backtracks, Actions) with the
    studio's columns beside them (Pass rate, Optimality), and below it the row of its runs' drill-downs."""
    rows = []
    for scenario_id, m in metrics.items():
        runs = runs_by.get(scenario_id, [])
        status = "ok" if m.get("passRate") == 1 else "bad"
        rate = m.get("passRate")
        rows.append(
            f"<tr><td>{html.escape(scenario_id)}</td><td class=\"{status}\">{html.escape(_status(runs))}</td>"
            f"<td>{'–' if rate is None else f'{rate:.0%}'}</td><td>{_fmt(m.get('medianSteps'), 1)}</td>"
            f"<td>{_fmt(m.get('medianDuration'), 1)} s</td><td>{_fmt(m.get('clickEntropy'))}</td>"
            f"<td>{_fmt(m.get('medianBacktracks'), 1)}</td><td>{_fmt(m.get('medianOptimality'))}</td>"
            f"<td>{_actions(scenario_id, runs, media)}</td></tr>"
            f'<tr class="drill" id="runs-{html.escape(scenario_id)}"><td colspan="{len(COLUMNS)}">'
            + "".join(_run_details(run, media) for run in runs) + "</td></tr>")
    return "".join(rows)


def render(records: list[dict[str, Any]], metrics: dict[str, Any], earlier: list[list[dict[str, Any]]],
           media: Callable[[str], str] = lambda path: path) -> str:
    """The report's HTML; `media` turns a path relative to the log's folder into one relative to the report."""
    ends = [r for r in records if r.get("type") == "scenario_end"]
    run = next((r for r in records if r.get("type") == "run_start"), {})
    done = next((r for r in records if r.get("type") == "run_end"), {})
    passed = sum(1 for e in ends if e.get("status") == "success")
    runs_by = runs_of(records)
    cards = []
    for key, title, note in (("clickEntropy", "Click Entropy", "< 2.0 clear · ≥ 3.5 confusing"),
                             ("medianBacktracks", "Backtracks", "≤ 2 acceptable"),
                             ("medianOptimality", "Path Optimality", "≥ 0.75 target"),
                             ("medianTtfa", "Time to First Action (s)", "< 5 s target"),
                             ("medianSteps", "Steps", "median per scenario")):
        values = [float(m[key]) for m in metrics.values() if m.get(key) is not None]
        middle = sorted(values)[len(values) // 2] if values else None
        cards.append(f'<div class="card metric-card"><h3>{title}</h3><div class="value">{_fmt(middle)}</div>'
                     f'<div class="sparkline">{_bars(values)}</div><div class="note">{note}</div></div>')
    head = "".join(f"<th>{name}</th>" for name in COLUMNS)
    started = str(run.get("timestamp") or done.get("timestamp") or "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Agentic Test Report - {html.escape(started)}</title>
<style>{STYLE}
{TIMELINE_STYLE}
{TREND_STYLE}</style></head><body>
<header><h1>Test Run: {html.escape(str(run.get('runId', '?')))}</h1>
<div class="summary">Pass Rate: {passed / max(1, len(ends)):.0%} | Scenarios: {len(metrics)} ({len(ends)} runs) |
Duration: {_fmt(done.get('totalDuration'), 1)} s</div></header>
<section id="metrics"><h2>Aggregate Metrics</h2><div class="cards metric-grid">{''.join(cards)}</div></section>
<section id="scenarios"><h2>Scenario Results</h2><table><thead><tr>{head}</tr></thead>
<tbody>{_rows(metrics, runs_by, media)}</tbody></table></section>
<section id="timeline"><h2>Execution Timeline</h2>{timeline(runs_by, media)}</section>
<section id="path-tree"><h2>Navigation Paths</h2><p class="note">Pages as nodes, transitions as edges (thicker: taken
more often); dashed red: a step back to a page as near the start or nearer; green: the shortest path to the goal in
the navigation graph (dotted where no run took it). {html.escape(_graph_note(records))}</p>
<div class="tree-viz">{path_graph(ends, edges_in(records))}</div></section>
{comparison(records, earlier) if earlier else ""}
</body></html>"""


def _graph_note(records: list[dict[str, Any]]) -> str:
    graphs = [r["navGraph"] for r in records if isinstance(r.get("navGraph"), dict)]
    if not graphs:
        return "The run built no navigation graph: shortest paths use the runs' own transitions."
    return f"Navigation graph: {graphs[-1].get('note') or 'no note'}."


def write_report(log: Path, out: Path, compare: list[Path]) -> tuple[Path, list[str]]:
    records = read_log(log)
    metrics, differences = recomputed(records)
    earlier = [read_log(path) for path in compare]

    def media(path: str) -> str:
        return quote(Path(os.path.relpath(log.parent / path, out.parent)).as_posix())

    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(records, metrics, earlier, media), encoding="utf-8")
    return out, differences
