"""Player tablet endpoints (/tablette/<token>/), with Django's test client on a real game."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.models import ProposalVersion, Registration, Round
from tournaments.services import (
    round_close,
    round_place_top,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_live_cache(settings) -> None:
    """Each request sees the rows at once (the 0.5 s live cache is for the real server)."""
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0


SEED = 7  # round 1: ESIUHAN, top H4 HAINES 26; round 2: U+OEE?AF, top G6 AUlOFEE 70


def issue_token(registration: Registration) -> str:
    """A fresh tablet token for ``registration``, issued by the service."""
    from tournaments.services.registry import registration_token_issue

    return registration_token_issue(registration_id=registration.pk, actor=SYSTEM)


def revoke_token(registration: Registration) -> None:
    try:
        from tournaments.services.registry import registration_token_revoke
    except ImportError:  # pragma: no cover
        Registration.objects.filter(pk=registration.pk).update(access_token=None)
        return
    registration_token_revoke(registration_id=registration.pk, actor=SYSTEM)


@pytest.fixture
def game(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    setup = tournament_setup
    regs = list(
        Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
    )
    tokens = [issue_token(r) for r in regs]
    play = new_game(setup, seed=SEED, actor=SYSTEM)
    return {**setup, "game": play.game, "play": play, "tokens": tokens, "registrations": regs}


def post(client: Client, url: str, data: dict[str, Any]):
    return client.post(url, json.dumps(data), content_type="application/json")


def test_page_and_state_show_the_round_with_a_server_clock(client: Client, game) -> None:
    token = game["tokens"][0]
    page = client.get(f"/tablette/{token}/")
    assert page.status_code == 200
    assert "Anne" in page.content.decode() and "tablet-config" in page.content.decode()
    assert client.get(f"/tablette/{token}/etat/").json()["round"] is None

    rnd = game["play"].open_round()
    state = client.get(f"/tablette/{token}/etat/")
    data = state.json()
    assert data["round"]["number"] == 1 and data["round"]["rack"] == "ESIUHAN"
    assert data["round"]["state"] == "open" and data["round"]["deadline"]
    assert data["server_time"] and len(data["round"]["board"]) == 225
    assert data["round"]["top"] is None and data["results"] is None
    assert data["player"] == {"name": "Anne", "table": 1} and data["proposal"] is None
    assert "top" not in json.dumps(data["round"]).replace('"top": null', "").replace(
        '"top_placed": false', ""
    )
    # Unchanged: 304 with the same ETag; a change (the round closes) gives a new version.
    etag = state["ETag"]
    again = client.get(f"/tablette/{token}/etat/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    round_close(round_id=rnd.pk, actor=SYSTEM)
    assert client.get(f"/tablette/{token}/etat/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_preview_scores_without_revealing_validity(client: Client, game) -> None:
    token = game["tokens"][0]
    game["play"].open_round()
    good = post(client, f"/tablette/{token}/apercu/", {"reference": "H4", "word": "HAINES"})
    assert good.status_code == 200
    assert (good.json()["reference"], good.json()["score"]) == ("H4", 26)
    # Not a word of the list, but it fits the rack and the board: a score, no verdict.
    bad = post(client, f"/tablette/{token}/apercu/", {"reference": "H4", "word": "HAINSE"})
    body = bad.json()
    assert bad.status_code == 200 and body["score"] > 0 and body["reference"] == "H4"
    text = json.dumps(body).lower()
    assert not {"valid", "invalid", "invalid_words", "words_checked"} & set(body)
    assert "valid" not in text and "diction" not in text
    assert set(body) == set(good.json())
    assert len(body["placed"]) == 6
    # Placement and rack letters may be refused, with a sentence.
    letters = post(client, f"/tablette/{token}/apercu/", {"reference": "H6", "word": "ZOO"})
    assert letters.status_code == 422 and letters.json()["code"] == "move.letters"
    place = post(client, f"/tablette/{token}/apercu/", {"reference": "A1", "word": "HAINES"})
    assert place.status_code == 422 and place.json()["code"] == "move.first_not_centre"
    assert place.json()["message"]


def test_submit_is_idempotent_and_the_last_version_counts(client: Client, game) -> None:
    token = game["tokens"][0]
    anne = game["players"][0]
    rnd = game["play"].open_round()
    url = f"/tablette/{token}/envoi/"
    payload = {"round": rnd.pk, "reference": "H4", "word": "HAINSE", "client_key": "k-1"}
    first = post(client, url, payload)
    assert first.status_code == 201 and first.json()["received"] is True
    assert "outcome" not in first.json()  # nothing about validity before the close
    again = post(client, url, payload)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["version"] == first.json()["version"] == 1
    assert ProposalVersion.objects.filter(round=rnd, player=anne).count() == 1
    # A changed proposal (new key) replaces it; the state says which one the server has.
    post(client, url, {**payload, "word": "HAINES", "client_key": "k-2"})
    state = client.get(f"/tablette/{token}/etat/").json()
    assert state["proposal"]["client_key"] == "k-2" and state["proposal"]["version"] == 2
    assert ProposalVersion.objects.get(round=rnd, player=anne, is_current=True).word == "HAINES"
    reused = post(client, url, {**payload, "word": "HAIES"})
    assert reused.status_code == 409 and reused.json()["code"] == "proposal.key_reused"


def test_late_submission_gets_the_late_outcome(client: Client, game) -> None:
    token = game["tokens"][1]
    rnd = game["play"].open_round()
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    late = post(
        client,
        f"/tablette/{token}/envoi/",
        {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "b"},
    )
    body = late.json()
    assert late.status_code == 201 and body["late"] is True
    assert body["outcome"]["code"] == "zero.late" and body["outcome"]["score"] == 0


def test_results_after_close_show_outcome_top_total_and_rank(client: Client, game) -> None:
    anne_t, bruno_t, _ = game["tokens"]
    rnd = game["play"].open_round()
    post(
        client,
        f"/tablette/{anne_t}/envoi/",
        {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "a"},
    )
    post(
        client,
        f"/tablette/{bruno_t}/envoi/",
        {"round": rnd.pk, "reference": "H4", "word": "HAINSE", "client_key": "b"},
    )
    assert client.get(f"/tablette/{anne_t}/etat/").json()["results"] is None
    round_close(round_id=rnd.pk, actor=SYSTEM)
    anne = client.get(f"/tablette/{anne_t}/etat/").json()
    assert anne["round"]["top"]["reference"] == "H4" and anne["round"]["top"]["score"] == 26
    res = anne["results"]
    # Anne alone found a scoring move among three players: a solo, +10 (solos from 3 here).
    assert (res["score"], res["kind"], res["total"], res["rank"], res["negatif"]) == (
        26,
        "valid",
        36,
        1,
        "+10",
    )
    bruno = client.get(f"/tablette/{bruno_t}/etat/").json()["results"]
    assert (bruno["score"], bruno["kind"], bruno["code"]) == (0, "zero", "zero.invalid_word")
    assert bruno["reason"] and bruno["negatif"] == "-26" and bruno["rank"] == 2
    round_place_top(round_id=rnd.pk, actor=SYSTEM)
    full = client.get(f"/tablette/{anne_t}/resultats/").json()
    assert full["rounds"][0]["top"]["word"] == "HAINES" and full["total"] == 36


def test_another_players_token_never_sees_this_proposal(client: Client, game) -> None:
    anne_t, bruno_t, _ = game["tokens"]
    rnd = game["play"].open_round()
    post(
        client,
        f"/tablette/{anne_t}/envoi/",
        {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "secret-a"},
    )
    bruno = client.get(f"/tablette/{bruno_t}/etat/")
    assert bruno.json()["proposal"] is None
    assert "HAINES" not in bruno.content.decode() and "secret-a" not in bruno.content.decode()
    assert "HAINES" not in client.get(f"/tablette/{bruno_t}/").content.decode()


def test_unknown_or_revoked_token_is_a_404_with_a_sentence(client: Client, game) -> None:
    unknown = client.get("/tablette/nope/")
    assert unknown.status_code == 404 and "arbitre" in unknown.content.decode()
    token = game["tokens"][0]
    assert client.get(f"/tablette/{token}/").status_code == 200
    revoke_token(game["registrations"][0])
    assert client.get(f"/tablette/{token}/").status_code == 404
    assert client.get(f"/tablette/{token}/etat/").status_code == 404
    refused = post(client, f"/tablette/{token}/envoi/", {"reference": "H4", "word": "HAINES"})
    assert refused.status_code == 404 and refused.json()["code"] == "tablet.unknown"
    # Reissued: the new link works, the old one stays dead.
    fresh = issue_token(game["registrations"][0])
    assert client.get(f"/tablette/{fresh}/etat/").status_code == 200


def test_a_round_of_another_tournament_is_not_reachable(client: Client, game) -> None:
    token = game["tokens"][0]
    rnd = game["play"].open_round()
    missing = post(
        client,
        f"/tablette/{token}/envoi/",
        {"round": rnd.pk + 999, "reference": "H4", "word": "HAINES", "client_key": "x"},
    )
    assert missing.status_code == 404


def test_posts_need_the_csrf_token(game) -> None:
    strict = Client(enforce_csrf_checks=True)
    token = game["tokens"][0]
    game["play"].open_round()
    refused = post(strict, f"/tablette/{token}/apercu/", {"reference": "H4", "word": "HAINES"})
    assert refused.status_code == 403
    strict.get(f"/tablette/{token}/")
    csrf = strict.cookies["csrftoken"].value
    ok = strict.post(
        f"/tablette/{token}/apercu/",
        json.dumps({"reference": "H4", "word": "HAINES"}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert ok.status_code == 200
