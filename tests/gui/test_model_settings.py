"""Settings › Model: the endpoint and model go into the settings, a typed key goes to the system keyring (never
the settings file), a machine without a keyring gets a sentence; and a job started from the studio uses the
configured model — the real openai client on a scripted server — recording its calls in the project."""

from __future__ import annotations

import json

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from studio.llm.keys import KEYRING_SERVICE
from studio.settings import StudioSettings, load_settings, save_settings
from studio.ui.dialogs import SettingsDialog
from tests.gui.support import NextSignal, close_studio, open_studio, until
from tests.gui.test_playground_gui import question_dialog, start_new_cases
from tests.llm.scripted_server import ScriptedLLM, json_reply

pytestmark = [pytest.mark.gui]

KEY = "sk-test-settings-DO-NOT-LEAK"


class MemoryKeyring(KeyringBackend):
    """An in-memory keyring (this machine has no Secret Service); keyring's own API stores through it."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.entries = {}

    def get_password(self, service, username):
        return self.entries.get((service, username))

    def set_password(self, service, username, password):
        self.entries[(service, username)] = password

    def delete_password(self, service, username):
        self.entries.pop((service, username))


@pytest.fixture
def memory_keyring(monkeypatch):
    previous = keyring.get_keyring()
    store = MemoryKeyring()
    keyring.set_keyring(store)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield store
    keyring.set_keyring(previous)


def test_the_endpoint_goes_to_settings_and_the_key_to_the_keyring(qtbot, memory_keyring, tmp_path):
    dialog = SettingsDialog(StudioSettings())
    qtbot.addWidget(dialog)
    box = dialog.model_box
    assert "offline heuristics" in box.status.text()
    box.base_url.setText("http://127.0.0.1:11434/v1")
    box.model.setText("llama3.1")
    box.key.setText(KEY)
    settings = dialog.result_settings()
    assert dialog.key_problem is None
    assert (settings.llm.base_url, settings.llm.model) == ("http://127.0.0.1:11434/v1", "llama3.1")
    assert list(memory_keyring.entries.values()) == [KEY]
    assert next(iter(memory_keyring.entries))[0] == KEYRING_SERVICE
    save_settings(settings, tmp_path / "settings.json")
    assert KEY not in (tmp_path / "settings.json").read_text()
    assert load_settings(tmp_path / "settings.json").llm.model == "llama3.1"
    # reopened, the dialog says where the key is and never shows it
    again = SettingsDialog(settings)
    qtbot.addWidget(again)
    assert "system keyring" in again.model_box.status.text() and again.model_box.key.text() == ""


def test_no_keyring_on_this_machine_is_said_not_hidden(qtbot, monkeypatch):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        dialog = SettingsDialog(StudioSettings())
        qtbot.addWidget(dialog)
        dialog.model_box.base_url.setText("https://api.openai.com/v1")
        dialog.model_box.key.setText(KEY)
        settings = dialog.result_settings()
        assert "OPENAI_API_KEY" in dialog.key_problem and KEY not in dialog.key_problem
        assert settings.llm.base_url == "https://api.openai.com/v1"  # the rest is kept
    finally:
        keyring.set_keyring(previous)


@pytest.mark.browser
@pytest.mark.timeout(120)
@pytest.mark.slow
def test_a_job_from_the_studio_uses_the_configured_model(qloop, demo, tmp_path, memory_keyring):
    user = demo.create_user()

    async def scenario():
        with ScriptedLLM() as llm:
            llm.queue(json_reply({"cases": [{"index": 0, "title": "Step 1 refuses an empty dispute form",
                                             "expected_results": ["Each required field says it is required."]}]}))
            services, window = open_studio(tmp_path)
            services.runtime.settings.llm.base_url = llm.base_url
            try:
                front = await start_new_cases(services, window, demo)
                dialog = await question_dialog(front)
                dialog.boxes[0].set_value(user["email"])
                dialog.boxes[1].set_value(user["password"])
                service = services.playground
                finished = NextSignal(service.finished)
                dialog.answer_button.click()
                job = await finished.wait(90, what="the job to complete")
                assert job.status == "completed" and not service.running, job.message
                project = services.project.project
                titles = [c.title for c in project.cases.cases()]
                assert titles[0] == "Step 1 refuses an empty dispute form"
                calls = project.llm_calls.list(service.job.id)
                assert [(c.purpose, c.outcome) for c in calls] == [("word test cases", "ok")]
                assert json.dumps(service.job.result).find("reworded") >= 0
            finally:
                await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_job_budgets_and_prices_are_edited_in_the_model_panel_and_kept(qtbot, tmp_path):
    from studio.models.llm import JobBudgets

    dialog = SettingsDialog(StudioSettings())
    qtbot.addWidget(dialog)
    grid, table = dialog.model_box.budgets, dialog.model_box.prices
    assert grid.boxes["preflight"]["max_steps"].value() == JobBudgets().preflight.max_steps  # the defaults shown
    grid.boxes["preflight"]["max_steps"].setValue(12)
    grid.boxes["main"]["max_cost_usd"].setValue(1.25)
    # the price table: change a price, add a model in the empty last row
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "gpt-4o-mini")
    table.item(row, 2).setText("0.9")
    last = table.rowCount() - 1
    table.item(last, 0).setText("llama3.1")
    table.item(last, 1).setText("0.05")
    assert table.rowCount() == last + 2  # a new empty row for the next model
    settings = dialog.result_settings()
    save_settings(settings, tmp_path / "settings.json")
    loaded = load_settings(tmp_path / "settings.json")
    assert loaded.budgets.preflight.max_steps == 12 and loaded.budgets.main.max_cost_usd == 1.25
    assert loaded.budgets.main.max_steps == JobBudgets().main.max_steps  # untouched limits keep their defaults
    assert loaded.llm.prices["gpt-4o-mini"].output_per_million == 0.9
    assert loaded.llm.prices["llama3.1"].input_per_million == 0.05
    again = SettingsDialog(loaded)
    qtbot.addWidget(again)
    assert again.model_box.budgets.boxes["preflight"]["max_steps"].value() == 12
    assert "llama3.1" in again.model_box.prices.prices()
    # The lowest a box goes is still a budget (a zero token or dollar budget would stop every job at once).
    for box in again.model_box.budgets.boxes["main"].values():
        box.setValue(0)
    lowest = again.result_settings().budgets.main
    assert lowest.max_tokens >= 1 and lowest.max_cost_usd > 0 and lowest.max_steps >= 1
