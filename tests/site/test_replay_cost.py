"""Drawing, placing and cancelling read the stored tops (issue 20): the game is replayed
under its lock without a move search for any past round.

Every search of the engine goes through ``engine.movegen.find_top`` (the finder of
``engine_top_finder``); the test counts its calls. Seed 7 on the conformance list
(tests/site/test_game_services.py)."""

from __future__ import annotations

from typing import Any

import pytest

import engine.movegen
from tests.scenario import new_game
from tournaments import adapter
from tournaments.models.choices import RoundState
from tournaments.services import (
    round_cancel,
    round_close,
    round_compute_top,
    round_draw,
    round_open,
    round_place_top,
)
from tournaments.services.rounds import lexicon_of, rounds_until

pytestmark = pytest.mark.django_db

SEED = 7


@pytest.fixture
def searches(monkeypatch) -> list[int]:
    """The number of top searches made so far, one item per search."""
    calls: list[int] = []
    real = engine.movegen.find_top

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.movegen, "find_top", counted)
    return calls


def test_drawing_and_placing_round_n_search_no_past_round(tournament_setup, searches) -> None:
    arbiter = tournament_setup["arbiter"]
    play = new_game(tournament_setup, seed=SEED)
    game = play.game
    for _ in range(4):
        play.play(top=True)
    # Round 5: its draw searches its own rack only (one search per rack kept or refused
    # for want of a move); the four placed rounds before it are read, not searched.
    searches.clear()
    rnd = round_draw(game_id=game.pk, actor=arbiter)
    drawn = 1 + sum(1 for d in rnd.rejections if d["rejected"] == "no_move")
    assert len(searches) == drawn
    # Computing its top replays the game: one search, round 5's own.
    searches.clear()
    rnd = round_compute_top(round_id=round_open(round_id=rnd.pk, actor=arbiter).pk, actor=arbiter)
    assert len(searches) == 1
    # Placing it and cancelling it read every top, its own included: no search at all.
    round_close(round_id=rnd.pk, actor=arbiter)
    searches.clear()
    round_place_top(round_id=rnd.pk, actor=arbiter)
    assert searches == []
    round_cancel(round_id=rnd.pk, reason="Lettre tombée du sac", actor=arbiter, redraw=False)
    assert searches == []
    # The replayed game is the one the searches built: same board, same cumulative top.
    replayed = adapter.engine_game(game, rounds_until(game, 10**6), lexicon_of(game))
    assert searches == []
    placed = [r for r in game.rounds.order_by("number") if r.state != RoundState.CANCELLED]
    assert replayed.cumulative == sum(r.top_score for r in placed)


def test_a_stored_top_that_is_not_legal_stops_the_replay(tournament_setup) -> None:
    """The stored top is checked on the board (a cheap check, not a search): a tampered
    row is a bug the replay reports, never a move silently placed."""
    play = new_game(tournament_setup, seed=SEED)
    game = play.game
    play.play(top=True)
    rnd = game.rounds.get(number=1)
    top = dict(rnd.top)
    # H4 HAINES is worth 26 (tests/site/test_judging.py); stored as 27 it cannot be legal.
    top["tied"] = [{**m, "score": 27} for m in top["tied"]]
    type(rnd).objects.filter(pk=rnd.pk).update(top=top)
    with pytest.raises(RuntimeError, match="not legal"):
        adapter.engine_game(game, rounds_until(game, 10**6), lexicon_of(game))
