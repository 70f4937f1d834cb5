"""The observation's screenshot in the Pilot dock: its row says what it is — "base64 PNG, 84 KB" when
observation.json carries it in base64 (the seed's default), or the path of its file in the session folder
(`--screenshot path`) — instead of the first 300 characters of its base64; double-click (or Enter) shows the image in
the screenshot viewer."""

from __future__ import annotations

import base64
import binascii
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTreeWidgetItem

SCREENSHOT_ROLE = Qt.ItemDataRole.UserRole + 2  # on the screenshot row: the value as the observation carries it
_DATA_URL = "data:image/"
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"))
HINT = "Double-click (or press Enter) to see it."
LINK_COLOUR = "#2563eb"
MAX_PATH_CHARS = 4096  # longer: broken base64, not a path


class ScreenshotUnreadable(ValueError):
    """The screenshot cannot be shown; the message says why and what to do."""


def image_kind(data: bytes) -> str | None:
    """The image's format from its first bytes (PNG, JPEG, GIF or WebP); None for anything else."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    return next((kind for magic, kind in _MAGIC if data.startswith(magic)), None)


def decoded(value: str) -> bytes | None:
    """The image a base64 screenshot carries (a data: URL too); None when `value` is no base64 image (a path)."""
    if value.startswith(_DATA_URL) and ";base64," in value:
        value = value.split(";base64,", 1)[1]
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    return data if image_kind(data) else None


def kilobytes(size: int) -> str:
    return f"{max(1, round(size / 1024)):,} KB"


def summary(value: str, data: bytes | None = None) -> str:
    """The row's text: "base64 PNG, 84 KB" for an image in base64 (`data`: it decoded); anything else (a file's
    path) as it is."""
    data = data if data is not None else decoded(value)
    if data is None:
        return value
    return f"base64 {image_kind(data)}, {kilobytes(len(data))}"


def image(value: str, session_folder: str) -> bytes:
    """The screenshot's bytes: decoded from base64, or read from its file (a path relative to the session folder)."""
    data = decoded(value)
    if data is not None:
        return data
    if len(value) > MAX_PATH_CHARS or "\n" in value:
        raise ScreenshotUnreadable("The screenshot is neither an image in base64 nor the path of an image file.")
    path = Path(value)
    if not path.is_absolute():
        if not session_folder:
            raise ScreenshotUnreadable(f"{value} is relative to the session folder, which is not known here.")
        path = Path(session_folder) / path
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ScreenshotUnreadable(f"{path} cannot be read ({error.strerror or error}): the session folder may have "
                                   "been moved or cleaned up.") from None
    if image_kind(data) is None:
        raise ScreenshotUnreadable(f"{path} is not an image.")
    return data


def mark_screenshot_row(item: QTreeWidgetItem, value: str) -> None:
    """Make the observation tree's screenshot row say what the screenshot is, and remember it for double-click."""
    data = decoded(value)
    item.setText(1, summary(value, data))
    item.setData(1, SCREENSHOT_ROLE, value)
    # drawn as a link: the one value in the tree that opens something
    font = item.font(1)
    font.setUnderline(True)
    item.setFont(1, font)
    item.setForeground(1, QColor(LINK_COLOUR))
    said = "in base64" if data is not None else f"as the file {value} in the session folder"
    item.setToolTip(0, f"The observation carries its screenshot {said}. {HINT}")
    item.setToolTip(1, item.toolTip(0))
