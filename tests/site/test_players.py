"""Players after registration (issue 15, item 3): editing, table change, withdrawal and
its undoing, every tablet link at once — the services, their rights and what the rest of
the site reads afterwards (rankings, documents, missing slips, the tablet).

Seed 7 on the conformance list (tests/site/test_game_services.py): round 1 ESIUHAN, top H4
HAINES 26; round 2 U+OEE?AF, top G6 AUlOFEE 70. Solos count from 3 players (10 points)."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from pypdf import PdfReader

from tests.scenario import new_game, tablet_token
from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError, http_status
from tournaments.models import ArbiterMembership, AuditLog, Player, Registration
from tournaments.reports.documents import render_document
from tournaments.services import (
    registration_arrive,
    registration_reinstate,
    registration_tokens_issue,
    registration_update,
    registration_withdraw,
)

pytestmark = pytest.mark.django_db


def reg_of(setup: dict[str, Any], index: int) -> Registration:
    return Registration.objects.get(tournament=setup["tournament"], player=setup["players"][index])


@pytest.fixture
def helper(tournament_setup, django_user_model) -> Any:
    """A second arbiter of the tournament (not the head arbiter)."""
    user = django_user_model.objects.create_user("aide", password="x")
    ArbiterMembership.objects.create(user=user, tournament=tournament_setup["tournament"])
    return user


def refused(code: str, call: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


# --- Editing and moving ---------------------------------------------------------------


def test_an_edit_changes_the_details_everywhere_with_one_audit_row(tournament_setup, helper):
    anne = reg_of(tournament_setup, 0)
    registration_update(registration_id=anne.pk, name=" Anne Dupont ", licence="12345",
                        club="Lyon", federation="FFSc", series="2", category="Vermeil",
                        birth_year=1950, actor=helper)  # fmt: skip
    player = Player.objects.get(pk=anne.player_id)
    assert (player.name, player.licence, player.club, player.series) == (
        "Anne Dupont", "12345", "Lyon", "2",
    )  # fmt: skip
    assert (player.category, player.federation, player.birth_year) == ("Vermeil", "FFSc", 1950)
    info = selectors.players_of(tournament_setup["tournament"])[player.pk]
    assert (info.name, info.table, info.category) == ("Anne Dupont", 1, "Vermeil")
    row = AuditLog.objects.get(action="registration.update")
    assert row.actor == helper and row.payload["changes"]["name"] == ["Anne", "Anne Dupont"]
    # The same details again: nothing written.
    registration_update(registration_id=anne.pk, name="Anne Dupont", licence="12345",
                        club="Lyon", federation="FFSc", series="2", category="Vermeil",
                        birth_year=1950, actor=helper)  # fmt: skip
    assert AuditLog.objects.filter(action="registration.update").count() == 1


def test_a_player_of_another_event_keeps_their_details(tournament_setup, helper):
    """Anne also played another tournament, which the helper does not arbitrate: her
    name there is not his to change; moving her table here still is the head's."""
    from tournaments.models import Tournament

    other = Tournament.objects.create(name="Autre", slug="autre",
                                      lexicon=tournament_setup["lexicon"])  # fmt: skip
    anne = reg_of(tournament_setup, 0)
    Registration.objects.create(tournament=other, player_id=anne.player_id, table_number=1)
    error = refused("access.player_elsewhere", registration_update, registration_id=anne.pk,
                    name="Anne Martin", actor=helper)  # fmt: skip
    assert http_status(error.code) == 403
    assert Player.objects.get(pk=anne.player_id).name == "Anne"
    registration_update(registration_id=anne.pk, name="Anne", table=6,
                        actor=tournament_setup["arbiter"])  # fmt: skip
    ArbiterMembership.objects.create(user=helper, tournament=other)
    registration_update(registration_id=anne.pk, name="Anne Martin", table=6, actor=helper)
    assert Player.objects.get(pk=anne.player_id).name == "Anne Martin"


