"""An inline message bar above the live view: errors and notices as sentences, dismissible, never modal."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

_STYLES = {
    "error": "background:#fdecea; color:#611a15; border:1px solid #f5c2c0;",
    "warning": "background:#fff4e5; color:#663c00; border:1px solid #ffd8a8;",
    "info": "background:#e8f4fd; color:#0d3c61; border:1px solid #b6dcf7;",
}


class MessageBar(QFrame):
    """Shows the latest message; info messages fade after a few seconds, errors stay until dismissed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-bar")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip("Dismiss (Esc)")
        close.setAutoRaise(True)
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def show_message(self, text: str, level: str = "error") -> None:
        self.setStyleSheet(f"QFrame#message-bar {{{_STYLES.get(level, _STYLES['info'])} border-radius:4px;}}")
        self.label.setText(text)
        self.show()
        if level == "info":
            self._timer.start(5000)
        else:
            self._timer.stop()
