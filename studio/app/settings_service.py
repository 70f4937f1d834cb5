"""SettingsService: the studio's settings for every service and widget, changed in one place with one signal."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from studio.settings import StudioSettings, save_settings


class SettingsService(QObject):
    """Holds the current StudioSettings; `apply()` replaces them, saves them and emits `changed` to every holder.

    Holders read `settings` when they need a value, or connect to `changed` when they keep their own reference
    (the engine runtime does: its next browser session, job budgets and model follow the new settings).
    """

    changed = Signal(object)  # the new StudioSettings

    def __init__(self, settings: StudioSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings

    def apply(self, updated: StudioSettings) -> None:
        self.settings = updated
        self.save()
        self.changed.emit(updated)

    def save(self) -> None:
        save_settings(self.settings)
