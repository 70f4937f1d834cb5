"""The run's technical details (what went wrong underneath the sentences a tester reads) behind a "Technical
details" disclosure: closed by default, its count on the toggle, for the developer who needs the raw kinds."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from studio.models.game import TechnicalDetail
from studio.wording import plural

MAX_LINES = 6


class TechnicalDetails(QWidget):
    """A toggle ("▸ Technical details (2 notes)") and the notes, one a line, shown only while it is open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setStyleSheet("QToolButton { border: none; color: #4b5563; }")
        self.toggle.setToolTip("What happened underneath the messages, for developers")
        self.toggle.toggled.connect(self._open)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setAccessibleName("Technical details")
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toggle)
        layout.addWidget(self.text)
        self.show_details([])

    def show_details(self, details: list[TechnicalDetail]) -> None:
        """The run's notes; the disclosure hides itself when there are none."""
        self.text.setPlainText("\n".join(f"[{detail.phase}] {detail.kind}: {detail.detail}" for detail in details))
        self._fit()
        self.toggle.setText(f"Technical details ({plural(len(details), 'note')})")
        self.setVisible(bool(details))

    def clear(self) -> None:
        self.show_details([])

    def _fit(self) -> None:
        # As tall as its notes (up to six lines; it scrolls past that), so it never pushes the tabs below away. Again
        # when opened: the font it gets in the window is only known once it is shown.
        lines = min(MAX_LINES, max(1, self.text.document().blockCount()))
        margins = 2 * (self.text.frameWidth() + round(self.text.document().documentMargin())) + 4
        self.text.setFixedHeight(lines * self.text.fontMetrics().lineSpacing() + margins)

    def _open(self, shown: bool) -> None:
        self.text.setVisible(shown)
        self._fit()
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
