"""Crash-test helper: create a project and record events forever, printing the count after each commit.

Run as `python record_until_killed.py PATH`; the test kills it with SIGKILL mid-stream.
"""

from __future__ import annotations

import os
import sys

from studio.models.events import NavigationEvent, ScreenshotEvent, SessionStarted
from studio.store import ProjectFile


def main(path: str) -> None:
    project = ProjectFile.create(path)
    project.record(
        SessionStarted(
            session_id="s1",
            browser_path="/usr/bin/chromium",
            browser_version="131.0",
            headless=True,
            viewport=(1280, 720),
            user_agent="crash test",
        )
    )
    committed = 0
    while True:
        project.record(NavigationEvent(session_id="s1", url=f"http://127.0.0.1/page/{committed}"))
        committed += 1
        if committed % 5 == 0:
            # Blobs grow the -wal past SQLite's auto-checkpoint, so kills also land during checkpoints.
            png = b"\x89PNG\r\n\x1a\n" + os.urandom(64_000)
            project.record(ScreenshotEvent(session_id="s1", label="tick", url="u", width=1, height=1, png=png))
        print(committed, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
