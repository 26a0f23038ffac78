"""Standings of a classic tournament, computed by hand: wins (a tie is ½), spread, then the
chosen tie-breaks; byes and forfeits as the settings say."""

from __future__ import annotations

import pytest

from engine.classic.standings import Result, TournamentSettings, standings
from engine.errors import EngineError


def _line(rows, player):  # type: ignore[no-untyped-def]
    return next(r for r in rows if r.player == player)


def test_wins_then_spread_and_a_tie_counts_half() -> None:
    results = [
        Result(1, 1, 2, 400, 350),  # 1 wins +50
        Result(1, 3, 4, 380, 380),  # tie: ½ each
        Result(2, 1, 3, 300, 320),  # 3 wins +20
        Result(2, 2, 4, 410, 300),  # 2 wins +110
    ]
    rows = standings([1, 2, 3, 4], results)
    # 1: 1 win, +50-20 = +30; 2: 1 win, -50+110 = +60; 3: 1½, +20; 4: ½, -110.
    assert [(r.player, r.wins_text(), r.spread, r.rank) for r in rows] == [
        (3, "1½", 20, 1),
        (2, "1", 60, 2),
        (1, "1", 30, 3),
        (4, "½", -110, 4),
    ]
    assert _line(rows, 3).losses_halves == 1 and _line(rows, 4).losses_halves == 3


def test_bye_and_forfeit_score_what_the_settings_say() -> None:
    results = [Result(1, 1, None), Result(1, 2, 3, forfeit=3)]
    rows = standings([1, 2, 3], results, TournamentSettings(bye_halves=1, bye_spread=0,
                                                           forfeit_spread=100))  # fmt: skip
    assert [(r.player, r.halves, r.spread, r.byes) for r in rows] == [
        (2, 2, 100, 0),
        (1, 1, 0, 1),
        (3, 0, -100, 0),
    ]


def test_equal_on_everything_shares_the_rank() -> None:
    results = [Result(1, 1, 2, 400, 300), Result(1, 3, 4, 400, 300)]
    rows = standings([1, 2, 3, 4], results, TournamentSettings(tie_breaks=()))
    assert [(r.player, r.rank) for r in rows] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_buchholz_then_points_break_ties() -> None:
    results = [
        Result(1, 1, 2, 400, 300), Result(1, 3, 4, 500, 400),
        Result(2, 1, 3, 300, 400), Result(2, 2, 4, 400, 300),
    ]  # fmt: skip
    # 1: 1 win, +100-100 = 0; 2: 1 win, -100+100 = 0; equal. Buchholz: 1 met 2 (1 win)
    # and 3 (2 wins) = 3 wins = 6 halves; 2 met 1 (1) and 4 (0) = 2 halves.
    rows = standings([2, 1, 3, 4], results)
    assert [r.player for r in rows][1:3] == [1, 2]
    assert (_line(rows, 1).buchholz, _line(rows, 2).buchholz) == (6, 2)
    only_points = standings([1, 2, 3, 4], results, TournamentSettings(tie_breaks=("points",)))
    # Points: 1 scored 700, 2 scored 700: still equal, rank shared.
    assert (_line(only_points, 1).rank, _line(only_points, 2).rank) == (2, 2)


def test_head_to_head_decides_between_players_who_met() -> None:
    results = [Result(1, 1, 2, 300, 400), Result(2, 1, 3, 500, 400), Result(2, 2, 4, 300, 400)]
    # 4: 1 win, +100; 1: 1 win, -100+100 = 0; 2: 1 win, +100-100 = 0; 3: 0 wins.
    # 1 and 2 are equal on wins and spread; 2 beat 1.
    rows = standings([1, 2, 3, 4], results, TournamentSettings(tie_breaks=("head_to_head",)))
    assert [(r.player, r.rank) for r in rows] == [(4, 1), (2, 2), (1, 3), (3, 4)]
    plain = standings([1, 2, 3, 4], results, TournamentSettings(tie_breaks=()))
    assert [(r.player, r.rank) for r in plain] == [(4, 1), (1, 2), (2, 2), (3, 4)]


def test_settings_are_checked() -> None:
    with pytest.raises(EngineError) as err:
        TournamentSettings(tie_breaks=("coin",))
    assert err.value.code == "settings.tie_breaks"
    with pytest.raises(EngineError) as err:
        TournamentSettings(bye_halves=3)
    assert err.value.code == "settings.bye_halves"
