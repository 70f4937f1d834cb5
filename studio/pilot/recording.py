"""A finished (or stopped) pilot session read back from its folder: what replay and export work from.

The folder alone is enough: session.json gives the start URL, goal and action limit; actions/NNNN-action.json are the
action files in the order they were read (malformed ones too); observations/NNNN-observation.json say what each one
did. An observation written after an action file was read carries its batch (`lastBatch`) or its parse error
(`error` without a batch; beside a batch, `error` says which of its actions were refused as repetitions), so the k-th
such observation belongs to the k-th action file. The other observations are the first one and
the one written when the tester hands the page back: the tester's actions are the `by: "tester"` entries its
previousActions gained, and they happened before the next action file was read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from studio.pilot.files import SESSION_FILE

Verdict = Literal["ok", "blocked", "failed", "refused", "not run"]


class RecordingError(ValueError):
    """The folder cannot be read as a pilot session; the message says what is wrong and what to do."""


@dataclass
class RecordedFile:
    """One action file as it was read, with what it did (None: the session ended before its observation)."""

    name: str  # "actions/0001-action.json"
    text: str
    outcomes: list[dict[str, Any]] | None = None
    error: str | None = None  # why the file could not be read (None when its batch ran)
    url_before: str = ""  # the page's URL in the observation before it
    stopped_at_failure: bool = False  # its batch ran up to its first failure and no further
    url_after: str = ""
    tester_before: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Recording:
    folder: Path
    start_url: str
    goal: str
    max_steps: int
    files: list[RecordedFile]
    tester_after: list[dict[str, Any]] = field(default_factory=list)  # handed back after the last action file


def verdict(outcome: dict[str, Any] | None) -> Verdict:
    """What an action did, in the words replay compares: ok, blocked (by the preflight's facts), failed, refused."""
    if outcome is None:
        return "not run"
    if outcome.get("refused"):
        return "refused"
    if outcome.get("ok"):
        return "ok"
    return "blocked" if outcome.get("blocked") else "failed"


def _json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordingError(f"{path} is missing, so {what}.") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordingError(f"{path} is damaged ({error}), so {what}.") from None


def _tester_run(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tester's actions at the end of a previousActions list."""
    run: list[dict[str, Any]] = []
    for entry in reversed(actions):
        if entry.get("by") != "tester":
            break
        run.insert(0, entry)
    return run


def load_recording(folder: Path) -> Recording:
    """Read a session folder; raises RecordingError with one sentence on what is missing or damaged."""
    hint = "give the exploration-<epoch ms> folder `studio pilot` printed"
    if not folder.is_dir():
        raise RecordingError(f"{folder} is not a folder: {hint}.")
    if not (folder / SESSION_FILE).exists() and not (folder / "actions").is_dir():
        raise RecordingError(f"{folder} is not a pilot session folder (no session.json, no actions/): {hint}.")
    session = _json(folder / SESSION_FILE, "the session's start URL is unknown: replay needs the whole folder")
    start_url = session.get("startUrl") if isinstance(session, dict) else None
    if not isinstance(start_url, str) or not start_url:
        raise RecordingError(f"{folder / SESSION_FILE} has no startUrl, so the session cannot be replayed: {hint}.")
    if not (folder / "actions").is_dir() or not (folder / "observations").is_dir():
        raise RecordingError(f"{folder} has no actions/ or observations/ folder: it was not written by `studio pilot` "
                             "(or was copied in part); copy the whole session folder.")
    files = [RecordedFile(name=f"actions/{p.name}", text=p.read_text(encoding="utf-8", errors="replace"))
             for p in sorted((folder / "actions").glob("[0-9]*-action.json"))]
    if not files:
        raise RecordingError(f"{folder} holds no action file (actions/ is empty): the AI never acted, so there is "
                             "nothing to replay.")
    observations = [_json(p, "the session's outcomes cannot be compared; copy the folder again")
                    for p in sorted((folder / "observations").glob("[0-9]*-observation.json"))]
    recording = Recording(folder=folder, start_url=start_url, goal=str(session.get("goal") or ""),
                          max_steps=int(session.get("maxSteps") or 50), files=files)
    _attach(recording, observations)
    return recording


def _attach(recording: Recording, observations: list[dict[str, Any]]) -> None:
    """Give each action file its observation's outcomes, and each its tester actions before it."""
    consumed = 0
    previous: dict[str, Any] | None = None
    pending: list[dict[str, Any]] = []
    for observation in observations:
        if not isinstance(observation, dict):
            raise RecordingError(f"An observation in {recording.folder / 'observations'} is not an object; the "
                                 "folder is damaged: copy it again.")
        batch, error = observation.get("lastBatch"), observation.get("error")
        if previous is not None and batch is None and error is None:  # written at hand-back
            before = _tester_run(previous.get("previousActions") or [])
            pending += _tester_run(observation.get("previousActions") or [])[len(before):]
        elif (batch is not None or error is not None) and consumed < len(recording.files):
            item = recording.files[consumed]
            item.outcomes = list(batch.get("outcomes") or []) if isinstance(batch, dict) else []
            failed_at = batch.get("failedAt") if isinstance(batch, dict) else None
            item.stopped_at_failure = bool(isinstance(batch, dict) and batch.get("stoppedEarly")
                                           and failed_at is not None and len(item.outcomes) == failed_at + 1)
            item.error = error if batch is None else None  # beside a batch: refused repetitions, in its outcomes
            item.url_before = str((previous or {}).get("currentUrl") or recording.start_url)
            item.url_after = str(observation.get("currentUrl") or "")
            item.tester_before, pending = pending, []
            consumed += 1
        previous = observation
    if consumed < len(recording.files):
        recording.files[consumed].tester_before, pending = pending, []
    recording.tester_after = pending
