"""ProjectRecording: what an agent does through the toolbelt (e.g. over MCP), kept in a project file for
`studio export`.

One recorded session per browserContext name, so each context's steps export as one test.
"""

from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path

from studio.models.events import SessionEnded, SessionStarted
from studio.models.recording import RecordedStep
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)


class ProjectRecording:
    """An open project file and the recorded session of each browser context."""

    def __init__(self, project: ProjectFile) -> None:
        self.project = project
        self._sessions: dict[str, str] = {}

    @classmethod
    def open(cls, path: Path) -> ProjectRecording:
        """Open or create the project; raises ProjectError (a sentence) when the file cannot be used."""
        return cls(ProjectFile.open_or_create(path))

    def session_of(self, context_name: str) -> str | None:
        return self._sessions.get(context_name)

    def start(self, context_name: str, browser_path: str, browser_version: str, headless: bool,
              viewport: tuple[int, int], user_agent: str) -> tuple[str, int]:
        """The session id of a context (new on first use) and the index its next step gets."""
        session_id = self._sessions.get(context_name)
        if session_id is None:
            slug = re.sub(r"[^a-z0-9]+", "-", context_name.lower()).strip("-")[:24] or "context"
            session_id = f"mcp-{slug}-{uuid.uuid4().hex[:6]}"
            self._sessions[context_name] = session_id
            self.project.record(SessionStarted(session_id=session_id, browser_path=browser_path, browser_version=browser_version,
                                               headless=headless, viewport=viewport, user_agent=user_agent))
            self.project.set_session_label(session_id, f"MCP browserContext {context_name!r}")
            log.info("Recording browserContext %r as session %s in %s", context_name, session_id, self.project.path)
        return session_id, self.project.next_step_index(session_id)

    def add_step(self, step: RecordedStep) -> None:
        self.project.add_step(step)

    def close(self) -> None:
        """End every recorded session and close the file; safe to call twice."""
        if self.project.closed:
            return
        for session_id in self._sessions.values():
            self.project.record(SessionEnded(session_id=session_id, reason="closed",
                                             message="The MCP client disconnected."))
        self.project.close()
