"""A stand-in for `python -m playwright install chromium` (STUDIO_BROWSER_INSTALLER, or the dialog's installer
argument): it prints what Playwright prints when its output is not a terminal, without downloading anything.

    fake_installer.py slow PIDFILE     one percentage a second, with a helper process as Playwright's download helper
                                       (both pids written to PIDFILE), then exits 0 having installed nothing
    fake_installer.py installs TARGET  quick percentages, then "installs" TARGET as Playwright's Chromium
                                       (chromium-1255/chrome-linux64/chrome under PLAYWRIGHT_BROWSERS_PATH)
    fake_installer.py offline          what Playwright printed on this machine, which has no network
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TITLE = "Chrome for Testing 159.0.8154.6 (playwright chromium v1255)"
URL = "https://cdn.playwright.dev/builds/cft/159.0.8154.6/linux64/chrome-linux64.zip"
# Recorded from `python -m playwright install chromium` here (no network), colours and stack kept.
OFFLINE = f"""Downloading {TITLE}\x1b[2m from {URL}\x1b[22m
Error: getaddrinfo ENOTFOUND cdn.playwright.dev
    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:internal/dns/promises:101:17) {{
  errno: -3008,
  code: 'ENOTFOUND',
  syscall: 'getaddrinfo',
  hostname: 'cdn.playwright.dev'
}}
Failed to install browsers
Error: Failed to download {TITLE}, caused by
Error: Download failure, code=1
    at ChildProcess.<anonymous> (/site-packages/playwright/driver/package/lib/coreBundle.js:34127:32)"""


def _bar(percent: int) -> str:
    rows = percent // 10
    return f"|{'■' * rows * 8}{' ' * (10 - rows) * 8}| {percent:3d}% of 167.3 MiB"


def main(mode: str, arg: str | None) -> int:
    if mode == "offline":
        print(OFFLINE, flush=True)
        return 1
    print(f"Downloading {TITLE}\x1b[2m from {URL}\x1b[22m", flush=True)
    if mode == "slow":
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        Path(arg or "pids").write_text(f"{os.getpid()} {helper.pid}")
        for percent in range(0, 101, 10):
            print(_bar(percent), flush=True)
            time.sleep(1.0)
        return 0
    for percent in range(0, 101, 10):
        print(_bar(percent), flush=True)
        time.sleep(0.05)
    folder = Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"]) / "chromium-1255"
    (folder / "chrome-linux64").mkdir(parents=True, exist_ok=True)
    (folder / "chrome-linux64" / "chrome").symlink_to(Path(arg or "/usr/bin/chromium").resolve())
    (folder / "INSTALLATION_COMPLETE").touch()
    print(f"{TITLE} downloaded to {folder}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
