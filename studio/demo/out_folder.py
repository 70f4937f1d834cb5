"""The demo's output folder belongs to one `studio demo` at a time: an OS lock on a file in it, held for the run.

The OS drops the lock when the process ends, however it ends, so a crashed run never blocks the next one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = ".studio-demo.lock"


class OutFolderError(Exception):
    """The folder is held by another demo, or the demo's files cannot be written there; str() is a sentence."""


@contextmanager
def exclusive_out_folder(out: Path) -> Iterator[None]:
    """Hold `out` for this process, or raise OutFolderError naming the demo that holds it."""
    lock = out / LOCK_NAME
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise unusable(out, error) from None
    try:
        if not _try_lock(fd):
            holder = _holder_pid(fd)
            who = f"Another studio demo (pid {holder})" if holder else "Another studio demo"
            raise OutFolderError(f"{who} is writing to {out}; wait for it to finish or choose another folder "
                                "with --out.")
        # The holder's pid, for the sentence a refused run prints.
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        yield
    finally:
        os.close(fd)  # releases the lock


def _holder_pid(fd: int, seconds: float = 2.0) -> str:
    """The pid the holder wrote into the lock file; it writes it just after taking the lock, so wait a moment."""
    deadline = time.monotonic() + seconds
    while True:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        if holder.isdigit() or time.monotonic() > deadline:
            return holder if holder.isdigit() else ""
        time.sleep(0.02)


def unusable(out: Path, error: OSError) -> OutFolderError:
    """The sentence for a folder the demo cannot write its files in."""
    return OutFolderError(f"cannot write the demo's files in {out}: {error.strerror or error}. "
                          "Choose another folder with --out.")


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows has no flock; runs there are not serialised (the demo targets Linux and macOS)
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
