"""The Game Evaluation dock: the game's address (the live page by default), an optional InputSchema, Run and Cancel,
the four phases as a progress strip (each with its time and outcome), what went wrong in plain words, the controls
found (select one to outline it on the live view), the decision log, the evidence screenshots as a strip of
thumbnails (activate one to open it), and the technical details a developer looks at behind a disclosure (the reasons
for each score are beside the score chart, in Game Scores)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.game_service import GameService
from studio.game.input_schema import EXAMPLE, GameUrlError, InputSchemaError
from studio.models.game import PHASES, ControlDiscovery, DecisionEntry, EvidenceShot, GameRun, PhaseOutcome
from studio.models.race import Rect
from studio.ui.game_details import TechnicalDetails
from studio.ui.live_view import Highlight, LiveView

PHASE_SHORT = {"phase1": "1 Load", "phase2": "2 Controls", "phase3": "3 Play", "phase4": "4 Score"}
PHASE_COLORS = {"pending": ("#f3f4f6", "#6b7280"), "running": ("#dbeafe", "#1d4ed8"),
                "passed": ("#dcfce7", "#15803d"), "failed": ("#fee2e2", "#b91c1c"), "skipped": ("#f3f4f6", "#9ca3af")}
STATUS_WORDS = {"queued": "Queued", "running": "Running", "completed": "Completed", "failed": "Failed"}
THUMB = QSize(112, 63)
OUTLINE = QColor("#7c3aed")
SHOT_ROLE = Qt.ItemDataRole.UserRole + 1
CONTROL_ROLE = Qt.ItemDataRole.UserRole + 2


class PhaseStrip(QWidget):
    """Four boxes, one per phase: its name, then running / its time and ✓ or ✗; the tooltip says the outcome."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.boxes: dict[str, QLabel] = {}
        for key in PHASES:
            box = QLabel(self)
            box.setAlignment(Qt.AlignmentFlag.AlignCenter)
            box.setMinimumWidth(60)
            box.setAccessibleName(f"Phase {PHASE_SHORT[key]}")
            layout.addWidget(box, 1)
            self.boxes[key] = box
        self.time_left: Callable[[PhaseOutcome], str | None] = lambda _outcome: None  # "5:48 left" while it runs
        self.show_phases([])

    def show_phases(self, phases: list[PhaseOutcome]) -> None:
        known: dict[str, PhaseOutcome] = {outcome.phase: outcome for outcome in phases}
        for key, box in self.boxes.items():
            outcome = known.get(key)
            status = outcome.status if outcome is not None else "pending"
            if status == "running" and outcome is not None:
                second = self.time_left(outcome) or "running…"
            elif status in ("passed", "failed") and outcome is not None and outcome.seconds is not None:
                second = f"{'✓' if status == 'passed' else '✗'} {outcome.seconds:.1f} s"
            else:
                second = {"skipped": "skipped", "pending": "—"}.get(status, status)
            background, color = PHASE_COLORS.get(status, PHASE_COLORS["pending"])
            box.setText(f"<b>{PHASE_SHORT[key]}</b><br>{second}")
            box.setStyleSheet(f"background:{background}; color:{color}; border-radius:4px; padding:3px;")
            title = outcome.title if outcome is not None else key
            tip = f"{title}: {status}" + (f"\n{outcome.message}" if outcome is not None and outcome.message else "")
            box.setToolTip(tip)

    def status_of(self, key: str) -> str:
        """The status word shown for phase `key` (for tests and accessibility)."""
        return self.boxes[key].toolTip().split(":", 2)[1].split("\n")[0].strip()


