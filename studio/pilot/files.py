"""The session folder on disk (seed 003's layout, plus the history that lets the folder alone replay a session).

    exploration-<epoch ms>/
        observation.json              the current observation (the AI reads it)
        action.json                   written by the AI; moved aside as soon as it is read
        uploads/                      the only files upload actions may send (or the tester's --upload-dir)
        status                        WAITING_FOR_AI | RUNNING | DONE
        session.json                  start URL, goal, start time, options, takenOver
        report.json                   the summary, at the end
        screenshots/step-N-<ms>.png
        actions/0001-action.json      every action file read, in order (malformed ones too)
        observations/0001-observation.json

Every file the studio writes is written atomically (a temporary file in the same folder, then os.replace), so a
reader never sees half a file. The folder is the user's alone (0700, its files 0600): action files hold what the AI
typed. An action file is read only when it is a regular file of at most MAX_ACTION_BYTES, never through a link.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

Status = Literal["WAITING_FOR_AI", "RUNNING", "DONE"]
ACTION_FILE, OBSERVATION_FILE, STATUS_FILE = "action.json", "observation.json", "status"
SESSION_FILE, REPORT_FILE = "session.json", "report.json"
MAX_ACTION_BYTES = 64 * 1024  # an action file is a few KB: a batch of actions with their targets and values


class ActionFileRefused(ValueError):
    """action.json was not read (a link, a device, a folder, or too large); the message says why in one sentence."""


def read_action_text(path: Path) -> str:
    """The text of an action file: a regular file (never followed through a link) of at most MAX_ACTION_BYTES."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        kind = "a link" if stat.S_ISLNK(info.st_mode) else "a folder" if stat.S_ISDIR(info.st_mode) else "not a file"
        raise ActionFileRefused(f"action.json was {kind}, so it was not read: write the actions into a regular file "
                                "in the session folder.")
    if info.st_size > MAX_ACTION_BYTES:
        raise ActionFileRefused(f"action.json is {info.st_size:,} bytes, over the {MAX_ACTION_BYTES // 1024} KB an "
                                "action file may hold, so it was not read: send fewer or shorter actions.")
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(handle, "rb") as stream:
        data = stream.read(MAX_ACTION_BYTES + 1)  # a file that grew since: still no more than the cap
    if len(data) > MAX_ACTION_BYTES:
        raise ActionFileRefused(f"action.json grew over the {MAX_ACTION_BYTES // 1024} KB an action file may hold "
                                "while it was read, so it was not read: send fewer or shorter actions.")
    return data.decode("utf-8", errors="replace")


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
        for folder in (self.path, self.path / "screenshots", self.path / "actions", self.path / "observations",
                       self.path / "uploads"):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(folder, 0o700)  # for the user alone whatever the umask: action files hold what the AI typed

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
        """Move action.json aside to actions/NNNN-action.json and return its text and new path (None: no file).
        ActionFileRefused when it is not a regular file of at most MAX_ACTION_BYTES: what was moved aside is
        replaced by a note saying why (a link is never followed, a huge file never kept)."""
        target = self.path / "actions" / f"{self._actions + 1:04d}-action.json"
        try:
            os.replace(self.action_file, target)
        except FileNotFoundError:
            return None
        self._actions += 1
        try:
            text = read_action_text(target)
        except (ActionFileRefused, OSError) as error:
            why = str(error) if isinstance(error, ActionFileRefused) else f"action.json could not be read ({error})."
            if os.path.isfile(target) and not os.path.islink(target):
                target.unlink()  # too large to keep in the history
            else:
                os.replace(target, target.with_suffix(".refused"))  # a link or a folder, kept as it was, unfollowed
            atomic_write_text(target.with_suffix(".refused.txt"), why + "\n")
            raise ActionFileRefused(why) from None
        with contextlib.suppress(OSError):
            os.chmod(target, 0o600)
        return text, target
