"""An inline message bar above the live view: errors and notices as sentences, dismissible, never modal, with the
next step as buttons when there is one ("New Cases for “Disputes”", "Answer the login question")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle, QToolButton, QVBoxLayout, QWidget

Action = tuple[str, Callable[[], object]]  # (button label, what it does)

_STYLES = {
    "error": "background:#fdecea; color:#611a15; border:1px solid #f5c2c0;",
    "warning": "background:#fff4e5; color:#663c00; border:1px solid #ffd8a8;",
    "info": "background:#e8f4fd; color:#0d3c61; border:1px solid #b6dcf7;",
}


class MessageBar(QFrame):
    """Shows the latest message. Info messages fade after a few seconds; errors, warnings and messages offering a
    next step stay until the close button or Esc dismisses them (or a step's button is pressed), or, for errors and
    warnings, until the tester's next action works (`clear_problem`): a sentence about a failure that was since put
    right only misleads."""

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
        self.action_buttons: list[QPushButton] = []
        # The sentence keeps the bar's whole width; the next steps go in a row under it.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.setSpacing(4)
        top = QHBoxLayout()
        top.addWidget(self.label, 1)
        top.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
        self.actions_row = QWidget(self)
        self._actions = QHBoxLayout(self.actions_row)
        self._actions.setContentsMargins(0, 0, 0, 2)
        self._actions.addStretch(1)
        layout.addWidget(self.actions_row)
        self.actions_row.hide()
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def show_message(self, text: str, level: str = "error", actions: Sequence[Action] = ()) -> None:
        """Show `text`; each of `actions` becomes a button that dismisses the bar and does its step."""
        self.level = level if level in _STYLES else "info"
        self.setStyleSheet(f"QFrame#message-bar {{{_STYLES[self.level]} border-radius:4px;}} "
                           "QFrame#message-bar QPushButton { padding: 3px 10px; }")
        self.label.setText(text)
        self._set_actions(actions)
        self.show()
        if self.level == "info" and not actions:
            self._timer.start(5000)
        else:
            self._timer.stop()

    def button(self, label: str) -> QPushButton | None:
        """The action button labelled `label` (tests, and the tester's eyes)."""
        return next((button for button in self.action_buttons if button.text() == label), None)

    def _set_actions(self, actions: Sequence[Action]) -> None:
        for button in self.action_buttons:
            self._actions.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.action_buttons = []
        for index, (label, step) in enumerate(actions):
            button = QPushButton(label, self.actions_row)
            button.setAutoDefault(False)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(lambda _checked=False, run=step: self._act(run))
            self._actions.insertWidget(index, button)
            self.action_buttons.append(button)
        self.actions_row.setVisible(bool(self.action_buttons))

    def _act(self, step: Callable[[], object]) -> None:
        self.dismiss()
        step()

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
