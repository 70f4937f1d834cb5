"""Look and feel: Fusion style, the studio stylesheet and icon from resources/."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from studio.resources import resource_path


def apply_theme(app: QApplication) -> None:
    app.setStyle("Fusion")
    stylesheet = resource_path("style.qss")
    if stylesheet.exists():
        app.setStyleSheet(stylesheet.read_text(encoding="utf-8"))
    icon = resource_path("icons", "studio.svg")
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
