"""Seed 002's acceptance criteria, phase by phase (its traceability table, with the cloud parts renamed to ours: the
run record and tables live in the project file, WebSocket broadcasts are typed events on the bus, R2 objects are
evidence rows). Each test reads one shared run where it can (`games.once`), against the demo's arcade."""

from __future__ import annotations

import re
import time

import pytest

from studio.game import errors
from studio.models.game import (
    METRIC_WEIGHTS,
    METRICS,
    OVERALL,
    GamePhaseCompleted,
    GameProgressEvent,
    GameRunCompleted,
    GameStatusEvent,
    InputSchema,
)
from tests.games.conftest import SHORT, comet

SHOT_NAME = re.compile(r"^\d{13}-phase[1-4]-[a-z0-9-]+\.png$")


def sentences(text: str) -> int:
    return len([part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part])


@pytest.mark.slow
async def test_one_run_record_goes_queued_running_completed_through_four_phases_on_one_session(healthy):
    """2.1-AC-2/3/5/6/9, 2.2-AC-4/6, 2.3-AC-10/11, 2.6-AC-11/12: one record per run, its status as events."""
    run, store = healthy.run, healthy.store
    statuses = [e.status for e in healthy.of("game_status")]
    assert statuses[0] == "queued" and "running" in statuses and statuses[-1] == "completed"
    assert statuses.index("running") < statuses.index("completed")
    assert [p.status for p in run.phases] == ["passed"] * 4
    assert store.run(run.id).status == "completed" and len(store.runs()) == 1
    messages = [e.message for e in healthy.of("game_status")]
    assert "Phase 1 complete - Game loaded successfully" in messages
    assert any(m.startswith("Phase 2 complete - Discovered") for m in messages)
    assert [e.phase for e in healthy.of("game_phase_completed")] == ["phase1", "phase2", "phase3", "phase4"]
    final = healthy.of("game_run_completed")
    assert len(final) == 1 and isinstance(final[0], GameRunCompleted) and final[0].overall_score == run.overall_score
    # Phases 1–3 used the same browser session: every event came from one session, and the page was opened once.
    assert len({e.session_id for e in healthy.events if e.type.startswith("game_")}) == 1
    assert [a.action for a in store.actions(run.id)].count("navigate") == 1
    assert all(isinstance(e, (GameStatusEvent, GamePhaseCompleted, GameProgressEvent, GameRunCompleted))
               for e in healthy.events if e.type.startswith("game_"))


async def test_phase1_loads_the_game_and_reports_in_the_seed_shape(healthy):
    """2.3-AC-1..6, 2.3-AC-12, 2.2-AC-9: the first screenshot, HTTP 200, not blank, no Play needed."""
    run = healthy.run
    assert run.phase1.model_dump() == {"success": True, "requiresInteraction": False, "errors": []}
    shots = healthy.store.screenshots(run.id)
    assert shots[0].phase == "phase1" and shots[0].name.endswith("-phase1-initial-load.png")
    assert (shots[0].width, shots[0].height) == (1280, 720)
    evidence = run.evidence
    assert evidence.http_status == 200 and not evidence.blank_page and evidence.surface_kind == "canvas"
    assert evidence.dom_content_loaded_ms is not None and evidence.load_ms is not None


