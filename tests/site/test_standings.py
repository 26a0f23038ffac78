"""Stored figures (issue 16): the rankings read rows written with each change, and they
equal both the engine's recomputation from the proposals and the totals worked out by hand.

Seed 7 on the conformance list (tests/site/test_game_services.py): round 1 ESIUHAN, top
H4 HAINES 26; round 2 U+OEE?AF, top G6 AUlOFEE 70; round 3 YPUNASE, top 13C PAYES 45.
Three players, solos paid from 3 players (the fixture), scores not required; here the 2nd
warning of the game already costs 5 points. Values by hand from ../shared/rules/duplicate.md
(§4.2 late arrival, §4.3 warnings, §4.4 penalty, §4.5 moyenne, §4.6 solos, §5 K1).
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.scenario import new_game
from tournaments.models import PlayerGameFigure, Registration, Tournament
from tournaments.selectors import game_ranking
from tournaments.selectors.figures_check import figures_differences
from tournaments.selectors.outcomes import computed_game_outcomes, stored_game_outcomes
from tournaments.services import (
    decision_moyenne,
    decision_penalty,
    decision_warning,
    decision_zero,
    proposal_correct,
    round_cancel,
)
from tournaments.services.registry import registration_arrive
from tournaments.services.standings import game_settings

pytestmark = pytest.mark.django_db


def _figures(game) -> dict[int, dict]:
    result = stored_game_outcomes(game, game_settings(game))
    assert result is not None
    return {
        p.player_id: {"total": p.total, "rounds": list(p.rounds), "solos": list(p.solo_rounds),
                      "warnings": p.warnings, "warning_penalty": p.warning_penalty,
                      "penalties": p.penalties}
        for p in result.players
    }  # fmt: skip


def _agree(game) -> None:
    assert figures_differences([game]) == []


def test_stored_figures_follow_every_change(tournament_setup) -> None:
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    arbiter = setup["arbiter"]
    Tournament.objects.filter(pk=setup["tournament"].pk).update(warning_penalty_from=2)
    play = new_game(setup)
    game = play.game
    say = {"reason": "décision de test", "actor": arbiter}
    registration_arrive(registration_id=Registration.objects.get(player=chloe).pk,
                        game_number=1, round_number=2, actor=arbiter)  # fmt: skip
    assert _figures(game)[anne.pk]["total"] == 0  # every registration has its line at once

    # Round 1: Bruno's slip HAINES at H5 (not the top) is corrected by the arbiter to H4
    # (26); Anne 26; Chloé's 26 counts 0, she arrives at round 2. Then Bruno's warning
    # (still 26) and Anne's disciplinary one. Three players at 26: no solo.
    r1 = play.play({anne: ("HAINES", "H4", None), bruno: ("HAINES", "4H", None),
                    chloe: ("HAINES", "H4", None)})  # fmt: skip
    proposal_correct(round_id=r1.pk, player_id=bruno.pk, word="HAINES", reference="H4",
                     reason="bulletin mal lu", actor=arbiter)  # fmt: skip
    assert _figures(game)[bruno.pk]["rounds"] == [26]
    decision_warning(round_id=r1.pk, player_id=bruno.pk, **say)
    decision_warning(round_id=r1.pk, player_id=anne.pk, disciplinary=True, **say)
    _agree(game)

    # Round 2: Anne plays the top, 70, then a 5-point penalty: 65 paid, raw 70 for solos,
    # the only non-zero score: a solo. Bruno's EUA at G9 is no word: 0. Chloé's top is
    # turned into a zero by the arbiter.
    r2 = play.play({anne: ("AUlOFEE", "G6", None), bruno: ("EUA", "G9", None),
                    chloe: ("AUlOFEE", "G6", None)})  # fmt: skip
    assert _figures(game)[anne.pk]["solos"] == []  # Chloé's 70 ties Anne's for now
    decision_zero(round_id=r2.pk, player_id=chloe.pk, **say)
    assert _figures(game)[anne.pk]["solos"] == [2]  # the zero leaves Anne alone at 70
    decision_penalty(round_id=r2.pk, player_id=anne.pk, **say)
    _agree(game)

    # Round 3: Anne's top gets the arbiter's warning (45); Chloé 45 with the reference
    # inverted (a warning); Bruno repeats EUA, at I7: a moyenne, (45 + 45) / 2 = 45
    # capped at his own move, 15 (tests/site/test_record_totals.py works it out).
    r3 = play.play({anne: ("PAYES", "13C", None), bruno: ("EUA", "I7", None),
                    chloe: ("PAYES", "C13", None)})  # fmt: skip
    decision_warning(round_id=r3.pk, player_id=anne.pk, **say)
    decision_moyenne(round_id=r3.pk, player_id=bruno.pk, earlier_round_id=r2.pk, **say)
    _agree(game)

    # Round 4 is played and closed (it counts), then cancelled: its points are void.
    r4 = play.open_round()
    play.propose(r4, anne, "ZZZ", "A1")
    play.close(r4)
    assert len(_figures(game)[anne.pk]["rounds"]) == 4
    round_cancel(round_id=r4.pk, reason="coup annulé", actor=arbiter, redraw=False)

    # By hand: Anne 26 + 65 + 45 + 10 (solo) - 5 (2nd warning: disciplinary, round 3) =
    # 141; Bruno 26 + 0 + 15 = 41 (1 warning); Chloé 0 (late) + 0 (zero) + 45 = 45.
    assert _figures(game) == {
        anne.pk: {"total": 141, "rounds": [26, 65, 45], "solos": [2], "warnings": 2,
                  "warning_penalty": 5, "penalties": 1},
        bruno.pk: {"total": 41, "rounds": [26, 0, 15], "solos": [], "warnings": 1,
                   "warning_penalty": 0, "penalties": 0},
        chloe.pk: {"total": 45, "rounds": [0, 0, 45], "solos": [], "warnings": 1,
                   "warning_penalty": 0, "penalties": 0},
    }  # fmt: skip
    computed = computed_game_outcomes(game)
    assert {p.player_id: p.total for p in computed.players} == {
        anne.pk: 141,
        bruno.pk: 41,
        chloe.pk: 45,
    }
    _agree(game)

    # The ranking reads the stored rows: no proposal or decision row is read (the game's
    # revision, which keys the per-process cache, only joins them to the audit log).
    with CaptureQueriesContext(connection) as queries:
        ranking = game_ranking(game)
    assert [(line.rank, line.total) for line in ranking.lines] == [(1, 141), (2, 45), (3, 41)]
    assert ranking.top_total == 26 + 70 + 45
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert 'FROM "tournaments_proposalversion"' not in sql
    assert 'FROM "tournaments_decision"' not in sql


def test_the_checker_lists_differences_in_french_and_repairs(tournament_setup, capsys) -> None:
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    play = new_game(setup)
    play.play({anne: ("HAINES", "H4", None), bruno: ("HAINE", "H4", None)})
    call_command("tirage_standings_check", "--tournament", "open-test")
    assert "Aucune différence : 1 partie(s) vérifiée(s)" in capsys.readouterr().out

    # A row changed behind the services' back (as Django's admin could). By hand: Anne
    # 26 + 10, the round's only non-zero score among three present players (a solo).
    PlayerGameFigure.objects.filter(game=play.game, player=anne).update(total=99)
    with pytest.raises(SystemExit) as exit_info:
        call_command("tirage_standings_check", "--tournament", "open-test")
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert (
        "Tournoi « open-test », partie 1, Anne (table 1) : total enregistré 99, recalculé 36."
        in out
    )

    call_command("tirage_standings_check", "--repair")
    assert "Aucune différence" in capsys.readouterr().out

    with pytest.raises(Exception) as bad:
        call_command("tirage_standings_check", "--tournament", "inconnu")
    assert getattr(bad.value, "returncode", None) == 2
    assert "Il n'y a pas de tournoi « inconnu »." in str(bad.value)
