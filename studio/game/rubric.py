"""The scoring rubric used with no model (and whenever a model's scores cannot be used): each of seed 002's five
metrics computed from measured evidence, with a 2–3 sentence justification citing the numbers. Shares are counted in
bands (all: 1, most ≥ 75 %: 0.7, many ≥ 50 %: 0.5, some ≥ 25 %: 0.3, a few: 0.15, none: 0: one dead key of four
costs a controls score about 20 points) so that a real-time game's jitter
(one probe more or less) does not move a score.

Only the game's own failures count: requests to its own site (its scripts and assets) and its errors. Third-party
requests that fail (adverts, analytics, web fonts: the page's environment, e.g. with no network) are reported apart
and cost nothing; the browser's own favicon request is nobody's (game.parties).

Load (15 %) — starts at 100. The page not answering (or answering 4xx/5xx) is 5; a blank page is 15; the game's own
code failing while loading (a script of its own that did not arrive, an uncaught error) when nothing could then play
the game is 25. Load time over 3 s costs 10, over 6 s 20, over 10 s 35; each failed request while loading 10 (at
most 30); each console error or uncaught error while loading 5 (at most 15).

Visual (20 %) — the game never appearing is 5; no screenshot is 0; every screenshot blank is 5; a play surface
(canvas or board) blank in most screenshots is 20. Otherwise 40, plus 30 / 20 / 10 for detail (the share of the
picture with visible edges: 0.10, 0.05, 0.02 or more), plus 20 when the picture changes between at least 30 % of
consecutive screenshots (10 when it changes at all); a missing image (a failed image request) costs 10, a frozen
picture 15.

Controls (20 %) — 10, plus 70 × the band of the game's controls that were seen to change the game (the controls the
input schema or the page's instructions name — tried or not: one never tried is not confirmed — and any other that
responded), plus 10 × the band of its buttons (start, restart) that worked, plus 10 when a first response was seen
within 500 ms (5 when later). Nothing to control is 5. A page scrolling, a button's focus ring or hover look is not
the game responding (the scroll is put back and the clicked control's own box left out of the comparison).

Playability (30 %) — the game started or ran: 15; its play controls worked: 20 × their band; visible state changes:
15 for 3 or more, 8 for fewer; a score, level or lives shown (or objectives given): 10; the score changed while
playing: 15; a game over seen: 10; a restart that worked after it: 10 (no game over seen in the time played: 5). A
frozen picture costs 20, each distinct uncaught error 5 (at most 15). Exploration that never ran is 0; a play phase
that failed rates at most 35 (its evidence is what it is); a game that could not be played (verdict) is 0–5.

Technical (15 %) — starts at 100. Each distinct uncaught error costs 20 (at most 50) and each further one 2 (at most
10); each console error 5 (at most 20); each failed request 10 (at most 30). A game animating below 20 frames per
second costs 15 (below 10: 25), a frozen frame loop 25; long tasks blocking the page for more than 2 s in all 10.
Frame rate and freezes are judged only for a game that draws while nobody plays: a turn-based game idle between moves
is waiting for the player, not slow or frozen.

Overall — the weighted average of the five; for a game that could not be played (game.verdict: its code failed to
load, it never started, nothing answered its controls) at most 35, with the verdict's sentence as the reason. The
weighted average is kept beside it.
"""

from __future__ import annotations

import statistics

from studio.models.game import METRIC_WEIGHTS, GameEvidence, MetricScore
from studio.wording import agree, plural

PLAY_FAILED_CAP = 35  # playability when the play phase itself failed: its evidence is what it is
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif")


def score_all(evidence: GameEvidence) -> list[MetricScore]:
    """The five metrics, in the seed's order."""
    return [load(evidence), visual(evidence), controls(evidence), playability(evidence), technical(evidence)]


def overall(metrics: list[MetricScore]) -> int:
    """The weighted average (Load 15, Visual 20, Controls 20, Playability 30, Technical 15)."""
    total = sum(METRIC_WEIGHTS[m.name] * m.score for m in metrics)
    weight = sum(METRIC_WEIGHTS[m.name] for m in metrics) or 1
    return round(total / weight)


