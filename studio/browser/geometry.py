"""Pure geometry of the live view: where a page frame is drawn in a widget, and back from widget to page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FrameRect:
    """Where a frame of size (page_w, page_h) CSS pixels is drawn inside a widget, letterboxed, aspect kept."""

    x: float
    y: float
    width: float
    height: float
    page_width: int
    page_height: int

    @property
    def scale(self) -> float:
        return self.width / self.page_width if self.page_width else 1.0

    def to_page(self, wx: float, wy: float) -> tuple[float, float] | None:
        """Map a widget point to page CSS pixels; None when the point falls on the letterbox bars."""
        if not (self.x <= wx < self.x + self.width and self.y <= wy < self.y + self.height):
            return None
        scale = self.scale
        return ((wx - self.x) / scale, (wy - self.y) / scale)

    def to_widget(self, px: float, py: float) -> tuple[float, float]:
        """Map page CSS pixels to a widget point (used to draw overlays over the frame)."""
        scale = self.scale
        return (self.x + px * scale, self.y + py * scale)


def fit_frame(page_width: int, page_height: int, widget_width: float, widget_height: float) -> FrameRect:
    """Fit the page into the widget, scaled to the largest size that keeps its aspect ratio, centred."""
    if page_width <= 0 or page_height <= 0 or widget_width <= 0 or widget_height <= 0:
        return FrameRect(0, 0, 0, 0, max(page_width, 1), max(page_height, 1))
    scale = min(widget_width / page_width, widget_height / page_height)
    width, height = page_width * scale, page_height * scale
    return FrameRect(
        (widget_width - width) / 2, (widget_height - height) / 2, width, height, page_width, page_height
    )
