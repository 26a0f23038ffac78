"""Game and tournament totals (rules §4.3, §4.5, §4.6, §5; §10 cases 7 and 8)."""

from decimal import Decimal

import pytest

from engine.duplicate.proposals import Outcome, make_outcome
from engine.duplicate.totals import (
    GameScores,
    PlayerGame,
    TotalsSettings,
    apply_moyenne,
    format_negatif,
    game_result,
    game_standings,
    percent_of_top,
    player_game,
    player_game_next,
    solo_winner,
    tournament_standings,
)
from engine.errors import EngineError


def ok(score: int) -> Outcome:
    return make_outcome("valid", "ok", score, score)


def warned(score: int) -> Outcome:
    return make_outcome("warning", "warning.score_wrong", score, score)


def penalised(claimed: int) -> Outcome:
    return make_outcome("penalty", "penalty.wrong_reference", claimed - 5, claimed)


def zero(code: str = "zero.no_proposal") -> Outcome:
    return make_outcome("zero", code, 0, 0)


def invalid(*words: str, proposed: int | None = 20) -> Outcome:
    return make_outcome(
        "zero", "zero.invalid_word", 0, 0, invalid_words=words, proposed=proposed, word=words[0]
    )


def one_round(scores: dict, top: int = 60, **kw) -> GameScores:
    return GameScores((top,), {p: (o,) for p, o in scores.items()}, **kw)


# --- solos (§4.6, §10 case 7) ----------------------------------------------------------


def test_solo_with_sixteen_players_earns_ten() -> None:
    # 50 by one player, 48 next, 14 more at 10: 16 counted -> +10 to the 50.
    scores = {"a": ok(50), "b": ok(48), **{f"p{i}": ok(10) for i in range(14)}}
    result = game_result(one_round(scores))
    a = result.player("a")
    assert a is not None
    assert (a.solo_rounds, a.solo_bonus, a.total) == ((1,), 10, 60)
    assert result.counted == (16,)
    assert result.player("b").solo_rounds == ()


def test_solo_with_fifteen_players_is_recorded_without_bonus() -> None:
    scores = {"a": ok(50), "b": ok(48), **{f"p{i}": ok(10) for i in range(13)}}
    a = game_result(one_round(scores)).player("a")
    assert (a.solo_rounds, a.solo_bonus, a.total) == ((1,), 0, 50)
    # A multi-centre event counts every player of the competition when told to.
    wide = TotalsSettings(solo_players=200)
    assert game_result(one_round(scores), wide).player("a").solo_bonus == 10


def test_no_solo_on_a_shared_best_and_one_among_zeros() -> None:
    assert solo_winner({"a": 50, "b": 50, "c": 20}) is None
    assert solo_winner({"a": 0, "b": 7, "c": 0}) == "b"
    assert solo_winner({"a": 0, "b": 0}) is None
    assert solo_winner({"a": 12}) is None  # nobody to beat


def test_solo_compares_scores_before_the_five_point_penalty() -> None:
    # a: 32 claimed at a wrong place -> 27 paid, but 32 > 30: the solo is a's.
    result = game_result(one_round({"a": penalised(32), "b": ok(30), "c": ok(30)}))
    assert result.player("a").solo_rounds == (1,)
    assert result.player("a").penalties == 1


def test_absent_and_late_players_are_not_counted() -> None:
    scores = GameScores(
        (40, 40),
        {"a": (ok(20), ok(20)), "b": (None, ok(10)), "c": (ok(30), ok(5))},
        arrivals={"c": 2},
    )
    result = game_result(scores)
    # Round 1: b absent, c not yet arrived (his 30 does not count): a alone -> no solo.
    assert result.counted == (1, 3)
    assert result.player("c").rounds == (0, 5)
    assert result.player("a").solo_rounds == (2,)
    assert result.entrants == 3


def test_sixteen_player_threshold_counts_the_players_of_the_game() -> None:
    # Issue 12: 16 players registered for the game, one arrives at round 2. Round 1's
    # solo (15 present) still earns 10: the competition has 16 players (§4.6).
    others = {f"p{i}": (ok(10), ok(10)) for i in range(13)}
    scores = GameScores(
        (60, 60),
        {"a": (ok(50), ok(10)), "b": (ok(48), ok(10)), "late": (None, ok(5)), **others},
        arrivals={"late": 2},
    )
    result = game_result(scores)
    assert (result.counted, result.entrants) == ((15, 16), 16)
    assert result.player("a").solo_bonus == 10
    # A player of a later game (absent from every round) is not an entrant of this one.
    fifteen = {k: v for k, v in scores.players.items() if k != "late"}
    fifteen["later"] = (None, None)
    assert game_result(GameScores((60, 60), fifteen)).player("a").solo_bonus == 0


# --- warnings (§4.3, §10 case 8) -------------------------------------------------------


def warnings_game(n: int, rounds: int = 8) -> GameScores:
    outcomes = tuple(warned(10) if i < n else ok(10) for i in range(rounds))
    return GameScores((20,) * rounds, {"a": outcomes})


