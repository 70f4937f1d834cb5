"""Fixtures for the LLM layer: one scripted OpenAI-compatible server per session, reset before each test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from studio.llm import LanguageModel
from studio.models.llm import LLMSettings
from studio.store.project import ProjectFile
from tests.llm.scripted_server import ScriptedLLM

# Looks like a real key so that a leak would be obvious in any log, request body or file.
FAKE_KEY = "sk-test-5f0e1d2c3b4a-DO-NOT-LEAK"


@pytest.fixture(scope="session")
def scripted_llm_server() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


@pytest.fixture
def scripted_llm(scripted_llm_server: ScriptedLLM) -> ScriptedLLM:
    """The scripted server with an empty queue and no recorded requests."""
    scripted_llm_server.reset()
    return scripted_llm_server


@pytest.fixture
def llm_settings(scripted_llm: ScriptedLLM) -> LLMSettings:
    # Short timeout so the slow-reply test stays fast; retries and repairs as shipped.
    return LLMSettings(base_url=scripted_llm.base_url, model="gpt-4o-mini", timeout_s=1.0)


@pytest.fixture
def project(tmp_path) -> Iterator[ProjectFile]:
    with ProjectFile.create(tmp_path / "llm.studio") as project:
        yield project


@pytest.fixture
async def model(llm_settings: LLMSettings, project: ProjectFile) -> AsyncIterator[LanguageModel]:
    """The real model client on the scripted server, recording into a real project file; fast backoff."""
    language_model = LanguageModel.from_settings(llm_settings, key=FAKE_KEY, sink=project.llm_calls.add,
                                                 backoff_base_s=0.02)
    assert language_model is not None
    yield language_model
    await language_model.aclose()
