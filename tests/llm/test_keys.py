"""API keys: environment first, then the system keyring; never in logs, errors, records, the project or repr()."""

from __future__ import annotations

import logging

import keyring
import keyring.backends.fail
import pytest
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError
from pydantic import BaseModel

from studio.llm import (
    Budget,
    KeyStorageUnavailable,
    LanguageModel,
    LLMError,
    forget_api_key,
    resolve_api_key,
    store_api_key,
)
from studio.llm.keys import KEYRING_SERVICE
from studio.models.llm import JobBudget, LLMSettings
from studio.store.project import ProjectFile
from tests.llm.conftest import FAKE_KEY
from tests.llm.scripted_server import error_reply, json_reply, text_reply


class MemoryKeyring(KeyringBackend):
    """An in-memory stand-in for the desktop's keyring service (no Secret Service runs headless here)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.entries.get((service, username))

    def set_password(self, service, username, password):
        self.entries[(service, username)] = password

    def delete_password(self, service, username):
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such entry")


class BrokenKeyring(MemoryKeyring):
    """A keyring whose service fails, as a locked or crashed Secret Service does."""

    def get_password(self, service, username):
        raise RuntimeError("org.freedesktop.DBus.Error.ServiceUnknown")

    def set_password(self, service, username, password):
        raise RuntimeError(f"could not store {password}")


@pytest.fixture
def no_env_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.fixture
def system_keyring():
    """Swap the process's keyring backend for the test and put the real one back afterwards."""
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    yield memory
    keyring.set_keyring(previous)


SETTINGS = LLMSettings(base_url="https://llm.example/v1")


def test_the_environment_wins_over_the_keyring(monkeypatch, system_keyring):
    system_keyring.set_password(KEYRING_SERVICE, "https://llm.example/v1", "sk-from-keyring")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")

    assert resolve_api_key(SETTINGS) == "sk-from-env"


def test_a_key_stored_for_an_endpoint_is_found_for_it_only(no_env_key, system_keyring):
    store_api_key("https://llm.example/v1/", FAKE_KEY)  # the trailing slash names the same endpoint

    assert resolve_api_key(SETTINGS) == FAKE_KEY
    assert resolve_api_key(LLMSettings(base_url="http://127.0.0.1:11434/v1")) is None
    assert forget_api_key("https://llm.example/v1") is True
    assert forget_api_key("https://llm.example/v1") is False
    assert resolve_api_key(SETTINGS) is None


def test_without_a_working_keyring_there_is_no_key_and_storing_says_what_to_do(no_env_key, caplog):
    previous = keyring.get_keyring()
    keyring.set_keyring(BrokenKeyring())
    try:
        with caplog.at_level(logging.DEBUG, logger="studio.llm.keys"):
            assert resolve_api_key(SETTINGS) is None
            with pytest.raises(KeyStorageUnavailable) as raised:
                store_api_key("https://llm.example/v1", FAKE_KEY)
    finally:
        keyring.set_keyring(previous)

    assert raised.value.sentence.endswith("Set the OPENAI_API_KEY environment variable before starting the "
                                          "studio instead.")
    assert raised.value.__cause__ is None and raised.value.__suppress_context__
    assert FAKE_KEY not in caplog.text and "RuntimeError" in caplog.text


def test_keyrings_headless_default_backend_gives_no_key_and_a_sentence(no_env_key):
    # keyring's own "fail" backend is what a headless Linux without a Secret Service gets (this machine's case).
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    try:
        assert resolve_api_key(SETTINGS) is None
        with pytest.raises(KeyStorageUnavailable):
            store_api_key("https://llm.example/v1", FAKE_KEY)
        assert forget_api_key("https://llm.example/v1") is False
    finally:
        keyring.set_keyring(previous)


def test_offline_is_the_default_no_endpoint_no_model():
    assert LanguageModel.from_settings(LLMSettings()) is None
    assert LanguageModel.from_settings(LLMSettings(base_url="")) is None
    with pytest.raises(ValueError):
        LanguageModel(LLMSettings())


class Answer(BaseModel):
    """A one-field answer."""

    value: int


async def test_the_key_is_sent_only_as_the_bearer_token(scripted_llm, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    for name in ("", "openai", "httpx2", "httpcore2", "studio"):
        caplog.set_level(logging.DEBUG, logger=name or None)
    settings = LLMSettings(base_url=scripted_llm.base_url, timeout_s=1.0, max_retries=1)
    # The server below echoes the key in an error message, as a careless proxy might.
    scripted_llm.queue(text_reply("{"), json_reply({"value": 1}), error_reply(500), json_reply({"value": 2}),
                       error_reply(400, f"Invalid request for key {FAKE_KEY}"))
    errors: list[LLMError] = []
    path = tmp_path / "keys.studio"
    with ProjectFile.create(path) as project:
        model = LanguageModel.from_settings(settings, sink=project.llm_calls.add, backoff_base_s=0.01)
        assert model is not None
        budget = Budget(JobBudget())
        assert (await model.structured("one", "Count.", ["x"], Answer, budget)).value == 1
        assert (await model.structured("two", "Count.", ["x"], Answer, budget)).value == 2
        with pytest.raises(LLMError) as raised:
            await model.structured("three", "Count.", ["x"], Answer, budget)
        errors.append(raised.value)
        texts = [repr(model), repr(settings), settings.model_dump_json(), repr(budget)]
        texts += [call.model_dump_json() for call in project.llm_calls.list()]
        await model.aclose()

    assert "[API key]" in errors[0].sentence
    texts += [str(errors[0]), caplog.text]
    for text in texts:
        assert FAKE_KEY not in text
    # The openai client's own debug logging was captured too, not just ours.
    assert any(r.name.startswith("openai") and r.levelno == logging.DEBUG for r in caplog.records)
    files = [path, *path.parent.glob(path.name + "-*")]
    assert all(FAKE_KEY.encode() not in f.read_bytes() for f in files)
    requests = scripted_llm.requests
    assert len(requests) == 5
    for request in requests:
        assert request.headers["Authorization"] == f"Bearer {FAKE_KEY}"
        assert FAKE_KEY not in request.raw
        assert all(FAKE_KEY not in value for name, value in request.headers.items() if name != "Authorization")
