"""Find a Chromium to drive: STUDIO_BROWSER, then a Playwright-managed Chromium, then a system browser."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from studio.browser.errors import BrowserError

INSTALL_HINT = (
    "Install one with `sudo apt-get install -y chromium` (Debian/Ubuntu), "
    "or `python -m playwright install chromium` where downloads are allowed, "
    "or point STUDIO_BROWSER at a Chromium or Chrome executable."
)

SYSTEM_BROWSERS = (
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "microsoft-edge",
    "microsoft-edge-stable",
    "msedge",
)


class BrowserNotFound(BrowserError):
    """No usable Chromium was found; the message says what was tried and how to install one."""


@dataclass(frozen=True)
class BrowserInfo:
    """A browser executable the studio can launch, and where it was found."""

    path: str
    source: str  # "STUDIO_BROWSER", "playwright" or "system"

    def version(self) -> str:
        """The browser's own version line, e.g. 'Chromium 156.0.8078.79'; 'unknown' when it cannot say."""
        try:
            out = subprocess.run(
                [self.path, "--version"], capture_output=True, text=True, timeout=15
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return "unknown"
        match = re.search(r"(Chromium|Google Chrome|Microsoft Edge|Chrome)[^\n]*?\d+(\.\d+)+", out)
        return match.group(0) if match else (out.strip().splitlines() or ["unknown"])[0]


def _playwright_managed() -> str | None:
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or str(Path.home() / ".cache" / "ms-playwright")
    if root == "0":  # browsers installed inside the playwright package
        import playwright

        root = str(Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers")
    candidates = sorted(Path(root).glob("chromium-*/chrome-linux*/chrome"), reverse=True)
    candidates += sorted(Path(root).glob("chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium"), reverse=True)
    candidates += sorted(Path(root).glob("chromium-*/chrome-win*/chrome.exe"), reverse=True)
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def find_browser(env: Mapping[str, str] | None = None) -> BrowserInfo:
    """Return the browser to launch, in the documented discovery order, or raise BrowserNotFound."""
    env = os.environ if env is None else env
    explicit = env.get("STUDIO_BROWSER")
    if explicit:
        resolved = shutil.which(explicit) or explicit
        if not (os.path.isfile(resolved) and os.access(resolved, os.X_OK)):
            raise BrowserNotFound(
                f"STUDIO_BROWSER is set to {explicit!r}, but that is not an executable file. "
                "Fix the path or unset STUDIO_BROWSER. " + INSTALL_HINT
            )
        return BrowserInfo(resolved, "STUDIO_BROWSER")
    managed = _playwright_managed()
    if managed:
        return BrowserInfo(managed, "playwright")
    for name in SYSTEM_BROWSERS:
        found = shutil.which(name, path=env.get("PATH", os.defpath))
        if found:
            return BrowserInfo(found, "system")
    raise BrowserNotFound(
        "No Chromium-based browser was found (tried STUDIO_BROWSER, Playwright's browsers and "
        f"{', '.join(SYSTEM_BROWSERS)} on PATH). " + INSTALL_HINT
    )


def launch_args() -> list[str]:
    """Chromium flags the studio always passes: quiet networking, and no sandbox when running as root."""
    args = [
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox on
    return args