class GamePanel(QWidget):
    """Renders the service's current run and sends the tester's intent to it."""

    screenshotActivated = Signal(int)

    def __init__(self, service: GameService, live_view: LiveView, page_url, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.live_view = live_view
        self.page_url = page_url  # () -> the live page's URL, the default game
        self.controls: list[ControlDiscovery] = []
        self._thumbs: dict[int, QListWidgetItem] = {}
        self._pending_thumbs: list[EvidenceShot] = []
        self._thumb_timer = QTimer(self, singleShot=True, interval=50)
        self._thumb_timer.timeout.connect(self._load_thumbs)

        self.url = QLineEdit(self)
        self.url.setPlaceholderText("Game URL (empty: the live page)")
        self.url.setAccessibleName("Game URL")
        self.url.setClearButtonEnabled(True)
        self.url.returnPressed.connect(self.run)
        self.run_button = QPushButton("Run", self)
        self.run_button.setToolTip("Evaluate the game: load, find its controls, play it, score it (Ctrl+Alt+G)")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop the evaluation; what it found so far is kept and scored")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(service.cancel)
        row = QHBoxLayout()
        row.addWidget(self.url, 1)
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)

        self.schema_toggle = QToolButton(self)
        self.schema_toggle.setText("Input schema (optional)")
        self.schema_toggle.setCheckable(True)
        self.schema_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.schema_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.schema_toggle.setStyleSheet("QToolButton { border: none; }")
        self.schema_toggle.toggled.connect(self._toggle_schema)
        self.schema = QPlainTextEdit(self)
        self.schema.setAccessibleName("Input schema")
        self.schema.setPlaceholderText(f"What you know of the controls, as JSON, e.g.\n{EXAMPLE}")
        self.schema.setMaximumHeight(96)
        self.schema.setVisible(False)
        self.schema.textChanged.connect(self._check_schema)
        self.schema_problem = QLabel("", self)
        self.schema_problem.setWordWrap(True)
        self.schema_problem.setStyleSheet("color:#b91c1c;")
        self.schema_problem.setVisible(False)

        self.phases = PhaseStrip(self)
        self.status = QLabel("No evaluation yet. Open a game in the live view and press Run.", self)
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Evaluation status")
        self.errors = QLabel("", self)
        self.errors.setWordWrap(True)
        self.errors.setAccessibleName("What went wrong")
        self.errors.setStyleSheet("color:#b91c1c;")
        self.errors.setVisible(False)

        self.control_list = QTreeWidget(self)
        self.control_list.setHeaderLabels(["Control", "How", "Sure"])
        self.control_list.setRootIsDecorated(False)
        self.control_list.setAccessibleName("Controls found")
        header = self.control_list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.control_list.currentItemChanged.connect(lambda item, _old: self.outline(item))
        self.decisions = QTreeWidget(self)
        self.decisions.setHeaderLabels(["When", "Decision", "By"])
        self.decisions.setRootIsDecorated(False)
        self.decisions.setWordWrap(True)
        self.decisions.setAccessibleName("Decision log")
        header = self.decisions.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.details = TechnicalDetails(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.control_list, "Controls")
        self.tabs.addTab(self.decisions, "Decisions")

        self.evidence = QListWidget(self)
        self.evidence.setAccessibleName("Evidence screenshots")
        self.evidence.setViewMode(QListView.ViewMode.IconMode)
        self.evidence.setFlow(QListView.Flow.LeftToRight)
        self.evidence.setWrapping(False)
        self.evidence.setIconSize(THUMB)
        self.evidence.setMovement(QListView.Movement.Static)
        self.evidence.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # One row of thumbnails and their names, and the horizontal scroll bar below them (no vertical one).
        self.evidence.setFixedHeight(THUMB.height() + 30 + self.evidence.horizontalScrollBar().sizeHint().height())
        self.evidence.setFrameShape(QFrame.Shape.NoFrame)
        self.evidence.setToolTip("Screenshots the agent took; double-click (or Enter) to open one")
        self.evidence.itemActivated.connect(lambda item: self.screenshotActivated.emit(item.data(SHOT_ROLE)))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(row)
        layout.addWidget(self.schema_toggle)
        layout.addWidget(self.schema)
        layout.addWidget(self.schema_problem)
        layout.addWidget(self.phases)
        layout.addWidget(self.status)
        layout.addWidget(self.errors)
        layout.addWidget(self.details)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(QLabel("Evidence", self))
        layout.addWidget(self.evidence)

        service.runningChanged.connect(self._running)
        service.runChanged.connect(self.show_run)
        service.progress.connect(self._progress)
        service.controlsFound.connect(self.show_controls)
        service.decisionsAdded.connect(self.add_decisions)
        service.screenshotsAdded.connect(self.add_screenshots)

    # -- intent ----------------------------------------------------------------------------------------

    def run(self) -> None:
        """Start an evaluation of the typed URL, else of the live page."""
        url = self.url.text().strip() or self.page_url() or ""
        if not url:
            self._say_error("Type the game's address above, or open the game in the live view first.")
            return
        try:
            self.service.check(url, self.schema.toPlainText())
        except (GameUrlError, InputSchemaError) as error:
            self._say_error(str(error))
            return
        self.clear()
        self.status.setText(f"Starting the evaluation of {url}…")
        self.service.start(url, self.schema.toPlainText())

    def outline(self, item: QTreeWidgetItem | None) -> None:
        """Draw the selected control's box on the live view (keys have no box: nothing is drawn)."""
        control = item.data(0, CONTROL_ROLE) if item is not None else None
        if not isinstance(control, ControlDiscovery) or control.box is None:
            self.live_view.clear_highlights()
            return
        box = control.box
        self.live_view.set_highlights([Highlight(Rect(x=box.x, y=box.y, width=box.width, height=box.height),
                                                 OUTLINE, control.name or control.kind)], hold_ms=None)

    # -- rendering -------------------------------------------------------------------------------------

    def clear(self) -> None:
        self.controls = []
        self.control_list.clear()
        self.decisions.clear()
        self.evidence.clear()
        self._thumbs.clear()
        self._pending_thumbs.clear()
        self.details.clear()
        self.errors.setVisible(False)
        self.phases.show_phases([])

    def show_run(self, run: GameRun) -> None:
        self.phases.show_phases(run.phases)
        status = STATUS_WORDS.get(run.status, run.status)
        if run.status == "completed" and run.overall_score is not None:
            self.status.setText(f"{status}: overall score {run.overall_score} for {run.url}")
        elif run.status == "failed":
            scored = f" Partial overall score: {run.overall_score}." if run.overall_score is not None else ""
            self.status.setText(f"{status}: {run.url}.{scored}")
        else:
            self.status.setText(f"{status}: {run.url}")
        self.status.setToolTip(run.url)
        problems = list(dict.fromkeys(run.errors))
        self.errors.setText("\n".join(problems[:4]))
        self.errors.setVisible(bool(problems))
        self.details.show_details(run.details)

    def show_controls(self, controls: list[ControlDiscovery]) -> None:
        self.controls = list(controls)
        self.control_list.clear()
        for control in sorted(controls, key=lambda c: -c.confidence):
            what = control.description or control.name or control.element_selector
            how = "key" if control.action_type == "keyboard" else control.action_type
            item = QTreeWidgetItem([control_label(control), how, f"{control.confidence:.0%}"])
            item.setToolTip(0, f"{what}\n{control.element_selector}")
            item.setData(0, CONTROL_ROLE, control)
            self.control_list.addTopLevelItem(item)

    def add_decisions(self, entries: list[DecisionEntry]) -> None:
        for entry in entries:
            when = time.strftime("%H:%M:%S", time.localtime(entry.timestamp / 1000))
            item = QTreeWidgetItem([when, entry.decision, entry.ai_model or "explorer"])
            item.setToolTip(1, f"{entry.decision}\n\nFrom: {entry.context}")
            self.decisions.addTopLevelItem(item)
        self.decisions.scrollToBottom()

    def add_screenshots(self, shots: list[EvidenceShot]) -> None:
        for shot in shots:
            if shot.id in self._thumbs:
                continue
            label = shot.name.split("-", 1)[1].removesuffix(".png") if "-" in shot.name else shot.name
            item = QListWidgetItem(label[:22])
            item.setData(SHOT_ROLE, shot.id)
            item.setToolTip(shot.name)
            item.setSizeHint(QSize(THUMB.width() + 8, THUMB.height() + 28))
            self.evidence.addItem(item)
            self._thumbs[shot.id] = item
            self._pending_thumbs.append(shot)
        self.evidence.scrollToBottom()
        self._thumb_timer.start()

    def _load_thumbs(self) -> None:
        # A few thumbnails per turn of the event loop: decoding a PNG takes milliseconds each.
        batch, self._pending_thumbs = self._pending_thumbs[:4], self._pending_thumbs[4:]
        for shot in batch:
            png = self.service.screenshot_png(shot.id)
            item = self._thumbs.get(shot.id)
            if png is None or item is None:
                continue
            pixmap = QPixmap()
            if pixmap.loadFromData(png):
                item.setIcon(QIcon(pixmap.scaled(THUMB, Qt.AspectRatioMode.KeepAspectRatio,
                                                 Qt.TransformationMode.SmoothTransformation)))
        if self._pending_thumbs:
            self._thumb_timer.start()

    # -- reactions -------------------------------------------------------------------------------------

    def _running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    def _progress(self, message: str) -> None:
        self.status.setText(message)

    def _say_error(self, text: str) -> None:
        self.errors.setText(text)
        self.errors.setVisible(True)

    def _toggle_schema(self, shown: bool) -> None:
        self.schema.setVisible(shown)
        self.schema_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self._check_schema()

    def _check_schema(self) -> None:
        text = self.schema.toPlainText()
        problem = ""
        if text.strip():
            try:
                from studio.game.input_schema import parse_input_schema

                parse_input_schema(text)
            except InputSchemaError as error:
                problem = str(error)
        self.schema_problem.setText(problem)
        self.schema_problem.setVisible(bool(problem) and self.schema.isVisible())


def control_label(control: ControlDiscovery) -> str:
    """A control as a short line: the key ("ArrowLeft"), the button's name ("Restart"), "the play surface"."""
    if control.key:
        return control.key.removeprefix("Key").removeprefix("Digit")
    if control.kind == "canvas":
        return "the play surface" + (" (clicks)" if "listens for clicks" in control.description else "")
    return control.name or control.description.split(" (", 1)[0] or control.element_selector
