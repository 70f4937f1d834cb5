"""Pure engine logic: browser discovery order, URL normalisation, live-view geometry, input coalescing."""

from __future__ import annotations

import os
import stat

import pytest

from studio.browser.discovery import BrowserNotFound, find_browser
from studio.browser.geometry import fit_frame
from studio.browser.input import InputAction, PageInput
from studio.browser.urls import normalize_url, path_of


def _fake_exe(path):
    path.write_text("#!/bin/sh\necho 'Chromium 99.0.1.2'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_studio_browser_env_wins(tmp_path):
    exe = _fake_exe(tmp_path / "mychrome")
    info = find_browser({"STUDIO_BROWSER": str(exe), "PATH": ""})
    assert info.path == str(exe) and info.source == "STUDIO_BROWSER"
    assert info.version() == "Chromium 99.0.1.2"


def test_bad_studio_browser_says_what_to_do(tmp_path):
    with pytest.raises(BrowserNotFound, match="STUDIO_BROWSER is set to .*not an executable.*apt-get install -y chromium"):
        find_browser({"STUDIO_BROWSER": str(tmp_path / "nope")})


def test_playwright_managed_before_system(tmp_path, monkeypatch):
    managed = tmp_path / "ms" / "chromium-1234" / "chrome-linux"
    managed.mkdir(parents=True)
    exe = _fake_exe(managed / "chrome")
    (managed.parent / "INSTALLATION_COMPLETE").touch()  # Playwright's mark of a finished download
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _fake_exe(bindir / "chromium")
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "ms"), "PATH": str(bindir)}
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", env["PLAYWRIGHT_BROWSERS_PATH"])
    assert find_browser(env).path == str(exe)


def test_system_browser_then_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "none"))
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _fake_exe(bindir / "google-chrome")
    assert find_browser({"PATH": str(bindir)}).path == str(bindir / "google-chrome")
    with pytest.raises(BrowserNotFound) as raised:  # this machine's install folders kept out of the search
        find_browser({"PATH": str(tmp_path / "empty"), "STUDIO_BROWSER_SEARCH": "playwright,path"})
    assert "studio browser install" in str(raised.value) and "studio browser use PATH" in str(raised.value)


@pytest.mark.parametrize(
    ("typed", "url"),
    [
        ("localhost:8000/x", "http://localhost:8000/x"),
        ("127.0.0.1:5173", "http://127.0.0.1:5173"),
        ("example.com", "http://example.com"),
        ("https://example.com/a?b=1", "https://example.com/a?b=1"),
        ("  http://h/  ", "http://h/"),
        ("about:blank", "about:blank"),
    ],
)
def test_normalize_url(typed, url):
    assert normalize_url(typed) == url


@pytest.mark.parametrize("typed", ["", "   ", "ftp://x/y", "http://", "javascript:alert(1)", "about:version"])
def test_normalize_url_rejects_with_a_sentence(typed):
    with pytest.raises(ValueError) as raised:
        normalize_url(typed)
    assert len(str(raised.value)) > 10


@pytest.mark.parametrize("typed", ["file:///etc/", "FILE:///etc/passwd", "data:text/html,<h1>hi</h1>"])
def test_file_and_data_urls_open_only_when_allowed(typed):
    with pytest.raises(ValueError) as raised:
        normalize_url(typed)
    said = str(raised.value)
    assert "only http and https" in said and "--allow-file-urls" in said
    assert normalize_url(typed, allow_files=True) == typed
    assert normalize_url("data:8080/x") == "http://data:8080/x"  # a host called data, with a port


def test_path_of():
    assert path_of("http://h:1/a/b?c=1") == "/a/b?c=1"
    assert path_of("http://h:1") == "/"


def test_fit_frame_letterboxes_and_maps_both_ways():
    rect = fit_frame(1280, 720, 640, 480)  # scaled by 0.5, bars top and bottom
    assert rect.scale == pytest.approx(0.5)
    assert (rect.x, rect.y, rect.width, rect.height) == pytest.approx((0, 60, 640, 360))
    assert rect.to_page(320, 240) == pytest.approx((640, 360))
    assert rect.to_page(10, 30) is None  # on the bar above the frame
    assert rect.to_widget(640, 360) == pytest.approx((320, 240))
    wide = fit_frame(1280, 720, 2000, 720)
    assert wide.x == pytest.approx(360) and wide.to_page(360, 0) == pytest.approx((0, 0))


def test_fit_frame_degenerate_sizes():
    assert fit_frame(0, 0, 100, 100).width == 0
    assert fit_frame(1280, 720, 0, 100).to_page(0, 0) is None


def test_input_queue_coalesces_moves_and_wheels_but_keeps_presses():
    queue = PageInput(session=None)  # type: ignore[arg-type]  # no worker: only the queue is exercised
    for x in range(5):
        queue.push(InputAction("move", x, x))
    queue.push(InputAction("down", 4, 4))
    queue.push(InputAction("wheel", 4, 4, dy=100))
    queue.push(InputAction("wheel", 4, 4, dy=50))
    queue.push(InputAction("up", 4, 4))
    queue.push(InputAction("move", 9, 9))
    kinds = [(a.kind, a.x, a.dy) for a in queue.pending()]
    assert kinds == [("move", 4, 0), ("down", 4, 0), ("wheel", 4, 150), ("up", 4, 0), ("move", 9, 0)]


def test_no_root_sandbox_flag_for_normal_users(monkeypatch):
    from studio.browser import discovery

    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "--no-sandbox" not in discovery.launch_args()
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert "--no-sandbox" in discovery.launch_args()


def test_the_live_view_never_goes_back_in_time():
    from types import SimpleNamespace

    from studio.browser.screencast import LiveScreencast
    from studio.models.browser import SessionOptions

    shown = []
    cast = LiveScreencast(SimpleNamespace(options=SessionOptions()), shown.append)  # only the frame sink is used
    for timestamp in (1.0, 3.0, 2.0, 4.0, 3.5, 5.0):  # frames arrive out of capture order
        cast._on_frame({"data": b"jpeg", "timestamp": timestamp, "viewportWidth": 1280, "viewportHeight": 720})
    assert [frame.timestamp for frame in shown] == [1.0, 3.0, 4.0, 5.0]
    assert cast.frames_out_of_order == 2
