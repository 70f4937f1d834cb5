"""Replay a pilot session from its folder alone, and compare what each action did with what it did then.

The replay is a new PilotSession on a fresh page at the session's start URL, fed the same action files in the same
order through the file protocol itself (written atomically into its folder, one after the other observation): so the
same normalization, race preflight, stopOnError, action limit and repetition refusal apply, and the replay's own
folder is a session folder like any other (a batch recorded while stopOnError defaulted to true, which stopped at its
first failure, is replayed with "stopOnError": true, so that it stops there again). The tester's actions recorded in previousActions are done at the point
they happened (the session is taken over, the action is done on the page as a tester would, and handed back) when
they can be: clicks, double-clicks, hovers, checks on a selector. The others (typing, choosing) were recorded without
their value, and are skipped with a line saying so.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.race import ActionName
from studio.pilot.actions import ActionFileError, parse_action_file
from studio.pilot.executor import ACT_TIMEOUT_MS, NAVIGATION_TIMEOUT_MS
from studio.pilot.files import ACTION_FILE, atomic_write_text
from studio.pilot.normalize import normalize_selector
from studio.pilot.recording import RecordedFile, Recording, RecordingError, verdict
from studio.pilot.session import PilotEvent, PilotOptions, PilotSession
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.wording import plural

TESTER_ACTS: dict[str, ActionName] = {"click": "click", "dblclick": "dblclick", "hover": "hover", "check": "check",
                                      "uncheck": "uncheck"}
SHOWN_CHARS = 60


@dataclass
class Comparison:
    """One action (or one unreadable action file, index None) as recorded and as replayed."""

    file: str
    index: int | None
    action: dict[str, Any]
    recorded: str
    replayed: str
    error: str | None = None  # the replay's error, when it did not do as recorded

    @property
    def same(self) -> bool:
        return self.recorded == self.replayed

    def line(self) -> str:
        where = f"{self.file} #{self.index + 1}" if self.index is not None else self.file
        if self.same:
            return f"{where} {describe(self.action)}: {self.replayed} (as recorded)"
        why = f" — {self.error}" if self.error else ""
        return f"{where} {describe(self.action)}: {self.replayed}, recorded {self.recorded}  <- differs{why}"


@dataclass
class ReplayResult:
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    folder: Path | None = None  # the replay's own session folder, when kept

    @property
    def differences(self) -> list[Comparison]:
        return [c for c in self.comparisons if not c.same]

    def summary(self) -> str:
        counted = [c for c in self.comparisons if c.index is not None]
        same = sum(c.same for c in counted)
        return f"{same} of {len(counted)} actions did as recorded."


def replayed_text(item: RecordedFile) -> str:
    """The action file as it is replayed: as recorded, but stopping at its first failure when the recorded batch did
    (a session recorded while "stopOnError" defaulted to true; today every action of a batch runs unless it says so)."""
    if not item.stopped_at_failure:
        return item.text
    try:
        data = json.loads(item.text)
    except (ValueError, RecursionError):
        return item.text
    if isinstance(data, list):
        data = {"actions": data}
    elif isinstance(data, dict) and "actions" not in data and "action" in data:
        data = {"actions": [data]}
    if not isinstance(data, dict) or "stopOnError" in data:
        return item.text
    return json.dumps({**data, "stopOnError": True}, ensure_ascii=False)


def describe(action: dict[str, Any]) -> str:
    """An action in a few words: its type and what it acts on."""
    if not action:
        return "(not read)"
    what = action.get("selector") or action.get("url") or action.get("value") or ""
    if action.get("action") == "type" and action.get("selector"):
        what = action["selector"]
    text = f"{action.get('action')} {what}".strip()
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


class Replayer:
    """Replays `recording` on the driver's page (a fresh one); `say` gets one line per action as each file
    finishes. A start URL that cannot be opened raises RaceError(navigation_failed) with a sentence."""

    def __init__(self, driver: PageDriver, recording: Recording, say: Callable[[str], None],
                 sessions_dir: Path | None = None) -> None:
        self.driver, self.recording, self.say = driver, recording, say
        original = recording.folder.resolve()
        if sessions_dir is not None and sessions_dir.resolve().is_relative_to(original):
            raise RecordingError(f"--out {sessions_dir} is inside the session being replayed; give a folder outside "
                                 f"{recording.folder}.")
        self.sessions_dir = sessions_dir
        self._observed = asyncio.Event()
        self._observation: dict[str, Any] = {}

    def _listen(self, event: PilotEvent) -> None:
        if event.kind == "observation":
            self._observation = event.data
            self._observed.set()

    async def run(self) -> ReplayResult:
        keep = self.sessions_dir is not None
        where = self.sessions_dir or Path(tempfile.mkdtemp(prefix="pilot-replay-"))
        result = ReplayResult()
        try:
            await self.driver.navigate(self.recording.start_url, wait_until="load", timeout_ms=NAVIGATION_TIMEOUT_MS)
            options = PilotOptions(goal=self.recording.goal, max_steps=self.recording.max_steps)
            session = PilotSession(self.driver, where, options, self._listen)
            running = asyncio.create_task(session.run())
            await self._next_observation(running)
            for item in self.recording.files:
                if item.tester_before and not running.done():
                    await self._tester(session, item.tester_before, result)
                observation = None
                if not running.done():
                    self._observed.clear()
                    atomic_write_text(session.folder / ACTION_FILE, replayed_text(item))
                    observation = await self._next_observation(running)
                self._compare(item, observation, result)
            if self.recording.tester_after:
                result.notes.append(f"{plural(len(self.recording.tester_after), 'tester action')} after the last action file "
                                    "were not replayed (nothing after them was recorded to compare).")
            if not running.done():
                session.stop()
            await running
            result.folder = session.folder if keep else None
        finally:
            if not keep:
                shutil.rmtree(where, ignore_errors=True)
        return result

    async def _next_observation(self, running: asyncio.Task) -> dict[str, Any] | None:
        waiter = asyncio.create_task(self._observed.wait())
        done, _ = await asyncio.wait({waiter, running}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            return None
        return self._observation

    def _compare(self, item: RecordedFile, observation: dict[str, Any] | None, result: ReplayResult) -> None:
        replayed_batch = (observation or {}).get("lastBatch")
        replayed_error = (observation or {}).get("error")
        try:
            actions = [action.given() for action in parse_action_file(item.text).actions]
        except ActionFileError as error:
            then = "unreadable" if item.error else "read"
            now = "not run" if observation is None else "unreadable" if replayed_error else "read"
            found = Comparison(item.name, None, {}, then, now, str(error))
            result.comparisons.append(found)
            self.say(found.line() + ("" if not found.same else f" — {error}"))
            return
        if item.outcomes is None:
            result.notes.append(f"{item.name} has no recorded observation (the session ended while it ran): its "
                                "actions were replayed but not compared.")
            return
        replayed_outcomes = list((replayed_batch or {}).get("outcomes") or [])
        for index, action in enumerate(actions):
            recorded = item.outcomes[index] if index < len(item.outcomes) else None
            replayed = replayed_outcomes[index] if index < len(replayed_outcomes) else None
            if recorded is None and replayed is None:
                continue  # run by neither (after a failure, or past the action limit)
            found = Comparison(item.name, index, action, verdict(recorded), verdict(replayed),
                               (replayed or {}).get("error"))
            result.comparisons.append(found)
            self.say(found.line())

    async def _tester(self, session: PilotSession, actions: list[dict[str, Any]], result: ReplayResult) -> None:
        session.take_over()
        done: list[dict[str, Any]] = []
        for action in actions:
            given, selector = str(action.get("action")), action.get("selector")
            kind = TESTER_ACTS.get(given)
            if kind is None or not selector:
                line = (f"tester {describe(action)}: skipped (the observation records no value for a {given}, so it "
                        "cannot be done again)")
                result.notes.append(line)
                self.say(line)
                continue
            normalized, _rules = normalize_selector(str(selector))
            try:  # through the preflight, as the tester's recorded actions were
                await self.driver.must(kind, normalized, timeout_ms=ACT_TIMEOUT_MS)
                self.say(f"tester {describe(action)}: done")
                done.append(action)
            except RaceError as error:
                if error.kind == "context_closed":
                    raise
                line = f"tester {describe(action)}: failed — {error.message}"
                result.notes.append(line)
                self.say(line)
        await session.hand_back(done)