def test_an_edit_is_refused_with_a_code(tournament_setup, helper):
    anne, bruno = reg_of(tournament_setup, 0), reg_of(tournament_setup, 1)
    Player.objects.filter(pk=bruno.player_id).update(licence="999")
    error = refused("player.licence_taken", registration_update, registration_id=anne.pk,
                    name="Anne", licence="999", actor=helper)  # fmt: skip
    assert http_status(error.code) == 409
    refused("player.name", registration_update, registration_id=anne.pk, name="  ",
            actor=helper)  # fmt: skip
    refused("registration.unknown", registration_update, registration_id=10**9, name="X",
            actor=helper)  # fmt: skip


def test_a_table_change_is_the_head_arbiters_and_a_taken_table_is_refused(tournament_setup, helper):
    head, anne = tournament_setup["arbiter"], reg_of(tournament_setup, 0)
    error = refused("access.head_arbiter", registration_update, registration_id=anne.pk,
                    name="Anne", table=7, actor=helper)  # fmt: skip
    assert http_status(error.code) == 403
    # Keeping the same table is no move: a plain arbiter may save the details.
    registration_update(registration_id=anne.pk, name="Anne", table=1, actor=helper)
    error = refused("registration.table_taken", registration_update, registration_id=anne.pk,
                    name="Anne", table=3, actor=head)  # fmt: skip
    assert error.details["table"] == 3 and http_status(error.code) == 409
    registration_update(registration_id=anne.pk, name="Anne", table=7, actor=head)
    assert selectors.table_of(anne.tournament_id, anne.player_id) == 7
    tables = selectors.tables_data(tournament_setup["tournament"])
    assert [t.table for t in tables if t.player] == [2, 3, 7]
    row = AuditLog.objects.get(action="registration.update")
    assert row.payload["changes"] == {"table": [1, 7]}


def test_one_registration_per_table_is_a_database_constraint(tournament_setup):
    from django.db import IntegrityError, transaction

    anne = reg_of(tournament_setup, 0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.filter(pk=anne.pk).update(table_number=2)


# --- Withdrawal -----------------------------------------------------------------------


def test_a_withdrawn_player_keeps_the_past_and_is_expected_no_more(tournament_setup, client):
    """Round 1: all three play HAINES H4 (26). Chloé withdraws from round 2: Anne plays
    AUlOFEE G6 (70), Bruno hands nothing in (0). By hand (§4.6, solos from 3 players: the
    game's entrants are 3, Chloé played round 1): Anne 26 + 70 + 10 (solo: the only
    score above 0 among the two present) = 106; Bruno 26 + 0 = 26; Chloé 26, kept with
    her score so far, marked « abandon »."""
    head = tournament_setup["arbiter"]
    anne, bruno, chloe = tournament_setup["players"]
    play = new_game(tournament_setup)
    play.play({p: ("HAINES", "H4", 26) for p in (anne, bruno, chloe)})
    r2 = play.open_round()
    assert selectors.expected_count(r2) == 3
    token = tablet_token(reg_of(tournament_setup, 2), actor=head)

    creg = reg_of(tournament_setup, 2)
    # Round 1 was played: a withdrawal from there would hide her 26.
    error = refused("registration.played_after", registration_withdraw,
                    registration_id=creg.pk, game_number=1, round_number=1,
                    reason="malaise", actor=head)  # fmt: skip
    assert error.details == {"game": 1, "round": 1} and http_status(error.code) == 409
    refused("registration.withdraw_reason", registration_withdraw, registration_id=creg.pk,
            game_number=1, round_number=2, reason="  ", actor=head)  # fmt: skip
    assert selectors.withdrawal_start(creg) == (1, 2)
    registration_withdraw(registration_id=creg.pk, game_number=1, round_number=2,
                          reason="Malaise", actor=head)  # fmt: skip
    creg.refresh_from_db()
    assert (creg.withdrawn_game, creg.withdrawn_round, creg.withdrawn_reason) == (1, 2, "Malaise")
    refused("registration.withdrawn", registration_withdraw, registration_id=creg.pk,
            game_number=1, round_number=3, reason="encore", actor=head)  # fmt: skip

    # No slip expected from her any more; her tablet is refused with a coded sentence.
    assert selectors.expected_count(r2) == 2
    assert [r.table_number for r in selectors.expected_registrations(r2)] == [1, 2]
    response = client.post("/api/player/proposals/", {"word": "AUlOFEE", "reference": "G6"},
                           content_type="application/json",
                           HTTP_AUTHORIZATION=f"Player {token}")  # fmt: skip
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "registration.withdrawn" and "retiré" in body["detail"]
    tablet = client.get(f"/tablette/{token}/").content.decode()
    assert "Vous êtes retiré du tournoi depuis la partie 1, coup 2" in tablet
    refused("registration.withdrawn", play.propose, rnd=r2, player=chloe, word="AUlOFEE",
            reference="G6", source="arbiter")  # fmt: skip

    play.propose(r2, anne, "AUlOFEE", "G6", 70)
    play.finish(r2)
    standings = {s.player_id: s for s in selectors.game_standings(play.game)}
    assert standings[anne.pk].total == 106 and standings[anne.pk].rank == 1
    assert standings[bruno.pk].total == 26 and standings[chloe.pk].total == 26
    assert standings[chloe.pk].rank == 2  # ex aequo with Bruno
    ranking = selectors.tournament_ranking(tournament_setup["tournament"])
    marked = {line.player.name: line.player.withdrawn for line in ranking.lines}
    assert marked == {"Anne": False, "Bruno": False, "Chloé": True}
    moves = {
        line.player.name: [(m.score, m.kind) for m in line.moves]
        for line in selectors.game_data(play.game).players
    }
    assert moves["Chloé"] == [(26, "valid"), (0, "absent")]
    assert moves["Bruno"] == [(26, "valid"), (0, "zero")]

    # « Réintégrer »: expected again; the round she missed has no slip (0), totals stand.
    registration_reinstate(registration_id=creg.pk, actor=head)
    creg.refresh_from_db()
    assert not creg.withdrawn and creg.withdrawn_reason == ""
    assert selectors.expected_count(r2) == 3
    standings = {s.player_id: s.total for s in selectors.game_standings(play.game)}
    assert standings == {anne.pk: 106, bruno.pk: 26, chloe.pk: 26}
    refused("registration.not_withdrawn", registration_reinstate, registration_id=creg.pk,
            actor=head)  # fmt: skip
    actions = list(AuditLog.objects.filter(object_type="registration", object_id=creg.pk)
                   .values_list("action", flat=True).order_by("id"))  # fmt: skip
    assert actions[-2:] == ["registration.withdraw", "registration.reinstate"]


def test_a_player_withdrawn_before_a_game_is_no_entrant_of_it(tournament_setup):
    """Bruno withdraws before round 1 of game 1. Round 1: Anne HAINES H4 (26), Chloé
    hands nothing in. Anne's 26 is a solo (the only score above 0), but the game's
    entrants are Anne and Chloé only: 2 < 3 players, no bonus (§4.6). By hand: Anne 26,
    Chloé 0, Bruno 0 and absent. Had Bruno stayed without a slip, he would count (3
    entrants) and Anne would get 26 + 10 = 36."""
    head = tournament_setup["arbiter"]
    anne, bruno, chloe = tournament_setup["players"]
    play = new_game(tournament_setup)
    registration_withdraw(registration_id=reg_of(tournament_setup, 1).pk, game_number=1,
                          round_number=1, reason="Forfait", actor=head)  # fmt: skip
    play.play({anne: ("HAINES", "H4", 26)})
    result = selectors.game_outcomes(play.game)
    assert result.entrants == 2 and result.counted == (2,)
    totals = {s.player_id: s.total for s in selectors.game_standings(play.game)}
    assert totals == {anne.pk: 26, bruno.pk: 0, chloe.pk: 0}
    moves = {line.player.name: [m.kind for m in line.moves]
             for line in selectors.game_data(play.game).players}  # fmt: skip
    assert moves == {"Anne": ["valid"], "Bruno": ["absent"], "Chloé": ["zero"]}


def test_withdrawal_rights_and_arrival_bounds(tournament_setup, helper):
    head, bruno = tournament_setup["arbiter"], reg_of(tournament_setup, 1)
    error = refused("access.head_arbiter", registration_withdraw, registration_id=bruno.pk,
                    game_number=1, round_number=1, reason="parti", actor=helper)  # fmt: skip
    assert http_status(error.code) == 403
    registration_arrive(registration_id=bruno.pk, game_number=2, round_number=1, actor=helper)
    error = refused("registration.withdraw_before_arrival", registration_withdraw,
                    registration_id=bruno.pk, game_number=1, round_number=4, reason="parti",
                    actor=head)  # fmt: skip
    assert error.details == {"game": 2, "round": 1}
    registration_withdraw(registration_id=bruno.pk, game_number=2, round_number=3,
                          reason="parti", actor=head)  # fmt: skip
    refused("access.head_arbiter", registration_reinstate, registration_id=bruno.pk, actor=helper)
    refused("registration.arrival_after_withdrawal", registration_arrive,
            registration_id=bruno.pk, game_number=2, round_number=5, actor=helper)  # fmt: skip


def test_the_withdrawal_rule_is_a_database_constraint(tournament_setup):
    from django.db import IntegrityError, transaction

    bruno = reg_of(tournament_setup, 1)
    for bad in ({"withdrawn_game": 1, "withdrawn_round": 1},  # no reason
                {"withdrawn_game": 1, "withdrawn_reason": "x"},  # no round
                {"withdrawn_reason": "x"}):  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic():
            Registration.objects.filter(pk=bruno.pk).update(**bad)
    Registration.objects.filter(pk=bruno.pk).update(arrival_game=2)
    with pytest.raises(IntegrityError), transaction.atomic():  # before the arrival
        Registration.objects.filter(pk=bruno.pk).update(
            withdrawn_game=1, withdrawn_round=5, withdrawn_reason="x"
        )


# --- Every tablet link at once --------------------------------------------------------


def pdf_text(rendered: Any) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(rendered.content)).pages)


