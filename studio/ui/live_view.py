"""LiveView: paints the newest screencast frame of the page and forwards mouse and keyboard to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.app.browser_service import BrowserService
from studio.browser.geometry import FrameRect, fit_frame
from studio.browser.input import InputAction, MouseButton
from studio.models.browser import LiveFrame
from studio.models.race import Rect
from studio.ui.keys import playwright_key

_BUTTONS: dict[Qt.MouseButton, MouseButton] = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}
_MODIFIERS = (
    (Qt.KeyboardModifier.AltModifier, "Alt"),
    (Qt.KeyboardModifier.ControlModifier, "Control"),
    (Qt.KeyboardModifier.MetaModifier, "Meta"),
    (Qt.KeyboardModifier.ShiftModifier, "Shift"),
)
WHEEL_PIXELS_PER_NOTCH = 100  # what Chromium scrolls for one 120-unit wheel notch
HIGHLIGHT_HOLD_MS = 4000
FRAME_SIZE_SETTLE_MS = 300
EMPTY_MESSAGE = ("No page yet. Type a URL above and press Enter: the browser starts by itself.\n\n"
                 "No app at hand? Run `studio serve-demo` in a terminal and open the address it prints.")
STARTING_MESSAGE = "Starting the browser…"
InputFilter = Callable[[InputAction], bool]


@dataclass(frozen=True, slots=True)
class Highlight:
    """A box drawn over the page (in page CSS pixels); a zero-size box is drawn as a point marker."""

    rect: Rect
    color: QColor
    label: str = ""


class LiveView(QWidget):
    """The page as the tester sees it. Only the newest frame is ever decoded and painted; older ones are dropped."""

    framePainted = Signal()

    def __init__(self, service: BrowserService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.frames_painted = 0  # paints of a frame (a repaint of the same frame counts again)
        self.frames_shown = 0  # distinct frames decoded and painted; frames superseded before a paint never count
        self.message = EMPTY_MESSAGE
        self._image: QImage | None = None
        self._decoded: LiveFrame | None = None
        self._rect: FrameRect | None = None
        self._before_start = self.message
        self._click_count = 1
        self._pressed_keys: dict[int, str] = {}
        # Gets every gesture first; returns True when it took the gesture over (pick mode, recording).
        self.input_filter: InputFilter | None = None
        self.highlights: list[Highlight] = []
        self.pick_banner = ""  # while picking: the strip over the page that says so (the mode must not be missed)
        self._highlight_timer = QTimer(self, singleShot=True)
        self._highlight_timer.timeout.connect(self.clear_highlights)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)
        self.setAccessibleName("Live browser view")
        service.frameReady.connect(self.update)  # update() coalesces: many frames, one paint
        service.sessionEnded.connect(self._on_session_ended)
        service.sessionStarted.connect(self._on_session_started)
        service.busyChanged.connect(self._on_busy)
        service.urlChanged.connect(self.clear_highlights)  # boxes of the old page mean nothing on the new one
        # Frames come at the size the page is painted (after a resize settles), not always at the viewport's.
        self._size_timer = QTimer(self, singleShot=True, interval=FRAME_SIZE_SETTLE_MS)
        self._size_timer.timeout.connect(self._ask_frame_size)
        service.sessionStarted.connect(lambda _id: self._size_timer.start())

    # -- painting ------------------------------------------------------------------------------------

    def frame_rect(self) -> FrameRect | None:
        frame = self.service.latest_frame
        if frame is None:
            return None
        return fit_frame(frame.viewport_width, frame.viewport_height, self.width(), self.height())

    def page_rect(self, viewport: tuple[int, int] = (1280, 720)) -> FrameRect:
        """Where the page is painted: the newest frame's rectangle, or where a `viewport`-sized page would go."""
        return self.frame_rect() or fit_frame(*viewport, self.width(), self.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._size_timer.start()

    def _ask_frame_size(self) -> None:
        rect = self.page_rect()
        ratio = self.devicePixelRatioF()
        self.service.set_frame_size(round(rect.width * ratio), round(rect.height * ratio))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#1e1f22"))
        frame = self.service.latest_frame
        if frame is not None and frame is not self._decoded:
            image = QImage.fromData(frame.jpeg, "JPG")  # type: ignore[arg-type]  # stubs say bytes; PySide6 takes str
            if not image.isNull():
                self._image, self._decoded = image, frame
                self.frames_shown += 1
        if self._image is not None:
            self._rect = self.frame_rect()
            if self._rect is not None:
                target = QRectF(self._rect.x, self._rect.y, self._rect.width, self._rect.height)
                painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, self._rect.scale < 1.0)
                painter.drawImage(target, self._image)
                self.frames_painted += 1
                self._paint_highlights(painter, self._rect)
                self._paint_pick_banner(painter, self._rect)
        if self.message and (self._image is None or not self.service.alive):
            self._paint_banner(painter)
        painter.end()
        if self._image is not None:
            self.framePainted.emit()

    def _paint_banner(self, painter: QPainter) -> None:
        if self._image is not None:
            painter.fillRect(self.rect(), QColor(0, 0, 0, 140))
        painter.setPen(QColor("#e8e8e8"))
        font = painter.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        painter.setFont(font)
        box = self.rect().adjusted(40, 40, -40, -40)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)

    def set_pick_banner(self, text: str) -> None:
        """Show `text` in a strip over the top of the page ("" hides it); pick mode's sign on the page itself."""
        if text != self.pick_banner:
            self.pick_banner = text
            self.update()

    def _paint_pick_banner(self, painter: QPainter, frame: FrameRect) -> None:
        if not self.pick_banner:
            return
        painter.save()
        font = painter.font()
        font.setBold(True)
        painter.setFont(font)
        height = painter.fontMetrics().height() + 14
        strip = QRectF(frame.x, frame.y, frame.width, height)
        painter.fillRect(strip, QColor(29, 78, 216, 235))
        painter.setPen(QColor("#ffffff"))
        painter.drawText(strip.adjusted(10, 0, -10, 0), Qt.AlignmentFlag.AlignCenter, self.pick_banner)
        painter.restore()

    # -- highlights (drawn over the frame; the page itself is never touched) ---------------------------

    def set_highlights(self, items: Iterable[Highlight], hold_ms: int | None = HIGHLIGHT_HOLD_MS) -> None:
        """Draw boxes over the page; they clear after `hold_ms` (None: until replaced) or on navigation."""
        self.highlights = list(items)
        if hold_ms is None or not self.highlights:
            self._highlight_timer.stop()
        else:
            self._highlight_timer.start(hold_ms)
        self.update()

    def clear_highlights(self) -> None:
        if self.highlights:
            self.highlights = []
            self.update()
        self._highlight_timer.stop()

    def _paint_highlights(self, painter: QPainter, frame: FrameRect) -> None:
        if not self.highlights:
            return
        painter.save()
        painter.setClipRect(QRectF(frame.x, frame.y, frame.width, frame.height))  # parts off the page stay hidden
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for item in self.highlights:
            x, y = frame.to_widget(item.rect.x, item.rect.y)
            width, height = item.rect.width * frame.scale, item.rect.height * frame.scale
            fill = QColor(item.color)
            fill.setAlpha(45)
            painter.setPen(QPen(item.color, 2))
            if width < 1 and height < 1:
                painter.setBrush(fill)
                painter.drawEllipse(QPointF(x, y), 9, 9)
                painter.drawLine(QPointF(x - 14, y), QPointF(x + 14, y))
                painter.drawLine(QPointF(x, y - 14), QPointF(x, y + 14))
            else:
                painter.fillRect(QRectF(x, y, width, height), fill)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(QRectF(x, y, width, height))
            if item.label:
                self._paint_label(painter, item, frame, x, y)
        painter.restore()

    def _paint_label(self, painter: QPainter, item: Highlight, frame: FrameRect, x: float, y: float) -> None:
        metrics = painter.fontMetrics()
        width, height = metrics.horizontalAdvance(item.label) + 10, metrics.height() + 4
        # Above the box when there is room on the page, else inside its top edge.
        top = max(y - height if y - height >= frame.y else y, frame.y)
        left = max(frame.x, min(x, frame.x + frame.width - width))
        box = QRectF(left, top, width, height)
        painter.fillRect(box, item.color)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, item.label)

    def _on_busy(self, busy: bool) -> None:
        if self.service.alive:
            return  # a page loading in a running session: its frames say so
        if busy:
            self._before_start, self.message = self.message, STARTING_MESSAGE
        elif self.message == STARTING_MESSAGE:
            self.message = self._before_start  # the browser did not start: the message bar says why
        self.update()

    def _on_session_started(self, _session_id: str) -> None:
        self.message = "Loading…"
        self.update()

    def _on_session_ended(self, reason: str, message: str) -> None:
        self.message = message if reason != "closed" else "The browser session is closed. Start a new one with Session > New Session."
        self.clear_highlights()
        self.update()

    # -- input ---------------------------------------------------------------------------------------

    def _send(self, action: InputAction) -> None:
        if self.input_filter is not None and self.input_filter(action):
            return
        self.service.send_input(action)

    def _page_point(self, position: QPointF) -> tuple[float, float] | None:
        rect = self.frame_rect()
        return rect.to_page(position.x(), position.y()) if rect else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = self._page_point(event.position())
        if point:
            self._send(InputAction("move", *point))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self._click_count = 1
        self._press(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self._click_count = 2
        self._press(event)

    def _press(self, event: QMouseEvent) -> None:
        point, button = self._page_point(event.position()), _BUTTONS.get(event.button())
        if point and button:
            self._send(InputAction("down", *point, button=button, click_count=self._click_count,
                                   modifiers=_held(event)))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        point, button = self._page_point(event.position()), _BUTTONS.get(event.button())
        if point and button:
            self._send(InputAction("up", *point, button=button, click_count=self._click_count,
                                   modifiers=_held(event)))

    def wheelEvent(self, event: QWheelEvent) -> None:
        point = self._page_point(event.position())
        if point:
            delta = event.angleDelta()
            self._send(
                InputAction(
                    "wheel", *point,
                    dx=-delta.x() / 120 * WHEEL_PIXELS_PER_NOTCH,
                    dy=-delta.y() / 120 * WHEEL_PIXELS_PER_NOTCH,
                    modifiers=_held(event),
                )
            )
            event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        name = playwright_key(event)
        if name is None:
            if event.text() and event.text().isprintable():
                self._send(InputAction("text", text=event.text()))
            return
        self._pressed_keys[event.key()] = name
        self._send(InputAction("key_down", key=name))

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.isAutoRepeat():
            return  # a held key repeats keydown only, as in a real browser
        name = self._pressed_keys.pop(event.key(), None)
        if name is not None:
            self._send(InputAction("key_up", key=name))

    def focusOutEvent(self, event: QFocusEvent) -> None:
        # Release held keys, or the page would believe e.g. Shift or an arrow is still down.
        for name in self._pressed_keys.values():
            self._send(InputAction("key_up", key=name))
        self._pressed_keys.clear()
        super().focusOutEvent(event)

    def focusNextPrevChild(self, _next: bool) -> bool:
        return False  # Tab belongs to the page while the view has focus


def _held(event: QMouseEvent | QWheelEvent) -> frozenset[str]:
    held = event.modifiers()
    return frozenset(name for flag, name in _MODIFIERS if held & flag)
