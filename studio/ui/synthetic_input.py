"""Synthetic mouse input for benchmarks and tests, delivered with sendEvent.

QTest's mouse helpers may spin a nested Qt event loop, which re-enters qasync from inside a running
coroutine ("Cannot enter into task ... while another task is being executed"); sendEvent never does.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QWidget


NO_MODIFIER = Qt.KeyboardModifier.NoModifier


def _send(widget: QWidget, kind: QEvent.Type, point: QPoint, button: Qt.MouseButton,
          buttons: Qt.MouseButton, modifiers: Qt.KeyboardModifier = NO_MODIFIER) -> None:
    local = QPointF(point)
    event = QMouseEvent(kind, local, QPointF(widget.mapToGlobal(point)), button, buttons, modifiers)
    QCoreApplication.sendEvent(widget, event)


def mouse_move(widget: QWidget, point: QPoint) -> None:
    _send(widget, QEvent.Type.MouseMove, point, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)


def mouse_click(widget: QWidget, point: QPoint, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
                modifiers: Qt.KeyboardModifier = NO_MODIFIER) -> None:
    """Move to `point`, press and release `button` there (holding `modifiers`, e.g. Alt)."""
    mouse_move(widget, point)
    _send(widget, QEvent.Type.MouseButtonPress, point, button, button, modifiers)
    _send(widget, QEvent.Type.MouseButtonRelease, point, button, Qt.MouseButton.NoButton, modifiers)


def mouse_double_click(widget: QWidget, point: QPoint) -> None:
    """A double click as Qt delivers it: press, release, double-click press, release."""
    left = Qt.MouseButton.LeftButton
    mouse_click(widget, point)
    _send(widget, QEvent.Type.MouseButtonDblClick, point, left, left)
    _send(widget, QEvent.Type.MouseButtonRelease, point, left, Qt.MouseButton.NoButton)


def wheel(widget: QWidget, point: QPoint, notches: float, modifiers: Qt.KeyboardModifier = NO_MODIFIER) -> None:
    """Turn the wheel by `notches` (positive scrolls the page down), 120 angle units per notch."""
    delta = QPoint(0, round(-120 * notches))
    event = QWheelEvent(QPointF(point), QPointF(widget.mapToGlobal(point)), QPoint(0, 0), delta,
                        Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False)
    QCoreApplication.sendEvent(widget, event)
