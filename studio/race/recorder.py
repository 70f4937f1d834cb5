"""StepRecorder: turns actions on a RacePage into RecordedSteps — locator, facts seen before, requests, outcome, and
the outcomes an exported test asserts (what the step changed: OutcomeObserver).

Facts are remembered by locator, not by ref: when hydration replaces a button, the new ref has the same
locator, so the facts seen on the old one (the scrim covering it) still belong to the step.

Enter is a key press, never part of a fill: a fill whose text ends with a line break on a one-line field is recorded
as the fill and then press("Enter"), and done that way, so the page gets the key a person would press.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Request

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import ActionName, ActionOutcome, Observation
from studio.models.recording import LoadingSeen, RecordedStep, RequestRecord, StepAction, StepOrigin, StepOutcome
from studio.race.actions import ActionRunner, fact_key, relevant
from studio.race.errors import RaceError
from studio.race.locators import synthesize
from studio.race.outcome_observer import OutcomeObserver
from studio.race.page import RacePage
from studio.resources import resource_path

StepSink = Callable[[RecordedStep], None]
WATCHED_TYPES = {"fetch", "xhr", "document"}
SECRET_ENV = {"password": "STUDIO_PASSWORD", "one-time-code": "STUDIO_OTP"}
LINE_BREAKS = "\r\n"
MAX_LOADING = 4  # indicators kept per step: a scrim and its spinner and text, rarely more
LOADING_READ_S = 2.0


class _Target:
    """What the recorder learned about a ref before acting on it."""

    def __init__(self, locator: LocatorSpec | None = None, secret_env: str | None = None, role: str | None = None,
                 tag: str | None = None) -> None:
        self.locator, self.secret_env, self.role, self.tag = locator, secret_env, role, tag
        self.drop: tuple[str, LocatorSpec | None] | None = None  # a drag's end: its ref and locator


def test_id_locators(observations: list[Observation]) -> dict[str, LocatorSpec]:
    """Test-id locators for the covering elements the facts name, from the facts alone (no live element needed)."""
    found: dict[str, LocatorSpec] = {}
    for item in observations:
        if item.type == "coverage" and not item.isTargetOrDescendant and item.elementAtPoint.testId:
            found[item.elementAtPoint.ref] = LocatorSpec(strategy="test_id", steps=[
                LocatorStep(kind="test_id", value=item.elementAtPoint.testId)])
    return found


def related_refs(observations: list[Observation]) -> set[str]:
    """Refs other than the target that the facts name (the covering element, an animating card, a busy grid)."""
    refs: set[str] = set()
    for item in observations:
        if item.type == "coverage" and not item.isTargetOrDescendant:
            refs.add(item.elementAtPoint.ref)
        elif item.type == "animation":
            refs.add(item.animatedElement.ref if item.animatedElement else item.ref)
        elif item.type == "aria_state" and item.setBy:
            refs.add(item.setBy)
    return refs


class RequestWatch:
    """Collects the fetch/XHR/document requests a page starts from now on, until it is quiet."""

    def __init__(self, race: RacePage) -> None:
        self.page = race.page
        self.started: list[Request] = []
        self.open: set[Request] = set()
        self.last_change = time.monotonic()

    def __enter__(self) -> RequestWatch:
        self.page.on("request", self._on_request)
        self.page.on("requestfinished", self._on_done)
        self.page.on("requestfailed", self._on_done)
        return self

    def __exit__(self, *exc: object) -> None:
        for event, handler in (("request", self._on_request), ("requestfinished", self._on_done),
                               ("requestfailed", self._on_done)):
            self.page.remove_listener(event, handler)

    def _on_request(self, request: Request) -> None:
        if request.resource_type in WATCHED_TYPES and not request.url.startswith(("data:", "blob:")):
            self.started.append(request)
            self.open.add(request)
            self.last_change = time.monotonic()

    def _on_done(self, request: Request) -> None:
        if request in self.open:
            self.open.discard(request)
            self.last_change = time.monotonic()

    async def quiet(self, settle_s: float, max_s: float) -> None:
        """Wait until no request is open and none started or ended for `settle_s`, counted from now: the action
        has just been done (it may have waited seconds for a scrim first), and what it sends starts after it."""
        self.last_change = max(self.last_change, time.monotonic())
        deadline = time.monotonic() + max_s
        while time.monotonic() < deadline:
            if not self.open and time.monotonic() - self.last_change >= settle_s:
                return
            await asyncio.sleep(0.02)

    async def records(self) -> list[RequestRecord]:
        result = []
        for request in self.started:
            try:
                response = await request.response()
            except PlaywrightError:
                response = None
            result.append(RequestRecord(method=request.method, url=request.url,
                                        status=response.status if response else None,
                                        resource_type=request.resource_type))
        return result


class StepRecorder:
    """Records what is done through it into `sink`, one RecordedStep per executed action or navigation."""

    def __init__(self, race: RacePage, runner: ActionRunner, session_id: str, sink: StepSink,
                 origin: StepOrigin = "agent", first_index: int = 0, settle_ms: float = 400,
                 max_wait_ms: float = 5000) -> None:
        self.race, self.runner, self.session_id, self.sink, self.origin = race, runner, session_id, sink, origin
        self.index = first_index
        self.settle_s, self.max_wait_s = settle_ms / 1000, max_wait_ms / 1000
        self._seen: dict[str, list[Observation]] = {}
        self._related: dict[str, dict[str, LocatorSpec]] = {}
        self._ref_keys: dict[str, str] = {}
        self.outcomes = OutcomeObserver(race)
        self._watching = False  # the loading watch is installed in the tab (resources/race/loading_watch.js)
        self._loading_since_ms = 0.0  # what the watch saw before this time belongs to earlier steps

    async def navigate(self, url: str) -> int | None:
        """Open `url`; opening the page already shown is a reload (a goto there would only scroll to its #anchor)."""
        page = self.race.page
        await self._watch_loading()
        before = await self.outcomes.before()
        url_before = page.url
        action: StepAction = "reload" if url == url_before and url.startswith(("http:", "https:")) else "navigate"
        # No wait for the network to go quiet here: an agent acts as soon as the page has loaded, and the facts it
        # then meets (a scrim still hydrating) belong to the recording.
        with self.outcomes.page_errors() as errors:
            response = await (page.reload() if action == "reload" else page.goto(url))
        outcomes = await self.outcomes.after(before, action, None, None, None, errors)
        self._emit(RecordedStep(session_id=self.session_id, index=self.index, at=_now(), origin=self.origin,
                                action=action, url=page.url, outcomes=outcomes,
                                outcome=StepOutcome(url_before=url_before, url_after=page.url)))
        return response.status if response else None

    async def act(self, action: ActionName, ref: str, value: str | None = None, key: str | None = None) -> ActionOutcome:
        """Run an action through the race preflight; record it when it executes, remember its facts when not."""
        await self._watch_loading()
        target = await self._locate(ref)
        if action == "drag" and value:
            # Where the drag ends, located now (the drop may change it): the exported test drags onto it.
            target.drop = (value, (await self._locate(value)).locator)
        if action in ("fill", "type") and value and value[-1] in LINE_BREAKS and target.tag != "textarea":
            typed = await self.act(action, ref, value.rstrip(LINE_BREAKS), key)
            return await self.act("press", ref, key="Enter") if typed.acted else typed
        context: dict = {}

        async def before_act() -> None:
            self._follow(ref, target)
            context.update(await self._before(target))

        with RequestWatch(self.race) as watch, self.outcomes.page_errors() as errors:
            outcome = await self.runner.run(action, ref, value=value, key=key, before_act=before_act)
            if not outcome.acted:
                await self._remember(ref, outcome.observations)
                return outcome
            await watch.quiet(self.settle_s, self.max_wait_s)
            requests = await watch.records()
        await self._finish(action, ref, target, value, key, context, requests, errors)
        return outcome

    async def press_key(self, key: str) -> None:
        """Press a key on the page itself (whatever has focus): a game's arrow keys, Escape, a shortcut."""
        context = await self._before(_Target())
        with RequestWatch(self.race) as watch, self.outcomes.page_errors() as errors:
            await self.race.page.keyboard.press(key)
            await watch.quiet(self.settle_s, self.max_wait_s)
            requests = await watch.records()
        await self._finish("press", None, _Target(), None, key, context, requests, errors)

    async def record_external(self, action: StepAction, ref: str, perform: Callable[[], Awaitable[None]],
                              value: str | None = None, key: str | None = None,
                              ) -> tuple[list[Observation], RecordedStep]:
        """Record an action done another way (the tester's own click in the live view).

        Returns the facts the action's preflight saw on the element just before it (they do not stop it), and
        the step it became.
        """
        target = await self._locate(ref)
        found, _ = await self.race.observe_for_action(ref)
        observations = relevant(action, found)
        await self._remember(ref, observations)
        context = await self._before(target)
        with RequestWatch(self.race) as watch, self.outcomes.page_errors() as errors:
            await perform()
            await watch.quiet(self.settle_s, self.max_wait_s)
            requests = await watch.records()
        step = await self._finish(action, ref, target, value, key, context, requests, errors)
        return observations, step

    # -- internals -------------------------------------------------------------------------------

    async def _locate(self, ref: str) -> _Target:
        try:
            described = await self.race.describe(ref)
            locator = await synthesize(self.race, ref)
        except RaceError:
            return _Target()  # the element is gone; the action will report its detachment
        self._ref_keys[ref] = locator.python()
        # Passwords and one-time codes are never stored; the exported test reads an environment variable.
        secret = SECRET_ENV["password"] if described.get("inputType") == "password" else (
            SECRET_ENV["one-time-code"] if described.get("secret") else None)
        return _Target(locator, secret, described.get("role"), described.get("tag"))

    def _follow(self, ref: str, target: _Target) -> None:
        """The runner acts on the element that replaced `ref` (found again by a locator, see studio.race.rebind): the
        step is about that element, and keeps the facts seen on the one it replaced."""
        moved = self.runner.rebound
        if moved is None:
            return
        old_key, new_key = self._ref_keys.get(ref), moved.spec.python()
        target.locator = moved.spec
        if old_key and old_key != new_key:
            self._seen.setdefault(new_key, []).extend(self._seen.pop(old_key, []))
            self._related.setdefault(new_key, {}).update(self._related.pop(old_key, {}))

    async def _remember(self, ref: str, observations: list[Observation]) -> None:
        key = self._ref_keys.get(ref)
        if key is None or not observations:
            return
        seen = self._seen.setdefault(key, [])
        known = {fact_key(o) for o in seen}
        seen.extend(o for o in observations if fact_key(o) not in known)
        related = self._related.setdefault(key, {})
        named = test_id_locators(observations)
        for other in related_refs(observations) - set(related):
            try:
                related[other] = await synthesize(self.race, other)  # now, while the scrim still exists
            except RaceError:
                # gone already (a scrim clears fast on a quick machine, a loaded one reads it late): the fact
                # still names its test id, which is the locator the synthesis would have chosen first
                if other in named:
                    related[other] = named[other]

    async def _before(self, target: _Target) -> dict:
        return {"url_before": self.race.page.url, "texts_before": await self._texts(),
                "loading": await self._loading_gone(),
                "observed": await self.outcomes.before(target.locator, target.role)}

    async def _watch_loading(self) -> None:
        """Install the loading watch in this tab once: for the documents to come, and in the one shown now."""
        if self._watching:
            return
        self._watching = True
        source, context = _loading_watch(), self.race.page.context
        try:
            if not getattr(context, "_studio_loading_watch", False):  # once per tab, however often recording starts
                await asyncio.wait_for(context.add_init_script(source), LOADING_READ_S)
                context._studio_loading_watch = True  # type: ignore[attr-defined]
            await asyncio.wait_for(self.race.page.evaluate(source), LOADING_READ_S)
        except (PlaywrightError, TimeoutError):
            pass  # a page that does not answer: its steps are recorded without it

    async def _loading_gone(self) -> list[LoadingSeen]:
        """What the page showed while loading since the previous step and no longer shows (the watch's notes)."""
        since, self._loading_since_ms = self._loading_since_ms, time.time() * 1000
        try:
            found = await asyncio.wait_for(self.race.page.evaluate(
                "(since) => window.__studioLoadingSeen ? window.__studioLoadingSeen(since) : []", since),
                LOADING_READ_S)
        except (PlaywrightError, TimeoutError):
            return []
        seen = [LoadingSeen(text=str(e.get("text") or ""), test_id=e.get("testId"), element_id=e.get("id"),
                            role=e.get("role"), tag=str(e.get("tag") or ""), covers=bool(e.get("covers")),
                            seconds=float(e.get("seconds") or 0)) for e in found if isinstance(e, dict)]
        # The longest first: the scrim over the page matters more than a spinner inside it.
        return sorted(seen, key=lambda e: -e.seconds)[:MAX_LOADING]

    async def _texts(self) -> set[tuple[str, str]]:
        """(role, text) of visible live regions; alerts are kept apart so the export checks role=alert."""
        try:
            return {("alert" if entry["role"] in ("alert", "alertdialog") else "status", entry["text"])
                    for entry in await self.race.live_texts()}
        except RaceError:
            return set()

    async def _finish(self, action: StepAction, ref: str | None, target: _Target, value: str | None, key: str | None,
                      context: dict, requests: list[RequestRecord], errors: list[str]) -> RecordedStep:
        locator, secret_env = target.locator, target.secret_env
        new_texts = sorted(await self._texts() - context.get("texts_before", set()))
        outcomes = await self.outcomes.after(context["observed"], action, locator, target.role,
                                             None if secret_env else value, errors)
        page_key = locator.python() if locator else self._ref_keys.get(ref or "", "")
        observations = self._seen.pop(page_key, [])
        related = self._related.pop(page_key, {})
        if target.drop is not None and target.drop[1] is not None:
            related = {**related, target.drop[0]: target.drop[1]}
        try:
            title = await self.race.page.title()
        except PlaywrightError:
            title = None
        step = RecordedStep(
            session_id=self.session_id, index=self.index, at=_now(), origin=self.origin, action=action,
            url=context.get("url_before", self.race.page.url), ref=ref, locator=locator,
            value=None if secret_env else value, secret_env=secret_env, key=key,
            observations=observations, related_locators=related, requests=requests, outcomes=outcomes,
            loading_seen=context.get("loading", []),
            outcome=StepOutcome(url_before=context.get("url_before", ""), url_after=self.race.page.url,
                                status_texts=[text for role, text in new_texts if role == "status"],
                                alert_texts=[text for role, text in new_texts if role == "alert"],
                                title_after=title),
        )
        self._emit(step)
        return step

    def _emit(self, step: RecordedStep) -> None:
        self.index += 1
        self.sink(step)


@functools.cache
def _loading_watch() -> str:
    """The loading watch's page script (read once per process)."""
    return resource_path("race", "loading_watch.js").read_text(encoding="utf-8")


def _now() -> float:
    return time.time() * 1000
