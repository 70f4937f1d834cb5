"""The Playground at 1366×768, the common laptop screen: the Test Cases editor fits its side column (no sideways
scrolling, every field whole) while the live page keeps half the window."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget

from studio.app.case_records import parse_locator
from studio.models.testcase import CaseStep, Grounding, TestCase
from tests.gui.support import close_studio, open_studio

pytestmark = [pytest.mark.gui]

BASE = "http://127.0.0.1:8765"
SHOTS = Path(os.environ.get("STUDIO_GUI_SHOTS", "/tmp/studio-shots"))


def wizard_case(number: int, steps: bool = True) -> TestCase:
    """A case as the agent writes one for the demo's disputes wizard: a long title, five-column steps."""
    return TestCase(
        id=f"tc-{number:08x}", title=f"Disputes wizard step {number} refuses an empty reason and keeps the amount",
        steps=[CaseStep(action="navigate", url="/disputes/new"),
               CaseStep(action="fill", target="Reason", data="Charged twice",
                        locator=parse_locator('page.get_by_label("Reason")')),
               CaseStep(action="click", target="Next", 
                        locator=parse_locator('page.get_by_role("button", name="Next")'),
                        expected="The amount step opens")] if steps else [],
        expected_results=["The wizard shows 'Step 2 of 3'"], priority="P1", status="active", origin="agent",
        gap_type="state transitions", updated_at=time.time() * 1000,
        grounding=Grounding(page_url=BASE + "/disputes/new"))


async def settle() -> None:
    await asyncio.sleep(0.3)


