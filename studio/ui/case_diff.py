"""A case's change as the tester reads it: steps matched by what they do (renumbered steps stay unchanged, moved
steps say from where, edited steps show their old and new words), the fields and expected results that changed.
Also the plain-text rendering of a case the version history uses."""

from __future__ import annotations

from html import escape

from studio.models.testcase import CaseStep, TestCase
from studio.playground.step_diff import (
    CaseDiff,
    ItemChange,
    LineChange,
    StepChange,
    diff_case,
    step_fields,
    word_diff,
)

# (background, text) per kind of change; unchanged steps are quiet so the changes stand out.
COLORS = {"unchanged": ("#ffffff", "#6b7280"), "moved": ("#dbeafe", "#1e3a8a"), "changed": ("#fef3c7", "#78350f"),
          "added": ("#dcfce7", "#14532d"), "removed": ("#fee2e2", "#7f1d1d")}
WORD_STYLE = {"removed": "background-color:#fecaca; color:#7f1d1d; text-decoration:line-through;",
              "added": "background-color:#bbf7d0; color:#14532d; font-weight:600;"}
FIELD_LABELS = {"locator": "locator", "url": "url", "data": "data", "expected": "expect"}


def step_text(number: int, step: CaseStep) -> list[str]:
    head = f"  {number}. {step.action} {step.target}".rstrip()
    lines = [head]
    if step.locator is not None:
        lines.append(f"       locator: {step.locator.python()}")
    if step.url:
        lines.append(f"       url: {step.url}")
    if step.data:
        lines.append(f"       data: {step.data}")
    if step.expected:
        lines.append(f"       expect: {step.expected}")
    return lines


def case_as_text(case: TestCase) -> list[str]:
    """The case as lines a tester reads: fields, preconditions, steps, expectations."""
    lines = [f"Title: {case.title}",
             f"Priority: {case.priority} · Status: {case.status} · Gap type: {case.gap_type or '—'}",
             f"Tags: {', '.join(case.tags) or '—'}",
             "Preconditions:", *(f"  - {item}" for item in case.preconditions or ["(none)"]),
             "Steps:"]
    for number, step in enumerate(case.steps, 1):
        lines += step_text(number, step)
    if not case.steps:
        lines.append("  (none)")
    lines += ["Expected results:", *(f"  - {item}" for item in case.expected_results or ["(none)"])]
    return lines


# -- the step-aware diff as HTML (a QTextBrowser shows it) ----------------------------------------------------------

def _words(old: str, new: str) -> str:
    html, last = [], ""
    for kind, text in word_diff(old, new):
        if kind == "added" and last == "removed" and not text[:1].isspace():
            html.append(" ")  # "Next Continue", not "NextContinue", when the struck word is read as text
        html.append(f'<span style="{WORD_STYLE[kind]}">{escape(text)}</span>' if kind in WORD_STYLE else escape(text))
        last = kind
    return "".join(html)


def _struck(text: str) -> str:
    return f'<span style="{WORD_STYLE["removed"]}">{escape(text)}</span>'


def _new(text: str) -> str:
    return f'<span style="{WORD_STYLE["added"]}">{escape(text)}</span>'


def change_label(change: ItemChange) -> str:
    """What happened to a step or line, in a word or three."""
    if change.kind == "moved":
        edited = " and edited" if change.fields or _line_edited(change) else ""
        return f"moved {change.direction}{edited}" if change.direction else f"moved{edited}"
    if change.kind == "unchanged":
        return "renumbered" if change.renumbered else "unchanged"
    return {"changed": "edited", "added": "added", "removed": "removed"}[change.kind]


def _line_edited(change: ItemChange) -> bool:
    return isinstance(change, LineChange) and change.old != change.new


def _number(change: ItemChange) -> str:
    if change.kind == "removed":
        return f"{change.old_number}"
    if change.old_number is not None and change.old_number != change.new_number:
        return f"{change.old_number} → {change.new_number}"
    return f"{change.new_number}"


