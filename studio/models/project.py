"""Read models of what a project file holds: sessions and their evidence, as the GUI, CLI and reports see them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from studio.models.events import is_failed_request


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class SessionRecord(_Record):
    """One browser session: how it was launched and, once over, why it ended (`ended_at` is None while it runs)."""

    id: str
    label: str | None = None
    started_at: float | None = None
    ended_at: float | None = None
    browser_path: str | None = None
    browser_version: str | None = None
    headless: bool | None = None
    viewport: tuple[int, int] | None = None
    user_agent: str | None = None
    end_reason: str | None = None
    end_message: str | None = None

    @property
    def running(self) -> bool:
        return self.ended_at is None


class NavigationRecord(_Record):
    """A main-frame navigation the session committed."""

    id: int
    session_id: str | None
    at: float
    url: str
    title: str | None = None


class ConsoleRecord(_Record):
    """A console message (`kind` 'console') or an uncaught page exception (`kind` 'page_error', level 'error')."""

    id: int
    session_id: str | None
    at: float
    kind: Literal["console", "page_error"]
    level: str
    text: str
    url: str | None = None
    line: int | None = None

    @property
    def is_error(self) -> bool:
        return self.kind == "page_error" or self.level == "error"


class NetworkRecord(_Record):
    """A finished request: a response with `status`, or a failure with `failure` text."""

    id: int
    session_id: str | None
    at: float
    method: str
    url: str
    resource_type: str | None = None
    status: int | None = None
    failure: str | None = None
    duration_ms: float | None = None

    @property
    def failed(self) -> bool:
        return is_failed_request(self.status, self.failure)


class ScreenshotRecord(_Record):
    """A screenshot's metadata; the PNG bytes stay in the file until asked for with `screenshot_png(id)`."""

    id: int
    session_id: str | None
    at: float
    label: str | None = None
    url: str | None = None
    width: int | None = None
    height: int | None = None
    size_bytes: int


class NoticeRecord(_Record):
    """A sentence that was shown to the user (info, warning or error) during a session or outside one."""

    id: int
    session_id: str | None
    at: float
    level: str
    message: str


class RunSummary(_Record):
    """The outcome of one job run (a preflight, a game test, a scenario run); `summary` is the job's own JSON."""

    id: int
    job: str
    session_id: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    summary: dict[str, Any]
