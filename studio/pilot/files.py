"""The session folder on disk (seed 003's layout, plus the history that lets the folder alone replay a session).

    exploration-<epoch ms>/
        observation.json              the current observation (the AI reads it)
        action.json                   written by the AI; moved aside as soon as it is read
        status                        WAITING_FOR_AI | RUNNING | DONE
        session.json                  start URL, goal, start time, options, takenOver
        report.json                   the summary, at the end
        screenshots/step-N-<ms>.png
        actions/0001-action.json      every action file read, in order (malformed ones too)
        observations/0001-observation.json

Every file the studio writes is written atomically (a temporary file in the same folder, then os.replace), so a
reader never sees half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

Status = Literal["WAITING_FOR_AI", "RUNNING", "DONE"]
ACTION_FILE, OBSERVATION_FILE, STATUS_FILE = "action.json", "observation.json", "status"
SESSION_FILE, REPORT_FILE = "session.json", "report.json"


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` so that a reader sees the old file or the new one, never a part."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class SessionFolder:
    """One session's folder: creates it, writes its files atomically, keeps the history of actions and observations."""

    def __init__(self, sessions_dir: Path) -> None:
        stamp = int(time.time() * 1000)
        while (sessions_dir / f"exploration-{stamp}").exists():
            stamp += 1  # two sessions started in the same millisecond
        self.path = sessions_dir / f"exploration-{stamp}"
        self._actions = 0

    def create(self) -> None:
        for folder in (self.path, self.path / "screenshots", self.path / "actions", self.path / "observations"):
            folder.mkdir(parents=True, exist_ok=True)

    @property
    def action_file(self) -> Path:
        return self.path / ACTION_FILE

    def write_status(self, status: Status) -> None:
        atomic_write_text(self.path / STATUS_FILE, status + "\n")

    def write_json(self, name: str, data: Any) -> None:
        atomic_write_json(self.path / name, data)

    def write_observation(self, observation: dict[str, Any]) -> None:
        """observation.json, and its copy observations/NNNN-observation.json (NNNN: the step number)."""
        atomic_write_json(self.path / "observations" / f"{observation['stepNumber']:04d}-observation.json",
                          observation)
        atomic_write_json(self.path / OBSERVATION_FILE, observation)

    def take_action_file(self) -> tuple[str, Path] | None:
        """Move action.json aside to actions/NNNN-action.json and return its text and new path (None: no file)."""
        target = self.path / "actions" / f"{self._actions + 1:04d}-action.json"
        try:
            os.replace(self.action_file, target)
        except FileNotFoundError:
            return None
        self._actions += 1
        return target.read_text(encoding="utf-8", errors="replace"), target
