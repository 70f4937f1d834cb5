"""The session folder on disk (seed 003's layout, plus the history that lets the folder alone replay a session).

    exploration-<epoch ms>/
        observation.json              the current observation (the AI reads it)
        action.json                   written by the AI; read where it is and left there until the next one arrives
        uploads/                      the only files upload actions may send (or the tester's --upload-dir)
        status                        WAITING_FOR_AI | RUNNING | DONE
        session.json                  start URL, goal, start time, options, takenOver
        report.json                   the summary, at the end
        screenshots/step-N-<ms>.png
        actions/0001-action.json      a copy of every action file read, in order (malformed ones too)
        observations/0001-observation.json

Every file the studio writes is written atomically (a temporary file in the same folder, then os.replace), so a
reader never sees half a file. The folder is the user's alone (0700, its files 0600): action files hold what the AI
typed. An action file is read only when it is a regular file of at most MAX_ACTION_BYTES, never through a link; one
that is not is moved aside (actions/NNNN-action.refused) with a note saying why. A read action.json is told from the
next one by its identity on disk (device, inode, size, modification time): a new file, or the same one written again,
is a new action file.
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
SESSIONS_DIR = "fe-pilot-sessions"  # the seed's folder of session folders (the CLI's default, under the working folder)
MAX_ACTION_BYTES = 64 * 1024  # an action file is a few KB: a batch of actions with their targets and values


class ActionFileRefused(ValueError):
    """action.json was not read (a link, a device, a folder, or too large); the message says why in one sentence."""


Identity = tuple[int, int, int, int]  # an action file on disk: device, inode, size, modification time (ns)


def _identity(info: os.stat_result) -> Identity:
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


def _check(info: os.stat_result, grew: bool = False) -> None:
    """ActionFileRefused unless `info` is a regular file of at most MAX_ACTION_BYTES."""
    if not stat.S_ISREG(info.st_mode):
        kind = "a link" if stat.S_ISLNK(info.st_mode) else "a folder" if stat.S_ISDIR(info.st_mode) else "not a file"
        raise ActionFileRefused(f"action.json was {kind}, so it was not read: write the actions into a regular file "
                                "in the session folder.")
    if info.st_size > MAX_ACTION_BYTES or grew:
        said = "grew over" if grew else f"is {info.st_size:,} bytes, over"
        raise ActionFileRefused(f"action.json {said} the {MAX_ACTION_BYTES // 1024} KB an action file may hold, so it "
                                "was not read: send fewer or shorter actions.")


def read_action_file(path: Path) -> tuple[str, Identity]:
    """The text of an action file and its identity as read: a regular file (never followed through a link, never
    waited on like a pipe) of at most MAX_ACTION_BYTES."""
    _check(os.lstat(path))
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(handle, "rb") as stream:
        _check(os.fstat(handle))  # what was opened, should the name have been given to another file since
        data = stream.read(MAX_ACTION_BYTES + 1)  # a file that grew since: still no more than the cap
        _check(os.fstat(handle), grew=len(data) > MAX_ACTION_BYTES)
        identity = _identity(os.fstat(handle))
    return data.decode("utf-8", errors="replace"), identity


def read_action_text(path: Path) -> str:
    """The text of an action file: a regular file (never followed through a link) of at most MAX_ACTION_BYTES."""
    return read_action_file(path)[0]


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
        self._read: Identity | None = None  # the action.json read last (it stays in the folder)
        self._read_text = ""

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

    def has_new_action_file(self) -> bool:
        """Whether action.json is there and is not the one read last (a read one stays until the next arrives)."""
        try:
            return _identity(os.lstat(self.action_file)) != self._read
        except OSError:
            return False

    def take_action_file(self) -> tuple[str, Path] | None:
        """Read a new action.json where it is (it stays readable there until the AI writes the next one) and keep a
        copy as actions/NNNN-action.json; return its text and the copy's path (None: no new file).
        ActionFileRefused when it is not a regular file of at most MAX_ACTION_BYTES: it is moved aside and a note
        says why (a link is never followed, a huge file never kept)."""
        if not self.has_new_action_file():
            return None
        target = self.path / "actions" / f"{self._actions + 1:04d}-action.json"
        try:
            text, identity = read_action_file(self.action_file)
        except FileNotFoundError:
            return None
        except (ActionFileRefused, OSError):
            return self._set_aside(target)
        if self._continued(identity, text):
            self._read = identity
            return None
        self._actions += 1
        self._read, self._read_text = identity, text
        atomic_write_text(target, text)  # 0600, as every file the studio writes here
        return text, target

    def _continued(self, identity: Identity, text: str) -> bool:
        """Whether the file read last only gained trailing whitespace (a writer's final newline, flushed after the
        JSON was read): the same file still, not a new action file."""
        last = self._read
        grown = text[len(self._read_text):]
        return (last is not None and identity[:2] == last[:2] and text.startswith(self._read_text)
                and bool(grown) and not grown.strip())

    def read_again(self, kept: Path) -> str:
        """action.json read again once its writer went quiet (it was not whole JSON yet); its copy `kept` follows."""
        try:
            text, self._read = read_action_file(self.action_file)
        except (ActionFileRefused, OSError):
            return kept.read_text(encoding="utf-8", errors="replace")  # gone or replaced by no file: the first read
        self._read_text = text
        atomic_write_text(kept, text)
        return text

    def _set_aside(self, target: Path) -> tuple[str, Path] | None:
        """Move what stands at action.json aside and refuse it with a note saying why; should a regular file have
        taken its place meanwhile, that file is read from where it was moved (the AI's next action file)."""
        try:
            os.replace(self.action_file, target)
        except FileNotFoundError:
            return None
        self._actions += 1
        self._read, self._read_text = None, ""
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
