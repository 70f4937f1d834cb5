"""The exported TypeScript test run for real with @playwright/test (needs Node.js and npm; skipped without)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from export_samples import add_to_cart

from studio.browser.discovery import find_browser
from studio.export import export_session

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="Node.js and npm are not installed")
def test_exported_typescript_passes_with_playwright_test(demo, tmp_path):
    out = tmp_path / "ts"
    export_session(add_to_cart("http://127.0.0.1:9"), "typescript", out, title="add iPhone 15 Pro to cart")
    env = {**os.environ, "npm_config_cache": str(Path.home() / ".cache" / "studio-npm"), "BASE_URL": demo.base_url,
           "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": find_browser().path, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    install = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=out, env=env,
                             capture_output=True, text=True, timeout=300)
    if install.returncode != 0:
        pytest.skip(f"npm could not install @playwright/test here: {install.stderr.strip()[-300:]}")
    run = subprocess.run(["npx", "playwright", "test", "--reporter=line"], cwd=out, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout
