"""The projector (/projecteur/<slug>/): read-only state, never the top before the close."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.access import SYSTEM
from tournaments.services import (
    game_create,
    proposal_submit,
    round_close,
    round_draw,
    round_open,
    round_place_top,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_live_cache(settings) -> None:
    """Each request sees the rows at once (the 0.5 s live cache is for the real server)."""
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0


def test_projector_follows_the_round_and_shows_top_moves_and_ranking(
    client: Client, tournament_setup: dict[str, Any]
) -> None:
    setup = tournament_setup
    anne, bruno, _ = setup["players"]
    slug = setup["tournament"].slug
    assert client.get(f"/projecteur/{slug}/").status_code == 200
    assert client.get("/projecteur/unknown/").status_code == 404
    url = f"/projecteur/{slug}/etat/"
    assert client.get(url).json()["round"] is None

    game = game_create(tournament_id=setup["tournament"].pk, seed=7, actor=SYSTEM)
    rnd = round_open(round_id=round_draw(game_id=game.pk, actor=SYSTEM).pk, actor=SYSTEM)
    proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4", actor=SYSTEM)
    proposal_submit(
        round_id=rnd.pk, player_id=bruno.pk, word="HAINSE", reference="H4", actor=SYSTEM
    )
    during = client.get(url)
    data = during.json()
    assert data["round"]["rack"] == "ESIUHAN" and data["round"]["deadline"]
    assert data["round"]["top"] is None and data["best_moves"] == []
    assert "HAINES" not in during.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=during["ETag"]).status_code == 304

    round_close(round_id=rnd.pk, actor=SYSTEM, confirm=True)
    after = client.get(url, HTTP_IF_NONE_MATCH=during["ETag"])
    assert after.status_code == 200
    data = after.json()
    assert (data["round"]["top"]["reference"], data["round"]["top"]["score"]) == ("H4", 26)
    assert data["best_moves"] == [
        {"name": "Anne", "reference": "H4", "word": "HAINES", "score": 26, "top": True}
    ]
    assert [(r["rank"], r["name"], r["total"]) for r in data["ranking"]][0] == (1, "Anne", 36)

    round_place_top(round_id=rnd.pk, actor=SYSTEM)
    nxt = round_open(round_id=round_draw(game_id=game.pk, actor=SYSTEM).pk, actor=SYSTEM)
    data = client.get(url).json()
    assert data["round"]["number"] == nxt.number == 2 and data["round"]["top"] is None
    # The last top (HAINES at H4) is highlighted on the board of round 2.
    assert [sq[:2] for sq in data["last_top"]] == [[7, c] for c in range(3, 9)]
