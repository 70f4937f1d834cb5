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
    # and after close, in the main file and whatever SQLite left beside it (-wal, -shm, -journal)
    bench.project.close()
    for path in bench.path.parent.glob(bench.path.name + "*"):
        assert FAKE_KEY.encode() not in path.read_bytes(), f"the key leaked into {path.name}"
    bench.project = type(bench.project).open(bench.path)


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


async def test_the_model_picks_among_known_pages_and_the_browser_validates_it(bench_with_model, llm, demo):
    from tests.llm.scripted_server import tool_call_reply

    bench = bench_with_model
    user = demo.create_user()
    # the words match no page well enough: before asking the tester, the model chooses among the mapped pages
    llm.queue(tool_call_reply("visit_page", {"name": "Disputes"}))
    job = await bench.run("preflight", demo, user, request="dispute billing reconciliation")
    assert job.status == "completed", job.pending
    assert job.context.candidate_entry_points[0].url == "/disputes"
    assert job.context.candidate_entry_points[0].confidence >= 0.5  # the visit confirmed it, not the model
    assert bench.types().count("preflight_question") == 1  # the login only; no "which area?"
    [request] = llm.requests
    assert request.tool_names == ["visit_page", "finish"]  # a closed tool set
    visit = next(t for t in request.body["tools"] if t["function"]["name"] == "visit_page")
    names = visit["function"]["parameters"]["properties"]["name"]["enum"]
    assert "Disputes" in names and set(names) <= {p.name for p in job.context.ui_map.key_pages} | {
        c.heading for c in bench.project.jobs.catalogs(job.id)}
    assert "PAGE CONTENT from /disputes" in request.user_text  # page text quoted as untrusted data
    assert [(c.purpose, c.outcome) for c in bench.project.llm_calls.list(job.id)] == [("choose the entry point", "ok")]


async def test_a_garbage_choice_falls_back_to_the_heuristics(bench_with_model, llm, demo):
    from tests.llm.scripted_server import tool_call_reply

    bench = bench_with_model
    user = demo.create_user()
    llm.queue(text_reply("Probably the disputes page?"), tool_call_reply("visit_page", {"name": "Admin panel"}),
              tool_call_reply("delete_everything", {}))
    job = await bench.run("preflight", demo, user, request="dispute billing reconciliation",
                          answers=[("area", "Disputes")])
    assert job.status == "completed" and job.context.candidate_entry_points[0].url == "/disputes"
    assert bench.types().count("preflight_question") == 2  # the heuristics asked "which area?", as offline
    assert any("did not help choose the entry point" in note for note in job.context.evidence.notes)
    assert [c.outcome for c in bench.project.llm_calls.list(job.id)] == ["invalid"] * 3


async def test_the_model_may_regroup_new_cases_into_the_suites(bench_with_model, llm, demo):
    from studio.models.context import Answer

    bench = bench_with_model
    user = demo.create_user()
    job = await bench.playground.start("new_testsuite", demo.base_url)
    job = await bench.playground.resume(job, [Answer(key="credentials.email", value=user["email"]),
                                              Answer(key="credentials.password", value=user["password"])])
    assert job.pending[0].key == "suites"
    first, second = job.pending[0].question.options[:2]
    llm.queue(json_reply({"suites": []}), json_reply({"cases": []}),
              json_reply({"groups": [{"index": 0, "suite": f"{second} suite"},
                                     {"index": 1, "suite": "Delete everything"}, {"index": 99, "suite": first}]}))
    job = await bench.playground.resume(job, [Answer(key="suites", value=f"{first}, {second}")])
    assert job.status == "completed", job.message
    suites = {s.title: s.id for s in bench.project.cases.suites()}
    cases = {c.id: c for c in bench.project.cases.cases()}
    created = [cases[i] for i in job.result["cases"]]
    drafted_for = {c["path"]: suites[f"{c['module']} suite"] for c in job.state["main"]["proposed"]
                   if f"{c['module']} suite" in suites}

    def own_suite(case):
        return next(sid for path, sid in drafted_for.items() if case.grounding.page_url.endswith(path))

    # the first case was drafted for the first module; the model moved it (its page and steps stay)
    assert own_suite(created[0]) == suites[f"{first} suite"] and created[0].suite_id == suites[f"{second} suite"]
    assert created[1].suite_id == own_suite(created[1])  # an unknown suite name is ignored
    assert all(c.suite_id == own_suite(c) for c in created[1:])
    assert any("grouped the new cases" in note for note in job.result["notes"])
    assert [c.purpose for c in bench.project.llm_calls.list(job.id)] == [
        "name test suites", "word test cases", "group test cases"]
