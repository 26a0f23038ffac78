"""One status per error code for the console and the API, one JSON error shape for the API.

The statuses follow HTTP's meanings (RFC 9110 §15.5): a request refused because of the
current state of the resource (closing a round that is not open yet) is 409 Conflict,
whoever asks; an unknown object 404; a right missing 403; bad input 400.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.access import SYSTEM
from tournaments.errors import http_status
from tournaments.models import Registration
from tournaments.services import game_create, round_draw
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db

SHAPE = {"code", "detail", "params", "fields"}


@pytest.fixture
def drawn(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    """A drawn round, not opened yet; the head arbiter's API token; a player's token."""
    t = tournament_setup["tournament"]
    game = game_create(tournament_id=t.pk, seed=7, actor=SYSTEM)
    rnd = round_draw(game_id=game.pk, actor=SYSTEM)
    reg = Registration.objects.filter(tournament=t).order_by("table_number").first()
    arbiter = APIClient()
    token = Token.objects.create(user=tournament_setup["arbiter"]).key
    arbiter.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    player = APIClient()
    player_token = registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    player.credentials(HTTP_AUTHORIZATION=f"Player {player_token}")
    return {**tournament_setup, "round": rnd, "api": arbiter, "player_api": player}


def test_the_map_follows_http_meanings() -> None:
    assert http_status("round.not_open") == 409  # the round's state, not the request
    assert http_status("proposal.key_reused") == 409
    assert http_status("tournament.slug_taken") == 409
    assert http_status("round.unknown") == 404
    assert http_status("access.head_arbiter") == 403
    assert http_status("auth.credentials") == 401
    assert http_status("rack.minimum") == 400


def test_a_state_conflict_is_409_in_the_console_and_in_the_api(drawn, client: Client) -> None:
    rnd = drawn["round"]
    api = drawn["api"].post(f"/api/rounds/{rnd.pk}/close")
    assert (api.status_code, api.json()["code"]) == (409, "round.not_open")
    client.force_login(drawn["arbiter"])
    console = client.post(reverse("console:round_close", args=[rnd.pk]))
    assert console.status_code == 409


def test_every_api_error_has_the_one_shape(drawn, settings) -> None:
    rnd, arbiter, player = drawn["round"], drawn["api"], drawn["player_api"]
    anonymous = APIClient()
    cases = [
        (arbiter.post(f"/api/rounds/{rnd.pk}/close"), 409, "round.not_open"),  # ServiceError
        (arbiter.post(f"/api/rounds/{rnd.pk}/slips/", {"word": 5}, format="json"), 400,
         "invalid"),
        (arbiter.post(f"/api/rounds/{rnd.pk}/slips/", "{", content_type="application/json"),
         400, "parse_error"),
        (arbiter.get("/api/rounds/999999/"), 404, "round.unknown"),
        (arbiter.get("/api/no-such-endpoint/"), 404, "not_found"),
        (player.post(f"/api/rounds/{rnd.pk}/open"), 403, "access.arbiter"),
        (anonymous.post(f"/api/rounds/{rnd.pk}/open"), 401, "not_authenticated"),
        (arbiter.get(f"/api/rounds/{rnd.pk}/open"), 405, "method_not_allowed"),
    ]  # fmt: skip
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 1
    player.get("/api/player/round/")
    cases.append((player.get("/api/player/round/"), 429, "throttled"))
    for response, status, code in cases:
        body = response.json()
        assert (response.status_code, body["code"]) == (status, code), body
        assert set(body) == SHAPE, body
        assert isinstance(body["detail"], str) and body["detail"]
        assert isinstance(body["params"], dict) and isinstance(body["fields"], dict)
    validation = cases[1][0].json()
    assert "word" in validation["fields"]
    assert cases[-1][0].json()["params"]["retry_after"] > 0
    assert cases[0][0].json()["params"] == {"round": 1, "state": "drawn"}