@pytest.mark.parametrize(("n", "penalty"), [(1, 0), (2, 0), (3, 0), (4, 5), (5, 10), (6, 15)])
def test_fourth_warning_and_each_later_one_cost_five(n: int, penalty: int) -> None:
    a = game_result(warnings_game(n)).player("a")
    assert (a.warnings, a.warning_penalty, a.total) == (n, penalty, 80 - penalty)


@pytest.mark.parametrize(("n", "penalty"), [(4, 0), (5, 0), (6, 5), (7, 10)])
def test_blitz_penalises_from_the_sixth_warning(n: int, penalty: int) -> None:
    blitz = TotalsSettings(warning_penalty_from=6)
    assert game_result(warnings_game(n), blitz).player("a").warning_penalty == penalty


def test_semi_rapide_penalises_from_the_fourth_warning() -> None:
    # §4.3: only blitz and the original formulas wait for the 6th, not semi-rapide.
    from engine.duplicate.variants import get_variant

    semi = TotalsSettings.from_variant(get_variant("semi-rapid"))
    assert game_result(warnings_game(4), semi).player("a").warning_penalty == 5
    for code in ("blitz", "joker", "7sur8", "7et8", "789"):
        assert get_variant(code).warning_penalty_from == 6, code
    assert get_variant("standard").warning_penalty_from == 4


def test_settings_follow_the_variant_and_refuse_unknown_tie_breaks() -> None:
    class Blitz:
        warning_penalty_from = 6

    assert TotalsSettings.from_variant(Blitz()).warning_penalty_from == 6
    with pytest.raises(EngineError) as error:
        TotalsSettings(tie_break="coin")
    assert error.value.code == "totals.tie_break"


def test_disciplinary_warning_stacks_on_a_round_warning() -> None:
    # Warnings on rounds 1-3 plus a disciplinary one on round 3: the 4th costs 5.
    scores = warnings_game(3)
    scores = GameScores(scores.tops, scores.players, disciplinary={"a": (3,)})
    a = game_result(scores).player("a")
    assert (a.warnings, a.warning_penalty) == (4, 5)


# --- moyenne (§4.5) --------------------------------------------------------------------


def test_moyenne_pays_the_rounded_down_average_capped_at_the_proposal() -> None:
    # Others on the arbiter's sheet: 10, 15, 0 (another moyenne excluded): 25 / 3 -> 8.
    others = [ok(10), ok(15), zero(), make_outcome("valid", "moyenne", 40, 40)]
    outcome = apply_moyenne(earlier=invalid("ZZZ"), later=invalid("ZZZ"), others=others)
    assert (outcome.kind, outcome.code, outcome.score) == ("valid", "moyenne", 8)
    capped = apply_moyenne(earlier=invalid("ZZZ"), later=invalid("ZZZ", proposed=5), others=others)
    assert capped.score == 5
    assert "ZZZ" in capped.reason


def test_moyenne_is_refused_for_other_faults() -> None:
    cases = [
        (invalid("ZZZ"), zero("zero.placement"), "moyenne.not_invalid_word"),
        (zero("zero.letters"), invalid("ZZZ"), "moyenne.not_invalid_word"),
        (invalid("ZZZ"), invalid("YYY"), "moyenne.different_word"),
        (invalid("ZZZ"), invalid("ZZZ", "YYY"), "moyenne.other_fault"),
    ]
    for earlier, later, code in cases:
        with pytest.raises(EngineError) as error:
            apply_moyenne(earlier=earlier, later=later, others=[ok(10)])
        assert error.value.code == code
    with pytest.raises(EngineError) as error:
        apply_moyenne(earlier=invalid("ZZZ"), later=invalid("ZZZ"), others=[])
    assert error.value.code == "moyenne.no_group"


# --- rankings (§5) ---------------------------------------------------------------------


def test_ex_aequo_share_the_rank_and_the_next_skips() -> None:
    # Tops 50 + 50 = 100. Totals: a 90, b 75, c 75, d 60 -> ranks 1, 2, 2, 4.
    scores = GameScores(
        (50, 50),
        {
            "a": (ok(50), ok(40)),
            "b": (ok(45), ok(30)),
            "c": (ok(30), ok(45)),
            "d": (ok(30), ok(30)),
        },
    )
    standings = game_standings(game_result(scores, TotalsSettings(solo_min_players=99)))
    assert [(s.player_id, s.rank, s.total) for s in standings] == [
        ("a", 1, 90),
        ("b", 2, 75),
        ("c", 2, 75),
        ("d", 4, 60),
    ]
    # Négatif: total - top total, with its sign; percentage of the top to two decimals.
    assert [s.negatif_text for s in standings] == ["-10", "-25", "-25", "-40"]
    assert [str(s.percent) for s in standings] == ["90.00", "75.00", "75.00", "60.00"]


