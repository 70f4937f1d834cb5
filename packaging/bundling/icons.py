"""Draw the studio's icon as PNGs at the sizes desktops ask for, from its SVG, with Qt.

Run with the build environment's Python (it has PySide6): `python icons.py SVG FOLDER [SIZE ...]` writes
FOLDER/SIZE.png for each size. build_bundle.py calls it; nothing else imports Qt during a build.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The hicolor theme's usual sizes, and 512 for the Windows and macOS icons PyInstaller converts from a PNG.
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def draw(svg: Path, folder: Path, sizes: tuple[int, ...] = SIZES) -> list[Path]:
    """One square, transparent PNG per size, the SVG scaled to fill it."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(["icons", "-platform", "offscreen"])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg} is not an SVG Qt can draw; fix the file, or give another with --icon.")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        path = folder / f"{size}.png"
        if not image.save(str(path)):
            raise SystemExit(f"Could not write {path}; check that the folder is writable.")
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit("usage: python icons.py SVG FOLDER [SIZE ...]")
    given = tuple(int(size) for size in sys.argv[3:]) or SIZES
    for path in draw(Path(sys.argv[1]), Path(sys.argv[2]), given):
        print(path)