def _step_body(change: StepChange) -> str:
    """The step's action and target on one line, then its locator, address, data and expectation."""
    old = step_fields(change.old) if change.old is not None else None
    new = step_fields(change.new) if change.new is not None else None
    shown = new or old or {}

    def text(name: str) -> str:
        if change.kind == "removed":
            return escape(shown[name])
        if old is not None and new is not None and name in change.fields:
            return _words(old[name], new[name])
        return escape(shown[name])

    target = text("target")
    head = f"<b>{text('action')}</b>" + (f" {target}" if target else "")
    if change.kind in ("unchanged", "moved") and not change.fields:
        return head  # the same step: its action and target say which it is; its details would only bury the changes
    lines = [head]
    for name, label in FIELD_LABELS.items():
        if (old and old[name]) or (new and new[name]):
            style = ' style="font-family:monospace;"' if name == "locator" else ""
            lines.append(f'<span style="color:#6b7280;">{label}:</span> <span{style}>{text(name)}</span>')
    return "<br>".join(lines)


def _row(change: ItemChange, body: str) -> str:
    """One step or line: its number (old → new when it changed), then what happened to it and the step itself.
    Two columns only, so the diff still reads in a side panel a third of a laptop screen wide."""
    background, color = COLORS[change.kind]
    if change.kind == "unchanged" and not change.renumbered:
        text = f'<span style="color:{color};">{body}</span>'
    else:
        text = f'<span style="color:{color}; font-weight:600;">{change_label(change)}:</span> {body}'
        if change.kind == "unchanged":
            text = f'<span style="color:{color};">{text}</span>'
    return (f'<tr style="background-color:{background};">'
            f'<td style="color:{color}; white-space:nowrap;" align="right">{_number(change)}</td>'
            f"<td>{text}</td></tr>")


def _line_body(change: LineChange) -> str:
    if change.old is not None and change.new is not None and change.old != change.new:
        return _words(change.old, change.new)
    return escape(change.new if change.new is not None else change.old or "")


def _table(rows: list[str]) -> str:
    return '<table cellspacing="0" cellpadding="4" width="100%">' + "".join(rows) + "</table>"


def counts_sentence(diff: CaseDiff) -> str:
    """E.g. "Steps: 3 renumbered, 1 moved, 1 edited, 1 added." ("" when no step changed)."""
    counts = diff.counts()
    words = {"renumbered": "renumbered", "moved": "moved", "changed": "edited", "added": "added",
             "removed": "removed"}
    parts = [f"{counts[key]} {word}" for key, word in words.items() if counts[key]]
    return f"Steps: {', '.join(parts)}." if parts else "No step changed."


def diff_html(before: TestCase, after: TestCase, suite_titles: dict[str, str] | None = None, lead: str = "") -> str:
    """The whole change from `before` to `after` as one HTML page (suites named by `suite_titles`), after `lead`
    (HTML: what the change is for)."""
    diff = diff_case(before, after)
    titles = suite_titles or {}
    diff.fields = [(label, titles.get(old, old), titles.get(new, new)) if label == "Suite" else (label, old, new)
                   for label, old, new in diff.fields]
    head = f"Version {before.version} → version {after.version}. {counts_sentence(diff)}"
    parts = [lead, f'<p style="color:#374151;">{escape(head)}</p>']
    if diff.fields:
        rows = "".join(f"<tr><td><b>{escape(label)}</b></td><td>{_struck(old or '—')} → {_new(new or '—')}</td></tr>"
                       for label, old, new in diff.fields)
        parts.append(f'<table cellspacing="0" cellpadding="3">{rows}</table>')
    if any(c.kind != "unchanged" for c in diff.preconditions):
        parts.append("<h4>Preconditions</h4>" + _table([_row(c, _line_body(c)) for c in diff.preconditions]))
    parts.append("<h4>Steps</h4>" + (_table([_row(c, _step_body(c)) for c in diff.steps]) if diff.steps
                                     else "<p>(none)</p>"))
    if diff.expected_results:
        parts.append("<h4>Expected results</h4>"
                     + _table([_row(c, _line_body(c)) for c in diff.expected_results]))
    return "".join(parts)
