"""The Model part of Settings: an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio), the model name
and the API key; the job budgets (steps, seconds, tokens, dollars) and the price table that turns tokens into
dollars. The key goes to the system keyring (or comes from $OPENAI_API_KEY), never into the settings file or the
project; with no endpoint, every job runs on the offline heuristics."""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from studio.llm.errors import KeyStorageUnavailable
from studio.llm.keys import ENV_VAR, resolve_api_key, store_api_key
from studio.models.llm import JobBudget, JobBudgets, LLMSettings, ModelPrice


def key_status(settings: LLMSettings) -> str:
    """Where the key for this endpoint comes from, in words (never the key itself)."""
    if not settings.base_url:
        return "No endpoint: jobs use the offline heuristics (no key needed)."
    if os.environ.get(ENV_VAR, "").strip():
        return f"Key: from the {ENV_VAR} environment variable."
    if resolve_api_key(settings):
        return "Key: stored in the system keyring for this endpoint."
    return "Key: none (fine for local servers such as Ollama or LM Studio)."


class ModelSettingsBox(QGroupBox):
    """Edits LLMSettings; `apply(settings)` writes them back and stores a newly typed key in the keyring."""

    def __init__(self, settings: LLMSettings, parent: QWidget | None = None,
                 budgets: JobBudgets | None = None) -> None:
        super().__init__("Model (optional)", parent)
        form = QFormLayout(self)
        self.base_url = QLineEdit(settings.base_url or "", self)
        self.base_url.setPlaceholderText("None: offline heuristics · e.g. http://127.0.0.1:11434/v1 (Ollama)")
        self.base_url.setToolTip("Any OpenAI-compatible endpoint: OpenAI, Ollama, vLLM, LM Studio.")
        form.addRow("Endpoint:", self.base_url)
        self.model = QLineEdit(settings.model, self)
        form.addRow("Model:", self.model)
        self.key = QLineEdit(self)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText("Leave empty to keep the current key")
        self.key.setToolTip("Stored in the system keyring, never in the settings file or a project.")
        form.addRow("API key:", self.key)
        self.timeout = QDoubleSpinBox(self, minimum=1, maximum=600, value=settings.timeout_s, suffix=" s")
        form.addRow("Timeout per call:", self.timeout)
        self.status = QLabel(key_status(settings), self)
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color: gray")
        form.addRow(self.status)
        self.base_url.textChanged.connect(self._update_status)
        self.budgets = JobBudgetGrid(budgets or JobBudgets(), self)
        form.addRow("Job budget:", self.budgets)
        self.prices = PriceTableEditor(settings.prices, self)
        form.addRow("Prices:", self.prices)

    def _update_status(self, text: str) -> None:
        self.status.setText(key_status(LLMSettings(base_url=text.strip() or None)))

    def apply(self, settings: LLMSettings) -> str | None:
        """Copy the fields into `settings`; store a typed key. Returns a sentence when the key could not be kept."""
        settings.base_url = self.base_url.text().strip() or None
        settings.model = self.model.text().strip() or LLMSettings().model
        settings.timeout_s = self.timeout.value()
        settings.prices = self.prices.prices()
        key = self.key.text().strip()
        self.key.clear()
        if not key:
            return None
        if not settings.base_url:
            return "The API key was not kept: set an endpoint first (the key is stored per endpoint)."
        try:
            store_api_key(settings.base_url, key)
        except KeyStorageUnavailable as error:
            return str(error)
        return None


class JobBudgetGrid(QWidget):
    """The limits of the preflight and of the playground agent: steps, seconds, tokens and dollars per job."""

    COLUMNS = (("max_steps", "Steps"), ("max_seconds", "Seconds"), ("max_tokens", "Tokens"), ("max_cost_usd", "Cost $"))

    def __init__(self, budgets: JobBudgets, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for column, (_field, title) in enumerate(self.COLUMNS, start=1):
            grid.addWidget(QLabel(title, self), 0, column)
        self.boxes: dict[str, dict[str, QSpinBox | QDoubleSpinBox]] = {}
        for row, (stage, title) in enumerate((("preflight", "Preflight"), ("main", "Agent")), start=1):
            grid.addWidget(QLabel(title, self), row, 0)
            budget: JobBudget = getattr(budgets, stage)
            boxes: dict[str, QSpinBox | QDoubleSpinBox] = {
                "max_steps": QSpinBox(self, minimum=1, maximum=10_000, value=budget.max_steps),
                "max_seconds": QDoubleSpinBox(self, minimum=1, maximum=86_400, decimals=0, value=budget.max_seconds),
                "max_tokens": QSpinBox(self, minimum=1, maximum=100_000_000, singleStep=1000, value=budget.max_tokens),
                "max_cost_usd": QDoubleSpinBox(self, minimum=0.01, maximum=10_000, decimals=2, singleStep=0.05,
                                               value=budget.max_cost_usd),
            }
            for column, (field, label) in enumerate(self.COLUMNS, start=1):
                boxes[field].setAccessibleName(f"{title} {label.lower()}")
                grid.addWidget(boxes[field], row, column)
            self.boxes[stage] = boxes
        self.setToolTip("Reaching any limit stops the job cleanly and keeps what it found. On the command line, "
                        "--max-steps, --max-seconds, --max-tokens and --max-cost override these for one run.")

    def budgets(self) -> JobBudgets:
        return JobBudgets(**{stage: JobBudget.model_validate({field: box.value() for field, box in boxes.items()})
                             for stage, boxes in self.boxes.items()})


class PriceTableEditor(QTableWidget):
    """Dollars per million tokens, by model; an empty last row adds a model, a row with no name is dropped."""

    def __init__(self, prices: dict[str, ModelPrice], parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setHorizontalHeaderLabels(["Model", "Input $ / 1M", "Output $ / 1M"])
        for column, tip in ((1, "Dollars per million prompt tokens"), (2, "Dollars per million completion tokens")):
            header_item = self.horizontalHeaderItem(column)  # made by setHorizontalHeaderLabels
            if header_item is not None:
                header_item.setToolTip(tip)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):  # price columns as wide as their headers, never clipped
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.verticalHeader().hide()
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for name, price in prices.items():
            self.add_row(name, price.input_per_million, price.output_per_million)
        self.add_row()
        self.setMinimumHeight(140)
        self.itemChanged.connect(self._keep_an_empty_row)

    def add_row(self, name: str = "", input_price: float | None = None, output_price: float | None = None) -> None:
        row = self.rowCount()
        self.insertRow(row)
        prices = ("" if price is None else f"{price:g}" for price in (input_price, output_price))
        for column, text in enumerate((name, *prices)):
            self.setItem(row, column, QTableWidgetItem(text))

    def _keep_an_empty_row(self, _item: QTableWidgetItem) -> None:
        last = self.rowCount() - 1
        name = self.item(last, 0) if last >= 0 else None
        if last < 0 or (name and name.text().strip()):
            self.blockSignals(True)
            self.add_row()
            self.blockSignals(False)

    def prices(self) -> dict[str, ModelPrice]:
        """The table as prices; a row with no name is dropped, an unreadable number counts as 0."""
        found: dict[str, ModelPrice] = {}
        for row in range(self.rowCount()):
            item = self.item(row, 0)
            name = (item.text() if item else "").strip()
            if not name:
                continue
            found[name] = ModelPrice(input_per_million=self._number(row, 1), output_per_million=self._number(row, 2))
        return found

    def _number(self, row: int, column: int) -> float:
        item = self.item(row, column)
        try:
            return max(0.0, float((item.text() if item else "").strip().lstrip("$") or 0))
        except ValueError:
            return 0.0