async def test_phase2_classifies_controls_stores_them_and_writes_a_hypothesis(healthy):
    """2.4-AC-1/2/3/5/6/7/8/10: page controls, keyboard listeners, the canvas; stored with confidence."""
    run, store = healthy.run, healthy.store
    controls = store.controls(run.id)
    kinds = {c.kind for c in controls}
    assert {"key", "button", "canvas"} <= kinds, kinds
    arrows = [c for c in controls if c.key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")]
    assert len(arrows) == 4 and all(c.action_type == "keyboard" and c.expected for c in arrows)
    assert all("keydown" in c.description for c in arrows)  # the listener was read from the page, not guessed
    restart = next(c for c in controls if c.name == "Restart")
    assert restart.purpose == "restart" and restart.action_type == "click" and restart.box is not None
    assert all(0 <= c.confidence <= 1 for c in controls)
    result = run.phase2
    assert result.success and set(result.controls) == {c.element_selector for c in controls}
    assert {info.type for info in result.controls.values()} == {"click", "keyboard"}
    assert "arrow" in result.hypothesis.lower() and "Restart" in result.hypothesis
    shot = [s for s in store.screenshots(run.id) if s.phase == "phase2"]
    assert [s.name.split("-", 1)[1] for s in shot] == ["phase2-controls.png"]
    events = [e.message for e in healthy.of("game_status") if e.phase == "phase2"]
    assert f"Phase 2 complete - Discovered {len(controls)} controls" in events


async def test_phase3_plays_records_and_takes_screenshots_incrementally(healthy):
    """2.5-AC-1/5/6/7/10/11/13/14: actions, decisions, at least 5 named screenshots written as they were taken,
    progress at most every 5 s."""
    run, store = healthy.run, healthy.store
    result = run.phase3
    assert result.success and result.actionsTaken >= 10 and result.screenshotCount >= 5
    shots = [s for s in store.screenshots(run.id) if s.phase == "phase3"]
    assert len(shots) == result.screenshotCount and all(SHOT_NAME.match(s.name) for s in shots), [s.name for s in shots]
    actions = [a for a in store.actions(run.id) if a.phase == "phase3"]
    assert len(actions) == result.actionsTaken
    assert {a.action for a in actions} >= {"keyboard"} and all(a.reasoning and a.outcome for a in actions)
    assert any("the game responded" in (a.outcome or "") for a in actions)
    decisions = store.decisions(run.id)
    assert decisions and all(d.ai_model is None for d in decisions)  # the built-in explorer decided
    assert any(d.decision.startswith("probe: press Arrow") for d in decisions)
    progress = healthy.of("game_progress")
    gaps = [b.at - a.at for a, b in zip(progress, progress[1:])]
    assert all(gap >= 4900 for gap in gaps), gaps  # at most one broadcast per 5 s
    # Incremental: screenshots were in the project file while the run was still going.
    during = [count for _at, count in healthy.progress_counts]
    assert during and max(during) >= 2 and max(during) < len(store.screenshots(run.id))


async def test_phase4_scores_five_metrics_with_justifications_and_the_weighted_overall(healthy):
    """2.6-AC-1/5/6/7/8/9/10/13: six score rows, 2–3 sentence justifications, logs flushed."""
    run, store = healthy.run, healthy.store
    scores = store.scores(run.id)
    assert list(scores) == [*METRICS, OVERALL]
    assert all(0 <= score <= 100 for score, _why in scores.values())
    weighted = round(sum(METRIC_WEIGHTS[name] * scores[name][0] for name in METRICS) / 100)
    assert scores[OVERALL][0] == weighted == run.overall_score == run.phase4.overallScore
    for name in METRICS:
        assert 2 <= sentences(scores[name][1]) <= 3, (name, scores[name][1])
    assert [m.name for m in run.phase4.metrics] == list(METRICS)
    row = store.db.execute("SELECT overall_score, status FROM game_runs WHERE id = ?", (run.id,)).fetchone()
    assert tuple(row) == (run.overall_score, "completed")
    logs = store.logs(run.id)
    assert set(logs) == {"console.log", "network.log", "agent-decisions.log"}
    assert "probe: press ArrowLeft" in logs["agent-decisions.log"]
    assert run.scoring == "rubric"


@pytest.mark.slow
async def test_a_game_that_waits_for_play_is_detected_and_started_with_a_click(games, demo_server):
    """2.3-AC-8, 2.5-AC-4: Lantern Drift shows a Play button; Phase 1 says so and Phase 3 clicks it."""
    lantern = await games.once("lantern", demo_server.base_url + "/arcade/lantern?seed=1")
    run = lantern.run
    assert run.phase1.requiresInteraction and run.evidence.started
    first = [a for a in lantern.store.actions(run.id) if a.phase == "phase3"][0]
    assert first.action == "click" and "Play" in first.target, first
    assert run.phase3.success and run.status == "completed"
    space = next(r for r in run.evidence.responses if "Space" in r.label)
    assert space.responded  # after the click, Space lifts the lantern


@pytest.mark.slow
async def test_an_input_schema_puts_the_named_controls_first(games, demo_server):
    """2.4-AC-4: what the tester names is probed first; discovery still finds the rest."""
    schema = InputSchema.model_validate({"controls": {"movement": ["W", "A", "S", "D"], "actions": ["R"]},
                                         "objectives": "Catch crystals and dodge comets"})
    named = await games.once("comet-schema", comet(demo_server), schema=schema)
    controls = named.store.controls(named.run.id)
    wasd = [c for c in controls if c.key in ("KeyW", "KeyA", "KeyS", "KeyD")]
    assert len(wasd) == 4 and all(c.source == "input_schema" and c.confidence >= 0.9 for c in wasd)
    assert any(c.key == "ArrowLeft" for c in controls)  # discovery is not replaced
    probes = [d.decision for d in named.store.decisions(named.run.id) if d.decision.startswith("probe:")]
    assert probes[0].startswith("probe: press W"), probes[:4]
    assert "Catch crystals" in named.store.scores(named.run.id)["playability"][1] or named.run.evidence.objectives


async def test_a_failing_phase_degrades_gracefully_and_every_message_is_a_sentence(games, demo_server):
    """2.7-AC-1/2/3/6/8: the missing page fails Phase 1, skips 2–3, still scores; no trace or code reaches the
    tester, the detail stays for the developer."""
    missing = await games.once("missing", demo_server.base_url + "/arcade/no-such-game")
    run = missing.run
    assert run.status == "failed" and run.message == errors.NOT_ACCESSIBLE
    assert [e.status for e in missing.of("game_status")][-1] == "failed"
    assert missing.of("game_run_completed")[0].message == errors.NOT_ACCESSIBLE
    for text in [run.message, *run.errors, *(p.message for p in run.phases)]:
        assert "Traceback" not in text and "Error:" not in text and "Exception" not in text, text
    assert any("404" in detail.detail for detail in run.details)  # the developer view keeps what happened
    assert run.phase4 is not None and len(missing.store.scores(run.id)) == 6


async def test_stopping_a_run_keeps_partial_scores_and_says_so(games, demo_server):
    """Cancel during play: the run fails as cancelled, with the seed-style sentence and the six score rows."""
    import asyncio

    async def stop_while_playing(runner, evaluation):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ctx = evaluation.ctx
            if ctx is not None and ctx.phase == "phase3" and len(ctx.actions) >= 3:
                break
            await asyncio.sleep(0.1)
        await runner.cancel(grace_s=5.0)

    stopped = await games.evaluate(comet(demo_server), during=stop_while_playing)
    run = stopped.run
    assert run.status == "failed" and run.end_reason == "cancelled" and run.message == errors.CANCELLED
    assert len(stopped.store.scores(run.id)) == 6 and run.overall_score is not None
    assert stopped.store.run(run.id).status == "failed"


async def test_a_failed_phase4_keeps_partial_results_with_its_message(games, demo_server, monkeypatch):
    """2.7-AC-5: scoring breaks; the run is failed with the sentence, and the evidence and rubric scores are kept."""
    from studio.game import scoring_phase

    async def broken(ctx):
        raise RuntimeError("the evidence store went away")

    monkeypatch.setattr(scoring_phase, "_read_long_tasks", broken)
    quick = SHORT.model_copy(update={"max_explore_s": 4, "min_explore_s": 2})
    failed = await games.evaluate(comet(demo_server), options=quick)
    run = failed.run
    assert run.status == "failed" and run.message == errors.SCORING_FAILED
    assert run.phases[3].status == "failed" and "Traceback" not in run.phases[3].message
    assert len(failed.store.scores(run.id)) == 6 and failed.store.screenshots(run.id)
    assert any("the evidence store went away" in detail.detail for detail in run.details)
