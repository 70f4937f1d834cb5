"""A private Xvfb screen for a test that needs a real display (a headed Chromium, a window sized for its screen);
packaging/quickstart.sh test installs xvfb."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def x_screen(size: str = "1400x900") -> Iterator[str]:
    """Start Xvfb on a free display number with one screen of `size` (WxH) and give its DISPLAY name."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (packaging/quickstart.sh test installs it)")
    number = next(n for n in range(90, 190) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                  and not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            assert server.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)
