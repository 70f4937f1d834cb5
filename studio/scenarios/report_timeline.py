"""The report's runs and its execution timeline (seed 004: "interactive timeline with screenshots on hover").

A run's records are grouped as the report reads them (`runs_of`); the timeline draws one row per run on one time
axis — its span from scenario_start to scenario_end, a marker per step at its timestamp and one at its end. Hovering
a marker (or focusing it with Tab) shows the step: its action, the page it was on, what stood in the way, and its
screenshot when the run took one (the end marker shows the run's final screenshot). Pure HTML and CSS: the
screenshots are `<img loading="lazy">` inside a hidden tip, which Chromium and Firefox fetch only when the tip
first shows, so a report of a thousand steps loads none of them until a tester hovers."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from studio.wording import plural

TIMELINE_STYLE = """.timeline-viz{margin:8px 0 4px}.tl-axis{position:relative;height:18px;margin-left:230px;
color:#667;font-size:11px}.tl-axis span{position:absolute;white-space:nowrap;transform:translateX(-50%)}
.tl-axis span:first-child{transform:none}.tl-axis span:last-child{transform:translateX(-100%)}
.tl-row{display:flex;align-items:center;height:26px}.tl-label{width:220px;margin-right:10px;flex:none;
overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:12px;color:#1d2430;text-decoration:none}
.tl-label:hover{text-decoration:underline}.tl-track{position:relative;flex:1;height:18px;background:#f0f2f5;
border-radius:3px}.tl-span{position:absolute;top:4px;height:10px;border-radius:3px}.tl-span.ok{background:#a9d5b6}
.tl-span.bad{background:#f0b4ae}.tl-step{position:absolute;top:2px;width:8px;height:14px;margin-left:-4px;
border-radius:2px;background:#1f3b57;cursor:pointer}.tl-step.shot{background:#4a78a8;box-shadow:0 0 0 1px #fff inset}
.tl-step.blocked{background:#d08a00}.tl-step.end{width:12px;margin-left:-6px;border-radius:50%}
.tl-step.end.ok{background:#1a7f37}.tl-step.end.bad{background:#b42318}
.tl-step:hover,.tl-step:focus{outline:2px solid #f0a020;outline-offset:1px;z-index:4}
.tl-tip{display:none;position:absolute;top:20px;left:-6px;width:340px;padding:8px 10px;background:#fff;
color:#1d2430;border:1px solid #ccd3db;border-radius:6px;box-shadow:0 6px 18px #0003;font-size:12px;
line-height:1.4;font-weight:400;z-index:5;cursor:default;white-space:normal;word-break:break-word}.tl-step.late .tl-tip{left:auto;
right:-6px}.tl-step:hover .tl-tip,.tl-step:focus .tl-tip{display:block}.tl-tip img{display:block;width:320px;
height:180px;object-fit:cover;object-position:top;margin-top:6px;border:1px solid #ccd3db;border-radius:3px}
.tl-tip .none{color:#667;font-style:italic}.tl-tip .note{margin-top:4px}"""


@dataclass
class RunRecords:
    """One scenario run as its records: scenario_start (None in a log without it), scenario_end, its steps."""

    scenario_id: str
    end: dict[str, Any]
    start: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    anchor: str = ""  # the id of its drill-down in the report

    @property
    def number(self) -> Any:
        return self.end.get("runNumber")

    @property
    def passed(self) -> bool:
        return self.end.get("status") == "success"


def runs_of(records: list[dict[str, Any]]) -> dict[str, list[RunRecords]]:
    """Each scenario's runs in the order they ended. A step belongs to the run of its scenario and runNumber that
    started first and has not ended (runs going on at once have their own numbers; a log from before runNumber has
    none, and its runs of one scenario are taken one after the other). The steps of a try lost with its browser (a
    scenario_retry record) are not the run's: its retry's are."""
    running: dict[tuple[str, Any], list[tuple[dict[str, Any] | None, list[dict[str, Any]]]]] = defaultdict(list)
    runs: dict[str, list[RunRecords]] = defaultdict(list)
    for record in records:
        kind = record.get("type")
        key = (str(record.get("scenarioId")), record.get("runNumber"))
        if kind == "scenario_start":
            running[key].append((record, []))
        elif kind == "step":
            if not running[key]:
                running[key].append((None, []))
            running[key][0][1].append(record)
        elif kind == "scenario_retry" and running[key]:
            running[key][0][1].clear()
        elif kind == "scenario_end":
            start, steps = running[key].pop(0) if running[key] else (None, [])
            own = runs[key[0]]
            own.append(RunRecords(key[0], record, start, steps, f"run-{_slug(key[0])}-{len(own) + 1}"))
    return runs


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text) or "scenario"


def seconds(record: dict[str, Any] | None) -> float | None:
    """A record's timestamp in seconds since the epoch, None when it has none that can be read."""
    when = (record or {}).get("timestamp")
    if not isinstance(when, str):
        return None
    try:
        return datetime.fromisoformat(when).timestamp()
    except ValueError:
        return None


def _span(run: RunRecords) -> tuple[float, float] | None:
    """When the run started and ended; a run without a start record started at its first step (or its end less its
    duration)."""
    end = seconds(run.end)
    if end is None:
        return None
    start = seconds(run.start)
    if start is None:
        first = [t for t in map(seconds, run.steps) if t is not None]
        duration = run.end.get("duration")
        start = min(first) if first else end - float(duration) if isinstance(duration, int | float) else end
    return min(start, end), end


def _tip_image(path: str | None, label: str, media: Callable[[str], str]) -> str:
    if not path:
        return ""
    return f'<img src="{html.escape(media(path))}" loading="lazy" decoding="async" alt="{html.escape(label)}">'


def step_html(step: dict[str, Any], limit: int, between: str = " ") -> str:
    """A step as the report says it: its action and parameters (cut at `limit`), the page it was on, and what
    blocked it, if anything."""
    action = step.get("action") or {}
    params = json.dumps(action.get("params", {}), ensure_ascii=False)
    url = (step.get("observation") or {}).get("url", "")
    blocked = step.get("blocked")
    return (f"<code>{html.escape(str(action.get('type', '?')))}</code> {html.escape(params[:limit])}{between}"
            f"on {html.escape(str(url))}"
            + (f'<div class="blocked">blocked: {html.escape(str(blocked.get("reason", "")))}</div>'
               if isinstance(blocked, dict) else ""))


def _step_tip(run: RunRecords, step: dict[str, Any], at: float, media: Callable[[str], str]) -> str:
    shot = step.get("screenshot")
    return (f"<b>Step {html.escape(str(step.get('step', '?')))}</b> · +{at:.1f} s<br>"
            + step_html(step, 140, between="<br>")
            + ('<div class="note">the page after the step:</div>'
               + _tip_image(shot, f"{run.scenario_id} step {step.get('step')}", media) if shot else
               '<div class="none">No screenshot of this step (capture: screenshot_on_step takes one).</div>'))


def _end_tip(run: RunRecords, media: Callable[[str], str]) -> str:
    finals = run.end.get("screenshots") or []
    in_steps = {s.get("screenshot") for s in run.steps}
    final = next((p for p in reversed(finals) if p not in in_steps), finals[-1] if finals else None)
    steps = run.end.get("steps")
    return (f"<b>{html.escape(str(run.end.get('status')))}</b> in "
            f"{plural(steps, 'step') if isinstance(steps, int) else html.escape(str(steps)) + ' steps'}, "
            f"{float(run.end.get('duration') or 0):.1f} s<br>{html.escape(str(run.end.get('message', '')))}"
            + (_tip_image(final, f"{run.scenario_id} end", media) if final else ""))


def _marker(kind: str, left: float, tip: str, anchor: str, label: str) -> str:
    late = " late" if left > 55 else ""
    return (f'<a class="tl-step {kind}{late}" href="#{html.escape(anchor)}" style="left:{left:.2f}%" '
            f'aria-label="{html.escape(label)}"><span class="tl-tip">{tip}</span></a>')


def timeline(runs: dict[str, list[RunRecords]], media: Callable[[str], str]) -> str:
    """The timeline's HTML: one row per run, in the order the runs started."""
    timed = [(span, run) for own in runs.values() for run in own if (span := _span(run)) is not None]
    if not timed:
        return "<p>No timed scenarios.</p>"
    timed.sort(key=lambda item: item[0][0])
    first, last = min(s[0] for s, _ in timed), max(s[1] for s, _ in timed)
    total = max(last - first, 0.001)

    def where(t: float) -> float:
        return min(100.0, max(0.0, 100 * (t - first) / total))

    several = {scenario for scenario, own in runs.items() if len(own) > 1}
    rows = []
    for (start, end), run in timed:
        label = run.scenario_id + (f" #{run.number or run.anchor.rsplit('-', 1)[-1]}"
                                   if run.scenario_id in several else "")
        status = "ok" if run.passed else "bad"
        markers = []
        for index, step in enumerate(run.steps):
            t = seconds(step)
            if t is None:  # placed evenly through the run when the log has no time for it
                t = start + (end - start) * (index + 1) / (len(run.steps) + 1)
            kind = "blocked" if isinstance(step.get("blocked"), dict) else "shot" if step.get("screenshot") else ""
            markers.append(_marker(kind, where(t), _step_tip(run, step, t - start, media), run.anchor,
                                   f"{label}: step {step.get('step')}"))
        markers.append(_marker(f"end {status}", where(end), _end_tip(run, media), run.anchor,
                               f"{label}: {run.end.get('status')}"))
        rows.append(f'<div class="tl-row"><a class="tl-label" href="#{html.escape(run.anchor)}" '
                    f'title="{html.escape(label)}">{html.escape(label)}</a><div class="tl-track">'
                    f'<div class="tl-span {status}" style="left:{where(start):.2f}%;width:'
                    f'{max(0.3, where(end) - where(start)):.2f}%" title="{html.escape(label)}: {end - start:.1f} s, '
                    f'{html.escape(str(run.end.get("status")))}"></div>{"".join(markers)}</div></div>')
    axis = "".join(f'<span style="left:{share * 100:.0f}%">{total * share:.1f} s</span>' for share in (0, 0.5, 1))
    return (f'<p class="note">One row per scenario run on one time axis; hover a step (or Tab to it) to see its '
            f'action and screenshot, the round marker for how the run ended.</p><div class="timeline-viz">'
            f'<div class="tl-axis">{axis}</div>{"".join(rows)}</div>')
