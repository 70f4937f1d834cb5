"""The Debian package: the bundle under /opt/preflight-studio, `studio` on PATH, the desktop entry, the icons and the
project MIME type, and a control file whose Depends are the system libraries the bundle needs but does not carry.

Those are found as Debian would: `ldd` on every ELF file of the bundle, resolved as it runs (the bundle's own
libraries first for the studio and its libraries, the system's alone for the programs it starts, see frozen_main),
and each library outside the bundle mapped to its package with `dpkg -S`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from bundling.archives import folder_bytes
from bundling.desktop import install_desktop_files

INSTALL_ROOT = "/opt/preflight-studio"
# Needed at run time though no ELF header names them (each with why), and what makes the studio useful.
EXTRA_DEPENDS = ("fontconfig-config",)  # the bundled libfontconfig reads the system's /etc/fonts configuration
RECOMMENDS = ("chromium",)  # any Chromium, Chrome or Edge works; Playwright's Chromium can be fetched instead
DESCRIPTION = """Explore a web app with an AI agent in one live browser, and turn it into tests
 A desktop studio where a QA tester and an AI agent explore a web application or a browser game together in one
 live browser, and turn what they learn into grounded test cases, quality scores, UX metrics and exported
 Playwright tests. Everything a project holds lives in one local SQLite project file (.studio).
 .
 This package carries its own Python, Qt and Playwright driver; it drives an installed Chromium."""
LDD_LINE = re.compile(r"^\s*(\S+)\s*=>\s*(not found|\S+)")


def elf_files(root: Path) -> list[Path]:
    """Every ELF file under root (libraries, Qt plugins, programs), symlinks left out."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("rb") as handle:
            if handle.read(4) == b"\x7fELF":
                found.append(path)
    return found


def is_program(path: Path, launchers: set[Path]) -> bool:
    """A program the studio starts as a child (Node.js): it runs with the system's library path, not the bundle's."""
    return path not in launchers and ".so" not in path.name and os.access(path, os.X_OK)


def system_libraries(root: Path, launchers: set[Path]) -> tuple[set[str], set[str]]:
    """(paths of the libraries outside the bundle that its ELF files load, sonames found nowhere)."""
    library_dirs = sorted({str(path.parent) for path in elf_files(root) if ".so" in path.name})
    bundle_env = dict(os.environ, LD_LIBRARY_PATH=os.pathsep.join(library_dirs))
    system_env = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    outside: set[str] = set()
    missing: set[str] = set()
    for path in elf_files(root):
        env = system_env if is_program(path, launchers) else bundle_env
        done = subprocess.run(["ldd", str(path)], check=False, capture_output=True, text=True, env=env)
        for line in done.stdout.splitlines():
            match = LDD_LINE.match(line)
            if not match:
                continue
            name, where = match.groups()
            if where == "not found":
                missing.add(name)
            elif not Path(where).resolve().is_relative_to(root.resolve()):
                outside.add(where)
    return outside, missing


def owning_package(library: str) -> str | None:
    """The Debian package that installed a library file (merged /usr or not), without its architecture."""
    path = Path(library)
    candidates = {str(path), str(path.resolve())}
    candidates |= {"/usr" + name for name in list(candidates) if not name.startswith("/usr/")}
    candidates |= {name.removeprefix("/usr") for name in list(candidates) if name.startswith("/usr/")}
    for candidate in sorted(candidates):
        done = subprocess.run(["dpkg", "-S", candidate], check=False, capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.split(":", 1)[0].strip()
    return None


def depends(root: Path, launchers: set[Path]) -> tuple[list[str], list[str]]:
    """(the Depends field's entries, libraries no installed package provides: a warning for the build log)."""
    outside, missing = system_libraries(root, launchers)
    packages, unowned = set(EXTRA_DEPENDS), sorted(missing)
    for library in sorted(outside):
        package = owning_package(library)
        if package is None:
            unowned.append(library)
        else:
            packages.add(package)
    entries = sorted(packages)
    if "libc6" in packages:
        # Built against this glibc: an older one lacks the symbol versions the bundle's libraries were linked with.
        entries[entries.index("libc6")] = f"libc6 (>= {_upstream_version('libc6')})"
    return entries, unowned


def _upstream_version(package: str) -> str:
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True,
                             check=True).stdout
    return re.split(r"[-+~]", version.split(":")[-1])[0]


def control(version: str, depends_on: list[str], installed_kib: int, architecture: str = "amd64") -> str:
    return "\n".join([
        "Package: preflight-studio",
        f"Version: {version}",
        f"Architecture: {architecture}",
        "Maintainer: Preflight Studio <maintainers@preflight-studio.invalid>",
        "Section: devel",
        "Priority: optional",
        f"Installed-Size: {installed_kib}",
        f"Depends: {', '.join(depends_on)}",
        f"Recommends: {', '.join(RECOMMENDS)}",
        f"Description: {DESCRIPTION}",
        "",
    ])


# dpkg-deb's compressors: xz is Debian's default and the smallest; zstd packs in seconds (a third larger), for
# local builds; both install with the dpkg of every system the bundle runs on (Debian 12, Ubuntu 22.04 and later).
COMPRESSIONS = ("xz", "zstd", "gzip")


def build_deb(bundle: Path, icons: dict[int, Path], svg: Path, linux_files: Path, version: str, staging: Path,
              out: Path, compression: str = "xz") -> tuple[Path, list[str], list[str]]:
    """Lay the package out in `staging`, write its control file and pack it with dpkg-deb into `out`.

    Returns (the .deb, its Depends, libraries no package provides)."""
    if staging.exists():
        shutil.rmtree(staging)
    opt = staging / INSTALL_ROOT.lstrip("/")
    shutil.copytree(bundle, opt, symlinks=True)
    bin_dir = staging / "usr" / "bin"
    bin_dir.mkdir(parents=True)
    # The bootloader finds its folder through /proc/self/exe, so a symlink on PATH runs it in place.
    (bin_dir / "studio").symlink_to(f"{INSTALL_ROOT}/studio")
    install_desktop_files(staging / "usr" / "share", icons, svg, linux_files)
    depends_on, unowned = depends(opt, launchers={opt / "studio"})
    installed_kib = folder_bytes(staging) // 1024
    debian = staging / "DEBIAN"
    debian.mkdir()
    architecture = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                                  check=True).stdout.strip()
    (debian / "control").write_text(control(version, depends_on, installed_kib, architecture), encoding="utf-8")
    for path in staging.rglob("*"):
        if not path.is_symlink():
            # dpkg-deb wants the files root's and world-readable, whoever built them.
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    out.mkdir(parents=True, exist_ok=True)
    deb = out / f"preflight-studio_{version}_{architecture}.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", f"-Z{compression}", "--build", str(staging), str(deb)],
                   check=True, stdout=subprocess.DEVNULL)
    return deb, depends_on, unowned
