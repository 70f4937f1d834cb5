"""Why each game score is what it is, beside the score chart: one card per metric (and the overall) with its score,
its 2–3 sentence justification and the evidence it rests on — screenshots as thumbnails that open large, log lines,
actions and decisions. When the scorer named no evidence, the card says so and shows what the run kept of the
metric's phase instead (its screenshots and decisions), so a tester always has something to check the score against.

`reasons_of` is the pure part (what each card says); `ReasonsView` draws the cards and follows the chart's selection.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QIcon, QMouseEvent, QPixmap, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.models.game import METRIC_WEIGHTS, METRICS, OVERALL, DecisionEntry, EvidenceShot, GameRun
from studio.ui.game_charts import SERIES, SHORT, band_color, band_word, title_of
from studio.ui.game_panel import PHASE_SHORT
from studio.wording import plural

# The phase whose screenshots and decisions stand in for a metric's evidence when the scorer named none.
METRIC_PHASES: dict[str, tuple[str, ...]] = {"load": ("phase1",), "visual": ("phase1", "phase3"),
                                             "controls": ("phase2",), "playability": ("phase3",),
                                             "technical": ("phase3",)}
MAX_SHOTS = 6  # thumbnails of a fallback; the Evidence strip of Game Evaluation has them all
MAX_DECISIONS = 4
MAX_ERRORS = 4
THUMB = QSize(96, 54)
THUMB_CELL = QSize(THUMB.width() + 12, THUMB.height() + 26)  # the button: the picture and one line of caption
SOURCE_WORDS = {"action": "Action", "decision": "Decision", "finding": "Probing", "rule": "How",
                "screenshot": "Screenshot"}


@dataclass
class EvidenceLine:
    """One line of evidence: where it comes from ("console.log", "Decision") and what it says."""

    kind: str  # "log", "action", "decision", "finding", "rule", "screenshot" (one named but not in the project)
    source: str
    text: str


@dataclass
class MetricReason:
    """What one card shows: the score, why, and what it rests on (or what stands in for that)."""

    name: str
    score: int | None
    justification: str
    shots: list[tuple[EvidenceShot, str]] = field(default_factory=list)  # the screenshot and what it shows
    lines: list[EvidenceLine] = field(default_factory=list)
    note: str = ""  # a sentence above the evidence: that it is a fallback, or how much was left out
    named: bool = False  # whether the scorer named this evidence itself


def reasons_of(run: GameRun, scores: dict[str, tuple[int, str]], shots: list[EvidenceShot],
               decisions: list[DecisionEntry]) -> list[MetricReason]:
    """One MetricReason per metric and the overall, in the chart's order."""
    metrics = {metric.name: metric for metric in run.phase4.metrics} if run.phase4 is not None else {}
    reasons = []
    for name in METRICS:
        metric = metrics.get(name)
        score, why = scores.get(name, (metric.score, metric.justification) if metric else (None, ""))
        reason = MetricReason(name, score, why)
        if metric is not None and metric.evidence:
            _named(reason, metric.evidence, shots)
        else:
            _fallback(reason, run, shots, decisions)
        reasons.append(reason)
    reasons.append(_overall(run, scores))
    return reasons


def _named(reason: MetricReason, refs, shots: list[EvidenceShot]) -> None:
    by_name = {shot.name: shot for shot in shots}
    reason.named = True
    for ref in refs:
        shot = by_name.get(ref.ref) if ref.kind == "screenshot" else None
        if shot is not None:
            reason.shots.append((shot, ref.text))
        elif ref.kind == "screenshot":
            reason.lines.append(EvidenceLine("screenshot", "Screenshot", f"{ref.ref} (not in this project)"
                                             + (f": {ref.text}" if ref.text else "")))
        elif ref.kind == "log":
            reason.lines.append(EvidenceLine("log", ref.ref, ref.text))
        else:
            reason.lines.append(EvidenceLine(ref.kind, SOURCE_WORDS[ref.kind], ref.text or ref.ref))
    reason.note = "The evidence this score rests on:"


