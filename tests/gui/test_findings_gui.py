"""Context's Findings list as a tester uses it: a project whose New Cases job reported two suspected defects (and wrote
their expected-behaviour cases) is opened; Context shows both with kind, status, summary, page, case and evidence;
Confirm keeps the case as a known defect, Dismiss removes its case, Ctrl+Z takes a decision back — each in the
project file — and after the project is closed and opened again the decisions are still there. A real window on a
real project file (no browser: nothing here acts on a page). The Context dock is saved as /tmp/shots/findings.png."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.store.project import ProjectFile
from tests.gui.support import close_studio, open_studio, until
from tests.playground.defect_samples import reported_project

pytestmark = pytest.mark.gui

SHOTS = Path("/tmp/shots")


def statuses(path: Path, job_id: str) -> list[str]:
    with ProjectFile.open(path, writable=False) as project:
        return [finding.status for finding in project.jobs.get(job_id).context.findings]


@pytest.mark.timeout(120)
def test_findings_are_confirmed_dismissed_undone_and_kept_after_reopening(qloop, tmp_path):
    async def scenario():
        path = tmp_path / "findings.studio"
        project, job, cases = await reported_project(path)
        lost_case, counter_case = (case.id for case in cases if case.suspected_defect is not None)
        project.close()

        services, window = open_studio(tmp_path, "findings.studio", reopen=True)
        try:
            window.resize(1366, 768)
            context = window.playground.context
            panel = context.findings
            window.workspaces.switch("Playground")  # Context beside the page, as a tester reviews a job
            window.docks["context"].raise_()
            await until(lambda: len(panel.cards) == 2, what="the two findings in Context")
            assert panel.isVisibleTo(context)
            assert panel.title.text().startswith("<b>Findings (2)</b> · suspected defects: 2 to confirm")
            lost, counter = panel.card("gone after a reload"), panel.card("2 items left")
            assert "Data lost on reload" in lost.head.text() and "suspected — confirm or dismiss" in lost.head.text()
            assert "Page: http://127.0.0.1:9/" in lost.page.text()
            assert "Case: Errands: Added items are still there after a reload" in lost.page.text()
            assert "Reloaded the page: the list was empty." in lost.summary.toolTip()  # evidence on hover
            lost.evidence_button.click()  # and expanded
            assert lost.evidence.isVisible() and "• Typed 'Milk'" in lost.evidence.text()
            SHOTS.mkdir(parents=True, exist_ok=True)
            await asyncio.sleep(0.3)  # the wrapped labels take their heights at the dock's width
            window.docks["context"].repaint()
            assert window.docks["context"].grab().save(str(SHOTS / "findings.png"))

            lost.open_button.click()  # the case checking the expected behaviour, marked in the editor
            form = window.playground.editor.form
            await until(lambda: form.defect.isVisible(), what="the case's mark in the editor")
            assert form.defect.text().startswith("Fails today: suspected defect — confirm or dismiss. Items added")
            lost = panel.card("gone after a reload")
            lost.confirm_button.click()
            await until(lambda: statuses(path, job.id) == ["confirmed", "suspected"], what="the confirmation saved")
            assert services.cases.case(lost_case).suspected_defect.status == "confirmed"
            assert "Confirmed the suspected defect" in window.message_bar.label.text()
            counter = panel.card("2 items left")
            counter.dismiss_button.click()
            await until(lambda: statuses(path, job.id) == ["confirmed", "dismissed"], what="the dismissal saved")
            assert services.cases.case(counter_case) is None
            assert "confirmed defect" in panel.card("gone after a reload").head.text()
            assert not panel.card("gone after a reload").confirm_button.isEnabled()

            assert panel.undo_button.isEnabled() and "Dismiss" in panel.undo_button.toolTip()
            window.activateWindow()
            await until(window.isActiveWindow, what="the window to be active (shortcuts go to the active window)")
            panel.undo_button.setFocus()
            QTest.keyClick(panel.undo_button, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z in the list
            await until(lambda: statuses(path, job.id) == ["confirmed", "suspected"], what="the undo saved")
            assert services.cases.case(counter_case).suspected_defect.status == "suspected"  # the case is back
            panel.card("2 items left").dismiss_button.click()
            await until(lambda: statuses(path, job.id) == ["confirmed", "dismissed"], what="dismissed again")
        finally:
            await close_studio(services, window)

        services, window = open_studio(tmp_path, "findings.studio", reopen=True)
        try:
            panel = window.playground.context.findings
            await until(lambda: len(panel.cards) == 2, what="the findings after reopening")
            assert "confirmed defect" in panel.card("gone after a reload").head.text()
            assert "dismissed: not a defect" in panel.card("2 items left").head.text()
            assert panel.title.text().endswith("all decided")
            assert services.cases.case(counter_case) is None and services.cases.case(lost_case) is not None
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())

