"""An inline message bar above the live view: errors and notices as sentences, dismissible, never modal."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

_STYLES = {
    "error": "background:#fdecea; color:#611a15; border:1px solid #f5c2c0;",
    "warning": "background:#fff4e5; color:#663c00; border:1px solid #ffd8a8;",
    "info": "background:#e8f4fd; color:#0d3c61; border:1px solid #b6dcf7;",
}


class MessageBar(QFrame):
    """Shows the latest message. Info messages fade after a few seconds; errors and warnings stay until the close
    button or Esc dismisses them, or until the tester's next action works (`clear_problem`): a sentence about a
    failure that was since put right only misleads."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-bar")
        self.level = "info"
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton(self)
        self.close_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
        self.close_button.setText("Close")
        self.close_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.close_button.setToolTip("Dismiss this message (Esc)")
        self.close_button.setAccessibleName("Dismiss the message")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def show_message(self, text: str, level: str = "error") -> None:
        self.level = level if level in _STYLES else "info"
        self.setStyleSheet(f"QFrame#message-bar {{{_STYLES[self.level]} border-radius:4px;}}")
        self.label.setText(text)
        self.show()
        if self.level == "info":
            self._timer.start(5000)
        else:
            self._timer.stop()

    @property
    def showing_problem(self) -> bool:
        return self.isVisibleTo(self.parentWidget() or self) and self.level in ("error", "warning")

    def dismiss(self) -> bool:
        """Hide the message; False when none was shown (so Esc can go on to whoever else wants it)."""
        shown = self.isVisibleTo(self.parentWidget() or self)
        self._timer.stop()
        self.hide()
        return shown

    def clear_problem(self) -> None:
        """The tester's next action worked: an error or warning about an earlier one goes (a notice stays)."""
        if self.showing_problem:
            self.dismiss()