def _fallback(reason: MetricReason, run: GameRun, shots: list[EvidenceShot],
              decisions: list[DecisionEntry]) -> None:
    phases = METRIC_PHASES[reason.name]
    kept = [shot for shot in shots if shot.phase in phases]
    chosen = spread(kept, MAX_SHOTS)
    reason.shots = [(shot, "") for shot in chosen]
    windows = [window for window in (_window(run, key) for key in phases) if window is not None]
    in_phase = [entry for entry in decisions if any(start <= entry.timestamp <= end for start, end in windows)]
    reason.lines = [EvidenceLine("decision", "Decision", entry.decision) for entry in in_phase[:MAX_DECISIONS]]
    if reason.name == "controls" and run.findings:
        reason.lines.insert(0, EvidenceLine("finding", "Probing", run.findings))
    if reason.name == "technical":
        errors = [EvidenceLine("log", "console", text) for text in run.evidence.distinct_errors]
        errors += [EvidenceLine("log", "network", text) for text in run.evidence.failed_requests]
        reason.lines = errors[:MAX_ERRORS] + reason.lines
    where = " and ".join(PHASE_SHORT[key] for key in phases)
    what = []
    if kept:
        what.append(plural(len(kept), "screenshot") if len(chosen) == len(kept)
                    else f"{len(chosen)} of its {plural(len(kept), 'screenshot')} (all are under Evidence in Game "
                         "Evaluation)")
    if in_phase:
        what.append(plural(len(in_phase), "decision") if len(in_phase) <= MAX_DECISIONS
                    else f"{MAX_DECISIONS} of its {plural(len(in_phase), 'decision')}")
    kept_words = " and ".join(what) if what else "no screenshot or decision"
    reason.note = f"The scorer named no evidence for this score. What the run kept of {where}: {kept_words}."


def _overall(run: GameRun, scores: dict[str, tuple[int, str]]) -> MetricReason:
    score, why = scores.get(OVERALL, (run.overall_score, ""))
    reason = MetricReason(OVERALL, score, why or "The weighted average of the five metrics.")
    measured = [(name, scores[name][0]) for name in METRICS if name in scores]
    if measured:
        parts = [f"{SHORT[name]} {value} × {METRIC_WEIGHTS[name]}%" for name, value in measured]
        average = sum(value * METRIC_WEIGHTS[name] for name, value in measured) / sum(
            METRIC_WEIGHTS[name] for name, _value in measured)
        reason.lines.append(EvidenceLine("rule", "How", f"{', '.join(parts)}: weighted average {average:.1f}."))
    verdict = getattr(run.evidence, "verdict", "")  # why the overall was capped below that average, if it was
    if verdict:
        reason.lines.append(EvidenceLine("rule", "Verdict", verdict))
    if run.findings:
        reason.lines.append(EvidenceLine("finding", "Probing", run.findings))
    return reason


def _window(run: GameRun, key: str) -> tuple[float, float] | None:
    """When phase `key` ran, in ms (a running phase runs until now)."""
    outcome = next((p for p in run.phases if p.phase == key), None)
    if outcome is None or outcome.started_at is None:
        return None
    seconds = outcome.seconds if outcome.seconds is not None else 1e9
    return outcome.started_at, outcome.started_at + seconds * 1000 + 500


def shot_label(name: str) -> str:
    """What a screenshot was taken for, from its file name: "1732812345678-phase3-game-over.png" -> "game-over"."""
    parts = name.removesuffix(".png").split("-")
    while parts and (parts[0].isdigit() or parts[0].startswith("phase")):
        parts = parts[1:]
    return "-".join(parts) or name


def spread(items: list, count: int) -> list:
    """At most `count` of `items`, evenly spread from the first to the last."""
    if len(items) <= count:
        return list(items)
    if count <= 1:
        return items[:count]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


