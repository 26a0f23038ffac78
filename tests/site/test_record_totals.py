"""A game's exported record and its totals come from the same outcomes (issue 20).

Seed 7 on the conformance list (tests/site/test_game_services.py): round 1 ESIUHAN, top
H4 HAINES 26; round 2 U+OEE?AF, top G6 AUlOFEE 70; round 3 YPUNASE, top 13C PAYES 45.
Three players, solos paid from 3 players (the fixture), scores not required, and here the
2nd warning of the game already costs 5 points. The game holds every kind of arbiter
decision (warning, disciplinary warning, penalty, zero, moyenne) and a late arrival; the
expected totals are computed by hand from the rules (../shared/rules/duplicate.md §4.2-4.6,
§5 K1), then the site's standings, the exported record's totals and the engine's replay of
that record (``python -m engine replay``) must all give them.
"""

from __future__ import annotations

import json

import pytest

from engine.cli import main as engine_main
from engine.duplicate.record import load_record
from engine.duplicate.scoresheet import check_totals, scoring_settings
from tests.scenario import new_game
from tournaments.models import Registration
from tournaments.selectors import game_outcomes, game_record
from tournaments.services import (
    decision_moyenne,
    decision_penalty,
    decision_warning,
    decision_zero,
)
from tournaments.services.registry import registration_arrive

pytestmark = pytest.mark.django_db

SEED = 7


def test_record_of_a_game_with_decisions_replays_to_the_same_totals(
    tournament_setup, conformance_lexicon_file, tmp_path, capsys
) -> None:
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    arbiter = setup["arbiter"]
    tournament = setup["tournament"]
    tournament.__class__.objects.filter(pk=tournament.pk).update(warning_penalty_from=2)
    play = new_game(setup, seed=SEED)
    game = play.game
    registration_arrive(registration_id=Registration.objects.get(player=chloe).pk,
                        game_number=1, round_number=2, actor=arbiter)  # fmt: skip
    say = {"reason": "décision de test", "actor": arbiter}

    # Round 1: Anne and Bruno find the top (26); Chloé's top counts 0, she arrives at
    # round 2 (§4.2). Bruno gets the arbiter's warning (still 26), Anne a disciplinary one.
    # Each round: drawn, opened with its top, the slips handed in, closed and placed; the
    # decisions are taken afterwards (the round stays closed).
    r1 = play.play({p: ("HAINES", "H4", None) for p in (anne, bruno, chloe)}, top=True)
    decision_warning(round_id=r1.pk, player_id=bruno.pk, **say)
    decision_warning(round_id=r1.pk, player_id=anne.pk, disciplinary=True, **say)

    # Round 2: Anne plays the top, 70, and gets a 5-point penalty: 65, raw 70 for solos.
    # Bruno's EUA at G9 is not a word: 0 (its value would be E on G9, DL, 2 + U 1 + A 1 +
    # the cross-word ES 2 + 1 = 7). Chloé's top is turned into a zero by the arbiter.
    r2 = play.play({anne: ("AUlOFEE", "G6", None), bruno: ("EUA", "G9", None),
                    chloe: ("AUlOFEE", "G6", None)}, top=True)  # fmt: skip
    decision_penalty(round_id=r2.pk, player_id=anne.pk, **say)
    decision_zero(round_id=r2.pk, player_id=chloe.pk, **say)

    # Round 3: Anne's top gets the arbiter's warning (45); Chloé writes the reference
    # inverted, C13: paid 45 with a warning. Bruno repeats EUA, at I7: a moyenne (§4.5),
    # the others' average (45 + 45) / 2 = 45 capped at his own move: EUA E on I7 (DL) 2 +
    # U 1 + A on I9 (DL) 2 = 5, cross-words UNE 1 + 1 + 2 = 4, lEU 0 + 1 + 1 = 2 (the
    # joker of AUlOFEE), OSA 1 + 1 + 2 = 4: 15.
    r3 = play.play({anne: ("PAYES", "13C", None), bruno: ("EUA", "I7", None),
                    chloe: ("PAYES", "C13", None)}, top=True)  # fmt: skip
    decision_warning(round_id=r3.pk, player_id=anne.pk, **say)
    decision_moyenne(round_id=r3.pk, player_id=bruno.pk, earlier_round_id=r2.pk, **say)

    # By hand (§4.3: the 2nd warning and each later one costs 5; §4.6: Anne's 70 on round
    # 2 is a solo, compared before the penalty, +10; K1: rounds + solos - warnings):
    # Anne 26 + 65 + 45 + 10 - 5 (2 warnings: disciplinary, then round 3) = 141;
    # Bruno 26 + 0 + 15 = 41 (1 warning); Chloé 0 + 0 + 45 = 45 (1 warning).
    expected = {
        anne.pk: {"total": 141, "solos": [2], "solo_bonus": 10, "warnings": 2,
                  "warning_penalty": 5, "penalties": 1},
        bruno.pk: {"total": 41, "solos": [], "solo_bonus": 0, "warnings": 1,
                   "warning_penalty": 0, "penalties": 0},
        chloe.pk: {"total": 45, "solos": [], "solo_bonus": 0, "warnings": 1,
                   "warning_penalty": 0, "penalties": 0},
    }  # fmt: skip

    result = game_outcomes(game)
    assert result.top_total == 26 + 70 + 45
    site = {
        p.player_id: {"total": p.total, "solos": list(p.solo_rounds), "solo_bonus": p.solo_bonus,
                      "warnings": p.warnings, "warning_penalty": p.warning_penalty,
                      "penalties": p.penalties}
        for p in result.players
    }  # fmt: skip
    assert site == expected

    record = game_record(game)
    recorded = {
        int(t["player"]): {k: v for k, v in t.items() if k != "player"}
        for t in record["totals"]["players"]
    }
    assert recorded == expected
    loaded = load_record(record)
    assert check_totals(loaded, scoring_settings(loaded)[1]) == []

    # The engine's command line replays the exported file: tops, every outcome judged
    # again with the decisions applied, and the totals.
    path = tmp_path / "partie.tirage.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    capsys.readouterr()
    status = engine_main(["replay", str(path), "--lexicon", str(conformance_lexicon_file)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "The record reproduces: 3 rounds, top total 141." in out


def test_refused_words_stored_as_prose_still_read() -> None:
    """Outcomes stored before the engine kept the refused words apart hold English prose
    (``"ZZZ and YYY"``); the adapter reads them as the tuple the moyenne compares."""
    from tournaments import adapter
    from tournaments.models import ProposalVersion

    old = ProposalVersion(outcome_kind="zero", outcome_score=0, outcome_raw_score=0,
                          outcome_code="zero.invalid_word", outcome_reason="",
                          outcome_params={"invalid": "ZZZ and YYY", "verb": "are"})  # fmt: skip
    assert adapter.outcome(old).invalid_words == ("ZZZ", "YYY")
    new = ProposalVersion(outcome_kind="zero", outcome_score=0, outcome_raw_score=0,
                          outcome_code="zero.invalid_word", outcome_reason="",
                          outcome_params={"invalid_words": ["ZZZ"]})  # fmt: skip
    assert adapter.outcome(new).invalid_words == ("ZZZ",)
