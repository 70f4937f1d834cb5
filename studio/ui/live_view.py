"""LiveView: paints the newest screencast frame of the page and forwards mouse and keyboard to it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.app.browser_service import BrowserService
from studio.browser.geometry import FrameRect, fit_frame
from studio.browser.input import InputAction
from studio.models.browser import LiveFrame
from studio.ui.keys import playwright_key

_BUTTONS = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}
WHEEL_PIXELS_PER_NOTCH = 100  # what Chromium scrolls for one 120-unit wheel notch


class LiveView(QWidget):
    """The page as the tester sees it. Only the newest frame is ever decoded and painted; older ones are dropped."""

    framePainted = Signal()

    def __init__(self, service: BrowserService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.frames_painted = 0
        self.message = "No page yet. Type a URL above and press Enter."
        self._image: QImage | None = None
        self._decoded: LiveFrame | None = None
        self._rect: FrameRect | None = None
        self._click_count = 1
        self._pressed_keys: dict[int, str] = {}
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)
        self.setAccessibleName("Live browser view")
        service.frameReady.connect(self.update)  # update() coalesces: many frames, one paint
        service.sessionEnded.connect(self._on_session_ended)
        service.sessionStarted.connect(self._on_session_started)

    # -- painting ------------------------------------------------------------------------------------

    def frame_rect(self) -> FrameRect | None:
        frame = self.service.latest_frame
        if frame is None:
            return None
        return fit_frame(frame.viewport_width, frame.viewport_height, self.width(), self.height())

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#1e1f22"))
        frame = self.service.latest_frame
        if frame is not None and frame is not self._decoded:
            image = QImage.fromData(frame.jpeg, "JPG")
            if not image.isNull():
                self._image, self._decoded = image, frame
        if self._image is not None:
            self._rect = self.frame_rect()
            if self._rect is not None:
                target = QRectF(self._rect.x, self._rect.y, self._rect.width, self._rect.height)
                painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, self._rect.scale < 1.0)
                painter.drawImage(target, self._image)
                self.frames_painted += 1
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

    def _on_session_started(self, _session_id: str) -> None:
        self.message = "Loading…"
        self.update()

    def _on_session_ended(self, reason: str, message: str) -> None:
        self.message = message if reason != "closed" else "The browser session is closed. Start a new one with Session > New Session."
        self.update()

    # -- input ---------------------------------------------------------------------------------------

    def _page_point(self, position: QPointF) -> tuple[float, float] | None:
        rect = self.frame_rect()
        return rect.to_page(position.x(), position.y()) if rect else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = self._page_point(event.position())
        if point:
            self.service.send_input(InputAction("move", *point))

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
            self.service.send_input(InputAction("down", *point, button=button, click_count=self._click_count))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        point, button = self._page_point(event.position()), _BUTTONS.get(event.button())
        if point and button:
            self.service.send_input(InputAction("up", *point, button=button, click_count=self._click_count))

    def wheelEvent(self, event: QWheelEvent) -> None:
        point = self._page_point(event.position())
        if point:
            delta = event.angleDelta()
            self.service.send_input(
                InputAction(
                    "wheel", *point,
                    dx=-delta.x() / 120 * WHEEL_PIXELS_PER_NOTCH,
                    dy=-delta.y() / 120 * WHEEL_PIXELS_PER_NOTCH,
                )
            )
            event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        name = playwright_key(event)
        if name is None:
            if event.text() and event.text().isprintable():
                self.service.send_input(InputAction("text", text=event.text()))
            return
        self._pressed_keys[event.key()] = name
        self.service.send_input(InputAction("key_down", key=name))

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.isAutoRepeat():
            return  # a held key repeats keydown only, as in a real browser
        name = self._pressed_keys.pop(event.key(), None)
        if name is not None:
            self.service.send_input(InputAction("key_up", key=name))

    def focusOutEvent(self, event: QFocusEvent) -> None:
        # Release held keys, or the page would believe e.g. Shift or an arrow is still down.
        for name in self._pressed_keys.values():
            self.service.send_input(InputAction("key_up", key=name))
        self._pressed_keys.clear()
        super().focusOutEvent(event)

    def focusNextPrevChild(self, _next: bool) -> bool:
        return False  # Tab belongs to the page while the view has focus
