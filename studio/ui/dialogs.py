"""Small dialogs: settings (browser, headless, viewport, model) and the screenshot viewer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.browser.discovery import BrowserNotFound, find_browser
from studio.browser.launcher import ENDPOINT_ENV
from studio.settings import StudioSettings
from studio.ui.model_settings import ModelSettingsBox


class SettingsDialog(QDialog):
    """Edits a copy of the settings; `result_settings()` returns it when the user pressed OK."""

    def __init__(self, settings: StudioSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self._settings = settings.model_copy(deep=True)
        form = QFormLayout()
        self.browser_path = QLineEdit(settings.browser_path or "", self)
        try:
            detected = find_browser()
            self.browser_path.setPlaceholderText(f"Automatic: {detected.path}")
        except BrowserNotFound:
            self.browser_path.setPlaceholderText("No browser found: install chromium or choose one")
        form.addRow("Browser:", self._with_browse(self.browser_path, self._browse))
        self.browser_endpoint = QLineEdit(settings.browser_endpoint or "", self)
        self.browser_endpoint.setPlaceholderText("None: launch the browser on this machine")
        self.browser_endpoint.setToolTip(
            "A remote browser instead of a local one: a Playwright browser server (ws://HOST:PORT/, started with "
            "`playwright run-server --unsafe`) or a Chrome DevTools endpoint (http://HOST:9222). "
            f"{ENDPOINT_ENV}, when set, takes precedence.")
        self.browser_endpoint.setClearButtonEnabled(True)
        form.addRow("Remote browser:", self.browser_endpoint)
        self.headless = QCheckBox("Headless (the page is shown only in the studio's live view)", self)
        self.headless.setChecked(settings.headless)
        form.addRow("Mode:", self.headless)
        self.width_box = QSpinBox(self, minimum=200, maximum=7680, value=settings.viewport[0], suffix=" px")
        self.height_box = QSpinBox(self, minimum=200, maximum=4320, value=settings.viewport[1], suffix=" px")
        size = QHBoxLayout()
        size.addWidget(self.width_box)
        size.addWidget(QLabel("×", self))
        size.addWidget(self.height_box)
        form.addRow("Viewport:", size)
        self.storage_state = QLineEdit(settings.storage_state or "", self)
        self.storage_state.setPlaceholderText("None: sessions start signed out")
        self.storage_state.setToolTip("A login state saved with Session > Save Login State; new sessions start with it.")
        self.storage_state.setClearButtonEnabled(True)
        form.addRow("Start signed in from:", self._with_browse(self.storage_state, self._browse_state))
        self.model_box = ModelSettingsBox(settings.llm, self, budgets=settings.budgets)
        self.key_problem: str | None = None  # a sentence when a typed API key could not be stored
        note = QLabel("Changes apply to the next browser session and the next job.", self)
        note.setStyleSheet("color: gray")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.model_box)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def _with_browse(self, field: QLineEdit, browse) -> QHBoxLayout:
        """A path field with its Browse… button on one row."""
        button = QPushButton("Browse…", self)
        button.clicked.connect(browse)
        row = QHBoxLayout()
        row.addWidget(field, 1)
        row.addWidget(button)
        return row

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a Chromium or Chrome executable")
        if path:
            self.browser_path.setText(path)

    def _browse_state(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a saved login state", "", "Storage state (*.json)")
        if path:
            self.storage_state.setText(path)

    def result_settings(self) -> StudioSettings:
        settings = self._settings
        settings.browser_path = self.browser_path.text().strip() or None
        settings.browser_endpoint = self.browser_endpoint.text().strip() or None
        settings.headless = self.headless.isChecked()
        settings.viewport = (self.width_box.value(), self.height_box.value())
        settings.storage_state = self.storage_state.text().strip() or None
        self.key_problem = self.model_box.apply(settings.llm)
        settings.budgets = self.model_box.budgets.budgets()
        return settings


class ScreenshotViewer(QDialog):
    """Shows one screenshot from the project at full size, scrollable, with Save As."""

    def __init__(self, png: bytes, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._png = png
        image = QImage.fromData(png, "PNG")  # type: ignore[arg-type]  # the stubs say bytes; PySide6 takes only str
        label = QLabel(self)
        label.setPixmap(QPixmap.fromImage(image))
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        scroll = QScrollArea(self)
        scroll.setWidget(label)
        self.save_button = QPushButton("Save As…", self)
        self.save_button.clicked.connect(self._save)
        self.status = QLabel("", self)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        layout.addLayout(row)
        self.resize(min(image.width() + 40, 1400), min(image.height() + 80, 900))

    def ask_save_path(self) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, "Save screenshot", "screenshot.png", "PNG images (*.png)")
        return path or None

    def _save(self) -> None:
        path = self.ask_save_path()
        if not path:
            return
        try:
            with open(path, "wb") as handle:
                handle.write(self._png)
        except OSError as error:
            self.status.setText(f"Could not save {path}: {error.strerror or error}. Choose another folder.")
            self.status.setStyleSheet("color: #b3261e")
            return
        self.status.setText(f"Saved {path}.")
        self.status.setStyleSheet("")
