"""The small project around an exported test: runner config, base URL, browser choice, .gitignore and README."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from studio.export.statements import CASE_PREFIX, ExportPlan

BROWSER_ENV = "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH"
FALLBACK_ORIGIN = "http://127.0.0.1:8000"

_PYTHON_CONFTEST = '''"""Browser and base-URL settings for the exported tests (pytest-playwright provides the fixtures)."""

import inspect
import json
import os
import shutil
import zlib

import pytest
from playwright.sync_api import BrowserType

# Tried when Playwright's own Chromium was never downloaded (offline machines, Debian's chromium package).
INSTALLED_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge")


def pytest_addoption(parser):
    parser.addoption("--shard", default=None, metavar="I/N",
                     help="run part I of N of the tests (each CI machine runs one part; the parts never overlap)")


def pytest_collection_modifyitems(config, items):
    shard = config.getoption("--shard")
    if not shard:
        return
    try:
        index, total = (int(part) for part in shard.split("/"))
        assert 1 <= index <= total
    except (ValueError, AssertionError):
        raise pytest.UsageError(f"--shard is I/N with 1 <= I <= N, e.g. --shard 2/4 (it was {{shard!r}})")
    # A test's part follows from its name alone, so every machine agrees without talking to the others.
    keep = [item for item in items if zlib.crc32(item.nodeid.encode()) % total == index - 1]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


def _browser_servers():
    """Playwright browser servers to run on (`playwright run-server`), comma-separated in PLAYWRIGHT_SERVERS
    (or the one in PW_TEST_CONNECT_WS_ENDPOINT, as @playwright/test names it); none: a browser is launched here."""
    listed = os.environ.get("PLAYWRIGHT_SERVERS") or os.environ.get("PW_TEST_CONNECT_WS_ENDPOINT") or ""
    return [server.strip() for server in listed.split(",") if server.strip()]


@pytest.fixture(scope="session")
def connect_options(request, browser_type_launch_args):
    servers = _browser_servers()
    if not servers:
        return None
    # Each pytest-xdist worker (gw0, gw1, ...) takes its own server in turn: `pytest -n 4` on two servers puts two
    # workers on each.
    worker = getattr(request.config, "workerinput", {{}}).get("workerid", "gw0")
    # Playwright named the address `ws_endpoint`, and `endpoint` from 1.5x on.
    named = "endpoint" if "endpoint" in inspect.signature(BrowserType.connect).parameters else "ws_endpoint"
    options = {{named: servers[int(worker.removeprefix("gw") or 0) % len(servers)]}}
    executable = os.environ.get("{browser_env}")
    if executable:
        # A server started with --unsafe launches the Chromium this names (a path on the server's machine).
        launch = {{"executablePath": executable, "args": browser_type_launch_args.get("args", [])}}
        if "headless" in browser_type_launch_args:
            launch["headless"] = browser_type_launch_args["headless"]
        options["headers"] = {{"x-playwright-launch-options": json.dumps(launch)}}
    return options


@pytest.fixture(scope="session")
def base_url(pytestconfig):
    # --base-url wins, then the BASE_URL environment variable, then base_url in pytest.ini (the recorded origin).
    # pytest-base-url copies the ini value into the option, so an option equal to it was not given by the user.
    option = pytestconfig.getoption("--base-url")
    configured = pytestconfig.getini("base_url")
    if option and option != configured:
        return option
    return os.environ.get("BASE_URL") or configured


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # Tests that need a signed-in user start from a saved login (Playwright storage state), never a password.
    state = os.environ.get("STUDIO_STORAGE_STATE")
    return {{**browser_context_args, "storage_state": state}} if state else browser_context_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name, playwright):
    args = dict(browser_type_launch_args)
    if browser_name != "chromium":
        return args
    executable = os.environ.get("{browser_env}")
    if not executable and not _browser_servers() and not os.path.exists(playwright.chromium.executable_path):
        executable = next(filter(None, map(shutil.which, INSTALLED_BROWSERS)), None)
    if executable:
        # An installed Chromium or Chrome, for machines where `playwright install` cannot download one.
        args["executable_path"] = executable
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Chromium refuses to start its sandbox as root (containers, CI images).
        args["args"] = [*args.get("args", []), "--no-sandbox"]
    return args
'''

_PLAYWRIGHT_CONFIG = """import {{ defineConfig, devices }} from "@playwright/test";

