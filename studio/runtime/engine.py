"""EngineRuntime: what every front end needs to run engine work, built in one place.

It owns the event bus, the project recorder (every event into the open project file), the browsers (the tester's
live session, and the fleet that every other piece of work gets its pages from: one browser here, or the configured
browser servers), the language model from settings (its calls logged into the project), the job budgets and the job
runner. The CLI, the benches, the MCP server and the GUI's services each build one; several can run side by side in
one process (each with its own bus and browsers), recording into the same project or into different ones.

    async with EngineRuntime(settings, project=project) as runtime:
        session = await runtime.start_browser(headless=True)      # the live session the tester watches
        driver = await runtime.open_page()                        # a fresh context of the fleet, as a PageDriver
        job = await runtime.jobs.run(work)
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from types import TracebackType
from typing import Any, Literal

from studio.browser.contexts import ContextOptions
from studio.browser.errors import BrowserError
from studio.browser.fleet import BrowserFleet, FleetMember
from studio.browser.origins import OriginPolicy
from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.llm.client import LanguageModel
from studio.llm.errors import LLMError
from studio.models.browser import SessionOptions
from studio.models.events import NoticeEvent
from studio.models.llm import JobBudgets, LLMSettings
from studio.race.driver import PageDriver
from studio.race.world import PAGE_TIMEOUT_S
from studio.runtime.jobs import JobRunner
from studio.runtime.live import driver_in, page_beside
from studio.settings import StudioSettings
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder

log = logging.getLogger(__name__)


class EngineRuntime:
    """One engine instance: bus, project, browser, model, budgets and one job at a time."""

    def __init__(self, settings: StudioSettings, project: ProjectFile | None = None, *,
                 bus: EventBus | None = None, budget_limits: dict[str, float | None] | None = None,
                 record: bool = True, headless: bool | None = None,
                 browser_endpoints: Iterable[str] | None = None, fleet: BrowserFleet | None = None) -> None:
        self.settings = settings
        self.bus = bus or EventBus()
        self.budget_limits = dict(budget_limits or {})  # --max-* flags over the settings' budgets
        self.try_forms = False  # new preflights may send the app's forms with sample data (the tester's choice)
        self.session: BrowserSession | None = None
        self.jobs: JobRunner[Any] = JobRunner(lambda: self.project)
        self.project: ProjectFile | None = None
        self._record = record
        self._recorder: ProjectRecorder | None = None
        self._model: LanguageModel | None = None
        self._model_settings: LLMSettings | None = None
        self._owns_session = False
        # Which browsers the fleet uses: these endpoints (`--browser-endpoint`, repeatable for `studio run`) over
        # the settings' one, and headless or not over the settings.
        self._endpoints = [e for e in browser_endpoints or () if e]
        self._browser_overrides: dict[str, Any] = {} if headless is None else {"headless": headless}
        # A fleet given here (a test worker's shared Chromium) is used as it is; else one is built on first use.
        self._fleet: BrowserFleet | None = fleet
        self.attach_project(project)

    # -- parts ---------------------------------------------------------------------------------------

    @property
    def budgets(self) -> JobBudgets:
        """The job budgets now: the settings' (which may change between jobs) with this run's overrides."""
        return self.settings.budgets.overridden(**self.budget_limits)

    def attach_project(self, project: ProjectFile | None) -> None:
        """Record into `project` from now on (None: record nowhere); the caller owns opening and closing it."""
        if self._recorder is not None:
            self._recorder.close()
            self._recorder = None
        self.project = project
        if project is not None and self._record:
            self._recorder = ProjectRecorder(project, self.bus)

    def session_options(self, **overrides: Any) -> SessionOptions:
        """Options for a new browser session from the settings (endpoint included), with this runtime's browser
        overrides and `overrides`."""
        return self.settings.session_options(**{**self._browser_overrides, **overrides})

    @property
    def fleet(self) -> BrowserFleet:
        """The browsers every piece of work but the live session gets its pages from (started on first use)."""
        if self._fleet is None:
            options = self.session_options()
            self._fleet = BrowserFleet(options.headless, options.browser_path,
                                       self._endpoints or [options.browser_endpoint or ""])
        return self._fleet

    async def open_page(self, options: ContextOptions | None = None, *, pin: OriginPolicy | None = None,
                        preflight: bool = True, in_session: bool = False, exclude: Iterable[FleetMember] = (),
                        timeout_s: float = PAGE_TIMEOUT_S) -> PageDriver:
        """A page in a fresh context, as a PageDriver that closes the context when closed: on the least busy
        browser of the fleet (not on `exclude`), or with `in_session` on the live session's browser (cookies and
        all, as the tester's; e.g. the preflight's sandbox). Raises BrowserError with a next step."""
        if in_session:
            return await page_beside(await self.browser(), options, pin=pin, preflight=preflight, timeout_s=timeout_s)
        context, member = await self.fleet.open_context(options, exclude)
        driver = await driver_in(context, member.where, pin=pin, preflight=preflight, timeout_s=timeout_s)
        driver.member = member
        return driver

    @property
    def browser_alive(self) -> bool:
        return self.session is not None and self.session.alive

    async def start_browser(self, options: SessionOptions | None = None, /, **overrides: Any) -> BrowserSession:
        """Start a new browser session (ending this runtime's current one); raises BrowserError with a next step."""
        await self.close_browser()
        session = BrowserSession(self.bus, options or self.session_options(**overrides))
        await session.start()
        self.session, self._owns_session = session, True
        return session

    async def browser(self, **overrides: Any) -> BrowserSession:
        """The live session, started when there is none (or it ended)."""
        if self.session is not None and self.session.alive:
            return self.session
        return await self.start_browser(**overrides)

    async def close_browser(self) -> None:
        session, self.session = self.session, None
        if session is not None and self._owns_session:
            await session.close()

    async def language_model(self) -> LanguageModel | None:
        """The model the settings configure (None: offline heuristics), its calls recorded into the project.

        A model whose settings changed is replaced; an unusable configuration is said as a notice and the job runs
        on the heuristics.
        """
        wanted = self.settings.llm
        if self._model_settings == wanted:
            return self._model
        await self._close_model()
        project = self.project
        try:
            self._model = LanguageModel.from_settings(wanted, sink=project.llm_calls.add if project else None)
        except LLMError as error:  # e.g. an endpoint that is not http(s): say so, go on offline
            self.notice("warning", f"{error} The job runs on the offline heuristics instead.")
            self._model = None
        self._model_settings = wanted.model_copy(deep=True)
        return self._model

    def notice(self, level: Literal["info", "warning", "error"], message: str) -> None:
        """A sentence for whoever listens (the GUI's message bar, the CLI's stderr), recorded with the project."""
        self.bus.publish(NoticeEvent(level=level, message=message))

    # -- lifetime ------------------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop the running job (recorded as cancelled), close the browser and the model, stop recording."""
        if self.jobs.running:
            await self.jobs.cancel(grace_s=2.0)
        try:
            await self.close_browser()
        except BrowserError as error:
            log.warning("closing the browser: %s", error)
        fleet, self._fleet = self._fleet, None
        if fleet is not None:
            await fleet.close()
        await self._close_model()
        self.attach_project(None)

    async def __aenter__(self) -> EngineRuntime:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()

    async def _close_model(self) -> None:
        model, self._model = self._model, None
        if model is not None:
            await model.aclose()
