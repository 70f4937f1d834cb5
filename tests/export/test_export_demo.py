"""End-to-end proof: exported Python tests run with pytest-playwright, as a user runs them, against the demo app.

Each export is recorded on an origin that does not answer, so a pass also proves that every URL is relative and
that the base URL really comes from --base-url or BASE_URL.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from export_samples import add_to_cart, all_text, sign_in

from studio.demo.state import product_order
from studio.export import export_session

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("exports_on_the_worker_server")]

RECORDED_ON = "http://127.0.0.1:9"  # the discard port: nothing listens there
IPHONE = "iphone-15-pro"


def run_exported(folder: Path, browser_path: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m pytest <folder>` in the folder, with its own pytest.ini, so pytest-playwright is active."""
    environment = {**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_path, **env}
    for name in ("BASE_URL", "PYTEST_ADDOPTS", "STUDIO_PASSWORD"):
        if name not in env:
            environment.pop(name, None)
    # Our own dev plugins (Qt, asyncio) are installed in this venv but not where a user runs the export.
    dev_plugins = ["-p", "no:pytest-qt", "-p", "no:asyncio", "-p", "no:anyio"]
    return subprocess.run([sys.executable, "-m", "pytest", str(folder), "-v", *dev_plugins, *args], cwd=folder,
                          capture_output=True, text=True, env=environment, timeout=120)


def assert_passed(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "configfile: pytest.ini" in done.stdout  # the export's own settings, not our pyproject's
    assert "playwright-" in done.stdout and "[chromium] PASSED" in done.stdout  # the plugin ran the test
    assert "1 passed" in done.stdout


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_exported_add_to_cart_test_passes_against_the_demo(demo, browser_info, tmp_path, seed):
    demo.configure(seed=seed)
    result = export_session(add_to_cart(RECORDED_ON), "python", tmp_path / "cart", title="add iPhone 15 Pro to cart")
    done = run_exported(result.out, browser_info.path, "--base-url", demo.base_url)
    assert_passed(done)
    # The test really added the phone: one cart on the server now holds it.
    assert [items for items in demo.state.carts.values() if items.get(IPHONE)] == [{IPHONE: 1}]


def test_the_three_seeds_put_the_iphone_in_different_places():
    # Without this the seed loop above would prove nothing about card order.
    positions = {product_order(seed, shuffle=True).index(IPHONE) for seed in (1, 2, 3)}
    assert len(positions) == 3


def test_the_base_url_can_come_from_the_environment(demo, browser_info, tmp_path):
    result = export_session(add_to_cart(RECORDED_ON), "python", tmp_path / "cart")
    assert_passed(run_exported(result.out, browser_info.path, BASE_URL=demo.base_url.rstrip("/")))


def test_the_exported_sign_in_reads_the_password_from_the_environment(demo, browser_info, tmp_path):
    user = demo.create_user(email="ada@example.com")
    result = export_session(sign_in(RECORDED_ON, user["email"]), "python", tmp_path / "login")
    assert user["password"] not in all_text(result.out)
    missing = run_exported(result.out, browser_info.path, "--base-url", demo.base_url)
    assert missing.returncode == 1 and "Set STUDIO_PASSWORD (see README.md)." in missing.stdout
    done = run_exported(result.out, browser_info.path, "--base-url", demo.base_url,
                        STUDIO_PASSWORD=user["password"])
    assert_passed(done)
