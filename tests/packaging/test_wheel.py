"""`python -m build` makes a wheel and an sdist of preflight-studio, and the wheel holds everything the studio loads at
run time: every module, every file under resources/ and projects/, and every path the code asks its resource loaders
for (found by reading the code, so a new resource cannot be forgotten). The studio then runs from the unpacked wheel
alone, from a folder that is not the clone: the demo app serves its pages, the shipped scenarios load."""

from __future__ import annotations

import ast
import email
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import studio
from studio.scenarios.batch import load_all, scenario_files

# The first test builds the wheel (half a minute here, more where the build backend must be fetched first).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
# The folders outside studio/ that install as package data (setup.py), and where they land in the wheel.
DATA_FOLDERS = {"resources": "studio_resources", "projects": "studio_resources/projects"}
# The studio's resource loaders (studio/resources.py) and the folder of the wheel each one reads from.
LOADERS = {"resource_path": "studio_resources", "sample_project_path": "studio_resources/projects",
           "demo_scenarios": "studio_resources/projects/demo-fintech/scenarios"}
LEFT_OUT = ("__pycache__", ".pyc", ".studio", ".studio-wal", ".studio-shm")  # MANIFEST.in's global-exclude


def _kept(path: Path) -> bool:
    return not any(part == "__pycache__" for part in path.parts) and not path.name.endswith(LEFT_OUT)


def _studio_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "studio").rglob("*.py") if _kept(p))


def _loader_calls() -> set[tuple[str, tuple[str, ...]]]:
    """Every call of a resource loader in the studio's code, with the leading parts it names as constants."""
    calls = set()
    for module in _studio_modules():
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in LOADERS:
                parts: list[str] = []
                for arg in node.args:
                    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                        break  # resource_path("race", name): the folder "race" is what the code names
                    parts.append(arg.value)
                calls.add((node.func.id, tuple(parts)))
    return calls


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # As a user builds it: the sdist first, then the wheel from the unpacked sdist (so the sdist is complete too).
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], check=False,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return out


@pytest.fixture(scope="module")
def wheel(dist) -> zipfile.ZipFile:
    return zipfile.ZipFile(dist / f"preflight_studio-{studio.__version__}-py3-none-any.whl")


def test_the_wheel_is_preflight_studio_with_its_command(wheel):
    info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = email.message_from_bytes(wheel.read(info))
    assert (metadata["Name"], metadata["Version"]) == ("preflight-studio", studio.__version__)
    entry_points = wheel.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "studio = studio.entry:main" in entry_points


def test_every_module_and_data_file_is_in_the_wheel(wheel):
    names = set(wheel.namelist())
    missing = [str(p.relative_to(ROOT)) for p in _studio_modules() if str(p.relative_to(ROOT)) not in names]
    for folder, inside in DATA_FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and _kept(path) and f"{inside}/{path.relative_to(ROOT / folder).as_posix()}" not in names:
                missing.append(str(path.relative_to(ROOT)))
    assert missing == []
    assert not [n for n in names if "__pycache__" in n or n.startswith("tests/")]


def test_every_path_the_code_asks_its_loaders_for_is_in_the_wheel(wheel):
    calls = _loader_calls()
    assert ("resource_path", ("style.qss",)) in calls and ("demo_scenarios", ()) in calls  # the reading works
    names = set(wheel.namelist())
    absent = []
    for loader, parts in sorted(calls):
        where = "/".join([LOADERS[loader], *parts])
        if where not in names and not any(n.startswith(where + "/") for n in names):
            absent.append(f"{loader}{parts}")
    assert absent == []


def test_no_module_finds_files_relative_to_its_own_source():
    # Files beside the code are reached through the loaders (the import system), never from __file__.
    def reads_own_path(module: Path) -> bool:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        return any(isinstance(node, ast.Name) and node.id == "__file__" for node in ast.walk(tree))

    readers = [str(p.relative_to(ROOT)) for p in _studio_modules() if reads_own_path(p)]
    assert readers == []


def test_the_sdist_builds_the_wheel_and_holds_no_tests(dist):
    with tarfile.open(dist / f"preflight_studio-{studio.__version__}.tar.gz") as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"setup.py", "MANIFEST.in", "pyproject.toml", "resources/style.qss",
            "projects/demo-fintech/scenarios/smoke/search-help-centre.yaml"} <= names
    assert not [n for n in names if n.startswith("tests/")]


# Run from the unpacked wheel in a folder of its own: each loader's paths, the scenarios, the demo app's pages.
FROM_THE_WHEEL = """
import json, sys, urllib.request
from pathlib import Path
site = Path(sys.argv[1]).resolve()
import studio
from studio import resources
from studio.demo.server import DemoServerThread
from studio.scenarios.batch import load_all, scenario_files
outside = [] if Path(studio.__file__).resolve().is_relative_to(site) else [studio.__file__]
for loader, parts in json.loads(sys.argv[2]):
    path = getattr(resources, loader)(*parts).resolve()
    if not (path.exists() and path.is_relative_to(site)):
        outside.append(str(path))
scenarios = sorted(s.id for s in load_all(scenario_files([str(resources.demo_scenarios())])))
with DemoServerThread() as demo:
    pages = {p: urllib.request.urlopen(demo.base_url + p).status
             for p in ("/login", "/static/css/app.css", "/favicon.ico")}
print(json.dumps({"outside": outside, "scenarios": scenarios, "pages": pages}))
"""


def test_the_studio_runs_from_the_unpacked_wheel_alone(wheel, tmp_path):
    site = tmp_path / "site"
    wheel.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(site),
           "STUDIO_CONFIG_DIR": str(tmp_path / "config")}
    calls = json.dumps(sorted(_loader_calls()))
    done = subprocess.run([sys.executable, "-c", FROM_THE_WHEEL, str(site), calls], check=False, cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outside"] == []
    shipped = sorted(s.id for s in load_all(scenario_files([str(ROOT / "projects" / "demo-fintech" / "scenarios")])))
    assert result["scenarios"] == shipped and len(shipped) == 5
    assert result["pages"] == {"/login": 200, "/static/css/app.css": 200, "/favicon.ico": 200}

    version = subprocess.run([sys.executable, "-m", "studio", "--version"], check=False, cwd=elsewhere, env=env,
                             capture_output=True, text=True, timeout=120)
    assert version.stdout == f"preflight-studio {studio.__version__}\n", version.stderr
