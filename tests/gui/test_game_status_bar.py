"""A running game evaluation in the status bar: "Game evaluation: 3 Play · 5:50 left" where "Jobs: none" was, counting
down each second, listed (with Cancel) in the job list, and gone when it ends. The window, the GameService, the
runtime's JobRunner and its bus are the real ones; the engine is a stand-in that sits in phase 3 until told to end,
as a long play phase does (the real engine's run is followed in test_games_gui)."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from studio.game import GameOptions
from studio.models.context import JobRecord
from studio.models.game import PHASE_TITLES, PHASES, GameRun, GameStatusEvent, PhaseOutcome
from studio.ui.game_job import clock, phase_limit_s, phase_status
from studio.ui.job_list import LiveJob, counts
from tests.gui.support import close_studio, open_studio, shoot, until

pytestmark = pytest.mark.gui

LEFT = re.compile(r"^Game evaluation: 3 Play · (\d+):(\d\d) left$")


class PlayingGame:
    """A game evaluation that has passed phases 1 and 2 and plays (phase 3, started 10 s ago) until `ended` is set."""

    label = "Game evaluation"
    job_id = None

    def __init__(self, bus, run: GameRun) -> None:
        self.bus, self.record, self.ended = bus, run, asyncio.Event()

    async def run(self, control) -> GameRun:
        control.claim(self.record.id)
        now = time.time() * 1000
        for outcome in self.record.phases[:2]:
            outcome.status, outcome.started_at, outcome.seconds = "passed", now - 20_000, 4.0
        play = self.record.phases[2]
        play.status, play.started_at = "running", now - 10_000
        self.record.status = "running"
        self.bus.publish(GameStatusEvent(job_id=self.record.id, status="running", phase="phase3",
                                         message="Gameplay Exploration started"))
        await self.ended.wait()
        play.status, play.seconds = "passed", 12.0
        self.record.status = "failed"
        return self.record

    def record_end(self, job_id: str, status: str, message: str) -> GameRun:
        return self.record.model_copy(update={"status": "failed", "message": message})


def playing_run() -> GameRun:
    now = time.time() * 1000
    return GameRun(id="statusbar01", url="http://127.0.0.1:9/arcade/comet", created_at=now, updated_at=now,
                   phases=[PhaseOutcome(phase=key, title=PHASE_TITLES[key]) for key in PHASES])


def test_the_status_bar_words_for_a_running_evaluation():
    options = GameOptions(max_explore_s=300)
    run = playing_run()
    assert phase_status(run, options) == "starting"
    run.phases[0].status, run.phases[0].started_at = "running", 1_000_000.0
    assert phase_status(run, options, now=1_000 + 12.2) == "1 Load · 0:18 left"  # 30 s to load
    assert phase_status(run, options, now=1_000 + 45) == "1 Load · 0:00 left"
    run.phases[0].status = "passed"
    assert phase_status(run, options) == "finishing"
    run.phases[2].status, run.phases[2].started_at = "running", 1_000_000.0
    assert phase_limit_s("phase3", options) == 360  # the exploration window and a minute for probing
    assert phase_status(run, options, now=1_000 + 108) == "3 Play · 4:12 left"
    assert clock(59.2) == "1:00" and clock(-3) == "0:00"
    # the status bar's words: the evaluation alone, or after the count when playground jobs run or wait too
    live = LiveJob(id="game:1", name="Game evaluation", request=run.url, status="3 Play · 4:12 left",
                   started=run.created_at, cancel=lambda: None)
    waiting = JobRecord(id="j1", kind="preflight", status="paused", created_at=1.0, updated_at=1.0)
    assert counts([], [live]) == "Game evaluation: 3 Play · 4:12 left"
    assert counts([waiting], [live]) == "Jobs: 1 running, 1 waiting · Game evaluation: 3 Play · 4:12 left"
    assert counts([waiting]) == "Jobs: 1 waiting" and counts([]) == "Jobs: none"
    if "retries" in PhaseOutcome.model_fields:  # the engine tries a phase again after the browser failed
        run.phases[2].retries = 1
        assert phase_status(run, options, now=1_000 + 108) == "3 Play · try 2"


@pytest.mark.timeout(60)
def test_a_running_game_evaluation_shows_in_the_status_bar_with_its_phase_and_time_left(qloop, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "games-status.studio")
        window.resize(1366, 768)
        service = services.games
        button = window.playground.jobs_button
        try:
            window.workspaces.switch("Games")
            assert button.text() == "Jobs: none"
            run = service.run = playing_run()
            engine = PlayingGame(services.runtime.bus, run)
            service.spawn(service.run_job(engine), name="stand-in game evaluation")
            await until(lambda: LEFT.search(button.text()), what="the evaluation in the status bar")
            minutes, seconds = map(int, LEFT.search(button.text()).groups())
            first = minutes * 60 + seconds
            assert 345 <= first <= 350, button.text()  # 6 min for play, 10 s of them gone
            # it counts down each second while it runs, with nothing else happening
            await until(lambda: (match := LEFT.search(button.text())) and
                        int(match[1]) * 60 + int(match[2]) <= first - 2, timeout=5, what="the countdown")
            assert re.fullmatch(r"3 Play\n\d:\d\d left", window.games.panel.phases.boxes["phase3"].text()
                                .replace("<b>", "").replace("</b>", "").replace("<br>", "\n"))
            assert button.width() >= button.sizeHint().width()  # said in full, never elided
            shoot(window, "games-statusbar")

            button.open_list()
            row = button.panel.rows[f"live:game:{run.id}"]
            assert "Game evaluation" in row["title"].text() and run.url in row["title"].text()
            assert row["status"].text().startswith("Running · 3 Play · ")
            shoot(window, "games-statusbar-list")
            before = row["status"].text()
            await until(lambda: row["status"].text() != before, timeout=3, what="the row's countdown")
            assert button.panel.rows[f"live:game:{run.id}"] is row  # said again in place, not rebuilt
            button.panel.hide()

            engine.ended.set()
            await until(lambda: not service.running, what="the evaluation to end")
            await until(lambda: button.text() == "Jobs: none", what="the status bar to say so")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
