"""The `studio` command as a user runs it: real subprocesses, real browser, real files."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from studio.store.project import ProjectFile

pytestmark = pytest.mark.browser

DEMO_PAGES = ["/dashboard", "/credit-report", "/disputes", "/alerts", "/offers", "/help", "/privacy",
              "/products", "/cart", "/profile", "/game", "/admin"]


def studio(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_demo_records_a_full_tour_and_writes_the_summary(tmp_path):
    out = tmp_path / "out"
    done = studio("demo", "--headless", "--out", str(out), "--jsonl", str(tmp_path / "events.jsonl"))
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["project"] == str((out / "demo.studio").resolve())
    assert summary["pages"][0] == "/login" and summary["pages"][-1].startswith("/login")
    assert all(page in summary["pages"] for page in DEMO_PAGES)
    assert summary["console_errors"] == 0 and summary["network_failures"] == 0
    assert summary["screenshots"] >= len(DEMO_PAGES) and summary["cart_count"] == 1
    assert summary["failures"] == []
    # Progress is shown on the terminal, step by step.
    assert any(page.startswith("/offers/") for page in summary["pages"])  # an offer's "Learn More"
    assert "Entering the two-factor code" in done.stderr and "16/16" in done.stderr

    with ProjectFile.open(out / "demo.studio") as project:
        session_id = summary["session_id"]
        assert project.counts(session_id)["screenshots"] == summary["screenshots"]
        visited = {url.split("/", 3)[-1] for url in (n.url for n in project.navigations(session_id))}
        assert {page.lstrip("/") for page in DEMO_PAGES} <= visited
        assert any(r.method == "POST" and r.url.endswith("/api/cart/add") and r.status == 200
                   for r in project.network(session_id))
        assert project.run_summaries()[0].summary == summary
        assert project.session(session_id).end_reason == "closed"
    lines = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert {"session_started", "navigation", "network", "progress", "screenshot", "session_ended"} <= {l["type"] for l in lines}
    assert all("png" not in line for line in lines)

    again = studio("demo", "--headless", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert (out / "demo.previous.studio").exists()  # the earlier recording is kept, not overwritten


@pytest.mark.own_browser
def test_doctor_reports_what_it_found():
    done = studio("doctor", "--json", "--no-launch")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    names = {check["name"]: check for check in report["checks"]}
    assert {"Python", "Packages", "Browser", "Qt", "Display", "Project files"} <= set(names)
    assert "chromium" in names["Browser"]["found"].lower()
    assert "Qt 6." in names["Qt"]["found"]


@pytest.mark.own_browser
def test_doctor_fails_with_a_next_step_when_no_browser_exists(tmp_path):
    bare_path = os.pathsep.join(str(Path(p)) for p in (Path(sys.executable).parent, "/usr/sbin", "/sbin"))
    done = studio("doctor", "--no-launch", env={"PATH": bare_path, "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path),
                                                "STUDIO_BROWSER_SEARCH": "playwright,path"})  # not /usr/bin itself
    assert done.returncode == 2
    assert "next step:" in done.stdout and "apt-get install -y chromium" in done.stdout


NO_BROWSER_COMMANDS = {
    "demo": ["demo", "--headless"],
    "gui --screenshot": ["gui", "--url", "http://127.0.0.1:9/", "--screenshot", "w.png"],
    "preflight": ["preflight", "http://127.0.0.1:9/", "--project", "p.studio"],
    "observe": ["observe", "http://127.0.0.1:9/", "--selector", "body"],
}


@pytest.mark.parametrize("command", NO_BROWSER_COMMANDS, ids=list(NO_BROWSER_COMMANDS))
@pytest.mark.own_browser
def test_commands_without_a_browser_say_how_to_install_one(command, tmp_path):
    args = [arg if arg not in ("w.png", "p.studio") else str(tmp_path / arg) for arg in NO_BROWSER_COMMANDS[command]]
    if command == "demo":
        args += ["--out", str(tmp_path / "out")]
    done = studio(*args, env={"STUDIO_BROWSER": str(tmp_path / "no-such-chromium"), "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode in (1, 2), done.stderr
    assert "Traceback" not in done.stderr
    assert "STUDIO_BROWSER" in done.stderr and "apt-get install -y chromium" in done.stderr


def test_demo_refuses_an_out_folder_it_cannot_use(tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    done = studio("demo", "--headless", "--out", str(tmp_path / "taken"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is a file" in done.stderr and "--out" in done.stderr
    assert (tmp_path / "taken").read_text() == "a file, not a folder"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_demo_serves_until_interrupted():
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "studio", "serve-demo", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_data/health", timeout=2) as reply:
                    assert json.load(reply)["ok"] is True
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_serve_demo_on_a_taken_or_impossible_port_says_so():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = studio("serve-demo", "--port", str(port), timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"127.0.0.1:{port}" in done.stderr and "already in use" in done.stderr and "--port" in done.stderr
    impossible = studio("serve-demo", "--port", "99999", timeout=60)
    assert impossible.returncode == 2 and "Traceback" not in impossible.stderr
    assert "99999 is not a port number" in impossible.stderr


@pytest.mark.gui
def test_gui_screenshot_captures_the_window_with_the_page(demo, tmp_path):
    from PySide6.QtGui import QImage

    png = tmp_path / "window.png"
    done = studio("gui", "--project", str(tmp_path / "p.studio"), "--url", demo.base_url + "/products",
                  "--screenshot", str(png), env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    image = QImage(str(png))
    assert image.width() >= 1200 and image.height() >= 800
    # The page is in the window (hundreds of colours), not the empty dark view (a handful). Whether the products'
    # loading scrim is still up depends on the seeded hydration delay, so only presence is checked.
    colours = {image.pixel(x, y) for x in range(image.width() // 4, image.width() * 3 // 4, 7)
               for y in range(image.height() // 4, image.height() * 3 // 4, 7)}
    assert len(colours) > 50
    with ProjectFile.open(tmp_path / "p.studio") as project:
        session = project.sessions()[0]
        assert project.navigations(session.id)[0].url.endswith("/products")


@pytest.mark.gui
def test_gui_says_what_to_do_without_a_display(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "studio", "gui"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "xvfb-run studio" in done.stderr


@pytest.mark.gui
def test_gui_screenshot_of_an_unreachable_url_fails_with_a_sentence(tmp_path):
    done = studio("gui", "--project", str(tmp_path / "p.studio"), "--url", f"http://127.0.0.1:{_free_port()}/",
                  "--screenshot", str(tmp_path / "w.png"), env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 1
    assert "Could not open" in done.stderr and "connection refused" in done.stderr
    assert (tmp_path / "w.png").exists()  # the window, with the error shown, is still captured


@pytest.mark.gui
@pytest.mark.slow
def test_demo_with_a_display_runs_the_tour_in_the_window(tmp_path):
    # DISPLAY makes `studio demo` choose the window; the offscreen platform renders it without a screen.
    out = tmp_path / "out"
    done = studio("demo", "--out", str(out), "--close-when-done",
                  env={"DISPLAY": ":99", "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert all(page in summary["pages"] for page in DEMO_PAGES) and summary["failures"] == []
    assert "16/16" not in done.stderr  # progress went to the window's Events dock, not the terminal
    with ProjectFile.open(out / "demo.studio") as project:
        assert project.run_summaries()[0].summary["session_id"] == summary["session_id"]
