"""Build the studio's desktop bundle on this OS, and pack it the way this OS hands software out.

    python packaging/build_bundle.py                 # Linux: .deb and .tar.gz; Windows: .zip; macOS: .app in a .dmg
    python packaging/build_bundle.py --formats folder   # only the application folder

The same script runs on a developer's machine (`./packaging/build.sh` on Linux) and in CI
(packaging/ci/desktop-bundles.yml), so the workflow does not repeat its steps. It makes a build environment under
build/bundle/venv (the project installed as a wheel would install it, plus PyInstaller), freezes the studio with
packaging/bundling/studio.spec into dist/, draws the icons from resources/icons/studio.svg, and packs. It prints a
JSON report (sizes, build time, the .deb's Depends) and keeps it in build/bundle/report.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))

# The steps live in packaging/bundling/, beside this script (imported once the path above is set).
from bundling import archives
from bundling.desktop import install_desktop_files

# PyInstaller freezes in minutes; pyside6-deploy compiles every module to C with Nuitka (2,675 of them), which takes
# hours on a 2-core machine: measured and compared in the README.
BUILD_TOOLS = ("pyinstaller==6.22.3", "pillow>=10")
SPEC = PACKAGING / "bundling" / "studio.spec"
ICON_SVG = ROOT / "resources" / "icons" / "studio.svg"
LINUX_FILES = PACKAGING / "linux"
NAME = "preflight-studio"
APP_NAME = "Preflight Studio"
FORMATS = {"linux": ("folder", "tar", "deb"), "windows": ("folder", "zip"), "macos": ("folder", "dmg")}


def this_os() -> str:
    return {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")


def machine() -> str:
    arch = platform.machine().lower()
    return {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(arch, arch)


def say(text: str) -> None:
    print(f"==> {text}", file=sys.stderr, flush=True)


def run(*command: str | Path, **options) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], check=True, **options)


def build_environment(work: Path, fresh: bool) -> Path:
    """A virtual environment with the studio installed from this checkout (as its wheel installs) and PyInstaller."""
    folder = work / "venv"
    if fresh and folder.exists():
        shutil.rmtree(folder)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        say(f"Creating the build environment in {folder}")
        try:
            venv.create(folder, with_pip=True)
        except (OSError, subprocess.CalledProcessError) as error:
            raise SystemExit(f"Could not create a virtual environment in {folder} ({error}). On Debian/Ubuntu install "
                             "python3-venv, then run the build again.") from None
    say("Installing the studio and PyInstaller into the build environment")
    run(python, "-m", "pip", "install", "-q", "--upgrade", "pip")
    run(python, "-m", "pip", "install", "-q", *BUILD_TOOLS, ROOT)
    # The version may not change between two builds of a checkout: install this checkout's code, whatever it is.
    run(python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", ROOT)
    return python


def installed_version(python: Path) -> str:
    return run(python, "-c", "from importlib.metadata import version; print(version('preflight-studio'))",
               capture_output=True, text=True).stdout.strip()


def draw_icons(python: Path, work: Path) -> dict[int, Path]:
    folder = work / "icons"
    run(python, PACKAGING / "bundling" / "icons.py", ICON_SVG, folder, stdout=subprocess.DEVNULL)
    return {int(path.stem): path for path in folder.glob("*.png")}


def freeze(python: Path, work: Path, out: Path, icon: Path, version: str) -> Path:
    """Run PyInstaller; returns the application folder (on macOS, the .app)."""
    say("Freezing the studio with PyInstaller")
    run(python, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", out,
        "--workpath", work / "pyinstaller", SPEC, "--", "--icon", icon, "--version", version)
    folder = out / NAME
    if this_os() == "linux":
        _strip_node(folder)
    return out / f"{APP_NAME}.app" if this_os() == "macos" else folder


def _strip_node(folder: Path) -> None:
    """Playwright's Node.js ships with its symbol table (about 33 MB); programs run the same without it."""
    node = next(folder.rglob("playwright/driver/node"), None)
    if node is not None and shutil.which("strip"):
        run("strip", node)


def pack(kind: str, bundle: Path, icons: dict[int, Path], work: Path, out: Path, version: str,
         deb_compression: str = "xz") -> dict:
    stem = f"{NAME}-{version}-{this_os()}-{machine()}"
    if kind == "tar":
        share = work / "share"
        shutil.rmtree(share, ignore_errors=True)
        install_desktop_files(share, icons, ICON_SVG, LINUX_FILES)
        path = archives.tarball(bundle, {"share": share, "install.sh": LINUX_FILES / "install.sh"},
                                out / f"{stem}.tar.gz", top=f"{NAME}-{version}")
        return {"path": str(path), "bytes": path.stat().st_size}
    if kind == "deb":
        from bundling.debian import build_deb

        deb, depends, unowned = build_deb(bundle, icons, ICON_SVG, LINUX_FILES, version, work / "deb", out,
                                          deb_compression)
        if unowned:
            say("Warning: no installed package provides " + ", ".join(unowned) + "; install what provides them and "
                "build again, or the .deb's Depends miss them")
        return {"path": str(deb), "bytes": deb.stat().st_size, "depends": depends, "unowned_libraries": unowned}
    if kind == "zip":
        path = archives.zip_folder(bundle, out / f"{stem}.zip", top=NAME)
        return {"path": str(path), "bytes": path.stat().st_size}
    if kind == "dmg":
        path = archives.disk_image(bundle, out / f"{stem}.dmg", volume=APP_NAME)
        return {"path": str(path), "bytes": path.stat().st_size}
    raise ValueError(kind)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    choices = "; ".join(f"{name}: {', '.join(kinds)}" for name, kinds in FORMATS.items())
    parser.add_argument("--formats", help=f"comma-separated, of this OS's ({choices}); default: all of them")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the bundle and packages go (dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bundle",
                        help="build environment and intermediate files (build/bundle/)")
    parser.add_argument("--fresh", action="store_true", help="recreate the build environment first")
    parser.add_argument("--deb-compression", choices=("xz", "zstd", "gzip"), default="xz",
                        help="how dpkg-deb compresses the .deb: xz (the default: smallest) or zstd (packs in seconds)")
    args = parser.parse_args(argv)
    kinds = FORMATS[this_os()]
    wanted = tuple(args.formats.split(",")) if args.formats else kinds
    unknown = [kind for kind in wanted if kind not in kinds]
    if unknown:
        parser.error(f"{', '.join(unknown)} cannot be built on {this_os()}; it builds {', '.join(kinds)}")
    started = time.monotonic()
    args.work.mkdir(parents=True, exist_ok=True)
    python = build_environment(args.work, args.fresh)
    version = installed_version(python)
    icons = draw_icons(python, args.work)
    frozen_at = time.monotonic()
    bundle = freeze(python, args.work, args.out, icons[max(icons)], version)
    report: dict = {"version": version, "os": this_os(), "machine": machine(), "tool": BUILD_TOOLS[0],
                    "bundle": str(bundle), "bundle_bytes": archives.folder_bytes(bundle),
                    "freeze_seconds": round(time.monotonic() - frozen_at, 1), "packages": {}}
    for kind in wanted:
        if kind != "folder":
            say(f"Packing the {kind}")
            report["packages"][kind] = pack(kind, bundle, icons, args.work, args.out, version, args.deb_compression)
    report["build_seconds"] = round(time.monotonic() - started, 1)
    (args.work / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
