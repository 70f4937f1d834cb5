"""Exporting test cases as Playwright tests: every selected case, one test file each in one project (as
`studio export --cases` writes them), listed above the preview so the tester sees what will be written before
pressing Export and can preview each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QWidget

from studio import export as exporter
from studio.export.errors import ExportError
from studio.models.testcase import TestCase
from studio.ui.export_dialog import ExportDialog

NO_STEPS = "This case has no steps yet. Add them in the Steps tab of the case form, save, then export it."
LEFT_OUT = "no steps yet: left out"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """'1 case', '2 cases'."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def written_sentence(result: exporter.ExportResult, cases: int) -> str:
    """What an export wrote, for the message bar: how many tests, their files, where, and how to run them."""
    run = "pytest" if result.language == "python" else "npx playwright test"
    env = f" Set {', '.join(result.env_vars)} first." if result.env_vars else ""
    files = result.test_files or [result.test_file]
    if len(files) == 1:
        return f"Wrote {result.test_file}. Run it with {run} from {result.out}.{env}"
    names = [path.name for path in files]
    listed = ", ".join(names) if len(names) <= 3 else f"{', '.join(names[:2])} and {len(names) - 2} more"
    return (f"Wrote {counted(cases, 'test')}, one file per case ({listed}), to {result.out}. Run them with {run} "
            f"from there.{env}")


class CaseExportDialog(ExportDialog):
    """Lists the cases that will be written (one test file each), previews the one picked in the list, and writes
    them all into one project. Cases without steps are listed too, greyed, and left out."""

    def __init__(self, cases: list[TestCase], base_url_of: Callable[[TestCase], str], base_folder: Path,
                 parent: QWidget | None = None) -> None:
        self.cases = cases
        self.base_url_of = base_url_of
        self.writable = [case for case in cases if case.steps]
        self.shown = 0  # the index, in `cases`, of the case previewed
        self.written = 0  # how many cases the last export wrote
        super().__init__(exporter.case_steps(cases[0], base_url_of(cases[0])), base_folder, parent)
        self.setWindowTitle(self._window_title())
        self.summary = QLabel(self._summary(), self)
        self.summary.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setAccessibleName("Cases to export")
        self.list.setToolTip("Every case listed in black is written, one test file each; pick one to preview it")
        for case in cases:
            item = QListWidgetItem(f"{case.title}  ({case.id})" if case.steps else
                                   f"{case.title}  ({case.id}) — {LEFT_OUT}", self.list)
            item.setToolTip(f"{case.title}\n{counted(len(case.steps), 'step')}")
            if not case.steps:
                item.setForeground(QBrush(QColor("#9ca3af")))
        self.list.setMaximumHeight(self.list.sizeHintForRow(0) * min(len(cases), 6) + 6)
        self.main_layout.insertWidget(0, self.summary)
        self.main_layout.insertWidget(1, self.list)
        several = len(cases) > 1
        self.list.setVisible(several)  # one case needs no list: the summary names it
        self.title.setReadOnly(several)
        self.title.setToolTip("Each test is titled by its case" if several else "The test's title")
        self.list.currentRowChanged.connect(self.show_case)
        self.list.setCurrentRow(0)
        self.show_case(0)

    def _window_title(self) -> str:
        if len(self.cases) == 1:
            return f"Export '{self.cases[0].title}' as a Playwright test"
        return f"Export {counted(len(self.cases), 'case')} as Playwright tests"

    def _summary(self) -> str:
        """How many cases will be written, and which are left out (a case without steps gives no test)."""
        left = [case for case in self.cases if not case.steps]
        if not self.writable:
            return ("Nothing to write: " + ("this case has" if len(self.cases) == 1 else "none of these cases has")
                    + " steps yet. Add them in the Steps tab of the case form, save, then export.")
        if len(self.cases) == 1:
            return f"'{self.cases[0].title}' ({self.cases[0].id}) will be written as one test file."
        sentence = (f"{counted(len(self.writable), 'case')} will be written, one test file each, into one "
                    f"project{' (pick one to preview it)' if len(self.writable) > 1 else ''}.")
        if left:
            sentence += (f" {counted(len(left), 'case')} without steps {'is' if len(left) == 1 else 'are'} left out: "
                         f"{', '.join(case.id for case in left)}.")
        return sentence

    def folder_name(self) -> str:
        """One case: its id and the start of its title (tc-1a2b3c4d-empty-step-1-is-refused); several: their count."""
        if len(self.cases) > 1:
            return f"{len(self.writable)}-cases"
        case = self.cases[0]
        return f"{case.id}-{case.title.lower()}"[:48]

    def show_case(self, index: int) -> None:
        if not 0 <= index < len(self.cases):
            return
        case = self.cases[index]
        self.shown = index
        self.steps = exporter.case_steps(case, self.base_url_of(case))
        if len(self.cases) > 1 or not self.title.text():
            self.title.blockSignals(True)
            self.title.setText(case.title)
            self.title.blockSignals(False)
        self._language_changed()
        preview = f"Previewing '{case.title}' ({case.id}): {counted(len(self.steps), 'test step')} from its " \
                  f"{counted(len(case.steps), 'step')}." if len(self.cases) > 1 else \
                  f"{counted(len(self.steps), 'test step')} from the {counted(len(case.steps), 'step')} of case {case.id}."
        self.status.setText(f"{preview} The folder must be new, empty, or an earlier export.")

    def refresh_preview(self) -> bool:
        if not self.steps:  # the exporter's own sentence speaks of recording a session
            comment = "#" if self.lang == "python" else "//"
            self.preview.show_code(f"{comment} {NO_STEPS}", self.lang)
            self.export_button.setEnabled(bool(getattr(self, "writable", [])))
            return False
        shown = super().refresh_preview()
        if not shown and len(getattr(self, "cases", ())) > 1:
            self.export_button.setEnabled(True)  # export_cases names the case it cannot write
        return shown

    def export(self) -> exporter.ExportResult | None:
        """Write every case that has steps, one test file each; a single case takes the title typed here."""
        folder = self.folder.text().strip()
        if not folder:
            self.status.setText("Choose a folder for the test project first.")
            return None
        chosen = self.writable
        typed = self.title.text().strip()
        if len(self.cases) == 1 and chosen and typed and typed != chosen[0].title:
            chosen = [chosen[0].model_copy(update={"title": typed})]
        if not chosen:
            self.status.setText(NO_STEPS)
            return None
        try:
            result = exporter.export_cases(chosen, self.base_url_of, self.lang, Path(folder).expanduser())
        except ExportError as error:
            self.status.setText(str(error))
            return None
        self.result_info, self.written = result, len(chosen)
        self.status.setText(written_sentence(result, len(chosen)))
        self.exported.emit(result)
        self.accept()
        return result
