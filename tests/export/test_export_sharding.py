"""An exported Python suite grows the ecosystem's way: pytest-xdist on one machine, Playwright browser servers
(`playwright run-server`) shared out among the workers, and `--shard I/N` splitting it across CI machines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from export_samples import add_to_cart

from studio.export import export_session
from tests.remote.conftest import free_port, wait_for_port

TESTS = 7
PAGE_TEST = '''
def test_page_{n}(page):
    page.set_content("<p>part {n}</p>")
    assert page.inner_text("p") == "part {n}"
'''
# Our own dev plugins (Qt, asyncio) are installed in this venv but not where a user runs the export.
DEV_PLUGINS = ["-p", "no:pytest-qt", "-p", "no:asyncio", "-p", "no:anyio", "-p", "no:cacheprovider"]


def suite(tmp_path: Path) -> Path:
    """An exported project (its conftest, pytest.ini, requirements) holding TESTS small tests of its own."""
    out = tmp_path / "suite"
    export_session(add_to_cart("http://127.0.0.1:9"), "python", out, title="add iPhone 15 Pro to cart")
    for test in out.glob("test_*.py"):
        test.unlink()
    (out / "test_parts.py").write_text("".join(PAGE_TEST.format(n=n) for n in range(TESTS)))
    return out


def pytest_in(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("PYTEST_ADDOPTS", "BASE_URL")}
    return subprocess.run([sys.executable, "-m", "pytest", *DEV_PLUGINS, *args], cwd=folder, text=True,
                          capture_output=True, env={**environment, **(env or {})}, timeout=240)


def collected(done: subprocess.CompletedProcess) -> set[str]:
    return {line.strip() for line in done.stdout.splitlines() if "::test_page_" in line}


def test_the_shards_split_the_suite_without_overlap(tmp_path):
    folder = suite(tmp_path)
    assert "pytest-xdist" in (folder / "requirements.txt").read_text().split()
    everything = collected(pytest_in(folder, "--collect-only", "-q"))
    assert len(everything) == TESTS
    parts = [collected(pytest_in(folder, "--collect-only", "-q", "--shard", f"{i}/3")) for i in (1, 2, 3)]
    assert set().union(*parts) == everything and sum(map(len, parts)) == TESTS  # whole, and no test twice
    assert all(parts), parts  # 7 tests over 3 machines: none is idle
    refused = pytest_in(folder, "--collect-only", "-q", "--shard", "4/3")
    assert refused.returncode != 0 and "--shard is I/N" in refused.stderr
    readme = (folder / "README.md").read_text()
    assert "pytest -n 4" in readme and "--shard 2/4" in readme and "PLAYWRIGHT_SERVERS" in readme


@pytest.mark.own_browser
def test_xdist_workers_share_out_the_browser_servers(tmp_path, browser_info):
    folder = suite(tmp_path)
    servers, logs = [], []
    try:
        for index in range(2):
            port = free_port()
            log = tmp_path / f"server-{index}.log"
            process = subprocess.Popen(
                [sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1", "--port", str(port),
                 "--unsafe"], stdout=subprocess.DEVNULL, stderr=log.open("w"),
                env={**os.environ, "DEBUG": "pw:server"})
            servers.append((process, f"ws://127.0.0.1:{port}/"))
            logs.append(log)
            wait_for_port(port, process)
        done = pytest_in(folder, "-n", "2", env={
            "PLAYWRIGHT_SERVERS": ",".join(url for _, url in servers),
            "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_info.path})
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        assert f"{TESTS} passed" in done.stdout
        for log in logs:  # each worker connected to a server of its own
            assert "serving connection" in log.read_text(), log.read_text()[-2000:]
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(10)