// An installed Chromium or Chrome, for machines where `npx playwright install` cannot download one.
const executablePath = process.env.{browser_env} || undefined;
// Chromium refuses to start its sandbox as root (containers, CI images).
const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

export default defineConfig({{
  testDir: ".",
  use: {{
    // The recorded origin unless BASE_URL says otherwise; tests open paths relative to it.
    baseURL: process.env.BASE_URL || {origin},
    // A Playwright browser server (`npx playwright run-server`) to run on instead of a browser launched here.
    connectOptions: process.env.PW_TEST_CONNECT_WS_ENDPOINT
      ? {{ wsEndpoint: process.env.PW_TEST_CONNECT_WS_ENDPOINT }}
      : undefined,
    trace: "retain-on-failure",
    // Tests that need a signed-in user start from a saved login (Playwright storage state), never a password.
    storageState: process.env.STUDIO_STORAGE_STATE || undefined,
  }},
  projects: [
    {{
      name: "chromium",
      use: {{
        ...devices["Desktop Chrome"],
        launchOptions: {{ executablePath, args: asRoot ? ["--no-sandbox"] : [] }},
      }},
    }},
  ],
}});
"""

_PYTHON_GITIGNORE = "__pycache__/\n.pytest_cache/\ntest-results/\n"
_TYPESCRIPT_GITIGNORE = "node_modules/\ntest-results/\nplaywright-report/\nblob-report/\nplaywright/.cache/\n"


def python_files(plan: ExportPlan, test_file: str, more: Sequence[tuple[ExportPlan, str]] = ()) -> dict[str, str]:
    """conftest.py, pytest.ini, .gitignore and README.md for a pytest-playwright test (and `more` tests beside it)."""
    origin = plan.origin or FALLBACK_ORIGIN
    ini = ("[pytest]\n"
           "# The origin the session was recorded on; override with --base-url URL or BASE_URL=URL.\n"
           f"base_url = {origin}\n")
    run = ("```sh\n"
           "python -m pip install -r requirements.txt\n"
           f"python -m playwright install chromium   # or set {BROWSER_ENV} to an installed Chromium\n"
           "pytest\n"
           "```\n\n"
           f"The test opens pages relative to `base_url` in pytest.ini ({origin}, where it was recorded). "
           "To test another server: `pytest --base-url https://staging.example.com`, or set `BASE_URL`.\n\n"
           "### Many tests, many browsers\n\n"
           "- On one machine: `pytest -n 4` runs four tests at a time (pytest-xdist).\n"
           "- On browser servers: start `playwright run-server --port 3000` (one or more, on any machine) and list "
           "them, `PLAYWRIGHT_SERVERS=ws://host-a:3000/,ws://host-b:3000/ pytest -n 4`: each worker runs on its own "
           "server in turn.\n"
           "- On several CI machines: `pytest --shard 2/4` runs the second of four parts; the parts never overlap "
           "and together are the whole suite (a test's part follows from its name).\n")
    return {
        "conftest.py": _PYTHON_CONFTEST.format(browser_env=BROWSER_ENV),
        "requirements.txt": "pytest-playwright\npytest-xdist\n",
        "pytest.ini": ini,
        ".gitignore": _PYTHON_GITIGNORE,
        "README.md": _readme([(plan, test_file), *more], run),
    }


def typescript_files(plan: ExportPlan, test_file: str, more: Sequence[tuple[ExportPlan, str]] = ()) -> dict[str, str]:
    """playwright.config.ts, package.json, .gitignore and README.md for a @playwright/test spec (and `more`)."""
    origin = plan.origin or FALLBACK_ORIGIN
    package = {
        "name": "-".join(test_file.removesuffix(".spec.ts").split("-")[:6]) + "-tests",
        "private": True,
        "type": "module",
        "scripts": {"test": "playwright test"},
        "devDependencies": {"@playwright/test": _playwright_range()},
    }
    run = ("```sh\n"
           "npm install\n"
           f"npx playwright install chromium   # or set {BROWSER_ENV} to an installed Chromium\n"
           "npx playwright test\n"
           "```\n\n"
           f"The test opens pages relative to `baseURL` in playwright.config.ts ({origin}, where it was "
           "recorded). To test another server, set `BASE_URL`, e.g. `BASE_URL=https://staging.example.com "
           "npx playwright test`.\n\n"
           "### Many tests, many browsers\n\n"
           "- On one machine: `npx playwright test --workers 4`.\n"
           "- On a browser server: `PW_TEST_CONNECT_WS_ENDPOINT=ws://host:3000/ npx playwright test` (start it with "
           "`npx playwright run-server --port 3000`).\n"
           "- On several CI machines: `npx playwright test --shard 2/4` runs the second of four parts.\n")
    return {
        "playwright.config.ts": _PLAYWRIGHT_CONFIG.format(browser_env=BROWSER_ENV, origin=json.dumps(origin)),
        "package.json": json.dumps(package, indent=2) + "\n",
        ".gitignore": _TYPESCRIPT_GITIGNORE,
        "README.md": _readme([(plan, test_file), *more], run),
    }


def _readme(tests: list[tuple[ExportPlan, str]], run: str) -> str:
    how = ("Its waits come from what was observed while recording (overlays, animations, re-renders, backend "
           "calls), each with a comment saying why it is there; its checks come from what each step changed (new "
           "items, counters, states, the page reached) and from expected results.")
    plan, test_file = tests[0]
    if len(tests) == 1:
        lines = [f"# {plan.title}", "", f"`{test_file}` was exported by Preflight Studio from {_source(plan)}. {how}"]
    else:
        lines = [f"# {len(tests)} tests", "", "Exported by Preflight Studio:", "",
                 *(f"- `{name}`: {each.title} (from {_source(each)})" for each, name in tests), "", how]
    lines += ["", "## Run it", "", run]
    env_vars = list(dict.fromkeys(name for each, _ in tests for name in each.env_vars))
    if env_vars:
        lines += ["## Environment variables", "",
                  "The tests read these secrets from the environment; they are never written into these files.", ""]
        lines += [f"- `{name}`" for name in env_vars]
        lines += ["", "For example: `export " + env_vars[0] + "='…'` before running the test.", ""]
    lines += ["## Signed-in tests", "",
              "A test that needs a signed-in user starts from a saved login: set `STUDIO_STORAGE_STATE` to a "
              "Playwright storage-state file (in Preflight Studio: Session › Save Login State).", "",
              "## Browser", "",
              f"Playwright's own Chromium is used unless `{BROWSER_ENV}` points at another Chromium or Chrome "
              "executable; when Playwright's browser was never downloaded, an installed Chromium or Chrome is "
              "used. As root (containers, CI), Chromium is started with `--no-sandbox`.", ""]
    return "\n".join(lines)


def _source(plan: ExportPlan) -> str:
    if plan.session_id.startswith(CASE_PREFIX):
        return f"test case `{plan.session_id.removeprefix(CASE_PREFIX)}`"
    return f"the recorded session `{plan.session_id}`"


def _playwright_range() -> str:
    # The npm package in step with the Playwright the studio recorded with, so both drive the same browsers.
    try:
        major, minor = version("playwright").split(".")[:2]
        return f"^{major}.{minor}.0"
    except (PackageNotFoundError, ValueError):
        return "^1.49.0"
