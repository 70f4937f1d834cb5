"""The freedesktop.org files that make the studio a desktop application on Linux: the launcher entry, the icon at
each size in the hicolor theme, and the MIME type of project files, laid out under a `share` folder."""

from __future__ import annotations

import shutil
from pathlib import Path

APP_ID = "preflight-studio"
DESKTOP_FILE = f"{APP_ID}.desktop"
MIME_FILE = f"{APP_ID}.xml"
MIME_TYPE = "application/x-preflight-studio"


def install_desktop_files(share: Path, icons: dict[int, Path], svg: Path | None, linux_files: Path) -> list[Path]:
    """Copy the entry, the MIME package and the icons into `share` (…/share/applications, …/share/icons, …)."""
    placed = [
        _copy(linux_files / DESKTOP_FILE, share / "applications" / DESKTOP_FILE),
        _copy(linux_files / MIME_FILE, share / "mime" / "packages" / MIME_FILE),
    ]
    for size, png in sorted(icons.items()):
        placed.append(_copy(png, share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"))
    if svg is not None:
        placed.append(_copy(svg, share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"))
    return placed


def _copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target