def shot(window: QWidget, name: str) -> Path:
    """The whole window as a PNG (for looking at after the run)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    window.repaint()
    assert window.grab().save(str(path)), path
    return path


def wholly_visible(widget: QWidget, within: QWidget) -> bool:
    """Whether all of `widget` shows inside `within` (no part clipped by a scroll area, a dock or the window)."""
    top_left = widget.mapTo(within, QPoint(0, 0))
    shown = within.rect().contains(QRect(top_left, widget.size()))
    return shown and widget.visibleRegion().boundingRect().size() == widget.size()


def test_the_case_editor_fits_a_laptop_side_column_and_the_page_keeps_half(qloop, tmp_path):
    services, window = open_studio(tmp_path, "laptop.studio")
    try:
        project = services.project.project
        for number in range(1, 9):
            project.cases.save_case(wizard_case(number), "agent", "written")
        services.cases.reload()
        window.resize(1366, 768)
        window.workspaces.switch("Playground")
        dock = window.docks["cases"]
        dock.show()
        dock.raise_()
        editor = window.playground.editor
        assert editor.select_case("tc-00000002")
        qloop.run_until_complete(settle())
        shot(window, "playground-case-editor-1366x768")

        assert window.size().toTuple() == (1366, 768)
        assert editor.width() <= dock.width(), (editor.width(), dock.width())  # the panel is not clipped
        form_area = editor.form.parentWidget().parentWidget().parentWidget()  # the form's scroll area
        assert not form_area.horizontalScrollBar().isVisible()
        assert not editor.form.steps.horizontalScrollBar().isVisible()
        form = editor.form
        for field in (form.title, form.suite, form.priority, form.status, form.gap_type, form.tags):
            assert wholly_visible(field, dock), field
        # every column of the steps table shows in the table
        header = form.steps.horizontalHeader()
        assert header.length() <= form.steps.viewport().width(), (header.length(), form.steps.viewport().width())
        assert all(header.sectionSize(column) >= 40 for column in range(header.count()))
        # a long title wraps rather than losing its end
        item = editor.item_for("tc-00000002")
        rect = editor.tree.visualItemRect(item)
        metrics = editor.tree.fontMetrics()
        assert rect.height() > metrics.height() * 1.5 or metrics.horizontalAdvance(item.text(0)) < rect.width()
        # the live page keeps at least half the window's width
        page = window.live_view
        assert page.width() >= window.width() / 2, (page.width(), window.width())
    finally:
        qloop.run_until_complete(close_studio(services, window))


def test_export_writes_every_selected_case_one_test_file_each(qloop, tmp_path):
    services, window = open_studio(tmp_path, "export.studio")
    try:
        project = services.project.project
        for number in range(1, 9):
            project.cases.save_case(wizard_case(number), "agent", "written")
        project.cases.save_case(wizard_case(9, steps=False), "tester", "a draft")
        services.cases.reload()
        window.resize(1366, 768)
        front, editor = window.playground, window.playground.editor
        ids = [f"tc-{number:08x}" for number in range(1, 10)]
        editor.select_case(ids[0])
        for case_id in ids:
            editor.item_for(case_id).setSelected(True)
        front.export_action.trigger()
        dialog = front.export_dialog
        assert dialog is not None and dialog.isVisible()
        qloop.run_until_complete(settle())
        shoot_dialog = SHOTS / "playground-export-9-cases.png"
        assert dialog.grab().save(str(shoot_dialog))

        # it says how many and which cases it will write, and which it leaves out
        assert dialog.windowTitle() == "Export 9 cases as Playwright tests"
        assert dialog.summary.text() == ("8 cases will be written, one test file each, into one project (pick one to "
                                         "preview it). 1 case without steps is left out: tc-00000009.")
        assert dialog.list.count() == 9 and dialog.list.isVisible()
        assert dialog.list.item(8).text().endswith("— no steps yet: left out")
        # each case previews
        first = dialog.preview.toPlainText()
        assert "Disputes wizard step 1 " in first and "get_by_label" in first
        dialog.list.setCurrentRow(4)
        fifth = dialog.preview.toPlainText()
        assert "Disputes wizard step 5 " in fifth and fifth != first
        assert dialog.status.text().startswith("Previewing 'Disputes wizard step 5 refuses")
        assert dialog.export_button.isEnabled()

        dialog.folder.setText(str(tmp_path / "exported"))
        dialog.export_button.click()
        result = dialog.result_info
        assert result is not None and dialog.written == 8
        assert len(result.test_files) == 8 and all(path.is_file() for path in result.test_files)
        for path in result.test_files:
            compile(path.read_text(), str(path), "exec")
        assert sorted(path.name for path in (tmp_path / "exported").glob("test_*.py")) == sorted(
            path.name for path in result.test_files)
        said = window.message_bar.label.text()
        assert said.startswith("Wrote 8 tests, one file per case (") and str(result.out) in said, said
        assert "and 6 more" in said and "Run them with pytest" in said
        shot(window, "playground-export-written")
    finally:
        qloop.run_until_complete(close_studio(services, window))


def test_export_of_one_case_names_it_and_writes_its_file(qloop, tmp_path):
    services, window = open_studio(tmp_path, "one.studio")
    try:
        services.project.project.cases.save_case(wizard_case(1), "agent", "written")
        services.cases.reload()
        front = window.playground
        assert front.editor.select_case("tc-00000001")
        front.export_action.trigger()
        dialog = front.export_dialog
        assert not dialog.list.isVisible() and not dialog.title.isReadOnly()
        assert dialog.summary.text() == ("'Disputes wizard step 1 refuses an empty reason and keeps the amount' "
                                         "(tc-00000001) will be written as one test file.")
        dialog.title.setText("Step 1 refuses an empty reason")
        dialog.folder.setText(str(tmp_path / "one"))
        dialog.export_button.click()
        result = dialog.result_info
        assert result is not None and len(result.test_files) == 1
        assert "Step 1 refuses an empty reason" in result.test_file.read_text()
        assert window.message_bar.label.text().startswith(f"Wrote {result.test_file}. Run it with pytest")
    finally:
        qloop.run_until_complete(close_studio(services, window))
