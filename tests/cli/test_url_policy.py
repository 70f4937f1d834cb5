"""One URL policy on every command: http(s) pages by default; file: and data: only with --allow-file-urls.
Refusals are exit 2 with a sentence before any browser starts; the opt-in really opens a local page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = "<!doctype html><title>Local page</title><button data-testid=local-button>Press me</button>"


def studio(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def assert_refused(done: subprocess.CompletedProcess, url: str) -> None:
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "unexpectedly" not in done.stderr
    assert repr(url) in done.stderr
    assert "only http and https" in done.stderr and "--allow-file-urls" in done.stderr


@pytest.fixture
def local_page(tmp_path: Path) -> str:
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    return page.as_uri()


@pytest.mark.parametrize("url", ["file:///etc/", "data:text/html,<h1>inline</h1>"])
def test_preflight_refuses_local_urls_before_anything_starts(tmp_path: Path, url: str) -> None:
    project = tmp_path / "p.studio"
    assert_refused(studio("preflight", url, "--project", project, "--quiet"), url)
    assert not project.exists()


def test_playground_refuses_a_file_url(tmp_path: Path) -> None:
    done = studio("playground", "new-suite", "--url", "file:///etc/", "--project", tmp_path / "p.studio")
    assert_refused(done, "file:///etc/")


def test_observe_refuses_a_file_url() -> None:
    done = studio("observe", "file:///etc/", "--selector", "a")
    assert_refused(done, "file:///etc/")
    assert done.stdout == ""


@pytest.mark.gui
def test_gui_refuses_a_file_url_before_the_window_opens(tmp_path: Path) -> None:
    done = studio("gui", "--url", "file:///etc/", "--screenshot", tmp_path / "window.png")
    assert_refused(done, "file:///etc/")
    assert not (tmp_path / "window.png").exists()


@pytest.mark.browser
def test_observe_opens_a_local_page_with_the_flag(local_page: str) -> None:
    done = studio("observe", local_page, "--selector", "[data-testid=local-button]", "--allow-file-urls")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 element matches '[data-testid=local-button]' on file://")
    assert "attachment: connected to the document" in done.stdout


@pytest.mark.browser
def test_preflight_explores_a_local_app_with_the_flag(tmp_path: Path, local_page: str) -> None:
    done = studio("preflight", local_page, "--project", tmp_path / "p.studio", "--allow-file-urls", "--quiet",
                  "--json", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    context = json.loads(done.stdout)
    assert context["resolved_base_url"].startswith("file://")
    assert local_page in context["evidence"]["visited_urls"]
