"""Exporting test cases as Playwright tests: the race export dialog, with a case chooser above its preview."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from studio.models.recording import RecordedStep
from studio.models.testcase import TestCase
from studio.ui.export_dialog import ExportDialog

NO_STEPS = "This case has no steps yet. Add them in the Steps tab of the case form, save, then export it."


class CaseExportDialog(ExportDialog):
    """Previews and writes one case at a time; with several selected cases a combo box picks which."""

    def __init__(self, cases: list[tuple[TestCase, list[RecordedStep]]], base_folder: Path,
                 parent: QWidget | None = None) -> None:
        self.cases = cases
        self.shown = 0  # the index of the case previewed
        super().__init__(cases[0][1], base_folder, parent)
        self.chooser = QComboBox(self)
        self.chooser.setAccessibleName("Case to export")
        for case, _steps in cases:
            self.chooser.addItem(f"{case.title} ({case.id})", case.id)
        label = QLabel("Case", self)
        row = QHBoxLayout()
        row.addWidget(label)
        row.addWidget(self.chooser, 1)
        self.main_layout.insertLayout(0, row)
        for widget in (label, self.chooser):  # one case needs no chooser
            widget.setVisible(len(cases) > 1)
        self.chooser.currentIndexChanged.connect(self.show_case)
        self.show_case(0)

    def folder_name(self) -> str:
        """The case's id and the start of its title, e.g. tc-1a2b3c4d-empty-step-1-is-refused."""
        case = self.cases[self.shown][0]
        return f"{case.id}-{case.title.lower()}"[:48]

    def show_case(self, index: int) -> None:
        case, steps = self.cases[index]
        self.shown, self.steps = index, steps
        self.setWindowTitle(f"Export '{case.title}' as a Playwright test")
        self.title.setText(case.title)
        self.folder.setText("")
        self._language_changed()
        self.status.setText(f"{len(steps)} test steps from the {len(case.steps)} steps of case {case.id}. The folder "
                            "must be new, empty, or an earlier export.")
        self.refresh_preview()

    def refresh_preview(self) -> bool:
        if not self.steps:  # the exporter's own sentence speaks of recording a session
            comment = "#" if self.lang == "python" else "//"
            self.preview.show_code(f"{comment} {NO_STEPS}", self.lang)
            self.export_button.setEnabled(False)
            return False
        return super().refresh_preview()
