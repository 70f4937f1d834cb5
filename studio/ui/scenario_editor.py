"""The scenario YAML editor: problems marked at their line (a red wavy underline, the sentence on hover and in the list
under it), checked again a moment after each edit; completions from the scenario schema's keys, the MCP endpoints
and the condition kinds (Ctrl+Space, or on their own after two letters); Ctrl+S saves (the editor takes it before
the window's Save), undo and redo are the editor's own (Ctrl+Z, Ctrl+Shift+Z)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QKeySequence, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from studio.scenarios.schema import scenario_schema
from studio.scenarios.spec import ENDPOINTS
from studio.scenarios.validation import Problem

CHECK_DELAY_MS = 400
LINE_ROLE = Qt.ItemDataRole.UserRole + 1


def schema_words() -> list[str]:
    """Every property name in the scenario schema, the MCP endpoints and the enumerated values, sorted."""
    words: set[str] = set(ENDPOINTS)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    words.update(value)
                if key == "enum" and isinstance(value, list):
                    words.update(str(v) for v in value if isinstance(v, str))
                if key == "const" and isinstance(value, str):
                    words.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(scenario_schema())
    return sorted((w for w in words if w[:1].isalpha()), key=str.lower)


class YamlEditor(QPlainTextEdit):
    """A plain-text YAML editor with problem marks and schema completions."""

    saveRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Scenario YAML")
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 2)
        self.problems: list[Problem] = []
        self.completer = QCompleter(QStringListModel(schema_words()), self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.activated.connect(self.insert_completion)

    # -- problems -------------------------------------------------------------------------------------

    def show_problems(self, problems: list[Problem]) -> None:
        self.problems = problems
        marks = []
        for problem in problems:
            block = self.document().findBlockByNumber(max(0, problem.line - 1))
            if not block.isValid():
                continue
            cursor = QTextCursor(block)
            cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor,
                                max(0, min(problem.column - 1, block.length() - 1)))
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            if not cursor.hasSelection():
                cursor = QTextCursor(block)
                cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(QColor("#dc2626"))
            fmt.setBackground(QColor("#fef2f2"))
            fmt.setToolTip(problem.message)
            selection = QTextEdit.ExtraSelection()
            selection.cursor, selection.format = cursor, fmt
            marks.append(selection)
        self.setExtraSelections(marks)

    def problem_lines(self) -> list[int]:
        return sorted({p.line for p in self.problems})

    def go_to_line(self, line: int, column: int = 1) -> None:
        block = self.document().findBlockByNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor,
                            max(0, min(column - 1, block.length() - 1)))
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            cursor = self.cursorForPosition(event.pos())  # type: ignore[attr-defined]
            line = cursor.blockNumber() + 1
            said = [p.message for p in self.problems if p.line == line]
            if said:
                QToolTip.showText(event.globalPos(), "\n".join(said), self)  # type: ignore[attr-defined]
            else:
                QToolTip.hideText()
            return True
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and \
                event.matches(QKeySequence.StandardKey.Save):
            event.accept()  # the editor's Ctrl+S saves the scenario, not the project
            return True
        return super().event(event)

    # -- completions ----------------------------------------------------------------------------------

    def _popup(self) -> QAbstractItemView:
        popup = self.completer.popup()
        assert popup is not None
        return popup

    def word_before_cursor(self) -> str:
        cursor = self.textCursor()
        text = cursor.block().text()[: cursor.positionInBlock()]
        word = ""
        for char in reversed(text):
            if char.isalnum() or char in "_.":
                word = char + word
            else:
                break
        return word

    def insert_completion(self, completion: str) -> None:
        cursor = self.textCursor()
        prefix = self.word_before_cursor()
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(prefix))
        cursor.insertText(completion)
        self.setTextCursor(cursor)

    def complete(self, forced: bool = False) -> None:
        prefix = self.word_before_cursor()
        if not forced and len(prefix) < 2:
            self._popup().hide()
            return
        self.completer.setCompletionPrefix(prefix)
        if self.completer.completionCount() == 0 or (
                self.completer.completionCount() == 1 and self.completer.currentCompletion() == prefix):
            self._popup().hide()
            return
        rect = self.cursorRect()
        rect.setWidth(self._popup().sizeHintForColumn(0) + 24)
        self.completer.complete(rect)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        popup = self._popup()
        if popup.isVisible() and event.key() in (Qt.Key.Key_Enter, Qt.Key.Key_Return, Qt.Key.Key_Tab,
                                                 Qt.Key.Key_Escape):
            event.ignore()  # the popup takes them
            return
        if event.matches(QKeySequence.StandardKey.Save):
            self.saveRequested.emit()
            return
        if event.key() == Qt.Key.Key_Space and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.complete(forced=True)
            return
        if event.key() == Qt.Key.Key_Tab:  # YAML has no tabs: two spaces
            self.insertPlainText("  ")
            return
        super().keyPressEvent(event)
        if event.text() and (event.text().isalnum() or event.text() in "_."):
            self.complete()
        elif popup.isVisible():
            popup.hide()


class ProblemList(QListWidget):
    """The editor's problems, one line each ("12:5 — …"); activating one puts the cursor there."""

    def __init__(self, editor: YamlEditor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.setAccessibleName("Scenario problems")
        self.setMaximumHeight(96)
        self.itemActivated.connect(self._go)

    def show_problems(self, problems: list[Problem]) -> None:
        self.clear()
        for problem in problems:
            item = QListWidgetItem(f"line {problem.line}, column {problem.column} — {problem.message}")
            item.setData(LINE_ROLE, (problem.line, problem.column))
            item.setForeground(QColor("#b91c1c"))
            self.addItem(item)
        if not problems:
            self.addItem(QListWidgetItem("No problems: the scenario is valid."))

    def _go(self, item: QListWidgetItem) -> None:
        where = item.data(LINE_ROLE)
        if where:
            self.editor.go_to_line(*where)


class CheckedEditor(QWidget):
    """The editor and its problem list, checked `CHECK_DELAY_MS` after the last edit with `check(text)`."""

    def __init__(self, check: Callable[[str], list[Problem]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.check = check
        self.editor = YamlEditor(self)
        self.problem_list = ProblemList(self.editor, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.problem_list)
        self._timer = QTimer(self, singleShot=True, interval=CHECK_DELAY_MS)
        self._timer.timeout.connect(self.recheck)
        self.editor.textChanged.connect(self._timer.start)

    def recheck(self) -> list[Problem]:
        problems = self.check(self.editor.toPlainText())
        self.editor.show_problems(problems)
        self.problem_list.show_problems(problems)
        return problems