def test_every_link_in_one_action_and_the_qr_sheet_is_no_longer_empty(tournament_setup, helper):
    tournament = tournament_setup["tournament"]
    before = pdf_text(render_document("tablet-links", tournament, base_url="http://club.test"))
    assert "Sans lien de tablette" in before and "Table 1" not in before

    anne = reg_of(tournament_setup, 0)
    kept = tablet_token(anne, actor=SYSTEM)
    assert registration_tokens_issue(tournament_id=tournament.pk, actor=helper) == 2
    tokens = dict(Registration.objects.filter(tournament=tournament)
                  .values_list("table_number", "access_token"))  # fmt: skip
    assert tokens[1] == kept and all(tokens.values()) and len(set(tokens.values())) == 3
    rows = AuditLog.objects.filter(action="registration.tokens_issue")
    assert rows.count() == 1 and rows[0].payload == {"count": 2, "tables": [2, 3]}
    assert kept not in str(rows[0].payload)

    # Idempotent: nothing new, nothing audited, the links unchanged.
    assert registration_tokens_issue(tournament_id=tournament.pk, actor=helper) == 0
    assert rows.count() == 1
    again = dict(Registration.objects.filter(tournament=tournament)
                 .values_list("table_number", "access_token"))  # fmt: skip
    assert again == tokens

    after = pdf_text(render_document("tablet-links", tournament, base_url="http://club.test"))
    assert "Sans lien de tablette" not in after
    for table, name in ((1, "Anne"), (2, "Bruno"), (3, "Chloé")):
        assert f"Table {table}" in after and name in after
    assert f"http://club.test/tablette/{tokens[2]}/" in after.replace("\n", "")


def test_every_link_needs_an_arbiter(tournament_setup, django_user_model):
    outsider = django_user_model.objects.create_user("passant", password="x")
    refused("access.arbiter", registration_tokens_issue,
            tournament_id=tournament_setup["tournament"].pk, actor=outsider)  # fmt: skip
