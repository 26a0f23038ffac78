"""The card tables' API (issue 18, docs/api.md "Card tables"): arbiters list, open, read,
close tables and read their record; a player token opens a table (holding seat 1) and
reads or closes only its own; a seat, by its private token, reads its own view and acts
through ``card_turn_play``. Refusals are the one error body with the service's code, and
no endpoint ever shows a seat another seat's hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.cards.players import engine_action
from tests.site.test_api import arbiter_client, player_client
from tournaments import adapter, selectors
from tournaments.access import SYSTEM
from tournaments.models import CardSeat, CardTable, Registration
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db
SLUG = "open-test"
ERROR_KEYS = {"code", "detail", "params", "fields"}


@pytest.fixture
def arbiter(tournament_setup: dict[str, Any]) -> APIClient:
    user = tournament_setup["arbiter"]
    user.set_password("juge-pw-123")
    user.save()
    return arbiter_client(user.username, "juge-pw-123")


def _refused(response: Any, status: int, code: str) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == status, body
    assert set(body) == ERROR_KEYS and body["code"] == code, body
    return body


def _open(client: APIClient, *seats: dict[str, str], **extra: Any) -> dict[str, Any]:
    answer = client.post(
        f"/api/tournaments/{SLUG}/cards/tables/", {"seats": list(seats), **extra}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _seat_client() -> APIClient:
    return APIClient()


def _hands(table_id: int) -> dict[int, str]:
    table = CardTable.objects.get(pk=table_id)
    game = selectors.card_live(table).game
    return {n: game.hands[n] for n in range(table.seats)}


def test_an_arbiter_opens_lists_reads_and_closes_a_table(arbiter, tournament_setup):
    body = _open(
        arbiter,
        {"kind": "human", "name": "Anne"},
        {"kind": "human", "name": "Bruno"},
        {"kind": "strong"},
        name="Jeudi",
        seed=2026,
    )
    assert body["name"] == "Jeudi" and body["seats"] == 3 and body["opened_by"] is None
    links = body["links"]
    assert [x["kind"] for x in links] == ["human", "human", "strong"]
    assert links[2]["token"] is None and links[2]["url"] is None
    assert links[0]["url"].endswith(f"/cartes/{links[0]['token']}/")
    listed = arbiter.get(f"/api/tournaments/{SLUG}/cards/tables/").json()
    assert [t["id"] for t in listed] == [body["id"]]
    detail = arbiter.get(f"/api/cards/tables/{body['id']}/").json()
    assert detail["links"] == links
    view = arbiter.get(f"/api/cards/tables/{body['id']}/view").json()
    assert "hand" not in view and [s["cards"] for s in view["seats"]][:2] == [7, 7]
    record = arbiter.get(f"/api/cards/tables/{body['id']}/record").json()
    assert record["format"] == "tirage-cards" and record["seed"] == 2026
    closed = arbiter.post(f"/api/cards/tables/{body['id']}/close")
    assert closed.status_code == 200 and closed.json()["state"] == "closed"
    _refused(arbiter.post(f"/api/cards/tables/{body['id']}/close"), 409, "card_table.state")
    seat = _seat_client().get(f"/api/cards/seats/{links[0]['token']}/").json()
    assert seat["table"]["closed"] and not any(seat["can"].values())


def test_refusals_are_the_one_error_body(arbiter, tournament_setup):
    one = arbiter.post(
        f"/api/tournaments/{SLUG}/cards/tables/", {"seats": [{"kind": "human", "name": "A"}]},
        format="json",
    )  # fmt: skip
    _refused(one, 400, "cards.seats")
    engines = arbiter.post(
        f"/api/tournaments/{SLUG}/cards/tables/",
        {"seats": [{"kind": "strong"}, {"kind": "weak"}]},
        format="json",
    )
    _refused(engines, 400, "cards.no_human")
    bad = arbiter.post(
        f"/api/tournaments/{SLUG}/cards/tables/", {"seats": [{"kind": "robot"}]}, format="json"
    )
    assert set(_refused(bad, 400, "invalid")["fields"]) == {"seats"}
    _refused(arbiter.get("/api/cards/tables/999999/"), 404, "card_table.unknown")
    _refused(APIClient().get("/api/cards/seats/nope/"), 404, "card_seat.unknown")
    _refused(APIClient().get(f"/api/tournaments/{SLUG}/cards/tables/"), 401, "not_authenticated")


def test_a_player_token_opens_a_table_and_only_reads_its_own(arbiter, tournament_setup):
    anne, bruno = Registration.objects.filter(tournament=tournament_setup["tournament"]).order_by(
        "table_number"
    )[:2]
    anne_client = player_client(registration_token_issue(registration_id=anne.pk, actor=SYSTEM))
    bruno_client = player_client(registration_token_issue(registration_id=bruno.pk, actor=SYSTEM))
    body = _open(anne_client, {"kind": "human", "name": "Zoé"}, {"kind": "weak"})
    assert body["opened_by"] == "Anne"
    assert [(x["kind"], x["name"]) for x in body["links"]] == [
        ("human", "Anne"),
        ("human", "Zoé"),
        ("weak", "adversaire moteur faible"),
    ]
    table = body["id"]
    assert anne_client.get(f"/api/cards/tables/{table}/").status_code == 200
    _refused(bruno_client.get(f"/api/cards/tables/{table}/"), 403, "access.card_table")
    _refused(bruno_client.post(f"/api/cards/tables/{table}/close"), 403, "access.card_table")
    # The record holds every hand: arbiters only, never the opener (a player at the table).
    _refused(anne_client.get(f"/api/cards/tables/{table}/record"), 403, "access.arbiter")
    _refused(anne_client.get(f"/api/tournaments/{SLUG}/cards/tables/"), 403, "access.arbiter")
    seeded = anne_client.post(
        f"/api/tournaments/{SLUG}/cards/tables/",
        {"seats": [{"kind": "weak"}], "seed": 1},
        format="json",
    )
    _refused(seeded, 403, "access.card_seed")
    _open(anne_client, {"kind": "strong"})
    capped = anne_client.post(
        f"/api/tournaments/{SLUG}/cards/tables/", {"seats": [{"kind": "weak"}]}, format="json"
    )
    assert _refused(capped, 409, "cards.player_tables")["params"] == {"limit": 2}
    assert anne_client.post(f"/api/cards/tables/{table}/close").json()["state"] == "closed"
    # The arbiters forbid it: a 403 with its code.
    arbiter.force_authenticate(tournament_setup["arbiter"])
    from tournaments.services import card_settings_set

    card_settings_set(
        tournament_id=tournament_setup["tournament"].pk,
        actor=tournament_setup["arbiter"],
        players_may_open=False,
    )
    forbidden = bruno_client.post(
        f"/api/tournaments/{SLUG}/cards/tables/", {"seats": [{"kind": "weak"}]}, format="json"
    )
    _refused(forbidden, 403, "access.card_players")


def other_values(value: Any, hand: str) -> list[Any]:
    """Every string in ``value`` equal to ``hand`` (a hand shown)."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in other_values(v, hand)]
    if isinstance(value, list):
        return [x for v in value for x in other_values(v, hand)]
    return [value] if value == hand else []


