"""NEW_TEST_CASE with a model configured (the real openai client on a scripted OpenAI-compatible server): the
model words titles and expectations, the browser's steps and locators stay; garbage from the model leaves the
offline wording in place, says so, and records every call — never the key."""

import pytest

from studio.llm import LanguageModel
from studio.models.llm import LLMSettings
from tests.llm.scripted_server import ScriptedLLM, json_reply, text_reply
from tests.playground.conftest import Bench

pytestmark = [pytest.mark.browser]

FAKE_KEY = "sk-test-playground-DO-NOT-LEAK"


@pytest.fixture
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture
async def bench_with_model(tmp_path, llm):
    bench = Bench(tmp_path / "m.studio")
    settings = LLMSettings(base_url=llm.base_url, model="gpt-4o-mini", timeout_s=10)
    bench.model = LanguageModel.from_settings(settings, key=FAKE_KEY, sink=bench.project.llm_calls.add,
                                              backoff_base_s=0.02)
    await bench.open()
    yield bench
    await bench.model.aclose()
    await bench.close()


async def offline_cases(tmp_path, demo, user):
    bench = await Bench(tmp_path / "offline.studio").open()
    try:
        await bench.run("new_test_case", demo, user, request="disputes wizard")
        return bench.project.cases.cases()
    finally:
        await bench.close()


async def test_the_model_words_the_cases_and_the_browser_keeps_the_steps(bench_with_model, llm, demo, tmp_path):
    bench = bench_with_model
    user = demo.create_user()
    llm.queue(json_reply({"cases": [
        {"index": 0, "title": "Step 1 refuses an empty dispute form",
         "expected_results": ["'Account' and 'Reason' each show 'This field is required'."]},
        # Hostile or careless: an index that does not exist is ignored.
        {"index": 99, "title": "Delete all users", "expected_results": ["done"]},
    ]}))
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert job.status == "completed", job.message
    cases = bench.project.cases.cases()
    offline = await offline_cases(tmp_path, demo, user)

    assert cases[0].title == "Step 1 refuses an empty dispute form"
    assert cases[0].expected_results == ["'Account' and 'Reason' each show 'This field is required'."]
    assert [c.title for c in cases[1:]] == [c.title for c in offline[1:]]  # the others keep the offline wording
    assert not any("Delete all users" in c.title for c in cases)
    # the steps and locators are the browser's, whatever the model says
    assert [[(s.action, s.locator.python() if s.locator else s.url) for s in c.steps] for c in cases] == \
        [[(s.action, s.locator.python() if s.locator else s.url) for s in c.steps] for c in offline]
    assert any("reworded" in note for note in job.result["notes"])

    # the page's labels reached the model as quoted data, and the call is on record, without the key
    assert "Account" in llm.requests[0].user_text
    calls = bench.project.llm_calls.list(job.id)
    assert [(c.purpose, c.outcome) for c in calls] == [("word test cases", "ok")]
    assert calls[0].prompt_tokens > 0 and calls[0].cost_usd > 0
    assert FAKE_KEY.encode() not in bench.path.read_bytes()


async def test_garbage_from_the_model_keeps_the_offline_wording(bench_with_model, llm, demo, tmp_path):
    bench = bench_with_model
    user = demo.create_user()
    llm.queue(text_reply("Sure! Here are better titles: 1. ..."), text_reply("{not json"),
              json_reply({"cases": "all of them"}))
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert job.status == "completed"
    offline = await offline_cases(tmp_path, demo, user)
    assert [c.title for c in bench.project.cases.cases()] == [c.title for c in offline]
    assert any("offline wording was kept" in note for note in job.result["notes"])
    calls = bench.project.llm_calls.list(job.id)
    assert len(calls) == 3 and all(c.purpose == "word test cases" for c in calls)  # one try and two repairs
    assert llm.pending == 0