def band(share: float) -> float:
    """A share (0..1) in coarse bands — all, most, many, some, few, none — so that one probe more or less in a
    real-time game moves a score by a band at most: the same seed then gives the same scores."""
    return (1.0 if share >= 0.999 else 0.7 if share >= 0.75 else 0.5 if share >= 0.5 else 0.3 if share >= 0.25
            else 0.15 if share > 0 else 0.0)


def _clamp(value: float) -> int:
    return max(0, min(100, round(value)))


def _seconds(ms: float | None) -> str:
    return f"{ms / 1000:.1f} s" if ms is not None else "an unknown time"


def load(e: GameEvidence) -> MetricScore:
    if not e.reachable:
        status = f"HTTP {e.http_status}" if e.http_status else "no answer"
        return MetricScore(name="load", score=5, justification=(
            f"The game URL could not be opened ({status}), so nothing loaded. Every other score rests on this."))
    if e.blank_page:
        return MetricScore(name="load", score=15, justification=(
            f"The page answered (HTTP {e.http_status}) but stayed blank: a uniform screen with no text. "
            "The game did not appear."))
    if e.load_failures and e.verdict:
        return MetricScore(name="load", score=25, justification=(
            f"The page answered HTTP {e.http_status or 200} in {_seconds(e.load_ms)}, but the game's own code failed "
            f"while loading: {'; '.join(e.load_failures[:2])}. Nothing the game does afterwards worked, so the game "
            "did not load successfully."))
    score = 100.0
    load_ms = e.load_ms or 0
    score -= 35 if load_ms > 10_000 else 20 if load_ms > 6_000 else 10 if load_ms > 3_000 else 0
    failed = [item for item in e.failed_requests if item.startswith("phase1 ")]
    score -= min(30, 10 * len(failed))
    load_errors = sum(1 for item in e.distinct_errors if item.startswith("phase1 "))
    score -= min(15, 5 * load_errors)
    timings = f"DOMContentLoaded {_seconds(e.dom_content_loaded_ms)}, first paint {_seconds(e.first_paint_ms)}"
    problems = []
    if failed:
        problems.append(f"{plural(len(failed), 'failed request')} while loading ({failed[0].removeprefix('phase1 ')[:80]})")
    if load_errors:
        problems.append(f"{plural(load_errors, 'error')} logged while loading")
    said = "; ".join(problems) if problems else "No failed requests and no errors while loading"
    outside = [item for item in e.third_party_failures if item.startswith("phase1 ")]
    apart = (f"; {plural(len(outside), 'request')} of third parties failed too (not the game's, not counted)"
             if outside else "")
    return MetricScore(name="load", score=_clamp(score), justification=(
        f"The page answered HTTP {e.http_status or 200} and finished loading in {_seconds(e.load_ms)} ({timings}). "
        f"It was not blank and showed {e.surface or 'the page'}. {said}{apart}."))


