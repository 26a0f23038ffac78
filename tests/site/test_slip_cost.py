"""What a paper slip and a correction cost (session 7): the statements of a slip entered
by a centre arbiter through the API, and a correction's solo settled without reading
every stored score of the round. Same results as before: the answer, the stored figures
against the recomputation, the solos worked out by hand.

The game is seed 7 on the conformance list (tests/site/test_centres.py): round 1 ESIUHAN,
HAINES at H4 is 26, AUE is not a word (0). Solos (../shared/rules/duplicate.md §4.6): the
player whose move scores strictly more than every other counted player's, with a best
score above 0; 10 points when paid (from 4 players here, the fixture ``event``).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.models import RoundFigure
from tournaments.selectors.figures_check import figures_differences
from tournaments.services import proposal_correct

from .test_centres import event  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

#: What a slip on an open round reads and writes, at most: the arbiter's token, the
#: round (the view's read, which the judgement reuses, then its shared lock), the arbiter's
#: membership (the view's check, then the service's with the centre), the registration
#: at the table (the view) and the player's (the service), the player's versions, then
#: the version and its audit row. Before session 7: 16 (ordering joins, the player's
#: current version and open conflicts read apart, the centre read apart, the player's
#: name read by the serializer, the round read again to judge).
SLIP_STATEMENTS = 10


def _client(user) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_a_centre_slip_through_the_api_reads_little_and_answers_the_judged_score(
    event,  # noqa: F811
) -> None:
    _anne, _bruno, chloe, _denis = event["players"]
    play = event["play"]
    rnd = play.open_round(top=True)
    client = _client(event["arb_a"])
    body = {"table_number": 1, "reference": "H4", "word": "HAINES", "score": 26}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/api/rounds/{rnd.pk}/slips/", body, format="json")
    assert answer.status_code == 201, answer.content
    data = answer.json()
    # The arbiter checks the judged score against the paper: 26, Anne named.
    assert (data["player_name"], data["outcome"]["score"], data["version"]) == ("Anne", 26, 1)
    statements = [q["sql"] for q in queries.captured_queries
                  if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]  # fmt: skip
    assert len(statements) <= SLIP_STATEMENTS, "\n".join(statements)
    # No read joins the tournament only to sort by the models' orderings (the round's
    # orders by the game, whose order is the tournament's).
    assert not [s for s in statements if 'ORDER BY "tournaments_tournament"' in s]
    # The same slip again is a replay; another centre's player is still refused.
    again = client.post(f"/api/rounds/{rnd.pk}/slips/", body, format="json")
    assert (again.status_code, again.json()["id"], again.json()["player_name"]) == (
        201, data["id"], "Anne")  # fmt: skip
    refused = client.post(f"/api/rounds/{rnd.pk}/slips/", {**body, "table_number": 2},
                          format="json")  # fmt: skip
    assert (refused.status_code, refused.json()["code"]) == (403, "access.centre")
    # A second slip for Chloé (table 3), an invalid word: judged 0, answered at once.
    aue = {"table_number": 3, "reference": "H7", "word": "AUE"}
    wrong = client.post(f"/api/rounds/{rnd.pk}/slips/", aue, format="json")
    assert (wrong.status_code, wrong.json()["player_name"]) == (201, chloe.name)
    assert wrong.json()["outcome"]["score"] == 0
    play.finish(rnd)
    assert figures_differences([play.game]) == []


def _solo(rnd) -> tuple[int | None, int]:
    figure = RoundFigure.objects.get(pk=rnd.pk)
    return figure.solo_player_id, figure.competitors


def test_corrections_settle_the_solo_from_the_others_two_best(event) -> None:  # noqa: F811
    anne, bruno, chloe, denis = event["players"]
    head, play = event["head"], event["play"]
    top = ("HAINES", "H4", None)
    rnd = play.play({anne: top, bruno: top, chloe: top, denis: top})
    game = play.game

    reads: list[str] = []

    def correct(player, word: str, reference: str) -> None:
        with CaptureQueriesContext(connection) as queries:
            proposal_correct(round_id=rnd.pk, player_id=player.pk, word=word,
                             reference=reference, reason="bulletin relu", actor=head)  # fmt: skip
        table = 'FROM "tournaments_playerroundfigure"'
        reads.extend(q["sql"] for q in queries.captured_queries if table in q["sql"])
        assert figures_differences([game]) == []

    # Four at 26: no solo, four compete.
    assert _solo(rnd) == (None, 4)
    # Bruno to AUE (0): Anne, Chloé and Denis still tie at 26 (the others' two best are
    # two of them): no solo.
    correct(bruno, "AUE", "H7")
    assert _solo(rnd) == (None, 4)
    correct(chloe, "AUE", "H7")  # Anne and Denis tie at 26: no solo
    assert _solo(rnd) == (None, 4)
    correct(denis, "AUE", "H7")  # Anne alone at 26: her solo
    assert _solo(rnd) == (anne.pk, 4)
    standings = {p.player_id: p.total for p in _lines(game)}
    assert standings[anne.pk] == 26 + 10  # the round's 26 and her solo
    correct(anne, "AUE", "H7")  # everyone at 0: a best of 0 is no solo
    assert _solo(rnd) == (None, 4)
    correct(bruno, "HAINES", "H4")  # Bruno alone at 26: his solo, Anne's gone
    assert _solo(rnd) == (bruno.pk, 4)
    standings = {p.player_id: p.total for p in _lines(game)}
    assert (standings[anne.pk], standings[bruno.pk]) == (0, 36)
    # No correction read the whole round's stored cells: the corrected player's own
    # cells, the others' two best scores and their count.
    bounded = ("LIMIT 2", "COUNT(", '"tournaments_playerroundfigure"."player_id" IN (')
    assert reads and [s for s in reads if not any(b in s for b in bounded)] == []


def _lines(game):
    from tournaments.selectors.outcomes import stored_game_outcomes
    from tournaments.services.standings import game_settings

    result = stored_game_outcomes(game, game_settings(game))
    assert result is not None
    return result.players


def test_the_centre_rule_trusts_only_the_named_players_registration(event) -> None:  # noqa: F811
    """``require_arbiter(registration=…)``: the caller's row decides the centre only when
    it is the named player's in this tournament; any other row is ignored (the rule reads
    the centre itself), so a wrong row can neither let in nor keep out."""
    from tournaments.access import require_arbiter
    from tournaments.errors import ServiceError
    from tournaments.models import Registration

    anne, bruno, _chloe, _denis = event["players"]
    t, arb_a, head = event["tournament"], event["arb_a"], event["head"]
    reg_anne = Registration.objects.get(tournament=t, player=anne)
    reg_bruno = Registration.objects.get(tournament=t, player=bruno)
    # Anne plays in centre A: accepted with her row, with Bruno's row, with none.
    for row in (reg_anne, reg_bruno, None):
        require_arbiter(actor=arb_a, tournament_id=t.pk, player_id=anne.pk, registration=row)
    # Bruno plays in centre B: refused with his row and with Anne's (centre A) as well.
    for row in (reg_bruno, reg_anne, None):
        with pytest.raises(ServiceError) as info:
            require_arbiter(actor=arb_a, tournament_id=t.pk, player_id=bruno.pk,
                            registration=row)  # fmt: skip
        assert info.value.code == "access.centre"
    # The head arbiter (no centre) and a non-head check: unchanged.
    require_arbiter(actor=head, tournament_id=t.pk, player_id=bruno.pk, registration=reg_bruno)
    with pytest.raises(ServiceError) as info:
        require_arbiter(actor=arb_a, tournament_id=t.pk, head=True)
    assert info.value.code == "access.head_arbiter"