class ReasonCard(QFrame):
    """One metric's score, justification and evidence; a click anywhere on it selects it."""

    def __init__(self, reason: MetricReason, on_select: Callable[[str], None], on_shot: Callable[[int], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reason = reason
        self.on_select = on_select
        self.thumbs: dict[int, QToolButton] = {}
        self.setObjectName("reason-card")
        self.setAccessibleName(f"Reasons for {title_of(reason.name)}")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        self.heading = QLabel(heading_html(reason), self)
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.justification = QLabel(reason.justification or "No justification was stored.", self)
        self.justification.setWordWrap(True)
        self.justification.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.justification)
        self.note = QLabel(reason.note, self)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#4b5563; font-size:11px;" + ("" if reason.named else "font-style:italic;"))
        self.note.setVisible(bool(reason.note))
        layout.addWidget(self.note)
        self.thumb_grid = ThumbGrid(self)
        for shot, text in reason.shots:
            self.thumb_grid.add(self._thumb(shot, text, on_shot))
        self.thumb_grid.setVisible(bool(self.thumbs))
        layout.addWidget(self.thumb_grid)
        self.lines = [self._line(line) for line in reason.lines]
        for label in self.lines:
            layout.addWidget(label)
        for label in (self.heading, self.justification, self.note, *self.lines):
            label.installEventFilter(self)  # their text can be selected: a press on it selects the card too
        self.set_selected(False)

    def set_selected(self, selected: bool) -> None:
        self.selected = selected
        border = "2px solid #2563eb" if selected else "1px solid #e5e7eb"
        background = "#f8fafc" if selected else "palette(base)"
        self.setStyleSheet(f"QFrame#reason-card {{ border:{border}; border-radius:5px; background:{background}; }}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton:
            self.on_select(self.reason.name)
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.on_select(self.reason.name)
        super().mousePressEvent(event)

    def _thumb(self, shot: EvidenceShot, text: str, on_shot: Callable[[int], None]) -> QToolButton:
        button = QToolButton(self.thumb_grid)
        button.setIconSize(THUMB)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        button.setAutoRaise(True)
        button.setFixedSize(THUMB_CELL)  # the same before and after its picture loads: the card never jumps
        caption = shot_label(shot.name)
        button.setText(caption if len(caption) <= 15 else caption[:14] + "…")
        button.setToolTip(f"{shot.name}\n{text + chr(10) if text else ''}Click to open it large")
        button.setAccessibleName(f"Screenshot {shot.name}")
        button.clicked.connect(lambda _checked=False, shot_id=shot.id: on_shot(shot_id))
        self.thumbs[shot.id] = button
        return button

    def _line(self, line: EvidenceLine) -> QLabel:
        source = html.escape(line.source)
        label = QLabel(f'<span style="color:#6b7280">{source}</span>&nbsp; {html.escape(line.text)}', self)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label


class ThumbGrid(QWidget):
    """Thumbnails in rows of as many as the width holds (two in a narrow dock, four in a wide one); it never asks
    for more width than one thumbnail, so a narrow column wraps it instead of cutting the card off."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons: list[QToolButton] = []
        self.columns = 0
        self.grid = QGridLayout(self)
        self.grid.setSpacing(4)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(THUMB_CELL.width())

    def add(self, button: QToolButton) -> None:
        self.buttons.append(button)
        self._regrid(self.columns or 3, force=True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._regrid(max(1, (event.size().width() + 4) // (THUMB_CELL.width() + 4)))

    def _regrid(self, columns: int, force: bool = False) -> None:
        if columns == self.columns and not force:
            return
        self.columns = columns
        for button in self.buttons:
            self.grid.removeWidget(button)
        for index, button in enumerate(self.buttons):
            self.grid.addWidget(button, index // columns, index % columns)
        for column in range(self.grid.columnCount()):
            self.grid.setColumnStretch(column, 0)
        self.grid.setColumnStretch(columns, 1)


def heading_html(reason: MetricReason) -> str:
    """"<b>Playability</b> 58 · fair · weight 30%", the score in its band's colour."""
    score = "—" if reason.score is None else str(reason.score)
    weight = f" ·&nbsp;weight&nbsp;{METRIC_WEIGHTS[reason.name]}%" if reason.name in METRIC_WEIGHTS else ""
    color = band_color(reason.score).darker(115).name()
    return (f'<b>{html.escape(title_of(reason.name))}</b>&nbsp; <b style="color:{color}">{score}</b>'
            f' <span style="color:#4b5563">·&nbsp;{band_word(reason.score)}{weight}</span>')


class ReasonsView(QScrollArea):
    """The cards of one run, the selected one outlined and scrolled to; thumbnails load a few per event-loop turn."""

    metricSelected = Signal(str)
    screenshotActivated = Signal(int)

    def __init__(self, png: Callable[[int], bytes | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.png = png
        self.setAccessibleName("Score reasons")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.run_id: str | None = None
        self.cards: dict[str, ReasonCard] = {}
        self.selected: str | None = None
        self._icons: dict[int, QIcon] = {}
        self._pending: list[int] = []
        # The selected card stays at the top while the cards settle (built while Game Scores was behind its tab,
        # thumbnails loading, the column resized) until the tester scrolls the view themselves.
        self._anchored = False
        self._loader = QTimer(self, singleShot=True, interval=0)
        self._loader.timeout.connect(self._load_thumbs)
        self._build_host()
        self.verticalScrollBar().rangeChanged.connect(lambda _low, _high: self._scroll_to_selected())
        # actionTriggered is the tester's scrolling only (wheel, keys, the bar), not the range clamping the value.
        self.verticalScrollBar().actionTriggered.connect(self._scrolled)
        self.empty = QLabel("Why each score is what it is appears here when an evaluation ends: click a bar to "
                            "read its reasons and evidence.", self.host)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color:#4b5563;")
        self.host_layout.insertWidget(0, self.empty)

    def _build_host(self) -> None:
        self.host = QWidget(self)
        self.host_layout = QVBoxLayout(self.host)
        self.host_layout.setContentsMargins(0, 0, 4, 0)
        self.host_layout.setSpacing(6)
        self.host_layout.addStretch(1)
        self.setWidget(self.host)

    def show_reasons(self, run_id: str, reasons: list[MetricReason], selected: str | None = None) -> None:
        """Replace the cards with those of `run_id`; select `selected` (else keep the selected metric)."""
        if run_id != self.run_id:
            self._icons.clear()
        self.run_id = run_id
        for card in self.cards.values():
            card.setParent(None)
            card.deleteLater()
        self.cards = {}
        self.empty.setVisible(not reasons)
        for reason in reasons:
            card = ReasonCard(reason, self._clicked, self.screenshotActivated.emit, self.host)
            self.host_layout.insertWidget(self.host_layout.count() - 1, card)
            self.cards[reason.name] = card
        self._pending = [shot_id for card in self.cards.values() for shot_id in card.thumbs]
        self._loader.start()
        self.select(selected or self.selected)

    def select(self, name: str | None, scroll: bool = True) -> None:
        """Outline the card of `name` and (unless the tester clicked the card itself, so sees it) scroll it to the
        top of the view."""
        self.selected = name if name in self.cards else None
        for key, card in self.cards.items():
            card.set_selected(key == self.selected)
        self._anchored = scroll and self.selected is not None
        if self._anchored:
            QTimer.singleShot(0, self._scroll_to_selected)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._scroll_to_selected)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._scroll_to_selected)

    def card_order(self) -> list[str]:
        return [name for name in SERIES if name in self.cards]

    def _clicked(self, name: str) -> None:
        self.select(name, scroll=False)
        self.metricSelected.emit(name)

    def _scroll_to_selected(self) -> None:
        card = self.cards.get(self.selected or "")
        if card is None or not self._anchored or not self.isVisible():
            return
        self.host_layout.activate()
        # Cards laid out just now may not have grown the range yet: rangeChanged comes back here when they do.
        self.verticalScrollBar().setValue(max(0, card.y() - 2))

    def _scrolled(self, _action: int) -> None:
        self._anchored = False  # the tester scrolled: the view is theirs until they select a metric again

    def _load_thumbs(self) -> None:
        batch, self._pending = self._pending[:4], self._pending[4:]
        for shot_id in batch:
            icon = self._icons.get(shot_id) or self._icon(shot_id)
            if icon is None:
                continue
            self._icons[shot_id] = icon
            for card in self.cards.values():
                if shot_id in card.thumbs:
                    card.thumbs[shot_id].setIcon(icon)
        if self._pending:
            self._loader.start()

    def _icon(self, shot_id: int) -> QIcon | None:
        png = self.png(shot_id)
        pixmap = QPixmap()
        if png is None or not pixmap.loadFromData(png):
            return None
        return QIcon(pixmap.scaled(THUMB, Qt.AspectRatioMode.KeepAspectRatio,
                                   Qt.TransformationMode.SmoothTransformation))