def _play_for(token: str, table_id: int, lexicon: Any) -> dict[str, Any]:
    """What the strong engine would lay for this seat (a script for the test, not the code
    under test): the move's JSON for the API."""
    view = APIClient().get(f"/api/cards/seats/{token}/").json()
    table = CardTable.objects.get(pk=table_id)
    action = engine_action(
        selectors.card_live(table).game.table, view["hand"], view["deck"], lexicon, "strong"
    )
    assert action.kind == "play", action
    return action.placed.to_json()


def test_a_seat_plays_through_the_api_and_never_sees_another_hand(arbiter, tournament_setup):
    body = _open(
        arbiter,
        {"kind": "human", "name": "Anne"},
        {"kind": "human", "name": "Bruno"},
        seed=10,
    )
    table = body["id"]
    tokens = [x["token"] for x in body["links"]]
    seat = APIClient()
    views = [seat.get(f"/api/cards/seats/{t}/").json() for t in tokens]
    first = views[0]["current"]
    hands = _hands(table)
    for number, view in enumerate(views):
        assert view["you"] == number and view["hand"] == hands[number]
    # Out of turn: the engine's code, 409, nothing stored.
    other = tokens[1 - first]
    late = seat.post(f"/api/cards/seats/{other}/actions", {"kind": "pass"}, format="json")
    _refused(late, 409, "turn.not_yours")
    bad = seat.post(f"/api/cards/seats/{other}/actions", {"kind": "dance"}, format="json")
    assert set(_refused(bad, 400, "invalid")["fields"]) == {"kind"}
    # A move through the centre, laid; the other seat lets it stand.
    lexicon = adapter.engine_lexicon(tournament_setup["lexicon"])
    play = _play_for(tokens[first], table, lexicon)
    laid = seat.post(
        f"/api/cards/seats/{tokens[first]}/actions", {"kind": "play", "play": play}, format="json"
    )
    assert laid.status_code == 201, laid.json()
    assert laid.json()["pending"]["seat"] == first
    gap = seat.post(f"/api/cards/seats/{tokens[first]}/actions", {"kind": "pass"}, format="json")
    _refused(gap, 409, "turn.pending")
    answered = seat.post(f"/api/cards/seats/{other}/actions", {"kind": "accept"}, format="json")
    assert answered.status_code == 201 and answered.json()["pending"] is None
    # No endpoint shows a seat another seat's hand: the hands appear nowhere but in their
    # own seat's view (the letters of a 7-card hand as one string, canonical order).
    hands = _hands(table)
    for number, token in enumerate(tokens):
        own = seat.get(f"/api/cards/seats/{token}/").json()
        assert own["hand"] == hands[number]
        text = json.dumps(own)
        assert text.count('"hand"') == 1 and other_values(own, hands[1 - number]) == []
        assert "drawn" not in text and "exchanged" not in text
    public = arbiter.get(f"/api/cards/tables/{table}/view").json()
    assert "hand" not in json.dumps(public) and "drawn" not in json.dumps(public)
    # The record only once the game is over (it holds every hand).
    _refused(seat.get(f"/api/cards/seats/{tokens[0]}/record"), 409, "cards.not_over")
    # An exchange through the API: the cards given back must be held.
    turn = seat.get(f"/api/cards/seats/{tokens[0]}/").json()["current"]
    swap = seat.post(
        f"/api/cards/seats/{tokens[turn]}/actions",
        {"kind": "exchange", "cards": hands[turn][:2]},
        format="json",
    )
    assert swap.status_code == 201 and swap.json()["current"] == 1 - turn
    assert swap.json()["turns"][0]["action"] == "exchange"
    assert "exchanged" not in swap.json()["turns"][0]
    # Both pass in a row: the game ends; the record is now each seat's.
    for number in (1 - turn, turn):
        done = seat.post(f"/api/cards/seats/{tokens[number]}/actions", {"kind": "pass"},
                         format="json")  # fmt: skip
        assert done.status_code == 201
    over = seat.get(f"/api/cards/seats/{tokens[0]}/").json()
    assert over["end"]["reason"] == "passes" and over["table"]["over"]
    record = seat.get(f"/api/cards/seats/{tokens[0]}/record").json()
    assert record["format"] == "tirage-cards" and record["end"]["reason"] == "passes"
    assert CardSeat.objects.filter(table_id=table).count() == 2


def test_a_seat_token_shares_the_tablets_rate_limit(arbiter, tournament_setup, settings):
    body = _open(arbiter, {"kind": "human", "name": "Anne"}, {"kind": "weak"}, seed=3)
    token = body["links"][0]["token"]
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 2
    seat = APIClient()
    # Five requests at 2 a minute: a 429 comes (twice if the minute turns between them).
    answers = [seat.get(f"/api/cards/seats/{token}/") for _ in range(5)]
    limited = [a for a in answers if a.status_code == 429]
    assert limited and answers[0].status_code == 200
    assert _refused(limited[0], 429, "throttled")["params"]["retry_after"] >= 1
