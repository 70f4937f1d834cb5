"""A read-only code view with simple Python / TypeScript highlighting (keywords, strings, comments)."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QFontDatabase, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QWidget

KEYWORDS = {
    "python": {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
        "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
    },
    "typescript": {
        "async", "await", "break", "case", "catch", "class", "const", "continue", "default", "else", "export",
        "extends", "false", "finally", "for", "from", "function", "if", "import", "in", "let", "new", "null",
        "of", "return", "switch", "this", "throw", "true", "try", "type", "typeof", "undefined", "var", "while",
    },
}
_STRING = r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`'
_TOKENS = {
    "python": re.compile(rf'(?P<string>{_STRING})|(?P<comment>#.*)|(?P<word>\b[A-Za-z_]\w*\b)'),
    "typescript": re.compile(rf'(?P<string>{_STRING})|(?P<comment>//.*)|(?P<word>\b[A-Za-z_$][\w$]*\b)'),
}
# Multi-line strings and comments: Python docstrings, TypeScript block comments.
_BLOCK = {"python": ('"""', '"""', "string"), "typescript": ("/*", "*/", "comment")}
IN_BLOCK = 1


def _format(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class CodeHighlighter(QSyntaxHighlighter):
    """Colours keywords, string literals and comments of one language, line by line."""

    def __init__(self, document: QTextDocument, language: str = "python") -> None:
        super().__init__(document)
        self.language = language
        self.formats = {"keyword": _format("#7c3aed", bold=True), "string": _format("#15803d"),
                        "comment": _format("#6b7280", italic=True)}

    def set_language(self, language: str) -> None:
        if language != self.language:
            self.language = language
            self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        opener, closer, kind = _BLOCK[self.language]
        start = 0
        if self.previousBlockState() == IN_BLOCK:
            end = text.find(closer)
            if end < 0:
                self.setFormat(0, len(text), self.formats[kind])
                self.setCurrentBlockState(IN_BLOCK)
                return
            start = end + len(closer)
            self.setFormat(0, start, self.formats[kind])
        self.setCurrentBlockState(0)
        keywords = KEYWORDS[self.language]
        position = start
        while position < len(text):
            block_at = text.find(opener, position)
            match = _TOKENS[self.language].search(text, position)
            if block_at >= 0 and (match is None or block_at <= match.start()):
                end = text.find(closer, block_at + len(opener))
                if end < 0:
                    self.setFormat(block_at, len(text) - block_at, self.formats[kind])
                    self.setCurrentBlockState(IN_BLOCK)
                    return
                self.setFormat(block_at, end + len(closer) - block_at, self.formats[kind])
                position = end + len(closer)
                continue
            if match is None:
                return
            group = match.lastgroup
            if group in ("string", "comment"):
                self.setFormat(match.start(), match.end() - match.start(), self.formats[group])
            elif match.group() in keywords:
                self.setFormat(match.start(), match.end() - match.start(), self.formats["keyword"])
            position = match.end()


class CodeView(QPlainTextEdit):
    """Generated code, read-only, in a monospace font, highlighted for its language."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.highlighter = CodeHighlighter(self.document())

    def show_code(self, text: str, language: str) -> None:
        self.highlighter.set_language(language)
        if text != self.toPlainText():
            self.setPlainText(text)
