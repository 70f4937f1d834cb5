"""Analysis frames cut out of a picture of the whole viewport: the play surface's box (CSS px of the page) found in
the viewport's pixels where the page is scrolled to, and shrunk by area averaging to the analysis size.

Why not let Chromium clip and scale: a `Page.captureScreenshot` with a `clip` re-emulates the page's view for the
time of the capture (its offset and scale become the clip's, the view is resized to the clip), and the live view's
screencast records that same surface, so its frames come out as zoomed crops of the page (tests/games/
test_live_view_frames.py). A capture of the viewport as it is changes nothing the screencast sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from studio.models.game import Rect


@dataclass(frozen=True)
class ViewportPlace:
    """Where the viewport's picture is in the page: its top left in CSS px of the page, and pixels per CSS px."""

    left: float = 0.0
    top: float = 0.0
    pixels_per_px: float = 1.0

    @classmethod
    def of(cls, metrics: dict[str, Any]) -> ViewportPlace:
        """From Chrome DevTools' Page.getLayoutMetrics (the visual viewport's place; device pixels per CSS px from
        the layout viewport measured both ways, times a pinch zoom)."""
        visual = metrics.get("cssVisualViewport") or metrics.get("visualViewport") or {}
        css, device = metrics.get("cssLayoutViewport") or {}, metrics.get("layoutViewport") or {}
        ratio = 1.0
        if css.get("clientWidth") and device.get("clientWidth"):
            ratio = float(device["clientWidth"]) / float(css["clientWidth"])
        zoom = float(visual.get("scale") or 1.0)
        return cls(float(visual.get("pageX") or 0.0), float(visual.get("pageY") or 0.0), ratio * zoom)


def analysis_size(box: Rect, side: int) -> tuple[int, int]:
    """The (width, height) of an analysis frame of `box`: its longer side about `side` pixels, never enlarged."""
    scale = min(1.0, side / max(box.width, box.height, 1.0))
    return max(1, round(max(box.width, 1.0) * scale)), max(1, round(max(box.height, 1.0) * scale))


def cut(rgb: np.ndarray, box: Rect, place: ViewportPlace) -> np.ndarray:
    """The pixels of `box` in a picture of the viewport at `place`. The size follows the box alone (not the scroll),
    so frames of one box always compare; what lies outside the viewport is black."""
    ratio = place.pixels_per_px
    width = max(1, round(max(box.width, 1.0) * ratio))
    height = max(1, round(max(box.height, 1.0) * ratio))
    x0, y0 = round((box.x - place.left) * ratio), round((box.y - place.top) * ratio)
    image_h, image_w = rgb.shape[:2]
    left, top = max(0, x0), max(0, y0)
    right, bottom = min(image_w, x0 + width), min(image_h, y0 + height)
    if left == x0 and top == y0 and right - left == width and bottom - top == height:
        return rgb[top:bottom, left:right]
    out = np.zeros((height, width, rgb.shape[2]), dtype=rgb.dtype)
    if right > left and bottom > top:
        out[top - y0:bottom - y0, left - x0:right - x0] = rgb[top:bottom, left:right]
    return out


def shrink(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    """`rgb` at about `width`×`height` (never enlarged): averaged over whole k×k blocks (a 2 px bullet stays a dimmer
    dot instead of vanishing between samples; 640→320 is exactly the 2×2 mean Chromium's own half scale gives), and
    what a whole block leaves over (less than 2×) taken by the nearest pixel. A few ms for 1280×720 on a busy
    machine: k² strided adds, where a general box filter (np.add.reduceat) took 15–30 ms."""
    rows, cols = rgb.shape[:2]
    width, height = min(width, cols), min(height, rows)
    k = max(1, min(rows // height, cols // width))
    if k > 1:
        h, w = rows // k, cols // k
        total = np.zeros((h, w, rgb.shape[2]), dtype=np.uint16 if k <= 15 else np.uint32)
        for dy in range(k):
            for dx in range(k):
                total += rgb[dy:h * k:k, dx:w * k:k]
        rgb = ((total + k * k // 2) // (k * k)).astype(np.uint8)
        rows, cols = h, w
    if (cols, rows) != (width, height):
        ys = ((np.arange(height) + 0.5) * rows / height).astype(np.intp)
        xs = ((np.arange(width) + 0.5) * cols / width).astype(np.intp)
        rgb = rgb[ys][:, xs]
    return np.ascontiguousarray(rgb)


def analysis_frame(rgb: np.ndarray, box: Rect, place: ViewportPlace, side: int) -> np.ndarray:
    """`box` cut out of a picture of the viewport at `place`, shrunk so its longer side is about `side` pixels."""
    width, height = analysis_size(box, side)
    return shrink(cut(rgb, box, place), width, height)
