"""The desktop bundle's build (packaging/build_bundle.py and packaging/bundling/) and its CI workflow
(packaging/ci/desktop-bundles.yml): the workflow builds on Linux, Windows and macOS with the portable script, runs
`studio doctor` and `studio demo --headless` from each built package, and uploads the packages; the bundle's entry
answers as Python and opens a project file given alone; the desktop entry and MIME type agree; the .deb's Depends
are the system libraries the bundle loads and does not carry (real ldd and dpkg)."""

from __future__ import annotations

import ast
import configparser
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
WORKFLOW = PACKAGING / "ci" / "desktop-bundles.yml"
OSES = {"ubuntu-latest", "windows-latest", "macos-latest"}
# Each OS's step that turns the built package into a `studio` to run, and what it must install, extract or mount.
PACKAGE_STEPS = {"Linux": "apt-get install -y ./dist/preflight-studio_", "Windows": "Expand-Archive",
                 "macOS": "hdiutil attach"}

# packaging/ is not a package (its scripts run from there, and PyPI's `packaging` has the name): import from inside it.
sys.path.insert(0, str(PACKAGING))
from bundling import debian, frozen_main
from bundling.desktop import DESKTOP_FILE, MIME_FILE, MIME_TYPE, install_desktop_files


def _steps() -> list[dict]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return workflow["jobs"]["bundle"]["steps"]


def _index(steps: list[dict], words: str) -> int:
    return next(i for i, step in enumerate(steps) if words in step.get("run", ""))


def test_the_workflow_builds_on_linux_windows_and_macos_with_the_portable_script():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = workflow["jobs"]["bundle"]
    assert set(job["strategy"]["matrix"]["os"]) == OSES and job["runs-on"] == "${{ matrix.os }}"
    builds = [step for step in job["steps"] if "build" in step.get("name", "").lower()]
    commands = " ".join(step["run"] for step in builds)
    assert "./packaging/build.sh" in commands and "python packaging/build_bundle.py" in commands
    # The build is the script's, never re-implemented in the workflow; build.sh hands over to the same script.
    assert "pyinstaller" not in WORKFLOW.read_text(encoding="utf-8").lower()
    assert 'packaging/build_bundle.py" "$@"' in (PACKAGING / "build.sh").read_text(encoding="utf-8")


def test_every_step_names_its_shell_and_no_sh_step_runs_on_windows():
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "/usr/bin" not in text
    for step in _steps():
        if "run" not in step:
            continue
        assert step.get("shell") in ("bash", "pwsh"), step["name"]
        if step["shell"] == "bash":
            condition = step.get("if", "")
            assert "runner.os == 'Linux'" in condition or "runner.os == 'macOS'" in condition, step["name"]


def test_doctor_and_the_headless_demo_run_from_each_built_package_after_a_browser_is_installed():
    steps = _steps()
    doctor, demo = _index(steps, "doctor"), _index(steps, "demo --headless")
    for index in (doctor, demo):
        # On every OS (no condition), and with the studio the package step found, not one from the checkout.
        assert "if" not in steps[index] and "$env:STUDIO" in steps[index]["run"]
    browser = _index(steps, "playwright install")
    assert "STUDIO_BROWSER=" in steps[browser]["run"] and browser < doctor < demo
    for os_name, words in PACKAGE_STEPS.items():
        package = _index(steps, words)
        assert f"runner.os == '{os_name}'" in steps[package]["if"]
        assert "STUDIO=" in steps[package]["run"] and package < doctor
    mounted = steps[_index(steps, "hdiutil attach")]["run"]
    assert "Preflight Studio.app/Contents/MacOS/studio" in mounted


def test_the_packages_of_each_os_are_uploaded():
    uploads = [step for step in _steps() if step.get("uses", "").startswith("actions/upload-artifact")]
    packages = next(step for step in uploads if "dist/" in step["with"]["path"])
    for pattern in ("dist/*.deb", "dist/*.tar.gz", "dist/*.zip", "dist/*.dmg"):
        assert pattern in packages["with"]["path"]
    assert packages["with"]["if-no-files-found"] == "error" and "${{ runner.os }}" in packages["with"]["name"]


def test_the_bundle_entry_answers_dash_c_and_dash_m_as_python_does(tmp_path):
    """`studio doctor` probes Qt with `sys.executable -c`, `studio bench startup` runs `sys.executable -m studio`."""
    entry = PACKAGING / "bundling" / "frozen_main.py"
    code = subprocess.run([sys.executable, str(entry), "-c", "import sys; print(sys.argv)", "a", "b"],
                          capture_output=True, text=True, check=True)
    assert code.stdout.strip() == "['-c', 'a', 'b']"
    (tmp_path / "data.json").write_text('{"b": 1}', encoding="utf-8")
    module = subprocess.run([sys.executable, str(entry), "-m", "json.tool", str(tmp_path / "data.json")],
                            capture_output=True, text=True, check=True)
    assert '"b": 1' in module.stdout


