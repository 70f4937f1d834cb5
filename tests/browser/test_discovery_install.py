"""Fetching Playwright's Chromium, its pure parts: the command, the installer's output read as progress, and every
failure it can print told as a sentence with a next step (never Node's stack)."""

from __future__ import annotations

import sys

import pytest

from studio.browser.chromium_install import (
    InstallProgress,
    explain_failure,
    installer_command,
    read_progress,
)
from tests.browser.fake_installer import OFFLINE

TITLE = "Chrome for Testing 159.0.8154.6 (playwright chromium v1255)"


def test_the_installer_is_playwrights_own_cli_unless_replaced():
    assert installer_command({}) == [sys.executable, "-m", "playwright", "install", "chromium"]
    assert installer_command({"STUDIO_BROWSER_INSTALLER": "/opt/mirror/fetch --quiet 'a b'"}) == \
        ["/opt/mirror/fetch", "--quiet", "a b"]


def test_playwrights_output_reads_as_progress():
    started = read_progress(f"Downloading {TITLE}\x1b[2m from https://cdn.playwright.dev/x.zip\x1b[22m", None)
    assert started == InstallProgress(TITLE)
    assert started.sentence() == f"Downloading {TITLE}…"
    bar = read_progress(f"|{'■' * 32}{' ' * 48}|  40% of 167.3 MiB", started)  # not a terminal: every 10 %
    assert bar == InstallProgress(TITLE, 40, "167.3 MiB")
    assert bar.sentence() == f"Downloading {TITLE}: 40% of 167.3 MiB"
    ticking = read_progress("167.3 MiB [=========           ] 45% 12.1s", bar)  # a terminal's bar
    assert ticking == InstallProgress(TITLE, 45, "167.3 MiB")
    assert read_progress(f"{TITLE} downloaded to /root/.cache/ms-playwright/chromium-1255", bar) is None
    assert read_progress("Error: Download failure, code=1", bar) is None


@pytest.mark.parametrize(("output", "said"), [
    (OFFLINE, "Chromium could not be downloaded: this computer cannot reach cdn.playwright.dev (no network"),
    ("Error: read ECONNRESET\n    at TLSWrap.onStreamRead (node:internal/stream_base_commons:217:20)",
     "Chromium could not be downloaded: the connection to the download server failed (ECONNRESET)"),
    ("Error: self-signed certificate in certificate chain",
     "Chromium could not be downloaded: the download server's certificate was not trusted"),
    ("Error: ENOSPC: no space left on device, write", "Chromium could not be saved: the disk is full"),
    ("Error: EACCES: permission denied, mkdir '/opt/ms-playwright'",
     "Chromium could not be saved: Playwright may not write its browsers folder"),
    ("Host system is missing dependencies to run browsers.", "Chromium was downloaded, but this system lacks"),
    ("/usr/bin/python3: No module named playwright", "Playwright is not installed next to the studio"),
])
def test_each_failure_is_a_sentence_with_the_next_step(output, said):
    sentence = explain_failure(output, 1)
    assert sentence.startswith(said)
    assert "    at " not in sentence and "Error:" not in sentence and sentence.endswith(".")


def test_an_unknown_failure_names_its_last_line_not_its_stack():
    output = "Downloading x\nError: something new went wrong\n    at Object.<anonymous> (cli.js:1:1)"
    assert explain_failure(output, 3) == ("Fetching Playwright's Chromium failed (exit code 3): Error: something new "
                                          "went wrong. Fetch again, or choose a browser that is already installed.")
    assert explain_failure(OFFLINE, 1, choose="or run `studio browser use PATH`").endswith(
        "fetch again, or run `studio browser use PATH`.")
