"""The arbiter's decisions as engine values (rules §4.3-4.5, §5.8): expected scores by hand."""

from __future__ import annotations

import pytest

from engine.duplicate.decisions import (
    ArbiterDecision,
    PlayerRound,
    apply_decision,
    counted_outcome,
)
from engine.duplicate.proposals import make_outcome
from engine.duplicate.totals import GameScores, TotalsSettings, game_result
from engine.errors import EngineError

VALID = make_outcome("valid", "ok", 30, 30, word="MARQUE", reference="H4")
PENALISED = make_outcome("penalty", "penalty.wrong_reference", 3, 8, word="AS", reference="H4")
ZERO = make_outcome("zero", "zero.invalid_word", 0, 0, word="ZZZ", invalid_words=["ZZZ"])


def test_warning_only_on_a_valid_round() -> None:
    warning = ArbiterDecision("warning", "bavardage")
    # §5.8: one warning per round, never on a penalty or a zero; the score stays.
    assert (apply_decision(VALID, warning).kind, apply_decision(VALID, warning).score) == (
        "warning",
        30,
    )
    assert apply_decision(PENALISED, warning) is PENALISED
    assert apply_decision(ZERO, warning) is ZERO
    # A disciplinary warning leaves the round alone: it is counted beside it (§4.3).
    assert apply_decision(VALID, ArbiterDecision("warning", "x", disciplinary=True)) is VALID


def test_penalty_and_zero() -> None:
    penalty = apply_decision(VALID, ArbiterDecision("penalty", "retard"))
    assert (penalty.kind, penalty.score, penalty.raw_score) == ("penalty", 25, 30)  # 30 - 5
    # Floored at 0 (§4.2: no negative round), the raw score kept for solos.
    small = apply_decision(PENALISED, ArbiterDecision("penalty", "x"))
    assert (small.score, small.raw_score) == (0, 8)
    # The penalty's points are a parameter of the decision.
    assert apply_decision(VALID, ArbiterDecision("penalty", "x", points=10)).score == 20
    zero = apply_decision(VALID, ArbiterDecision("zero", "illisible"))
    assert (zero.kind, zero.score, zero.raw_score, zero.code) == ("zero", 0, 0, "zero.arbiter")


def test_moyenne_pays_the_kept_score_and_the_order_counts() -> None:
    moyenne = ArbiterDecision("moyenne", "mot répété", score=15,
                              params={"word": "ZZZ", "invalid_words": ["ZZZ"]})  # fmt: skip
    paid = counted_outcome(ZERO, decisions=[moyenne])
    assert (paid.kind, paid.code, paid.score, paid.invalid_words) == (
        "valid", "moyenne", 15, ("ZZZ",))  # fmt: skip
    # Then a penalty: 15 - 5; the other way round the moyenne replaces the penalty.
    penalty = ArbiterDecision("penalty", "x")
    assert counted_outcome(ZERO, decisions=[moyenne, penalty]).score == 10
    assert counted_outcome(ZERO, decisions=[penalty, moyenne]).score == 15


def test_review_comes_before_the_decisions() -> None:
    from dataclasses import replace

    waiting = replace(PENALISED, review="fallacieux", alternative=ZERO)
    assert counted_outcome(waiting, review="alternative") is ZERO
    assert counted_outcome(waiting, review="default").score == 3
    line = PlayerRound(None, waiting, "default", (ArbiterDecision("penalty", "x"),))
    assert (line.counted.score, line.disciplinary) == (0, 0)


def test_json_round_trip_and_refusals() -> None:
    for decision in (
        ArbiterDecision("warning", "bavardage", disciplinary=True),
        ArbiterDecision("penalty", "retard", points=5),
        ArbiterDecision("moyenne", "répété", score=12, params={"word": "ZZZ", "cap": 20}),
    ):
        assert ArbiterDecision.from_json(decision.to_json()) == decision
    for kwargs, code in (
        ({"kind": "nonsense"}, "decision.kind"),
        ({"kind": "zero", "disciplinary": True}, "decision.disciplinary"),
        ({"kind": "moyenne"}, "decision.moyenne_score"),
    ):
        with pytest.raises(EngineError) as caught:
            ArbiterDecision(**kwargs)
        assert caught.value.code == code


def test_disciplinary_warnings_count_in_the_totals() -> None:
    # Two players, one round: A 30 with a disciplinary warning; the 1st warning costs 5
    # here: 30 - 5 = 25, B 10.
    line = PlayerRound(None, VALID, None, (ArbiterDecision("warning", "x", disciplinary=True),))
    scores = GameScores(
        tops=(30,),
        players={"A": (line.counted,), "B": (make_outcome("valid", "ok", 10, 10),)},
        disciplinary={"A": (1,) * line.disciplinary},
    )
    result = game_result(scores, TotalsSettings(warning_penalty_from=1, solo_min_players=99))
    assert (result.player("A").total, result.player("A").warnings) == (25, 1)
    assert result.player("B").total == 10