def test_the_desktop_entry_opens_project_files_of_the_shipped_mime_type():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    entry.read(PACKAGING / "linux" / DESKTOP_FILE, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Exec"] == "studio gui %f" and desktop["Icon"] == "preflight-studio"
    assert desktop["Terminal"] == "false" and MIME_TYPE in desktop["MimeType"].split(";")
    namespace = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    mime = ET.parse(PACKAGING / "linux" / MIME_FILE).getroot().find("m:mime-type", namespace)
    assert mime is not None and mime.get("type") == MIME_TYPE
    assert [glob.get("pattern") for glob in mime.findall("m:glob", namespace)] == ["*.studio"]


def test_the_spec_collects_every_installed_package_of_the_studio_as_package_data():
    """Resources come from what the wheel installs, so a new top-level package with data must be in the spec."""
    spec = (PACKAGING / "bundling" / "studio.spec").read_text(encoding="utf-8")
    assigned = next(node for node in ast.walk(ast.parse(spec)) if isinstance(node, ast.Assign)
                    and getattr(node.targets[0], "id", "") == "DATA_PACKAGES")
    collected = set(ast.literal_eval(assigned.value))
    try:
        top_level = set(distribution("preflight-studio").read_text("top_level.txt").split())  # type: ignore[union-attr]
    except (PackageNotFoundError, AttributeError):
        pytest.skip("preflight-studio is not installed with its top_level.txt here")
    assert top_level <= collected
    assert "resources/" not in spec and "projects/" not in spec  # never the repository's folders


def test_the_control_file_declares_depends_and_recommends_a_browser():
    text = debian.control("1.2.3", ["libc6 (>= 2.36)", "libxcb1"], 4096)
    fields = dict(line.split(": ", 1) for line in text.splitlines() if line and not line.startswith(" "))
    assert fields["Package"] == "preflight-studio" and fields["Version"] == "1.2.3"
    assert fields["Architecture"] == "amd64" and fields["Installed-Size"] == "4096"
    assert fields["Depends"] == "libc6 (>= 2.36), libxcb1" and "chromium" in fields["Recommends"]


@pytest.mark.skipif(not (shutil.which("ldd") and shutil.which("dpkg")), reason="needs ldd and dpkg (Debian/Ubuntu)")
def test_depends_names_the_packages_of_libraries_the_bundle_loads_but_does_not_carry(tmp_path):
    libraries = [Path(folder) / name for folder in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu")
                 for name in ("libpng16.so.16", "libz.so.1")]
    png = next((p for p in libraries if p.name == "libpng16.so.16" and p.exists()), None)
    zlib = next((p for p in libraries if p.name == "libz.so.1" and p.exists()), None)
    if png is None or zlib is None:
        pytest.skip("libpng16 and zlib are not installed here")
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    shutil.copy(png, bundle / png.name)
    depends, unowned = debian.depends(bundle, launchers=set())
    assert "zlib1g" in depends and any(entry.startswith("libc6 (>= ") for entry in depends)
    assert "libpng16-16" not in " ".join(depends) and not unowned  # carried by the bundle itself
    shutil.copy(zlib, bundle / zlib.name)  # now the bundle carries zlib too
    assert "zlib1g" not in debian.depends(bundle, launchers=set())[0]


@pytest.mark.gui
def test_the_window_names_its_launcher_entry_so_docks_show_its_icon():
    code = ("from PySide6.QtWidgets import QApplication\n"
            "from studio.ui.launcher import run_in_qt\n"
            "async def name(): return QApplication.instance().desktopFileName()\n"
            "print(run_in_qt(name))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.stdout.strip() + ".desktop" == DESKTOP_FILE, done.stderr[-2000:]


def test_the_tarball_installs_for_one_user_with_a_launcher_entry_that_needs_no_path(tmp_path):
    """install.sh, as the tarball holds it, run from the unpacked folder with an empty HOME."""
    unpacked = tmp_path / "preflight-studio-1.2.3"
    install_desktop_files(unpacked / "share", {}, PACKAGING.parent / "resources" / "icons" / "studio.svg",
                          PACKAGING / "linux")
    shutil.copy(PACKAGING / "linux" / "install.sh", unpacked / "install.sh")
    (unpacked / "studio").write_text("#!/bin/sh\necho studio here\n", encoding="utf-8")
    (unpacked / "studio").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(["sh", str(unpacked / "install.sh")], capture_output=True, text=True,
                          env={"HOME": str(home), "PATH": os.environ["PATH"]}, check=True)
    assert "Installed" in done.stdout
    linked = home / ".local" / "bin" / "studio"
    assert subprocess.run([str(linked)], capture_output=True, text=True).stdout == "studio here\n"
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(home / ".local" / "share" / "applications" / DESKTOP_FILE, encoding="utf-8")
    assert entry["Desktop Entry"]["Exec"] == f'"{unpacked}/studio" gui %f'
    assert entry["Desktop Entry"]["TryExec"] == f"{unpacked}/studio"
    assert (home / ".local" / "share" / "mime" / "packages" / MIME_FILE).is_file()
    assert (home / ".local" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "preflight-studio.svg").is_file()
