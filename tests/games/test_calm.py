"""What the game does left alone (the bar a control's probe must clear): a round in which the player was hit is an
event, not the game's usual motion. Found under load: when the ship lost a life while the game was watched, its
blink raised the bar above what the arrow keys make, and every working key was judged dead (controls 10/100)."""

from __future__ import annotations

import numpy as np

from studio.game.frames import Frame
from studio.game.looking import Look, PageChange
from studio.game.probing import Measured, calm_of, judge
from studio.models.game import ControlDiscovery


def watched(novel: int, *, lives: tuple[int, int] | None = None, appeared: set[str] | None = None,
            predictability: float = 0.33) -> Measured:
    look = Look(Frame(np.zeros((4, 4, 3), dtype=np.uint8), 0.0), {})
    counters = {"lives": lives} if lives else {}
    change = PageChange(counters=counters, appeared=appeared or set(), text=bool(lives))
    return Measured(novel=novel, predictability=predictability, surprise=20, share_act=0.02, share_idle=0.02,
                    change=change, idle_change=PageChange(), latency_ms=None, before=look, after=look, touch=None)


def test_a_round_in_which_the_player_was_hit_does_not_raise_the_bar():
    calm = calm_of([watched(5, lives=(3, 2)), watched(2), watched(2)])
    assert calm.novel == 2 and calm.novel_floor == 8  # with the hit's round, 17: above what the arrow keys make
    assert calm.counters_move == {"lives"} and calm.text_moves  # the page's own changes still count from every round
    key = ControlDiscovery(element_selector="key:ArrowLeft", action_type="keyboard", confidence=0.85,
                           discovered_at=0, kind="key", key="ArrowLeft", expected=True, purpose="play")
    assert judge("press ArrowLeft ×4", key, watched(12), calm).responded


def test_the_hit_counts_when_it_was_the_only_thing_watched_and_screen_words_are_events_too():
    assert calm_of([watched(5, lives=(3, 2)), watched(4, lives=(2, 1))]).novel == 4
    assert calm_of([watched(9, appeared={"game over"}), watched(2), watched(3)]).novel == 2


def test_a_blink_left_over_from_a_hit_before_the_watch_is_one_rounds_not_the_games():
    assert calm_of([watched(4), watched(4), watched(1)]).novel == 1  # measured: a 1.2 s blink spans two rounds
    assert calm_of([watched(6), watched(5), watched(5)]).novel == 5  # a game noisy in every round keeps its bar


def test_a_key_pressed_as_the_player_is_hit_is_not_judged_by_the_hits_blink():
    calm = calm_of([watched(0), watched(0), watched(1)])
    dead = ControlDiscovery(element_selector="key:ArrowUp", action_type="keyboard", confidence=0.85,
                            discovered_at=0, kind="key", key="ArrowUp", expected=True, purpose="play")
    assert judge("press ArrowUp ×4", dead, watched(9), calm).responded  # the same blocks with nothing else going on
    assert not judge("press ArrowUp ×4", dead, watched(9, lives=(2, 1)), calm).responded


def test_a_few_blocks_a_busy_game_changes_by_itself_are_no_answer():
    """Comet Dash with dead keys, measured: its own motion leaves 5 or 6 unexplained blocks now and then, while a key
    that moves the ship leaves 10 to 15."""
    calm = calm_of([watched(0), watched(0), watched(1)])
    dead = ControlDiscovery(element_selector="key:ArrowUp", action_type="keyboard", confidence=0.85,
                            discovered_at=0, kind="key", key="ArrowUp", expected=True, purpose="play")
    assert not judge("press ArrowUp ×4", dead, watched(6), calm).responded
    assert judge("press ArrowUp ×4", dead, watched(11), calm).responded
