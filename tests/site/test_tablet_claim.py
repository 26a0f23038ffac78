"""The score a tablet writes for its player (rules §4.1 S2), one service for the tablet page
and the player API (issue 20): with scores required, a tablet proposal without a score is
claimed at the move's own value (placement and letters, never the lexicon).

Seed 7, round 1 (ESIUHAN) on the empty board: H4 HAINES is H on H4 (DL) 4 × 2 = 8, A, I, N,
E (H8), S 1 each: 13, × 2 for the centre = 26 (tests/site/test_judging.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.board import Board, Rack
from engine.duplicate.proposals import ScoringSettings, automatic_claim
from tests.scenario import new_game
from tournaments.models import ProposalVersion, Registration, Tournament
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def opened(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    """Scores required; round 1 of seed 7 open; a tablet token for Anne and Bruno."""
    setup = tournament_setup
    Tournament.objects.filter(pk=setup["tournament"].pk).update(score_required=True)
    arbiter = setup["arbiter"]
    rnd = new_game(setup, seed=7).open_round()
    regs = Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
    tokens = [registration_token_issue(registration_id=r.pk, actor=arbiter) for r in regs[:2]]
    return {**setup, "round": rnd, "tokens": tokens}


def _current(rnd, player) -> ProposalVersion:
    return ProposalVersion.objects.get(round=rnd, player=player, is_current=True)


def test_the_engine_claims_placement_and_letters_only() -> None:
    rack, board = Rack("ESIUHAN"), Board()
    required, free = ScoringSettings(score_required=True), ScoringSettings(score_required=False)
    claim = lambda ref, word, s=required: automatic_claim(  # noqa: E731
        board=board, rack=rack, reference=ref, word=word, settings=s
    )
    assert claim("H4", "HAINES") == 26
    assert claim("H4", "HAINSE") == 26  # not a word: the claim never tells (same letters)
    assert claim("H4", "HAINES", free) is None  # club training: no score asked
    assert claim("A1", "HAINES") is None  # off the centre: does not fit, no claim
    assert claim("", "HAINES") is None


def test_the_tablet_page_claims_the_moves_value(client: Client, opened) -> None:
    rnd, anne = opened["round"], opened["players"][0]
    body = {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "t-1"}
    url = f"/tablette/{opened['tokens'][0]}/envoi/"
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content
    version = _current(rnd, anne)
    assert (version.claimed_score, version.outcome_code, version.outcome_score) == (26, "ok", 26)


def test_the_player_api_claims_it_too_unless_a_score_is_given(opened) -> None:
    rnd, anne, bruno = opened["round"], *opened["players"][:2]

    def send(token: str, **extra: Any) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Player {token}")
        data = {"round": rnd.pk, "reference": "H4", "word": "HAINES", **extra}
        response = api.post("/api/player/proposals/", data, format="json")
        assert response.status_code == 201, response.content

    send(opened["tokens"][0], client_key="a-1")
    version = _current(rnd, anne)
    assert (version.claimed_score, version.outcome_code, version.outcome_score) == (26, "ok", 26)
    # A score the player typed is his claim: a wrong one is a warning (§4.3), paid 26.
    send(opened["tokens"][1], client_key="b-1", score=20)
    version = _current(rnd, bruno)
    assert (version.claimed_score, version.outcome_code, version.outcome_score) == (
        20,
        "warning.score_wrong",
        26,
    )
