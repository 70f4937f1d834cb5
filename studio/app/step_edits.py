"""Undoable edits of the recorded steps: delete and move, on one QUndoStack per session.

The Steps dock acts through this; the project file does the work (studio.store.step_edits), one transaction per
edit, so what the dock shows, an export and a reopened project always agree. Commands name steps by position:
steps recorded after an edit are appended behind the last one, so undoing an earlier edit still fits around them,
and the stack is kept while recording. It is cleared when the session or the project changes, because its
positions belong to one session of one file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from studio.app.project_service import ProjectService
from studio.store.step_edits import StepEdits, StoredStep, inverse, moved


def steps_word(count: int) -> str:
    return "1 step" if count == 1 else f"{count} steps"


class _StepCommand(QUndoCommand):
    """An edit of one session's steps; after each do and undo, `editor.edited` says which positions to select."""

    def __init__(self, editor: StepEditor, session_id: str, text: str) -> None:
        super().__init__(text)
        self.editor = editor
        self.session_id = session_id

    def _edits(self) -> StepEdits:
        project = self.editor.project.project
        if project is None:
            raise RuntimeError("no project is open")  # never: the stack is cleared when the project closes
        return project.step_edits()


class DeleteSteps(_StepCommand):
    def __init__(self, editor: StepEditor, session_id: str, positions: Sequence[int]) -> None:
        super().__init__(editor, session_id, f"Delete {steps_word(len(positions))}")
        self.positions = sorted(set(positions))
        self.removed: list[StoredStep] = []

    def redo(self) -> None:
        self.removed = self._edits().delete(self.session_id, self.positions)
        # Select the step that took the first deleted one's place, so Delete again goes on down the list.
        self.editor.edited.emit([self.positions[0]])

    def undo(self) -> None:
        self._edits().restore(self.session_id, self.removed)
        self.editor.edited.emit(list(self.positions))


class MoveSteps(_StepCommand):
    def __init__(self, editor: StepEditor, session_id: str, order: list[int], selected: Sequence[int],
                 down: bool) -> None:
        super().__init__(editor, session_id, f"Move {steps_word(len(selected))} {'down' if down else 'up'}")
        self.order = order
        self.before = sorted(selected)
        self.after = sorted(order.index(old) for old in selected)

    def redo(self) -> None:
        self._edits().reorder(self.session_id, self.order)
        self.editor.edited.emit(self.after)

    def undo(self) -> None:
        self._edits().reorder(self.session_id, inverse(self.order))
        self.editor.edited.emit(self.before)


class StepEditor(QObject):
    """Deletes and moves the current session's steps as undoable commands."""

    edited = Signal(list)  # the positions to select after an edit, its undo or its redo

    def __init__(self, project: ProjectService, session_id: Callable[[], str | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.session_id = session_id
        self.stack = QUndoStack(self)
        project.projectChanged.connect(lambda _path: self.stack.clear())

    def delete(self, indexes: Sequence[int]) -> bool:
        """Delete the steps with these indexes (an undoable command); False when there is nothing to delete."""
        session_id, positions = self._positions(indexes)
        if session_id is None or not positions:
            return False
        self.stack.push(DeleteSteps(self, session_id, positions))
        return True

    def delete_last(self) -> bool:
        _session_id, known = self._session()
        return self.delete(known[-1:])

    def move(self, indexes: Sequence[int], down: bool) -> bool:
        """Move the steps with these indexes one place up or down; False when none can move (already at the edge)."""
        session_id, positions = self._positions(indexes)
        order = moved(len(self._session()[1]), positions, down) if positions else None
        if session_id is None or order is None:
            return False
        self.stack.push(MoveSteps(self, session_id, order, positions, down))
        return True

    def _positions(self, indexes: Sequence[int]) -> tuple[str | None, list[int]]:
        """Steps' indexes as their positions in the session: the same once edited (edits renumber 0..n-1), not
        always before (a recording with gaps)."""
        session_id, known = self._session()
        wanted = set(indexes)
        return session_id, [position for position, index in enumerate(known) if index in wanted]

    def _session(self) -> tuple[str | None, list[int]]:
        """The session and its steps' indexes in order (damaged rows too: positions count rows, not shown steps)."""
        project, session_id = self.project.project, self.session_id()
        if project is None or session_id is None:
            return None, []
        return session_id, project.step_edits().indexes(session_id)
