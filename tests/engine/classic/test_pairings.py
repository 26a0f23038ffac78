"""Pairing systems of a classic tournament: hand-checked small cases, Berger tables, the
Swiss search on a large field, and properties over random histories."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.classic.pairings import (
    SYSTEMS,
    Table,
    berger,
    check_manual,
    fontes_groups,
    pair_round,
)
from engine.classic.standings import Result
from engine.errors import EngineError


def _play(tables: tuple[Table, ...], rnd: int, rng: random.Random) -> list[Result]:
    out = []
    for t in tables:
        if t.second is None:
            out.append(Result(rnd, t.first, None))
        else:
            out.append(Result(rnd, t.first, t.second, rng.randint(250, 550), rng.randint(250, 550)))
    return out


def _run(system: str, count: int, rounds: int, seed: int = 1, **kw) -> list[Result]:
    rng = random.Random(seed)
    players, results = list(range(count)), []
    for rnd in range(1, rounds + 1):
        results += _play(pair_round(system, players, results, round_number=rnd, **kw), rnd, rng)
    return results


def _pairs(results: list[Result]) -> Counter:
    return Counter(frozenset(r.players) for r in results if r.second is not None)


def test_berger_table_of_six_players_matches_the_published_table() -> None:
    # The Berger table for 6 (numbered 1..6): round 1 1-6 2-5 3-4; round 2 6-4 5-3 1-2;
    # round 3 2-6 3-1 4-5; round 4 6-5 1-4 2-3; round 5 3-6 4-2 5-1.
    published = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    for rnd, expected in enumerate(published, start=1):
        assert [(a + 1, b + 1) for a, b in berger(6, rnd)] == expected


@pytest.mark.parametrize("count", [4, 5, 8, 11, 12])
def test_round_robin_pairs_every_pair_exactly_once(count: int) -> None:
    rounds = count - 1 if count % 2 == 0 else count
    results = _run("round_robin", count, rounds)
    assert set(_pairs(results).values()) == {1}
    assert len(_pairs(results)) == count * (count - 1) // 2
    byes = Counter(r.first for r in results if r.second is None)
    assert byes == (Counter(range(count)) if count % 2 else Counter())


def test_swiss_on_8_rounds_of_40_players_never_repeats_a_pairing() -> None:
    for seed in range(5):
        results = _run("swiss", 40, 8, seed=seed)
        assert max(_pairs(results).values()) == 1
        per_round = Counter(r.round for r in results)
        assert set(per_round.values()) == {20}


def test_swiss_round_one_folds_the_single_score_group() -> None:
    tables = pair_round("swiss", list(range(8)), round_number=1)
    assert [{t.first, t.second} for t in tables] == [{0, 4}, {1, 5}, {2, 6}, {3, 7}]


def test_swiss_pairs_within_score_groups_and_floats_the_odd_one_down() -> None:
    # Round 1: 0-1, 2-3, 4-5 won by 0, 2, 4: the winners' group {0, 2, 4} is odd.
    r1 = [Result(1, 0, 1, 400, 300), Result(1, 2, 3, 410, 300), Result(1, 4, 5, 420, 300)]
    tables = pair_round("swiss", list(range(6)), r1, round_number=2)
    # Standings: 4 (+120), 2 (+110), 0 (+100), then 1, 3, 5 (-100, -110, -120).
    # Group {4, 2, 0}: 4 meets 2 (the top of the lower half); 0 floats down, where its
    # first choice 1 is a repeat, so it meets 3; then 1 meets 5.
    assert [{t.first, t.second} for t in tables] == [{4, 2}, {0, 3}, {1, 5}]


def test_swiss_backtracks_out_of_a_dead_end() -> None:
    # Six players, two rounds played; the pairs that met are 3-2, 5-4, 1-0, 4-2, 0-5, 3-1.
    history = [
        Result(1, 3, 2, 381, 359), Result(1, 5, 4, 397, 353), Result(1, 1, 0, 326, 327),
        Result(2, 4, 2, 325, 303), Result(2, 0, 5, 352, 330), Result(2, 3, 1, 308, 312),
    ]  # fmt: skip
    # Standings: 0 (2 wins); 5 (+22), 3 (+18), 1 (+3), 4 (-22) with 1 win; 2 (0 wins).
    # A greedy pass pairs 0-3 (0 met 5), then 5-1 (the fold of 5, 3, 1, 4 minus 3), and is
    # left with 4-2, who met in round 2. The search undoes 5-1: 0-3, 5-2, 1-4.
    tables = pair_round("swiss", list(range(6)), history, round_number=3)
    assert [{t.first, t.second} for t in tables] == [{0, 3}, {5, 2}, {1, 4}]


def test_swiss_allows_the_fewest_repeats_when_none_can_be_avoided() -> None:
    results = _run("swiss", 4, 5)
    counts = _pairs(results)
    assert len(counts) == 6  # every pair met before any met a third time
    assert max(counts.values()) - min(counts.values()) <= 1


def test_bye_goes_to_the_lowest_player_without_a_bye_and_counts_a_win() -> None:
    r1 = [Result(1, 0, 1, 400, 300), Result(1, 2, 3, 400, 300), Result(1, 4, None)]
    tables = pair_round("swiss", list(range(5)), r1, round_number=2)
    bye = [t for t in tables if t.second is None]
    # 4 had the bye. 1 and 3 are equal on wins (0), spread (-100), Buchholz (their
    # opponents won once) and points (300): seeding puts 3 below 1, so 3 has the bye.
    assert len(bye) == 1 and bye[0].first == 3
    assert bye[0].number == 3


def test_king_of_the_hill_pairs_neighbours_in_the_standings() -> None:
    r1 = [Result(1, 0, 1, 400, 300), Result(1, 2, 3, 450, 300)]
    tables = pair_round("king_of_the_hill", [0, 1, 2, 3], r1, round_number=2)
    # Standings 2 (+150), 0 (+100), 1 (-100), 3 (-150): 2-0 and 1-3, repeats allowed.
    assert [{t.first, t.second} for t in tables] == [{2, 0}, {1, 3}]


def test_initial_fontes_groups_take_one_player_of_each_band() -> None:
    # 12 players, 3 rounds: bands of 3 (0-2, 3-5, 6-8, 9-11); group g = g, g+3, g+6, g+9.
    assert fontes_groups(list(range(12)), 3) == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    results = _run("initial_fontes", 12, 3, fontes_rounds=3)
    groups = [{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 11}]
    pairs = _pairs(results)
    assert all(any(p <= g for g in groups) for p in pairs)
    assert len(pairs) == 18 and set(pairs.values()) == {1}  # 3 groups × 6 pairs, once each


def test_initial_fontes_turns_swiss_after_its_rounds() -> None:
    results = _run("initial_fontes", 12, 6, fontes_rounds=3)
    assert max(_pairs(results).values()) == 1


def test_initial_fontes_needs_an_odd_number_of_rounds() -> None:
    with pytest.raises(EngineError) as err:
        pair_round("initial_fontes", list(range(8)), round_number=1, fontes_rounds=2)
    assert err.value.code == "pairing.fontes_rounds"


def test_random_pairing_is_seeded() -> None:
    a = pair_round("random", list(range(10)), round_number=1, seed=4)
    b = pair_round("random", list(range(10)), round_number=1, seed=4)
    c = pair_round("random", list(range(10)), round_number=1, seed=5)
    assert a == b and a != c


def test_manual_pairing_is_checked() -> None:
    assert check_manual([1, 2, 3], [(1, 2), (3, None)]) == [(1, 2), (3, None)]
    for bad in ([(1, 2)], [(1, 2), (2, 3)], [(1, None), (2, None), (3, None)]):
        with pytest.raises(EngineError):
            check_manual([1, 2, 3], bad)
    tables = pair_round("manual", [1, 2, 3, 4], round_number=1, manual=[(4, 1), (2, 3)])
    assert [{t.first, t.second} for t in tables] == [{1, 4}, {2, 3}]


def test_first_player_balancing() -> None:
    # Round 1: 0 and 2 started. Round 2 (King of the Hill): 0 (+100) meets 2 (+150), who
    # both started once and started their last game: the better placed, 2, starts; 1
    # and 3 never started, both started not: 1, better placed (-100 against -150), starts.
    r1 = [Result(1, 0, 1, 400, 300), Result(1, 2, 3, 450, 300)]
    t2 = pair_round("king_of_the_hill", [0, 1, 2, 3], r1, round_number=2)
    assert [(t.first, t.second) for t in t2] == [(2, 0), (1, 3)]
    # Round 3: starts so far 0: 1, 1: 1, 2: 2, 3: 0. Whoever meets 3 or 2, the one
    # with fewer starts begins.
    r2 = [Result(2, 2, 0, 400, 300), Result(2, 1, 3, 400, 300)]
    t3 = pair_round("swiss", [0, 1, 2, 3], r1 + r2, round_number=3)
    starts = Counter(r.first for r in r1 + r2)
    assert starts == Counter({2: 2, 0: 1, 1: 1})
    for t in t3:
        assert t.second is not None and starts[t.first] <= starts[t.second]


def test_first_player_balancing_over_a_whole_round_robin() -> None:
    results = _run("round_robin", 8, 7)
    starts = Counter(r.first for r in results)
    assert max(starts.values()) - min(starts.values()) <= 1


def test_unknown_system_and_bad_history_are_refused() -> None:
    with pytest.raises(EngineError) as err:
        pair_round("danish", [1, 2], round_number=1)
    assert err.value.code == "pairing.system"
    with pytest.raises(EngineError) as err:
        pair_round("swiss", [1, 2, 3, 4], [Result(1, 1, 2), Result(1, 2, 3)], round_number=2)
    assert err.value.code == "pairing.twice"


def _repeat_free_exists(players: list[int], met: set[frozenset[int]]) -> bool:
    """Brute force: is there a pairing (plus one bye if odd) with no pair that met?"""
    if len(players) <= 1:
        return True
    if len(players) % 2:
        return any(_repeat_free_exists([p for p in players if p != b], met) for b in players)
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, q)) not in met and _repeat_free_exists([x for x in rest if x != q], met)
        for q in rest
    )


histories = st.integers(min_value=2, max_value=9).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.integers(min_value=0, max_value=n),
        st.integers(min_value=0, max_value=2**32),
        st.sampled_from([s for s in SYSTEMS if s != "manual"]),
    )
)


@settings(max_examples=150, deadline=None)
@given(histories)
def test_every_player_is_paired_once_or_has_the_bye(case: tuple[int, int, int, str]) -> None:
    count, rounds, seed, system = case
    kw = {"fontes_rounds": 1} if system == "initial_fontes" else {}
    results = _run(system, count, rounds, seed=seed, **kw)
    tables = pair_round(system, list(range(count)), results, round_number=rounds + 1,
                        seed=seed, **kw)  # fmt: skip
    seated = [p for t in tables for p in (t.first, t.second) if p is not None]
    assert sorted(seated) == list(range(count))
    assert sum(t.second is None for t in tables) == count % 2
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    if system in ("swiss", "random") and count <= 8:
        met = {frozenset(r.players) for r in results if r.second is not None}
        if _repeat_free_exists(list(range(count)), met):
            assert all(frozenset((t.first, t.second)) not in met for t in tables if t.second)


def test_an_odd_field_of_41_is_paired_for_8_rounds_by_every_system() -> None:
    for system in ("swiss", "random", "king_of_the_hill", "initial_fontes"):
        results = _run(system, 41, 8, fontes_rounds=3)
        assert len({r.round for r in results}) == 8


def test_the_brute_force_sees_a_field_that_cannot_avoid_repeats() -> None:
    met = {frozenset(p) for p in itertools.combinations(range(3), 2)} | {frozenset({0, 3})}
    assert not _repeat_free_exists([0, 1, 2, 3], met)  # 0 met everyone
    assert _repeat_free_exists([0, 1, 2, 3], {frozenset({0, 1}), frozenset({2, 3})})
