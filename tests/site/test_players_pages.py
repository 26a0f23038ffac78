"""The players page and a player's page in the console, and the same operations in the
API (issue 15, item 3): « Modifier », « Retirer du tournoi » / « Réintégrer », the late
arrival, « Créer tous les liens tablette » and the QR sheet it offers.

Seed 7 on the conformance list: round 1 ESIUHAN, top H4 HAINES 26 (test_game_services)."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.authtoken.models import Token

from tests.scenario import new_game
from tournaments.models import ArbiterMembership, AuditLog, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def head(client, tournament_setup) -> dict[str, Any]:
    client.force_login(tournament_setup["arbiter"])
    return {**tournament_setup, "client": client}


def reg_at(setup: dict[str, Any], table: int) -> Registration:
    return Registration.objects.get(tournament=setup["tournament"], table_number=table)


def edit_url(reg: Registration) -> str:
    return reverse("console:registration_edit", args=[reg.pk])


DETAILS = {"action": "update", "name": "Anne Dupont", "licence": "", "club": "Lyon",
           "federation": "", "series": "3", "category": "Diamant", "birth_year": "",
           "table_number": "1"}  # fmt: skip


def test_each_row_has_modifier_and_the_page_edits_the_player(head):
    client, anne = head["client"], reg_at(head, 1)
    page = client.get(reverse("console:players", args=["open-test"])).content.decode()
    assert f'href="{edit_url(anne)}">Modifier</a>' in page
    assert page.count(">Modifier</a>") == 3
    body = client.get(edit_url(anne)).content.decode()
    assert "Fiche du joueur" in body and "Retirer du tournoi" in body
    response = client.post(edit_url(anne), DETAILS)
    assert response.status_code == 302
    player = Player.objects.get(pk=anne.player_id)
    assert (player.name, player.club, player.series, player.category) == (
        "Anne Dupont", "Lyon", "3", "Diamant",
    )  # fmt: skip
    assert "Fiche de Anne Dupont enregistrée" in client.get(edit_url(anne)).content.decode()
    players = client.get(reverse("console:players", args=["open-test"])).content.decode()
    assert "Anne Dupont" in players and "Diamant" in players


def test_a_taken_table_and_bad_input_are_4xx_with_a_reason(head):
    client, anne = head["client"], reg_at(head, 1)
    response = client.post(edit_url(anne), {**DETAILS, "table_number": "2"})
    body = response.content.decode()
    assert response.status_code == 409 and 'data-code="registration.table_taken"' in body
    assert "La table 2 est déjà prise." in body and 'value="Anne Dupont"' in body  # kept
    response = client.post(edit_url(anne), {**DETAILS, "table_number": "deux", "name": ""})
    assert response.status_code == 400 and "Le formulaire contient des erreurs" in (
        response.content.decode()
    )
    response = client.post(edit_url(anne), {"action": "pirouette"})
    assert response.status_code == 400 and "Action inconnue" in response.content.decode()
    assert client.post(edit_url(anne), {**DETAILS, "table_number": "9"}).status_code == 302
    assert reg_at(head, 9).pk == anne.pk
    assert client.get(reverse("console:registration_edit", args=[10**9])).status_code == 404
    assert client.put(edit_url(anne)).status_code == 405


def test_a_plain_arbiter_edits_details_but_neither_moves_nor_withdraws(
    tournament_setup, django_user_model
):
    user = django_user_model.objects.create_user("aide", password="x")
    ArbiterMembership.objects.create(user=user, tournament=tournament_setup["tournament"])
    client = Client()
    client.force_login(user)
    anne = reg_at(tournament_setup, 1)
    body = client.get(edit_url(anne)).content.decode()
    assert "Retirer du tournoi" not in body  # the head arbiter's button only
    assert client.post(edit_url(anne), DETAILS).status_code == 302
    response = client.post(edit_url(anne), {**DETAILS, "table_number": "8"})
    assert response.status_code == 403 and "juge-arbitre" in response.content.decode()
    response = client.post(edit_url(anne), {"action": "withdraw", "game": "1", "round": "1",
                                            "reason": "parti"})  # fmt: skip
    assert response.status_code == 403
    outsider = django_user_model.objects.create_user("passant", password="x")
    client.force_login(outsider)
    assert client.get(edit_url(anne)).status_code == 403


def test_withdraw_and_reinstate_from_the_players_row(head):
    client, chloe = head["client"], reg_at(head, 3)
    anne, bruno, chloe_player = head["players"]
    play = new_game(head)
    play.play({p: ("HAINES", "H4", 26) for p in (anne, bruno, chloe_player)})
    body = client.get(edit_url(chloe)).content.decode()
    assert 'name="game" value="1"' in body and 'name="round" value="2"' in body  # proposed
    response = client.post(edit_url(chloe), {"action": "withdraw", "game": "1", "round": "1",
                                             "reason": "Malaise"})  # fmt: skip
    assert response.status_code == 409
    assert 'data-code="registration.played_after"' in response.content.decode()
    response = client.post(edit_url(chloe), {"action": "withdraw", "game": "1", "round": "2",
                                             "reason": ""})  # fmt: skip
    assert response.status_code == 400
    response = client.post(edit_url(chloe), {"action": "withdraw", "game": "1", "round": "2",
                                             "reason": "Malaise"})  # fmt: skip
    assert response.status_code == 302
    players = client.get(reverse("console:players", args=["open-test"])).content.decode()
    assert "abandon (partie 1, coup 2)" in players
    page = client.get(edit_url(chloe)).content.decode()
    assert "Retiré du tournoi à partir de la partie 1, coup 2" in page and "Réintégrer" in page
    rankings = client.get(reverse("console:rankings", args=["open-test"])).content.decode()
    assert '<small class="withdrawn">abandon</small>' in rankings
    assert client.post(edit_url(chloe), {"action": "reinstate"}).status_code == 302
    assert (
        "abandon" not in client.get(reverse("console:players", args=["open-test"])).content.decode()
    )


def test_late_arrival_from_the_players_page_and_the_old_address(head):
    client, bruno = head["client"], reg_at(head, 2)
    response = client.post(edit_url(bruno), {"action": "arrive", "game": "1", "round": "3"})
    assert response.status_code == 302
    bruno.refresh_from_db()
    assert (bruno.arrival_game, bruno.arrival_round) == (1, 3)
    response = client.post(edit_url(bruno), {"action": "arrive", "game": "0", "round": "3"})
    assert response.status_code == 400
    response = client.post(reverse("console:arrive", args=["open-test"]),
                           {"table": "2", "game": "2", "round": "1"})  # fmt: skip
    assert response.status_code == 302
    bruno.refresh_from_db()
    assert (bruno.arrival_game, bruno.arrival_round) == (2, 1)


def test_pages_need_the_csrf_token(tournament_setup):
    client = Client(enforce_csrf_checks=True)
    client.force_login(tournament_setup["arbiter"])
    anne = reg_at(tournament_setup, 1)
    assert client.post(edit_url(anne), DETAILS).status_code == 403
    url = reverse("console:tokens_issue_all", args=["open-test"])
    assert client.post(url).status_code == 403
    assert not Registration.objects.filter(access_token__isnull=False).exists()


def test_every_link_at_once_then_the_qr_sheet_right_there(head):
    client = head["client"]
    players = reverse("console:players", args=["open-test"])
    page = client.get(players).content.decode()
    assert ">Créer tous les liens tablette</button>" in page
    response = client.post(reverse("console:tokens_issue_all", args=["open-test"]))
    assert response.status_code == 302 and response["Location"].endswith("?liens=1#feuille-qr")
    page = client.get(response["Location"]).content.decode()
    assert "3 liens de tablette créés." in page
    sheet = reverse("console:document", args=["open-test", "tablet-links"])
    assert 'id="feuille-qr" class="offered"' in page and f'href="{sheet}"' in page
    tokens = list(Registration.objects.values_list("access_token", flat=True))
    assert all(tokens)
    pdf = client.get(sheet)
    text = "\n".join(p.extract_text() for p in PdfReader(BytesIO(pdf.content)).pages)
    assert "Sans lien de tablette" not in text
    assert all(f"Table {n}" in text for n in (1, 2, 3))
    # Again: nothing changes, one audit row in all.
    response = client.post(reverse("console:tokens_issue_all", args=["open-test"]))
    assert "Chaque joueur a déjà son lien" in client.get(response["Location"]).content.decode()
    assert list(Registration.objects.values_list("access_token", flat=True)) == tokens
    assert AuditLog.objects.filter(action="registration.tokens_issue").count() == 1
    assert client.get(reverse("console:tokens_issue_all", args=["open-test"])).status_code == 405


# --- API --------------------------------------------------------------------------------


@pytest.fixture
def api(tournament_setup) -> Client:
    key = Token.objects.create(user=tournament_setup["arbiter"]).key
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def api_url(name: str, reg: Registration | None = None) -> str:
    args = ["open-test"] + ([reg.pk] if reg is not None else [])
    return reverse(name, args=args)


def test_api_edit_move_and_refusals(api, tournament_setup):
    anne = reg_at(tournament_setup, 1)
    url = api_url("api-registration", anne)
    assert api.get(url).json()["player"]["name"] == "Anne"
    response = api.patch(url, {"club": "Lyon", "birth_year": 1950, "table_number": 5},
                         content_type="application/json")  # fmt: skip
    assert response.status_code == 200
    body = response.json()
    assert body["table_number"] == 5 and body["player"]["club"] == "Lyon"
    assert body["player"]["name"] == "Anne" and body["player"]["birth_year"] == 1950
    response = api.patch(url, {"table_number": 2}, content_type="application/json")
    assert response.status_code == 409
    error = response.json()
    assert set(error) == {"code", "detail", "params", "fields"}
    assert error["code"] == "registration.table_taken" and error["params"] == {"table": 2}
    response = api.patch(url, {"table_number": "2"}, content_type="application/json")
    assert response.status_code == 400 and "table_number" in response.json()["fields"]
    response = api.patch(url, {"name": ""}, content_type="application/json")
    assert response.status_code == 400 and "name" in response.json()["fields"]
    other = reverse("api-registration", args=["ailleurs", anne.pk])
    assert api.get(other).status_code == 404
    assert api.get(reverse("api-registration", args=["open-test", 10**9])).status_code == 404
    assert Client().get(url).status_code == 401


def test_api_withdraw_reinstate_arrival_and_every_link(api, tournament_setup):
    bruno = reg_at(tournament_setup, 2)
    response = api.post(api_url("api-registration-withdraw", bruno),
                        {"game": 1, "round": 1, "reason": "Parti"},
                        content_type="application/json")  # fmt: skip
    assert response.status_code == 200
    body = response.json()
    assert (body["withdrawn_game"], body["withdrawn_round"], body["withdrawn_reason"]) == (
        1, 1, "Parti",
    )  # fmt: skip
    again = api.post(api_url("api-registration-withdraw", bruno),
                     {"game": 1, "round": 2, "reason": "Parti"},
                     content_type="application/json")  # fmt: skip
    assert again.status_code == 409 and again.json()["code"] == "registration.withdrawn"
    missing = api.post(api_url("api-registration-withdraw", bruno), {"game": 1},
                       content_type="application/json")  # fmt: skip
    assert missing.status_code == 400 and {"round", "reason"} <= set(missing.json()["fields"])
    response = api.post(api_url("api-registration-reinstate", bruno))
    assert response.status_code == 200 and response.json()["withdrawn_game"] is None
    response = api.post(api_url("api-registration-reinstate", bruno))
    assert response.status_code == 409 and response.json()["code"] == "registration.not_withdrawn"
    response = api.post(api_url("api-registration-arrival", bruno), {"game": 1, "round": 4},
                        content_type="application/json")  # fmt: skip
    assert response.status_code == 200 and response.json()["arrival_round"] == 4

    response = api.post(api_url("api-registration-tokens"))
    assert response.status_code == 200
    body = response.json()
    assert body["created"] == 3 and all(r["access_token"] for r in body["registrations"])
    second = api.post(api_url("api-registration-tokens")).json()
    assert second["created"] == 0 and second["registrations"] == body["registrations"]