def visual(e: GameEvidence) -> MetricScore:
    if not e.reachable:
        return MetricScore(name="visual", score=5, justification=(
            f"The game never appeared: {plural(e.screenshots, 'screenshot')} {agree(e.screenshots, 'shows', 'show')} only the page that answered instead "
            f"(HTTP {e.http_status or 'none'}). Nothing of the game could be judged."))
    if e.screenshots == 0:
        return MetricScore(name="visual", score=0, justification=(
            "No screenshot could be taken, so nothing was seen. Visual quality could not be judged."))
    if e.blank_shots >= e.screenshots:
        return MetricScore(name="visual", score=5, justification=(
            f"All {e.screenshots} screenshots were blank (one uniform colour). Nothing was drawn."))
    if e.surface_kind != "page" and e.blank_surface_shots * 2 >= e.screenshots:
        return MetricScore(name="visual", score=20, justification=(
            f"The play surface ({e.surface}) was blank in {e.blank_surface_shots} of {e.screenshots} screenshots, "
            "although the page around it showed. The game draws nothing a player can see."))
    detail = 30 if e.detail_level >= 0.1 else 20 if e.detail_level >= 0.05 else 10 if e.detail_level >= 0.02 else 0
    changing = e.distinct_frames / max(1, e.screenshots - 1)
    moving = 20 if changing >= 0.3 else 10 if e.distinct_frames else 0
    score = 40 + detail + moving
    missing = [item for item in e.failed_requests if item.split("?")[0].lower().endswith(IMAGE_SUFFIXES)]
    notes = []
    if missing:
        score -= 10
        notes.append(f"an image failed to load ({missing[0].split(' ', 1)[-1][:80]})")
    if e.frozen_seconds > 0:
        score -= 15
        notes.append(f"the picture froze for {e.frozen_seconds:.0f} s while playing")
    said = ("; ".join(notes).capitalize() + ".") if notes else "No missing images or frozen frames were seen."
    return MetricScore(name="visual", score=_clamp(score), justification=(
        f"{e.screenshots} screenshots show {e.surface or 'the page'} with detail level {e.detail_level:.2f} "
        f"(share of the picture with visible edges) and {plural(e.distinct_frames, 'change')} between consecutive "
        f"screenshots. {said}"))


def controls(e: GameEvidence) -> MetricScore:
    responses = e.responses
    if not responses:
        score = 5 if e.controls_found == 0 else 10
        return MetricScore(name="controls", score=score, justification=(
            f"{plural(e.controls_found, 'control')} {agree(e.controls_found, 'was', 'were')} found but none could be "
            "tried, so no response was measured. "
            "Controls that were never tried are not confirmed to work."
            if e.controls_found else "No control of the game was found (no buttons, keys or clickable surface). "
            "Nothing could be pressed or clicked to play it."))
    play = [r for r in responses if r.purpose in ("play", "surface")]
    buttons = [r for r in responses if r.purpose in ("start", "restart")]
    # The game's controls: what its page or schema names (tried or not: one never tried is not confirmed) and
    # whatever else answered; a common key the game does not use is not one of them.
    counted = [r for r in play if r.responded or r.expected] or [r for r in play if r.tried]
    play_share = band(sum(r.responded for r in counted) / len(counted) if counted else 0.0)
    button_share = band(sum(r.responded for r in buttons) / len(buttons)) if buttons else play_share
    latencies = [r.latency_ms for r in responses if r.responded and r.latency_ms is not None]
    median = statistics.median(latencies) if latencies else None
    speed = 0.0 if median is None else 10.0 if median <= 500 else 5.0
    points = 10 + 70 * play_share + 10 * button_share + speed
    worked = [r.label for r in counted if r.responded]
    dead = [r.label for r in counted if not r.responded and r.tried]
    untried = [r.label for r in counted if not r.tried]
    first = (f"{len(worked)} of {len(counted)} game controls were seen to change the game"
             + (f" ({', '.join(worked[:5])})" if worked else ""))
    second = (f"No visible effect from {', '.join(dead[:5])}." if dead else "Every control tried responded.")
    if untried:
        second = second[:-1] + f"; never tried, so not confirmed: {', '.join(untried[:5])}."
    third = (f"The median first visible response came after ~{median:.0f} ms (measured to the next picture)."
             if median is not None else "No response time could be measured.")
    if buttons:
        third = third[:-1] + f"; {sum(r.responded for r in buttons)} of {len(buttons)} buttons worked."
    return MetricScore(name="controls", score=_clamp(points), justification=f"{first}. {second} {third}")


