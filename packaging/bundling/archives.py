"""Pack the bundle folder the way each OS hands software out: a tarball (Linux), a zip (Windows), a disk image
holding the .app (macOS, with hdiutil)."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path


def folder_bytes(folder: Path) -> int:
    """The bytes of the files under `folder`, symlinks not counted twice."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def tarball(bundle: Path, extras: dict[str, Path], target: Path, top: str) -> Path:
    """`top/` holding the bundle, plus each extra (name inside top/ -> file or folder); symlinks stay symlinks."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(target, "w:gz", compresslevel=6) as archive:
        archive.add(bundle, arcname=top)
        for name, source in extras.items():
            archive.add(source, arcname=f"{top}/{name}")
    return target


def zip_folder(bundle: Path, target: Path, top: str) -> Path:
    """A zip of the folder under `top/` (Windows opens it with Explorer's "Extract all")."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(bundle.rglob("*")):
            if path.is_file():
                archive.write(path, f"{top}/{path.relative_to(bundle).as_posix()}")
    return target


def disk_image(app: Path, target: Path, volume: str) -> Path:
    """A compressed .dmg holding the .app and a link to /Applications to drag it onto."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder)
        shutil.copytree(app, stage / app.name, symlinks=True)
        (stage / "Applications").symlink_to("/Applications")
        subprocess.run(["hdiutil", "create", "-volname", volume, "-srcfolder", str(stage), "-fs", "HFS+",
                        "-format", "UDZO", "-ov", str(target)], check=True)
    return target
