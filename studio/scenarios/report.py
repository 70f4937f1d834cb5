"""`studio report RUN.jsonl`: the metrics recomputed from the log alone (checked against the ones the run wrote) and
a self-contained HTML report — summary, metric cards with their spread, the scenario table with each run's steps,
a timeline, and the navigation path graph of all runs (pages as nodes, transitions as edges weighted by count,
backtracks dashed, the shortest path to the goal drawn green). No script, style or image comes from the network.

A run's screenshots (studio.scenarios.capture) are linked, not inlined: a thumbnail (loading="lazy", so only the
drill-downs opened load theirs) that opens the full image, at its path relative to the report. A batch of 5 scenarios
× 20 runs × a dozen steps is over a thousand screenshots; as data: URIs they would make the HTML hundreds of MB, parsed
in full before anything shows, and lazy loading would gain nothing. The report stays self-contained in its folder:
keep the log's folder (results.jsonl, index.html, artifacts/) together, as `studio run --out` writes it."""

from __future__ import annotations

import html
import json
import os
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from studio.scenarios.navgraph import edges_in
from studio.scenarios.paths import path_tree
from studio.scenarios.summary import scenario_metrics

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
    blocked = step.get("blocked")
    return (f"<li><code>{html.escape(step['action']['type'])}</code> "
            f"{html.escape(json.dumps(step['action'].get('params', {}), ensure_ascii=False)[:120])} on "
            f"{html.escape(step['observation']['url'])}"
            + (f'<div class="blocked">blocked: {html.escape(str(blocked.get("reason", "")))}</div>'
               if isinstance(blocked, dict) else "")
            + (f"<div>{_thumbnail(step['screenshot'], 'step ' + str(step.get('step')), media)}</div>"
               if step.get("screenshot") else "") + "</li>")


def _run_details(number: int, end: dict[str, Any], steps: list[dict[str, Any]], media: Callable[[str], str]) -> str:
    """One run's drill-down: its outcome, its steps (with their screenshots) and what it captured at the end."""
    in_steps = {s.get("screenshot") for s in steps}
    finals = [_thumbnail(path, os.path.basename(path), media) for path in end.get("screenshots") or []
              if path not in in_steps]
    trace = (f' <a href="{html.escape(media(end["trace"]))}">trace.zip</a> (<code>playwright show-trace</code>)'
             if end.get("trace") else "")
    dom = f' <a href="{html.escape(media(end["domSnapshot"]))}">page HTML</a>' if end.get("domSnapshot") else ""
    extra = f"<div>{''.join(finals)}{trace}{dom}</div>" if finals or trace or dom else ""
    return (f"<details><summary>run {number}: <span class=\"{'ok' if end.get('status') == 'success' else 'bad'}\">"
            f"{html.escape(str(end.get('status')))}</span> in {end.get('steps')} steps — "
            f"{html.escape(str(end.get('message', '')))}</summary><ol>"
            + "".join(_step_item(s, media) for s in steps) + f"</ol>{extra}</details>")


def render(records: list[dict[str, Any]], metrics: dict[str, Any], earlier: list[list[dict[str, Any]]],
           media: Callable[[str], str] = lambda path: path) -> str:
    """The report's HTML; `media` turns a path relative to the log's folder into one relative to the report."""
    ends = [r for r in records if r.get("type") == "scenario_end"]
    run = next((r for r in records if r.get("type") == "run_start"), {})
    done = next((r for r in records if r.get("type") == "run_end"), {})
    passed = sum(1 for e in ends if e.get("status") == "success")
    runs_by = _runs(records)
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
        details = "".join(_run_details(end.get("runNumber") or i + 1, end, steps, media)
                          for i, (end, steps) in enumerate(runs_by.get(scenario_id, [])))
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


def _runs(records: list[dict[str, Any]]) -> dict[str, list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """Each scenario's runs in the order they ended: (scenario_end, its steps). A step belongs to the run of its
    scenario and runNumber that started first and has not ended (runs going on at once have their own numbers; a
    log from before runNumber has none, and its runs of one scenario are taken one after the other). The steps of a
    try lost with its browser (a scenario_retry record) are not the run's: its retry's are."""
    running: dict[tuple[str, Any], list[list[dict[str, Any]]]] = defaultdict(list)
    runs: dict[str, list[tuple[dict[str, Any], list[dict[str, Any]]]]] = defaultdict(list)
    for record in records:
        kind = record.get("type")
        key = (str(record.get("scenarioId")), record.get("runNumber"))
        if kind == "scenario_start":
            running[key].append([])
        elif kind == "step":
            if not running[key]:
                running[key].append([])
            running[key][0].append(record)
        elif kind == "scenario_retry" and running[key]:
            running[key][0].clear()
        elif kind == "scenario_end":
            runs[key[0]].append((record, running[key].pop(0) if running[key] else []))
    return runs


def _graph_note(records: list[dict[str, Any]]) -> str:
    graphs = [r["navGraph"] for r in records if isinstance(r.get("navGraph"), dict)]
    if not graphs:
        return "The run built no navigation graph: shortest paths use the runs' own transitions."
    return f"Navigation graph: {graphs[-1].get('note') or 'no note'}."


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

    def media(path: str) -> str:
        return quote(Path(os.path.relpath(log.parent / path, out.parent)).as_posix())

    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(records, metrics, earlier, media), encoding="utf-8")
    return out, differences
