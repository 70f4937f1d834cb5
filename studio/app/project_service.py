"""ProjectService: the open project file, its recorder on the event bus, New/Open/Save As and recent files."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.settings_service import SettingsService
from studio.models.events import EngineEvent, ProgressEvent
from studio.runtime import EngineRuntime
from studio.store.errors import ForeignSchemaError, ProjectError, SaveAsError
from studio.store.project import ProjectFile
from studio.wording import plural

log = logging.getLogger(__name__)


def scratch_folder() -> Path:
    folder = Path(user_data_dir("preflight-studio", appauthor=False)) / "untitled"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class ProjectService(QObject):
    """Keeps exactly one project open and records every engine event into it.

    Without a chosen file the studio records into an untitled project in the user data folder, which
    "Save As" turns into a real file, so nothing a tester does is ever lost.
    """

    projectChanged = Signal(str)
    recordsChanged = Signal()
    errorOccurred = Signal(str)
    # A shared file holding schema objects the studio did not make: (its path, the sentence naming them).
    foreignSchemaFound = Signal(str, str)

    def __init__(self, runtime: EngineRuntime, settings: SettingsService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runtime = runtime
        self.settings = settings
        self.project: ProjectFile | None = None
        self.untitled = False
        # Many events a second arrive while a page loads; the tree refreshes at most 4 times a second.
        self._refresh = QTimer(self, singleShot=True, interval=250)
        self._refresh.timeout.connect(self.recordsChanged)
        self._unsubscribe = runtime.bus.subscribe(self._on_event)

    @property
    def path(self) -> Path | None:
        return self.project.path if self.project else None

    def open_untitled(self) -> None:
        stamp = time.strftime("untitled-%Y%m%d-%H%M%S")
        path = scratch_folder() / f"{stamp}.studio"
        number = 2
        while path.exists():  # two windows (or tests) within the same second
            path = scratch_folder() / f"{stamp}-{number}.studio"
            number += 1
        if self._switch(lambda: ProjectFile.create(path)) is not None:
            self.untitled = True
            self.projectChanged.emit(str(path))

    def new_project(self, path: str | Path) -> bool:
        path = Path(path)
        if path.exists():
            self.errorOccurred.emit(f"{path} already exists. Choose another name, or open it with File > Open.")
            return False
        return self._open_with(lambda: ProjectFile.create(path), path)

    def open_project(self, path: str | Path) -> bool:
        path = Path(path)
        if not path.exists():
            self.errorOccurred.emit(f"{path} does not exist. It may have been moved; choose it again with File > Open.")
            return False
        return self._open_with(lambda: ProjectFile.open(path), path)

    def open_clean_copy(self, path: str | Path) -> bool:
        """Copy a refused shared file without what the studio did not make, and open the copy (the file stays)."""
        from studio.store.clean_copy import make_clean_copy

        try:
            copy, removed = make_clean_copy(Path(path))
        except ProjectError as error:
            self.errorOccurred.emit(str(error))
            return False
        log.info("clean copy %s of %s without: %s", copy, path, "; ".join(removed))
        return self._open_with(lambda: ProjectFile.open(copy), copy)

    def open_or_create(self, path: str | Path) -> bool:
        path = Path(path)
        return self.open_project(path) if path.exists() else self.new_project(path)

    def save_as(self, path: str | Path) -> bool:
        """Copy the open project to `path` (SQLite backup API) and continue recording there."""
        if self.project is None:
            return False
        path = Path(path)
        try:
            self.project.save_as(path)
        except SaveAsError as error:
            self.errorOccurred.emit(str(error))  # already names the file, the reason and what to do
            return False
        except (ProjectError, OSError) as error:
            self.errorOccurred.emit(f"Could not save the project as {path}: {error}")
            return False
        return self._open_with(lambda: ProjectFile.open(path), path)

    def _open_with(self, opener, path: Path) -> bool:
        project = self._switch(opener)
        if project is None:
            return False
        self.untitled = False
        self.settings.settings.remember_project(path)
        self.settings.save()
        self.projectChanged.emit(str(project.path))
        self._report_damaged_rows(project)
        return True

    def _report_damaged_rows(self, project: ProjectFile) -> None:
        """Read the project's jobs, cases and findings once, so rows someone else damaged are named now, not found
        one by one later (each is skipped wherever it is read)."""
        project.jobs.all()
        project.cases.cases()
        project.findings.all()
        damaged = project.rows.damaged
        if damaged:
            shown = "; ".join(str(row) for row in damaged[:3]) + (f"; and {len(damaged) - 3} more" if len(damaged) > 3
                                                                   else "")
            self.errorOccurred.emit(f"{project.path.name} has {plural(len(damaged), 'damaged row')}, skipped: {shown}. They "
                                    "were perhaps edited outside Preflight Studio; the rest of the project works.")

    def _switch(self, opener) -> ProjectFile | None:
        """Open the project `opener` gives in place of the current one; None (the error emitted) when it fails."""
        try:
            project = opener()
        except ForeignSchemaError as error:
            self.foreignSchemaFound.emit(str(error.path), str(error))
            return None
        except (ProjectError, OSError) as error:
            self.errorOccurred.emit(str(error))
            return None
        self.close()
        self.project = project
        self.runtime.attach_project(project)  # every engine event is recorded into it from now on
        return project

    def close(self) -> None:
        self.runtime.attach_project(None)
        if self.project:
            self.project.close()
            self.project = None

    def shutdown(self) -> None:
        self._unsubscribe()
        self.close()

    def _on_event(self, event: EngineEvent) -> None:
        if not isinstance(event, ProgressEvent) and not self._refresh.isActive():
            self._refresh.start()