def test_negatif_and_percentage_formats() -> None:
    assert format_negatif(-25) == "-25"
    assert format_negatif(0) == "0"
    assert format_negatif(10) == "+10"  # solos can lift a player above the top
    assert percent_of_top(790, 800) == Decimal("98.75")
    assert percent_of_top(2, 3) == Decimal("66.67")
    assert percent_of_top(1, 32) == Decimal("3.13")  # 3.125: half rounded up
    assert percent_of_top(0, 0) == Decimal("0.00")


def test_top_player_has_negatif_zero() -> None:
    result = game_result(one_round({"a": ok(60), "b": ok(20)}))
    top = game_standings(result)[0]
    assert (top.player_id, top.negatif_text, top.percent) == ("a", "0", Decimal("100.00"))


def two_games(first: dict, second: dict) -> list:
    def game(scores: dict):
        return game_result(GameScores((50, 50), scores), TotalsSettings(solo_min_players=99))

    return [game(first), game(second)]


def test_tournament_sums_games_and_shares_ties_by_default() -> None:
    # a: 60 + 80 = 140, b: 90 + 50 = 140, c: 50 + 0 (absent from game 2) = 50.
    games = two_games(
        {"a": (ok(30), ok(30)), "b": (ok(45), ok(45)), "c": (ok(25), ok(25))},
        {"a": (ok(40), ok(40)), "b": (ok(25), ok(25))},
    )
    standings = tournament_standings(games)
    assert [(s.player_id, s.rank, s.total, s.negatif) for s in standings] == [
        ("a", 1, 140, -60),
        ("b", 1, 140, -60),
        ("c", 3, 50, -150),
    ]


def test_tie_break_on_the_last_game_then_its_last_moves() -> None:
    last = TotalsSettings(tie_break="last_game_then_last_moves")
    games = two_games(
        {"a": (ok(30), ok(30)), "b": (ok(45), ok(45))},
        {"a": (ok(40), ok(40)), "b": (ok(25), ok(25))},
    )
    # Equal 140: a scored 80 in the last game, b 50 -> a first.
    assert [(s.player_id, s.rank) for s in tournament_standings(games, last)] == [
        ("a", 1),
        ("b", 2),
    ]
    # Equal totals and equal last game (60): the last move decides (b 40 > a 20).
    games = two_games(
        {"a": (ok(40), ok(40)), "b": (ok(40), ok(40))},
        {"a": (ok(40), ok(20)), "b": (ok(20), ok(40))},
    )
    assert [(s.player_id, s.rank) for s in tournament_standings(games, last)] == [
        ("b", 1),
        ("a", 2),
    ]
    # Identical to the end: still ex aequo.
    same = two_games(
        {"a": (ok(1), ok(2)), "b": (ok(1), ok(2))}, {"a": (ok(3), ok(4)), "b": (ok(3), ok(4))}
    )
    assert [s.rank for s in tournament_standings(same, last)] == [1, 1]


def test_game_total_adds_solos_and_subtracts_warning_penalties() -> None:
    # 4 rounds, 16 players; "a" has a solo on round 1 (+10) and 4 warnings (-5).
    others = {f"p{i}": (ok(10),) * 4 for i in range(15)}
    scores = GameScores((60,) * 4, {"a": (warned(50),) + (warned(10),) * 3, **others})
    a = game_result(scores).player("a")
    assert (sum(a.rounds), a.solo_bonus, a.warning_penalty, a.total) == (80, 10, 5, 85)
    line = game_standings(game_result(scores))[0]
    assert (line.player_id, line.solos, line.warnings, line.negatif) == ("a", 1, 4, -155)


def test_a_game_grown_a_round_at_a_time_equals_the_whole_game() -> None:
    """``player_game_next`` (a close updates the stored line) gives what ``player_game``
    gives over every round: scores, solos, warnings (the 4th and later cost 5, §4.3),
    penalties, bonus and total."""
    settings = TotalsSettings(warning_penalty_from=2)
    rounds: list[Outcome | None] = [
        Outcome("valid", 26, 26, "ok", ""),
        None,  # absent (arrived later)
        Outcome("warning", 70, 70, "warning.reference", ""),
        Outcome("penalty", 40, 45, "penalty", ""),
        Outcome("zero", 0, 0, "zero.penalty_small", ""),
        Outcome("warning", 12, 12, "warning.score", ""),
    ]
    solos, disciplinary = {3}, {4: 1}
    grown = PlayerGame("anne", (), (), 0, 0, 0, 0, 0)
    for position, outcome in enumerate(rounds, start=1):
        grown = player_game_next(
            grown, outcome, solo=position if position in solos else None,
            disciplinary=disciplinary.get(position, 0), paid=True, settings=settings,
        )  # fmt: skip
    whole = player_game("anne", rounds, solo_rounds=[3], disciplinary=1, paid=True,
                        settings=settings)  # fmt: skip
    assert grown == whole
    # By hand: 26 + 0 + 70 + 40 + 0 + 12 = 148, solo 10; warnings 2 + 1 disciplinary = 3,
    # from the 2nd: 2 × 5 = 10; penalties: the penalty and the small-penalty zero, 2.
    assert (whole.total, whole.warnings, whole.warning_penalty, whole.penalties) == (148, 3, 10, 2)
