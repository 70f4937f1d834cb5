"""Contracts of the browser engine: how a session is launched, and what a live-view frame carries."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field, field_validator


class SessionOptions(BaseModel):
    """How to launch a browser session: headless or headed, viewport, user agent, saved login state, tracing."""

    headless: bool = True
    viewport: tuple[int, int] = (1280, 720)
    user_agent: str | None = Field(
        default=None, description="None keeps Chromium's own user agent."
    )
    browser_path: str | None = Field(
        default=None, description="Overrides browser discovery when set."
    )
    browser_endpoint: str | None = Field(
        default=None, description="Connect to this Playwright browser server or CDP endpoint instead of launching."
    )
    storage_state: Path | None = Field(
        default=None, description="A Playwright storageState JSON to start logged in."
    )
    trace_path: Path | None = Field(
        default=None, description="Record a Playwright trace of the whole session into this zip."
    )
    label: str = ""
    allow_file_urls: bool = Field(
        default=False, description="Let this session open file: and data: URLs (--allow-file-urls)."
    )
    live_view_fps: float | None = Field(
        default=None, gt=0, description="At most this many live-view frames a second (None: as fast as Chromium draws)."
    )

    @field_validator("viewport")
    @classmethod
    def _sane_viewport(cls, value: tuple[int, int]) -> tuple[int, int]:
        width, height = value
        if not (200 <= width <= 7680 and 200 <= height <= 4320):
            raise ValueError(f"viewport {width}x{height} is outside 200x200 … 7680x4320")
        return value


@dataclass(frozen=True, slots=True)
class LiveFrame:
    """One JPEG frame of the page for the live view (a dataclass, not pydantic: ~60 of these a second)."""

    jpeg: bytes
    viewport_width: int
    viewport_height: int
    timestamp: float
