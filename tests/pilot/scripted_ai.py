"""A scripted "AI" for pilot session tests: it writes action files and reads observations, as a model would."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any


async def wait_for(condition, timeout_s: float = 40.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def read_observation(folder: Path) -> dict[str, Any] | None:
    path = folder / "observation.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


async def observation(folder: Path, step: int, timeout_s: float = 40.0) -> dict[str, Any]:
    """The observation numbered `step`, once written (and the session waits for the AI again)."""
    def ready():
        found = read_observation(folder)
        status = (folder / "status").read_text().strip() if (folder / "status").exists() else ""
        return found if found and found["stepNumber"] >= step and status != "RUNNING" else None
    found = await wait_for(ready, timeout_s, f"observation {step}")
    assert found["stepNumber"] == step, f"expected observation {step}, got {found['stepNumber']}"
    return found


async def act(folder: Path, step: int, content: Any) -> dict[str, Any]:
    """Write action.json as a model would (a plain write, not atomic) and return the next observation."""
    (folder / "action.json").write_text(content if isinstance(content, str) else json.dumps(content),
                                        encoding="utf-8")
    return await observation(folder, step)
