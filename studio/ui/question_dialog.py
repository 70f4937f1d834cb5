"""The question dialog: a paused job's one or two questions, each with why it is asked, answered or skipped.

It is opened with open(), never exec(): no nested event loop runs while the tester thinks, and the answer
arrives as the `answered` signal (or `dismissed` when the dialog was closed without one).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.ask import present
from studio.models.context import SKIPPED, Answer, PendingQuestion

SECRET_NOTE = "Kept in memory for this run only; never written to the project file."


class QuestionBox(QFrame):
    """One question: title, the question, why it is asked, and the input its kind calls for."""

    changed = Signal()

    def __init__(self, pending: PendingQuestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pending = pending
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("question-box")
        layout = QVBoxLayout(self)
        self.title = title = QLabel(pending.question.title, self)
        title.setStyleSheet("font-weight:600; font-size:11pt;")
        self.question = question = QLabel(pending.question.question, self)
        question.setWordWrap(True)
        self.why = why = QLabel(f"Why I'm asking: {pending.why}", self)
        why.setWordWrap(True)
        why.setStyleSheet("color:#4b5563; font-style:italic;")
        for label in (title, question, why):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)

        self.choices = QButtonGroup(self)
        self.other: QRadioButton | None = None
        self.edit: QLineEdit | None = None
        options = pending.question.options or []
        for option in options:
            button = QRadioButton(option, self)
            self.choices.addButton(button)
            layout.addWidget(button)
        if options and pending.kind == "choice":
            self.other = QRadioButton("Other:", self)
            self.choices.addButton(self.other)
            row = QHBoxLayout()
            row.addWidget(self.other)
            self.edit = QLineEdit(self)
            self.edit.setPlaceholderText("Your own answer")
            self.edit.textEdited.connect(lambda _text: self.other.setChecked(True))
            row.addWidget(self.edit, 1)
            layout.addLayout(row)
        elif not options:
            self.edit = QLineEdit(self)
            self.edit.setAccessibleName(pending.question.title)
            layout.addWidget(self.edit)
            if pending.kind == "secret":
                self.edit.setEchoMode(QLineEdit.EchoMode.Password)
                self.edit.setPlaceholderText("Password")
                if "never written" not in pending.question.question:  # the engine may say so already
                    note = QLabel(SECRET_NOTE, self)
                    note.setStyleSheet("color:#4b5563;")
                    layout.addWidget(note)
            else:
                self.edit.setPlaceholderText("Your answer")
        self.choices.buttonToggled.connect(lambda *_args: self.changed.emit())
        if self.edit is not None:
            self.edit.textChanged.connect(lambda _text: self.changed.emit())

    def value(self) -> str:
        """The answer as typed or chosen; "" when none is given yet."""
        chosen = self.choices.checkedButton()
        if chosen is not None and chosen is not self.other:
            return chosen.text()
        if self.edit is not None and (chosen is self.other or not self.choices.buttons()):
            return self.edit.text().strip() if self.pending.kind != "secret" else self.edit.text()
        return ""

    def set_value(self, value: str) -> None:
        """Fill the input as a tester would (tests, and a paused job asked again)."""
        for button in self.choices.buttons():
            if button is not self.other and button.text() == value:
                button.setChecked(True)
                return
        if self.other is not None:
            self.other.setChecked(True)
        if self.edit is not None:
            self.edit.setText(value)


class QuestionDialog(QDialog):
    """Up to two questions of one paused job; Answer resumes the job, Skip lets the engine decide without them."""

    answered = Signal(list)  # list[Answer]; Skip answers every question with SKIPPED ("decide without me")
    dismissed = Signal()  # closed without answering: the job stays paused

    def __init__(self, questions: list[PendingQuestion], job_label: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.questions = questions[:2]
        self.setWindowTitle("The preflight needs your answer" if len(self.questions) == 1
                            else "The preflight needs your answers")
        self.setMinimumWidth(520)
        self._decided = False
        layout = QVBoxLayout(self)
        if job_label:
            head = QLabel(job_label, self)
            head.setWordWrap(True)
            head.setStyleSheet("color:#4b5563;")
            layout.addWidget(head)
        self.boxes = [QuestionBox(question, self) for question in self.questions]
        for previous, box in zip([None, *self.boxes], self.boxes):
            # "Login" twice (account, then password) reads as one topic: its title and reason are said once.
            if previous is not None and previous.pending.question.title == box.pending.question.title:
                box.title.hide()
            if previous is not None and previous.pending.why == box.pending.why:
                box.why.hide()
            layout.addWidget(box)
            box.changed.connect(self._update_buttons)
        layout.addStretch(1)  # extra height goes below the questions, not between them
        self.buttons = QDialogButtonBox(self)
        self.skip_button = self.buttons.addButton("Skip", QDialogButtonBox.ButtonRole.RejectRole)
        self.skip_button.setToolTip("Go on without these answers; the job decides whether it can")
        self.skip_button.setEnabled(all(question.skippable for question in self.questions))
        self.answer_button = self.buttons.addButton("Answer", QDialogButtonBox.ButtonRole.AcceptRole)
        self.answer_button.setDefault(True)
        self.skip_button.clicked.connect(self.skip)
        self.answer_button.clicked.connect(self.submit)
        layout.addWidget(self.buttons)
        self.finished.connect(self._closed)
        self._update_buttons()

    def answers(self) -> list[Answer]:
        return [Answer(key=box.pending.key, value=box.value()) for box in self.boxes]

    def _update_buttons(self) -> None:
        self.answer_button.setEnabled(all(box.value() for box in self.boxes))

    def submit(self) -> None:
        if not self.answer_button.isEnabled():
            return
        self._decide(self.answers())

    def skip(self) -> None:
        self._decide([Answer(key=box.pending.key, value=SKIPPED) for box in self.boxes])

    def _decide(self, answers: list[Answer]) -> None:
        self._decided = True
        self.accept()
        self.answered.emit(answers)

    def _closed(self, _code: int) -> None:
        if not self._decided:
            self.dismissed.emit()

    def ask(self) -> None:
        """Show the dialog without a nested event loop, in front, with the first choice or field focused."""
        present(self)
        # Once shown at its real width the wrapped labels know their height: fit to them, no empty band below.
        self.resize(self.width(), self.heightForWidth(self.width()) if self.hasHeightForWidth() else
                    self.sizeHint().height())
        if self.boxes:
            box = self.boxes[0]
            target = box.choices.buttons()[0] if box.choices.buttons() else box.edit
            if target is not None:
                target.setFocus()
