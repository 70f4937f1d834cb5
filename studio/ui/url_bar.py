"""The browser toolbar: back, forward, reload, the URL field and a busy indicator."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QLineEdit, QProgressBar, QSizePolicy, QStyle, QToolBar, QWidget

from studio.app.browser_service import BrowserService


class UrlBar(QToolBar):
    """Navigation controls bound to a BrowserService; Ctrl+L focuses the URL field.

    Enter calls `open_url` with the typed text: the service's navigate, unless the window sets a hook that starts a
    session first when none runs.
    """

    def __init__(self, service: BrowserService, parent: QWidget | None = None) -> None:
        super().__init__("Navigation", parent)
        self.setObjectName("url-bar")
        self.setMovable(False)
        self.service = service
        self.open_url: Callable[[str], None] = service.navigate
        style = self.style()
        self.back_action = self._action(style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack), "Back", "Alt+Left", service.back)
        self.forward_action = self._action(style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward), "Forward", "Alt+Right", service.forward)
        self.reload_action = self._action(style.standardIcon(QStyle.StandardPixmap.SP_BrowserReload), "Reload", "F5", service.reload)
        self.url_edit = QLineEdit(self)
        self.url_edit.setObjectName("url-edit")
        self.url_edit.setPlaceholderText("Type a URL, e.g. http://127.0.0.1:8000/, and press Enter")
        self.url_edit.setClearButtonEnabled(True)
        self.url_edit.setAccessibleName("Address")
        self.url_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.url_edit.setMinimumWidth(320)
        self.url_edit.returnPressed.connect(self._go)
        self._sent: str | None = None  # the text Enter sent, until the page's URL comes back
        self.addWidget(self.url_edit)
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)  # indeterminate while a page loads
        self.busy.setMaximumWidth(80)
        self.busy.setMaximumHeight(10)
        self.busy.setTextVisible(False)
        self.busy_action = self.addWidget(self.busy)
        self.busy_action.setVisible(False)
        focus = QShortcut(QKeySequence("Ctrl+L"), self)
        focus.activated.connect(self.focus_address)
        service.urlChanged.connect(self._show_url)
        service.busyChanged.connect(self.busy_action.setVisible)

    def _action(self, icon, text: str, shortcut: str, slot) -> QAction:
        action = QAction(icon, text, self)
        action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"{text} ({shortcut})")
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def focus_address(self) -> None:
        self.url_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.url_edit.selectAll()

    def _go(self) -> None:
        # What was sent: while the field still holds it, the page this navigation lands on replaces it (a redirect
        # shows where the page is), even with the focus still here.
        self._sent = self.url_edit.text()
        self.open_url(self._sent)

    def _show_url(self, url: str) -> None:
        # Keep only what the tester is typing; focus alone (a new window focuses this field) is not typing, and the
        # URL they sent with Enter, unchanged since, is not typing any more.
        sent, self._sent = self._sent, None
        typing = self.url_edit.hasFocus() and self.url_edit.isModified()
        if not typing or self.url_edit.text() == sent:
            self.url_edit.setText(url)
