"""``PATCH /api/tournaments/<slug>/``: ``tournament_update`` through the API (issue 15), the
head arbiter only, bodies validated strictly, refusals in the one error shape."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments.models import AuditLog, Tournament
from tournaments.services.arbiters import arbiter_add

pytestmark = pytest.mark.django_db
SHAPE = {"code", "detail", "params", "fields"}


@pytest.fixture
def api(tournament_setup: dict[str, Any]) -> APIClient:
    client = APIClient()
    client.force_authenticate(tournament_setup["arbiter"])
    return client


def url(setup: dict[str, Any]) -> str:
    return f"/api/tournaments/{setup['tournament'].slug}/"


def test_the_head_arbiter_changes_settings_audited(api, tournament_setup) -> None:
    body = {"name": "Open du club", "seconds_per_move": 120, "public_rankings": True,
            "language": "en"}  # fmt: skip
    answer = api.patch(url(tournament_setup), body)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["name"], body["seconds_per_move"], body["public_rankings"]) == (
        "Open du club", 120, True,
    )  # fmt: skip
    t = Tournament.objects.get(pk=tournament_setup["tournament"].pk)
    assert (t.name, t.seconds_per_move, t.language) == ("Open du club", 120, "en")
    audit = AuditLog.objects.filter(action="tournament.update", object_id=t.pk).latest("id")
    assert audit.payload["changes"]["seconds_per_move"][1] == 120
    assert audit.actor_id == tournament_setup["arbiter"].pk
    # Null: the formula's own time again; an empty body changes nothing.
    assert api.patch(url(tournament_setup), {"seconds_per_move": None}).status_code == 200
    assert api.patch(url(tournament_setup), {}).status_code == 200


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"seconds_per_move": "120"}, 400, "invalid"),  # a string is not a number
        ({"seconds_per_move": 0}, 400, "invalid"),
        ({"public_rankings": "yes"}, 400, "invalid"),
        ({"tie_break": "coin"}, 400, "invalid"),
        ({"starts_on": "2026-12-02", "ends_on": "2026-12-01"}, 400, "invalid"),
        ({"lexicon": 10**9}, 404, "lexicon.unknown"),
    ],
)
def test_bad_bodies_are_refused_in_the_one_shape(api, tournament_setup, body, status, code):
    answer = api.patch(url(tournament_setup), body)
    assert answer.status_code == status, answer.content
    assert set(answer.json()) == SHAPE and answer.json()["code"] == code


def test_settings_played_games_depend_on_are_a_409(api, tournament_setup) -> None:
    play = new_game(tournament_setup, seed=7)
    play.open_round()
    answer = api.patch(url(tournament_setup), {"variant_code": "joker"})
    assert answer.status_code == 409 and answer.json()["code"] == "tournament.frozen_started"
    assert answer.json()["detail"] == (
        "Formule ne peut plus changer : le coup 1 de la partie 1 a déjà été tiré avec ce réglage."
    )


def test_only_the_head_arbiter(tournament_setup) -> None:
    t = tournament_setup["tournament"]
    second = arbiter_add(actor=tournament_setup["arbiter"], tournament_id=t.pk, login="adjoint")
    client = APIClient()
    assert client.patch(url(tournament_setup), {"name": "X"}).status_code == 401
    client.force_authenticate(second.membership.user)
    refused = client.patch(url(tournament_setup), {"name": "X"})
    assert refused.status_code == 403 and refused.json()["code"].startswith("access.")
    assert Tournament.objects.get(pk=tournament_setup["tournament"].pk).name != "X"