def playability(e: GameEvidence) -> MetricScore:
    if "phase3" in e.phases_failed and e.actions == 0:
        return MetricScore(name="playability", score=0, justification=(
            "The game could not be played: gameplay exploration did not run. There is no evidence of play."))
    tried = [r for r in e.responses if r.purpose in ("play", "surface") and (r.responded or r.expected)]
    play = [r for r in tried if r.responded]
    if e.verdict:
        return MetricScore(name="playability", score=5 if e.started or e.score_seen else 0, justification=(
            f"{e.verdict} {plural(e.actions, 'action')} {agree(e.actions, 'was', 'were')} tried over "
            f"{e.play_seconds:.0f} s of play, "
            f"with {plural(e.state_changes, 'visible state change')}."))
    share = len(play) / len(tried) if tried else 0.0
    score = 15.0 if e.started else 0.0
    score += 20 * band(share)
    score += 15 if e.state_changes >= 3 else 8 if e.state_changes else 0
    score += 10 if (e.score_seen or e.objectives) else 0
    score += 15 if e.score_changes else 0
    if e.game_over_seen:
        score += 10 + (10 if e.restart_seen else 0)
    else:
        score += 5
    if e.frozen_seconds > 0:
        score -= 20
    crashes = sum(1 for item in e.distinct_errors if item.startswith("phase3 ") and "uncaught" in item)
    score -= min(15, 5 * crashes)
    if e.play_failure:
        score = min(score, PLAY_FAILED_CAP)  # scores follow the evidence of the phase they rate
    loop = ("a game over was seen" + (" and a restart worked" if e.restart_seen else ", but no restart worked")
            if e.game_over_seen else f"no game over came in {e.play_seconds:.0f} s of play")
    first = (f"The game {'started and ' if e.started else 'never visibly started; it '}"
             f"{'responded to ' + str(len(play)) + ' of ' + str(len(tried)) + ' controls' if tried else 'had no controls'}"
             f" during {e.play_seconds:.0f} s of play, with {plural(e.state_changes, 'visible state change')}")
    where = f" ({e.score_source})" if e.score_source else ""
    second = (f"The score{where} changed {plural(e.score_changes, 'time')}" if e.score_changes
              else f"A score{where} was shown but never changed" if e.score_seen
              else "No score could be read (none in the page's text, none drawn as text on the canvas)"
              if e.surface_kind in ("canvas", "webgl") else "No score, level or lives were shown")
    third = f"; {loop}." + (f" The picture froze for {e.frozen_seconds:.0f} s." if e.frozen_seconds else "")
    lead = f"Gameplay exploration failed: {e.play_failure} " if e.play_failure else ""
    return MetricScore(name="playability", score=_clamp(score), justification=f"{lead}{first}. {second}{third}")


def technical(e: GameEvidence) -> MetricScore:
    score = 100.0
    uncaught = [item for item in e.distinct_errors if "uncaught" in item]
    score -= min(50, 20 * len(uncaught)) + min(10, 2 * max(0, e.page_errors - len(uncaught)))
    score -= min(20, 5 * e.console_errors)
    score -= min(30, 10 * len(e.failed_requests))
    animated = [fps for fps in e.fps_samples if fps > 0]
    fps = statistics.median(animated) if animated else None
    if fps is not None:
        score -= 25 if fps < 10 else 15 if fps < 20 else 0
    if e.frozen_seconds > 0:
        score -= 25
    if e.long_task_ms > 2000:
        score -= 10
    first = (f"{plural(e.page_errors, 'uncaught error')} ({len(uncaught)} distinct), {plural(e.console_errors, 'console error')} and "
             f"{plural(len(e.failed_requests), 'failed request')} were recorded")  # three counts: always "were"
    if uncaught:
        first += f"; first: {uncaught[0].split(': ', 1)[-1][:90]}"
    second = (f"The game's frame loop ran at a median {fps:.0f} frames per second" if fps is not None
              else "The game drew no animation frames (it redraws only on input, or not at all)")
    if e.frozen_seconds:
        second += f", and stopped for {e.frozen_seconds:.0f} s"
    third = f"{plural(e.long_tasks, 'long task')} blocked the page for {e.long_task_ms:.0f} ms in all"
    if e.third_party_failures:
        third += (f"; {plural(len(e.third_party_failures), 'third-party request')} failed (adverts, analytics, fonts:"
                  " the page's environment, not counted against the game)")
    third += "."
    return MetricScore(name="technical", score=_clamp(score), justification=f"{first}. {second}. {third}")
