"""Asking the tester from async code without a nested modal loop: a message box opened with open(), awaited."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog, QMessageBox, QPushButton, QWidget


def present(dialog: QDialog) -> None:
    """Open `dialog` window-modal, without a nested loop, in front of the window and with the keyboard: a dialog
    opened while the tester works in the page (a job pausing with a question) otherwise stayed behind it."""
    dialog.open()
    dialog.raise_()
    dialog.activateWindow()


async def ask_choice(parent: QWidget, title: str, text: str, choices: list[str], default: str,
                     escape: str | None = None) -> str | None:
    """Show `text` with one button per choice; the chosen text. Enter picks `default`, Esc `escape` (the default
    when not given); None only when the box went away unanswered."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent)
    buttons = {box.addButton(choice, QMessageBox.ButtonRole.AcceptRole): choice for choice in choices}
    for button, choice in buttons.items():
        if choice == default:
            box.setDefaultButton(button)
        if choice == (escape or default):
            box.setEscapeButton(button)
    answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def finished(_result: int) -> None:
        if not answer.done():
            clicked = box.clickedButton()  # one of our push buttons, or None when the box closed otherwise
            answer.set_result(buttons.get(clicked) if isinstance(clicked, QPushButton) else None)

    box.finished.connect(finished)
    present(box)  # not exec(): a nested modal loop inside a coroutine breaks qasync
    try:
        return await answer
    finally:
        box.deleteLater()
