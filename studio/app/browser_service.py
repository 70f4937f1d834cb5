"""BrowserService: the GUI's handle on one live browser session (start, navigate, frames, input, end)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from studio.app.collector import set_aside_startup_objects
from studio.app.tasks import TaskOwner
from studio.browser.discovery import BrowserNotFound
from studio.browser.errors import BrowserError
from studio.browser.input import InputAction, PageInput
from studio.browser.screencast import LiveScreencast
from studio.browser.session import BrowserSession
from studio.browser.urls import normalize_url
from studio.models.browser import LiveFrame, SessionOptions
from studio.models.events import EngineEvent, NavigationEvent, SessionEnded
from studio.runtime import EngineRuntime

log = logging.getLogger(__name__)


class BrowserService(QObject):
    """Owns the runtime's live BrowserSession, its screencast and input queue, and re-emits engine events as Qt
    signals.

    Frames are not queued: `frameReady` only says "a newer frame exists"; the view pulls `latest_frame`.
    """

    frameReady = Signal()
    engineEvent = Signal(object)
    sessionStarted = Signal(str)
    sessionEnded = Signal(str, str)
    urlChanged = Signal(str)
    busyChanged = Signal(bool)
    errorOccurred = Signal(str)
    notice = Signal(str)  # a sentence about something that worked (a saved file)
    navigated = Signal()  # a navigation the tester asked for (address, back, forward, reload) worked
    tracingChanged = Signal(bool)
    # No browser to launch (none installed, or the chosen one gone): the window offers to fetch or choose one.
    browserMissing = Signal(object)  # the BrowserNotFound

    def __init__(self, runtime: EngineRuntime, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runtime = runtime
        self.bus = runtime.bus
        self.latest_frame: LiveFrame | None = None
        self.frames_received = 0
        self._screencast: LiveScreencast | None = None
        self._input: PageInput | None = None
        self._tasks = TaskOwner(on_error=lambda error: self.errorOccurred.emit(str(error)))
        self._unsubscribe = self.bus.subscribe(self._on_event)

    # -- commands (called by widgets) ---------------------------------------------------------------

    @property
    def session(self) -> BrowserSession | None:
        """The runtime's live session (every job and the live view work in it)."""
        return self.runtime.session

    @property
    def alive(self) -> bool:
        return self.runtime.browser_alive

    @property
    def allow_file_urls(self) -> bool:
        """Whether the session may open file: and data: URLs (`studio gui --allow-file-urls`)."""
        return self.session is not None and self.session.options.allow_file_urls

    def start_session(self, options: SessionOptions, url: str | None = None) -> None:
        self._tasks.spawn(self.start(options, url), name="start-session")

    async def start(self, options: SessionOptions, url: str | None = None) -> BrowserSession | None:
        """Start a new session (ending the current one first); errors become errorOccurred sentences."""
        await self.stop()
        self.busyChanged.emit(True)
        try:
            session = await self.runtime.start_browser(options)
        except BrowserError as error:
            self.errorOccurred.emit(str(error))
            if isinstance(error, BrowserNotFound):
                self.browserMissing.emit(error)
            self.busyChanged.emit(False)
            return None
        self._screencast = LiveScreencast(session, self._on_frame, max_size=options.viewport,
                                          max_fps=options.live_view_fps)
        await self._screencast.start()
        self._input = PageInput(session)
        self._input.start()
        set_aside_startup_objects()  # full collections then walk only what the session adds
        self.sessionStarted.emit(session.id)
        self.busyChanged.emit(False)
        if url:
            await self.goto(url)
        return session

    async def stop(self) -> None:
        """End the current session cleanly (screencast, input, browser), if there is one."""
        session = self.session
        if self._input:
            await self._input.stop()
            self._input = None
        if self._screencast:
            if session is not None and session.alive:
                await self._screencast.stop()
            self._screencast = None
        await self.runtime.close_browser()

    def set_frame_size(self, width: int, height: int) -> None:
        """The live view paints the page at `width`×`height` device pixels: frames come at that size (at most the
        viewport's, at least a quarter of it), rounded so that small resizes do not restart the stream."""
        session, screencast = self.session, self._screencast
        if session is None or screencast is None or not self.alive:
            return
        full_width, full_height = session.options.viewport
        size = (max(full_width // 4, min(full_width, -(-width // 64) * 64)),
                max(full_height // 4, min(full_height, -(-height // 64) * 64)))
        self._tasks.spawn(screencast.resize(size), name="screencast-size")

    def end_session(self) -> None:
        self._tasks.spawn(self.stop(), name="end-session")

    def navigate(self, text: str) -> None:
        try:
            url = normalize_url(text, allow_files=self.allow_file_urls)
        except ValueError as error:
            self.errorOccurred.emit(str(error))
            return
        self._tasks.spawn(self.goto(url), name="navigate")

    async def goto(self, url: str) -> None:
        session = self.session
        if session is None or not session.alive:
            self.errorOccurred.emit("There is no browser session. Start one with Session > New Session (Ctrl+Shift+N).")
            return
        try:  # a new session's start URL comes from settings or the address field, never checked before
            url = normalize_url(url, allow_files=self.allow_file_urls)
        except ValueError as error:
            self.errorOccurred.emit(str(error))
            return
        self.busyChanged.emit(True)
        try:
            await session.goto(url)
        except BrowserError as error:
            self.errorOccurred.emit(str(error))
            self.urlChanged.emit(url)  # the address field keeps what was asked for, to fix and retry
        else:
            self.navigated.emit()
        finally:
            self.busyChanged.emit(False)

    def back(self) -> None:
        self._history("go_back")

    def forward(self) -> None:
        self._history("go_forward")

    def reload(self) -> None:
        self._history("reload")

    def _history(self, method: str) -> None:
        if self.alive:
            self._tasks.spawn(self._run_history(method), name=method)

    async def _run_history(self, method: str) -> None:
        try:
            await getattr(self.session, method)()
        except BrowserError as error:
            self.errorOccurred.emit(str(error))
        else:
            self.navigated.emit()

    def send_input(self, action: InputAction) -> None:
        if self._input is not None and self.alive:
            self._input.push(action)

    async def input_sent(self) -> None:
        """Wait until every gesture queued by send_input has reached the page."""
        if self._input is not None:
            await self._input.drain()

    def take_screenshot(self, label: str = "manual") -> None:
        self._on_session(lambda session: session.screenshot(label), "screenshot")

    def save_storage_state(self, path: str) -> None:
        self._on_session(lambda session: session.save_storage_state(path), "save-state",
                         lambda: self.notice.emit(
                             f"Saved the login state to {path}. Session > Start Signed In… (or Settings) uses it."))

    def start_tracing(self) -> None:
        self._on_session(lambda session: session.start_tracing(), "start-trace", lambda: self.tracingChanged.emit(True))

    def stop_tracing(self, path: str) -> None:
        def done() -> None:
            self.tracingChanged.emit(False)
            self.notice.emit(f"Saved the trace to {path}. Open it with `playwright show-trace {path}`.")

        self._on_session(lambda session: session.stop_tracing(path), "stop-trace", done)

    def _on_session(self, operation, name: str, done=None) -> None:
        """Run `operation(session)` as an owned task, then `done()`; a BrowserError becomes an errorOccurred sentence."""
        if not self.alive:
            self.errorOccurred.emit("There is no browser session. Start one with Session > New Session (Ctrl+Shift+N).")
            return

        async def run() -> None:
            try:
                await operation(self.session)
            except BrowserError as error:
                self.errorOccurred.emit(str(error))
                return
            if done is not None:
                done()

        self._tasks.spawn(run(), name=name)

    async def shutdown(self) -> None:
        """Close everything before the event loop ends (a live screencast at interpreter exit crashes)."""
        self._unsubscribe()
        await self._tasks.cancel_all()
        await self.stop()

    # -- engine → Qt ---------------------------------------------------------------------------------

    def _on_frame(self, frame: LiveFrame) -> None:
        self.latest_frame = frame
        self.frames_received += 1
        self.frameReady.emit()

    def _on_event(self, event: EngineEvent) -> None:
        self.engineEvent.emit(event)
        if isinstance(event, NavigationEvent) and not event.url.startswith("chrome-error://"):
            self.urlChanged.emit(event.url)
        elif isinstance(event, SessionEnded) and self.session is not None and event.session_id == self.session.id:
            self.sessionEnded.emit(event.reason, event.message)
            if event.reason != "closed":
                self._tasks.spawn(self._release_after_crash(), name="release")

    async def _release_after_crash(self) -> None:
        await self.stop()
