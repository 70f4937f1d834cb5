"""Fetching Playwright's Chromium (`python -m playwright install chromium`) as a cancellable job: the command, its
output read as progress, Cancel that stops it and everything it started, and a failure told as a sentence with a next
step. The window's first-run dialog and `studio browser install` both run it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from studio.browser.browser_places import Machine, playwright_folder
from studio.browser.discovery import SEARCH_ENV, BrowserInfo, BrowserNotFound, find_browser

# A command line that replaces the real installer (a test double printing percentages, a company mirror's script).
INSTALLER_ENV = "STUDIO_BROWSER_INSTALLER"
STOP_GRACE_S = 3.0
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_DOWNLOADING = re.compile(r"^Downloading (.+?)(?: from \S+)?$")
_PERCENT = re.compile(r"(\d{1,3})%(?: of ([\d.]+ [KMG]i?B))?")
_HOST = re.compile(r"(?:ENOTFOUND|EAI_AGAIN) (\S+)")
_NETWORK = ("ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "socket hang up", "timed out",
            "Timeout")
_CERTIFICATE = ("certificate", "CERT_", "self-signed", "self signed")
# The other way out, as the window words it; the terminal names its command instead.
CHOOSE = "or choose a browser that is already installed"


@dataclass(frozen=True)
class InstallProgress:
    """Where the installer is: what it downloads, how far (None before its first percentage) and how big it is."""

    title: str
    percent: int | None = None
    size: str | None = None

    def sentence(self) -> str:
        if self.percent is None:
            return f"Downloading {self.title}…"
        return f"Downloading {self.title}: {self.percent}%" + (f" of {self.size}" if self.size else "")


@dataclass(frozen=True)
class InstallOutcome:
    """How a fetch ended: "installed" (with the browser found), "failed" or "cancelled", and a sentence to show."""

    status: str
    message: str
    browser: BrowserInfo | None = None

    @property
    def ok(self) -> bool:
        return self.status == "installed"


def installer_command(env: Mapping[str, str] | None = None) -> list[str]:
    """The installer to run: STUDIO_BROWSER_INSTALLER when set, else Playwright's own CLI (`python -m playwright`,
    or its bundled driver directly in a frozen bundle, which has no `python -m`)."""
    env = os.environ if env is None else env
    override = env.get(INSTALLER_ENV, "").strip()
    if override:
        return shlex.split(override, posix=os.name != "nt")
    if getattr(sys, "frozen", False):
        from playwright._impl._driver import compute_driver_executable

        node, cli = compute_driver_executable()
        return [str(node), str(cli), "install", "chromium"]
    return [sys.executable, "-m", "playwright", "install", "chromium"]


def read_progress(line: str, current: InstallProgress | None) -> InstallProgress | None:
    """The progress one output line tells (a new download, or a percentage of the current one), else None."""
    text = _ANSI.sub("", line).strip()
    started = _DOWNLOADING.match(text)
    if started:
        return InstallProgress(started.group(1).strip())
    found = _PERCENT.search(text)
    if found and 0 <= int(found.group(1)) <= 100:
        return InstallProgress(current.title if current else "Chromium", int(found.group(1)),
                               found.group(2) or (current.size if current else None))
    return None


def explain_failure(output: str, returncode: int | None, choose: str | None = None) -> str:
    """A sentence for a failed fetch: what went wrong in words a tester knows, and the next step (`choose` words the
    other way out for the front end that shows it)."""
    text = _ANSI.sub("", output)
    choose = choose or CHOOSE
    if "No module named playwright" in text:
        return ("Playwright is not installed next to the studio, so it cannot fetch Chromium. Reinstall the studio "
                f"(`pipx reinstall preflight-studio`), {choose}.")
    host = _HOST.search(text)
    if host or "getaddrinfo" in text:
        where = host.group(1) if host else "the download server"
        return (f"Chromium could not be downloaded: this computer cannot reach {where} (no network connection, or "
                "the name does not resolve). Connect to the internet — behind a company proxy, set HTTPS_PROXY — and "
                f"fetch again, {choose}.")
    if any(mark in text for mark in _CERTIFICATE):
        return ("Chromium could not be downloaded: the download server's certificate was not trusted (a company "
                "proxy that inspects HTTPS?). Point NODE_EXTRA_CA_CERTS at your company's certificate file and fetch "
                f"again, {choose}.")
    network = next((mark for mark in _NETWORK if mark in text), None)
    if network:
        return (f"Chromium could not be downloaded: the connection to the download server failed ({network}). "
                f"Check the network (or HTTPS_PROXY) and fetch again, {choose}.")
    if "ENOSPC" in text or "no space left" in text.lower():
        return ("Chromium could not be saved: the disk is full (it needs about 400 MB). Free some space and fetch "
                f"again, {choose}.")
    if "EACCES" in text or "EPERM" in text or "permission denied" in text.lower():
        return ("Chromium could not be saved: Playwright may not write its browsers folder. Set "
                f"PLAYWRIGHT_BROWSERS_PATH to a folder you can write and fetch again, {choose}.")
    if "missing dependencies" in text.lower():
        return ("Chromium was downloaded, but this system lacks libraries it needs: run `sudo python -m playwright "
                "install-deps chromium` (or install your distribution's chromium package), then try again.")
    last = next((line.strip() for line in reversed(text.splitlines())
                 if line.strip() and not line.lstrip().startswith("at ")), "no output")
    code = f" (exit code {returncode})" if returncode is not None else ""
    return f"Fetching Playwright's Chromium failed{code}: {last[:200]}. Fetch again, {choose}."


class ChromiumInstall:
    """One run of the installer. `run()` reports progress and returns an InstallOutcome (never raises for the
    installer's own failures); `cancel()` stops it and every process it started (its download helper too)."""

    def __init__(self, command: list[str] | None = None, on_progress: Callable[[InstallProgress], None] | None = None,
                 env: Mapping[str, str] | None = None, choose: str = CHOOSE) -> None:
        self.env = dict(os.environ if env is None else env)
        self.choose = choose
        self.command = command or installer_command(self.env)
        self.on_progress = on_progress
        self.progress: InstallProgress | None = None
        self.output: list[str] = []
        self.pid: int | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._cancelled = False
        self._stopping: asyncio.Task[None] | None = None

    async def run(self) -> InstallOutcome:
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, env={**self.env, "PYTHONUNBUFFERED": "1"}, **_own_group())
        except OSError as error:
            return InstallOutcome("failed", f"The installer could not be started ({error.strerror or error}: "
                                            f"{self.command[0]}). Reinstall the studio, {self.choose}.")
        self.pid = self._process.pid
        try:
            await self._read(self._process)
            code = await self._process.wait()
        finally:
            if self._process.returncode is None:  # the task was cancelled, or reading failed: leave nothing behind
                await self._stop()
        if self._cancelled:
            return InstallOutcome("cancelled", "Cancelled: Chromium was not installed (a partial download is never "
                                               f"used). Fetch it again, {self.choose}.")
        if code != 0:
            return InstallOutcome("failed", explain_failure("\n".join(self.output), code, self.choose))
        return self._found()

    def cancel(self) -> None:
        """Stop the installer now (the outcome is "cancelled"); nothing happens when it is not running."""
        if self._process is None or self._process.returncode is not None:
            return
        self._cancelled = True
        self._stopping = asyncio.get_running_loop().create_task(self._stop(), name="stop-installer")

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            text = line.decode("utf-8", "replace").rstrip()
            self.output.append(text)
            progress = read_progress(text, self.progress)
            if progress is not None:
                self.progress = progress
                if self.on_progress is not None:
                    self.on_progress(progress)

    async def _stop(self) -> None:
        process = self._process
        if process is None or process.returncode is not None:
            return
        _kill_group(process.pid, force=False)
        try:
            await asyncio.wait_for(asyncio.shield(process.wait()), STOP_GRACE_S)
        except TimeoutError:
            _kill_group(process.pid, force=True)
            await process.wait()

    def _found(self) -> InstallOutcome:
        machine = Machine.local({**self.env, SEARCH_ENV: "playwright"})
        try:
            browser = find_browser(machine=machine)
        except BrowserNotFound:
            return InstallOutcome("failed", f"The installer finished, but no Chromium is in Playwright's folder "
                                            f"{playwright_folder(machine)}. Fetch again, {self.choose}.")
        return InstallOutcome("installed", f"Playwright's Chromium is installed: {browser.path}.", browser)


def _own_group() -> dict[str, Any]:
    """Start the installer in a process group of its own, so Cancel reaches the download helper it starts."""
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    return {"start_new_session": True}


def _kill_group(pid: int, force: bool) -> None:
    """End the installer's process group (SIGTERM, or SIGKILL when `force`); on Windows its process tree."""
    with contextlib.suppress(OSError):
        if os.name == "nt":  # Windows has no process-group signals: taskkill /T ends the tree
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], check=False, capture_output=True)
        else:
            os.killpg(pid, getattr(signal, "SIGKILL" if force else "SIGTERM"))
