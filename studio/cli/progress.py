"""Terminal front end of the event bus: progress lines for people, JSON lines for machines."""

from __future__ import annotations

import sys
from typing import TextIO

from studio.models.events import EngineEvent, NoticeEvent, ProgressEvent, SessionEnded, event_to_json


class TerminalProgress:
    """Prints one line per progress step with a small bar, plus notices and unexpected session ends."""

    def __init__(self, stream: TextIO | None = None, width: int = 20) -> None:
        self.stream = stream or sys.stderr
        self.width = width

    def __call__(self, event: EngineEvent) -> None:
        if isinstance(event, ProgressEvent):
            total = max(event.total, 1)
            filled = round(self.width * event.step / total)
            bar = "#" * filled + "-" * (self.width - filled)
            print(f"[{bar}] {event.step:>2}/{event.total} {event.message}", file=self.stream, flush=True)
        elif isinstance(event, NoticeEvent):
            print(f"  {event.level}: {event.message}", file=self.stream, flush=True)
        elif isinstance(event, SessionEnded) and event.reason != "closed":
            print(f"  error: {event.message}", file=self.stream, flush=True)


class JsonLines:
    """Writes every event as one JSON line (binary evidence left out; it is in the project file)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, event: EngineEvent) -> None:
        self.stream.write(event_to_json(event) + "\n")
        self.stream.flush()
