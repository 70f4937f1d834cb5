"""Help › About Preflight Studio: the installed version, the Qt, Playwright and browser versions, and where the log,
the settings and the saved logins are (each a link that opens its folder) — what a bug report needs, with Copy."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from studio import installed_version
from studio.app.browser_service import BrowserService
from studio.browser.discovery import BrowserNotFound, find_browser
from studio.browser.launcher import configured_endpoint
from studio.settings import StudioSettings, config_folder, log_path, logins_folder, settings_path


@dataclass(frozen=True)
class Fact:
    """One line of the About box: its name, what it says, and the folder its link opens (None: plain text)."""

    name: str
    text: str
    folder: Path | None = None


def browser_fact(browser: BrowserService | None, settings: StudioSettings) -> str:
    """The running browser's own version, else "not started" and the browser a session would launch."""
    session = browser.session if browser is not None and browser.alive else None
    running = session.launcher.browser if session is not None else None
    if session is not None and running is not None:
        return f"{running.version} (running, {session.launcher.where})"
    endpoint = configured_endpoint(setting=settings.browser_endpoint)
    if endpoint:
        return f"not started; sessions connect to {endpoint}"
    try:
        info = find_browser(chosen=settings.browser_path)
    except BrowserNotFound:
        return "not started; none found (Session › Browser… fetches or chooses one)"
    return f"not started; {info.path} ({'chosen in Settings' if info.source == 'settings' else 'found'})"


def about_facts(browser: BrowserService | None, settings: StudioSettings) -> list[Fact]:
    try:
        playwright = version("playwright")
    except PackageNotFoundError:
        playwright = "not installed"
    return [
        Fact("Version", installed_version()),
        Fact("Qt", f"PySide6 {PySide6.__version__}, Qt runtime {qVersion()}"),
        Fact("Playwright", playwright),
        Fact("Browser", browser_fact(browser, settings)),
        Fact("Log", str(log_path()), log_path().parent),
        Fact("Settings", str(settings_path()), config_folder()),
        Fact("Saved logins", str(logins_folder()), logins_folder()),
    ]


class AboutDialog(QDialog):
    """The facts as a form; a path is a link to its folder (`open_folder` is the seam tests replace)."""

    def __init__(self, browser: BrowserService | None, settings: StudioSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Preflight Studio")
        self.facts = about_facts(browser, settings)
        self.labels: dict[str, QLabel] = {}
        title = QLabel(f"Preflight Studio {escape(installed_version())}", self)
        title.setStyleSheet("font-weight:600; font-size:13pt;")
        tagline = QLabel("Explore a web app in a live browser and turn it into tests.", self)
        form = QFormLayout()
        for fact in self.facts:
            label = QLabel(self)
            label.setWordWrap(True)
            if fact.folder is not None:
                label.setText(f'<a href="{QUrl.fromLocalFile(str(fact.folder)).toString()}">{escape(fact.text)}</a>')
                label.setToolTip(f"Open {fact.folder}")
                label.linkActivated.connect(lambda _link, folder=fact.folder: self.open_folder(folder))
            else:
                label.setText(escape(fact.text))
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(f"{fact.name}:", label)
            self.labels[fact.name] = label
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = buttons.addButton("Copy Details", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(tagline)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(620)

    def details(self) -> str:
        return "\n".join(f"{fact.name}: {fact.text}" for fact in self.facts)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details())

    def open_folder(self, folder: Path) -> bool:
        """Open `folder` in the desktop's file manager (made first: the log folder comes with the first log line)."""
        folder.mkdir(parents=True, exist_ok=True)
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
