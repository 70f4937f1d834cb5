"""Schema 1.2: versioned cases, jobs that survive a restart, job events, catalogues, site cache, LLM calls."""

from __future__ import annotations

from studio.events import EventBus
from studio.models.catalog import PageCatalog
from studio.models.context import ContextCollection, JobRecord, PendingQuestion
from studio.models.events import ItemProgress, PreflightStarted
from studio.models.llm import LLMCall
from studio.models.testcase import CaseStep, TestCase, TestSuite
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder


def test_cases_are_versioned_with_summaries(tmp_path):
    path = tmp_path / "p.studio"
    with ProjectFile.create(path) as project:
        project.cases.save_suite(TestSuite(id="s1", title="Disputes", module="Disputes", created_at=1, updated_at=1))
        case = TestCase(id="c1", suite_id="s1", title="Reject an empty description",
                        steps=[CaseStep(action="navigate", url="/disputes")])
        first = project.cases.save_case(case, "agent", "created from a validation gap")
        second = project.cases.save_case(first.model_copy(update={"status": "stale"}), "agent", "entry point moved")
        assert (first.version, second.version) == (1, 2)
    with ProjectFile.open(path) as project:
        assert project.cases.case("c1").status == "stale"
        history = project.cases.history("c1")
        assert [(v.version, v.summary, v.case.status) for v in history] == [
            (1, "created from a validation gap", "draft"), (2, "entry point moved", "stale")]
        assert [s.title for s in project.cases.suites()] == ["Disputes"]
        assert [c.id for c in project.cases.cases(suite_id="s1", status="stale")] == ["c1"]


def test_a_paused_job_and_its_events_survive_a_restart(tmp_path):
    path = tmp_path / "p.studio"
    bus = EventBus()
    with ProjectFile.create(path) as project, ProjectRecorder(project, bus):
        question = PendingQuestion.make("credentials.email", "Login", "Which account should I use?", "The app has a "
                                        "login wall.")
        job = JobRecord(id="j1", kind="preflight", status="paused", request="disputes", created_at=1, updated_at=1,
                        context=ContextCollection(resolved_base_url="http://h/"), pending=[question],
                        state={"done": ["resolve_base_url"]})
        project.jobs.save(job)
        bus.publish(PreflightStarted(job_id="j1", request="disputes", url="http://h/"))
        bus.publish(ItemProgress(job_id="j1", item="case c1", index=1, total=2, status="created"))
        project.jobs.save_catalog("j1", PageCatalog(url="http://h/disputes", path="/disputes", heading="Disputes"))
        project.jobs.cache_site("http://h", "http://h/", {"ui_map": {"top_nav": ["Home"]}})
        project.llm_calls.add(LLMCall(job_id="j1", at=1, purpose="name suites", model="m", prompt_tokens=10,
                                      completion_tokens=5, latency_ms=12.5, cost_usd=0.0001, outcome="ok"))
    with ProjectFile.open(path) as project:
        paused = project.jobs.latest_paused("preflight")
        assert paused.id == "j1" and paused.pending[0].question.info_needed == ["credentials.email"]
        assert paused.state == {"done": ["resolve_base_url"]}
        assert [e["type"] for e in project.jobs.events("j1")] == ["preflight_started", "item_progress"]
        assert project.jobs.catalogs("j1")[0].heading == "Disputes"
        assert project.jobs.cached_site("http://h") == ("http://h/", {"ui_map": {"top_nav": ["Home"]}})
        assert project.llm_calls.totals("j1") == {"calls": 1, "prompt_tokens": 10, "completion_tokens": 5,
                                                  "cost_usd": 0.0001}
