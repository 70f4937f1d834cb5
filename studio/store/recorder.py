"""Records every event published on an EventBus into a project file, and turns write failures into notices."""

from __future__ import annotations

import logging
import sqlite3
from types import TracebackType

from studio.events import EventBus
from studio.models.events import EngineEvent, NoticeEvent
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)


class ProjectRecorder:
    """Subscribes to `bus` and writes each event to `project`; it never raises into the engine.

    A failed write is reported once per run of failures as an error NoticeEvent on the same bus; recording
    goes on with the next event, and an info notice says how many events were lost once writes work again.
    """

    def __init__(self, project: ProjectFile, bus: EventBus) -> None:
        self._project = project
        self._bus = bus
        self._failing = False
        self._lost_in_streak = 0
        self._lost = 0
        self._reported_missing = False
        self._publishing_failure = False
        self._unsubscribe = bus.subscribe(self._on_event)

    @property
    def lost_events(self) -> int:
        """How many events could not be written since the recorder started."""
        return self._lost

    def close(self) -> None:
        """Stop recording; the project itself stays open (its owner closes it)."""
        self._unsubscribe()

    def __enter__(self) -> ProjectRecorder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _on_event(self, event: EngineEvent) -> None:
        if self._publishing_failure:
            return  # our own failure notice: writing it would fail the same way
        try:
            stored = self._project.record(event)
        except ValueError as exc:
            # An event the store cannot file (a bug upstream), not a storage problem: nothing for the user to fix.
            self._lost += 1
            log.error("not recording %s: %s", event.type, exc)
            return
        except Exception as exc:  # whatever broke the write, the engine must keep running
            self._on_failure(event, exc)
            return
        if self._failing:
            self._on_recovery(event)
        if stored and not self._reported_missing and self._project.file_missing():
            self._reported_missing = True
            self._bus.publish(
                NoticeEvent(
                    session_id=event.session_id,
                    level="error",
                    message=(
                        f"The project file {self._project.path} was moved or deleted while recording. "
                        "Recording goes on, but what it records will be lost when the project closes: "
                        "use Save As now to keep a copy."
                    ),
                )
            )

    def _on_failure(self, event: EngineEvent, exc: Exception) -> None:
        self._lost += 1
        self._lost_in_streak += 1
        if self._failing:
            log.debug("still cannot write %s to %s: %s", event.type, self._project.path, exc)
            return
        self._failing = True
        log.warning("cannot write %s to %s", event.type, self._project.path, exc_info=exc)
        self._publishing_failure = True
        try:
            self._bus.publish(
                NoticeEvent(
                    session_id=event.session_id,
                    level="error",
                    message=write_failure_message(str(self._project.path), exc),
                )
            )
        finally:
            self._publishing_failure = False

    def _on_recovery(self, event: EngineEvent) -> None:
        lost, self._lost_in_streak, self._failing = self._lost_in_streak, 0, False
        self._bus.publish(
            NoticeEvent(
                session_id=event.session_id,
                level="info",
                message=(
                    f"Saving to {self._project.path} works again; "
                    f"{lost} event{'s' if lost != 1 else ''} recorded meanwhile could not be saved."
                ),
            )
        )


def write_failure_message(path: str, exc: Exception) -> str:
    """A sentence saying why an event could not be saved to `path` and what the user can do about it."""
    detail = str(exc)
    lowered = detail.lower()
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith("SQLITE_FULL") or "full" in lowered:
        why, step = "the disk is full", "Free some disk space; saving resumes by itself when there is room."
    elif name.startswith("SQLITE_READONLY") or "readonly" in lowered or "read-only" in lowered:
        why, step = (
            "the file has become read-only",
            "Make the file and its folder writable, or use Save As to continue in a new file.",
        )
    elif isinstance(exc, sqlite3.ProgrammingError) and "closed" in lowered:
        why, step = "the project was closed", "Open the project again to keep recording."
    else:
        why, step = (
            f"SQLite reports: {detail}",
            "Check that the disk is still connected, then use Save As to keep a copy of the project.",
        )
    return f"Could not save to the project file {path}: {why}. Recording continues. {step}"
