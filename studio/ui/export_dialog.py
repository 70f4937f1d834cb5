"""The Export dialog: choose language, title and folder, preview the generated test, and write it."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio import export as exporter  # its writers load when the dialog first renders, not at studio start
from studio.export.errors import ExportError
from studio.models.recording import RecordedStep
from studio.ui.code_view import CodeView


def safe_folder_name(text: str, limit: int = 60) -> str:
    """`text` as a folder name every system accepts: letters, digits, dot, dash and underscore only."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", text)
    name = re.sub(r"-{2,}", "-", name)[:limit].strip("-.")
    return name or "test"


LANGUAGES: tuple[tuple[str, exporter.Language], ...] = (
    ("Python (pytest-playwright)", "python"), ("TypeScript (@playwright/test)", "typescript"))


class ExportDialog(QDialog):
    """Previews the test as it will be written; Export writes the whole test project into the chosen folder.

    Open it with open() (never exec() from async code); `ask_folder` is the seam tests replace.
    """

    exported = Signal(object)  # ExportResult

    def __init__(self, steps: list[RecordedStep], base_folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps = steps
        self.base_folder = base_folder
        self.result_info: exporter.ExportResult | None = None
        session = steps[0].session_id if steps else "session"
        self.setWindowTitle(f"Export session {session} as a Playwright test")
        self.resize(860, 640)

        self.language = QComboBox(self)
        for label, code in LANGUAGES:
            self.language.addItem(label, code)
        self.title = QLineEdit(self)
        self.title.setPlaceholderText("Made from the steps when left empty")
        self.folder = QLineEdit(self)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("Language", self.language)
        form.addRow("Title", self.title)
        form.addRow("Folder", folder_row)

        self.preview = CodeView(self)
        self.preview.setAccessibleName("Preview of the test")
        self.status = QLabel(f"{len(steps)} steps. The folder must be new, empty, or an earlier export.", self)
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.export)
        self.buttons.rejected.connect(self.reject)

        layout = self.main_layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Preview", self))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)

        self._default_folder = ""
        self._refresh = QTimer(self, singleShot=True, interval=250)  # typing a title re-renders once it pauses
        self._refresh.timeout.connect(self.refresh_preview)
        self.title.textChanged.connect(self._refresh.start)
        self.language.currentIndexChanged.connect(self._language_changed)
        self._language_changed()

    @property
    def lang(self) -> exporter.Language:
        return self.language.currentData()  # one of LANGUAGES' codes

    def folder_name(self) -> str:
        """The default folder's name, before its language (a session's id; a case export names its case)."""
        return self.steps[0].session_id if self.steps else "session"

    def _language_changed(self) -> None:
        default = str(self.base_folder / safe_folder_name(f"{self.folder_name()}-{self.lang}"))
        if self.folder.text() in ("", self._default_folder):
            self.folder.setText(default)
        self._default_folder = default
        self.refresh_preview()

    def refresh_preview(self) -> bool:
        """Render the test file; an exporter error is shown instead of code and disables Export."""
        self._refresh.stop()
        try:
            code = exporter.render_test(self.steps, self.lang, self.title.text().strip() or None)
        except ExportError as error:
            self.preview.show_code(f"# {error}" if self.lang == "python" else f"// {error}", self.lang)
            self.export_button.setEnabled(False)
            return False
        self.preview.show_code(code, self.lang)
        self.export_button.setEnabled(True)
        return True

    def export(self) -> exporter.ExportResult | None:
        folder = self.folder.text().strip()
        if not folder:
            self.status.setText("Choose a folder for the test project first.")
            return None
        try:
            result = exporter.export_session(self.steps, self.lang, Path(folder).expanduser(),
                                    title=self.title.text().strip() or None)
        except ExportError as error:
            self.status.setText(str(error))
            return None
        self.result_info = result
        env = f" Set {', '.join(result.env_vars)} before running it." if result.env_vars else ""
        self.status.setText(f"Wrote {len(result.files)} files to {result.out}.{env}")
        self.exported.emit(result)
        self.accept()
        return result

    def ask_folder(self) -> str | None:
        path = QFileDialog.getExistingDirectory(self, "Folder for the test project", self.folder.text())
        return path or None

    def _browse(self) -> None:
        chosen = self.ask_folder()
        if chosen:
            self.folder.setText(chosen)
