"""The Model part of Settings: an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio), the model name
and the API key. The key goes to the system keyring (or comes from $OPENAI_API_KEY), never into the settings
file or the project; with no endpoint, every job runs on the offline heuristics."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QWidget

from studio.llm.errors import KeyStorageUnavailable
from studio.llm.keys import ENV_VAR, resolve_api_key, store_api_key
from studio.models.llm import LLMSettings


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

    def __init__(self, settings: LLMSettings, parent: QWidget | None = None) -> None:
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

    def _update_status(self, text: str) -> None:
        self.status.setText(key_status(LLMSettings(base_url=text.strip() or None)))

    def apply(self, settings: LLMSettings) -> str | None:
        """Copy the fields into `settings`; store a typed key. Returns a sentence when the key could not be kept."""
        settings.base_url = self.base_url.text().strip() or None
        settings.model = self.model.text().strip() or LLMSettings().model
        settings.timeout_s = self.timeout.value()
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
