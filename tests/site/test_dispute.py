"""The arbiters' dispute checker (issue 15, item 5), on the hand-checked seed-7 game
(tests/site/test_game_services.py): round 1 ESIUHAN on the empty board, top H4 HAINES 26;
round 2 U+OEE?AF on the board with HAINES at H4–H9, top G6 AUlOFEE 70.

Scores worked out by hand from the board (../shared/rules/):

* H4 HAINES on the empty board: H on H4 (double letter) 8 + A I N E S 5 = 13, doubled by
  the star H8: **26**. HAINSE at the same place scores the same 26, but is no word.
* G6 AUlOFEE on round 2's board: the row A1 + U(G7, double letter)2 + l(joker)0 +
  O(G9, double letter)2 + F4 + E1 + E1 = 11; it lays four words down onto HAINES:
  AI (A1 + I1 = 2), UN (U 2 + N1 = 3), lE (0 + E1 = 1), OS (O 2 + S1 = 3): 9; seven tiles,
  the bingo 50: 11 + 9 + 50 = **70**.
* 4G AH on round 2's board: A on G4 (no premium) 1 + the H of HAINES 4 = **5**, no other
  word (G3 and G5 are empty).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import Registration
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(tournament_setup: dict[str, Any]) -> Any:
    return new_game(tournament_setup, seed=7)


def test_a_word_alone_is_looked_up_in_the_lexicon_jokers_lowercase(play) -> None:
    game = play.game
    assert selectors.dispute_check(game, word="HAINES").in_lexicon
    assert not selectors.dispute_check(game, word="HAINSE").in_lexicon
    joker = selectors.dispute_check(game, word="AUlOFEE")
    assert joker.in_lexicon and joker.word == "AUlOFEE" and joker.move is None
    assert selectors.dispute_check(game, word="aulofée").in_lexicon  # accents fold
    with pytest.raises(ServiceError) as caught:
        selectors.dispute_check(game, word="H2O")
    assert caught.value.code == "word.character"


def test_with_a_reference_the_move_is_scored_on_the_current_board(play) -> None:
    game = play.game
    with pytest.raises(ServiceError) as caught:
        selectors.dispute_check(game, word="HAINES", reference="H4")
    assert caught.value.code == "dispute.no_round"
    r1 = play.open_round()
    move = selectors.dispute_check(game, word="HAINES", reference="H4").move
    assert (move.fits, move.reference, move.score, move.placed, move.valid) == (
        True, "H4", 26, 6, True,
    )  # fmt: skip
    wrong = selectors.dispute_check(game, word="HAINSE", reference="H4").move
    assert (wrong.score, wrong.valid, [w.valid for w in wrong.words]) == (26, False, [False])
    play.finish(r1)
    play.open_round()
    top = selectors.dispute_check(game, word="AUlOFEE", reference="G6").move
    assert (top.fits, top.score, top.placed, top.valid) == (True, 70, 7, True)
    assert sorted((w.word, w.score) for w in top.words) == [
        ("AI", 2),
        ("AULOFEE", 11),
        ("LE", 1),
        ("OS", 3),
        ("UN", 3),
    ]  # fmt: skip  -- 11 + 9 = 20, and the bingo's 50 in the move's 70
    small = selectors.dispute_check(game, word="AH", reference="4G").move
    assert (small.fits, small.score, [w.word for w in small.words]) == (True, 5, ["AH"])


def test_a_move_that_does_not_fit_is_an_answer_with_the_engines_code(play) -> None:
    game = play.game
    r1 = play.open_round()
    play.finish(r1)
    play.open_round()
    adjacent = selectors.dispute_check(game, word="FEU", reference="H10").move
    assert (adjacent.fits, adjacent.code) == (False, "move.adjacent")
    missing = selectors.dispute_check(game, word="ZOO", reference="G7").move
    assert not missing.fits and missing.code in {"move.letters", "move.jokers"}
    with pytest.raises(ServiceError) as caught:
        selectors.dispute_check(game, word="FEU", reference="Z99")
    assert caught.value.code.startswith("reference.")


def test_the_console_page_is_for_arbiters_only(play, tournament_setup, client: Client) -> None:
    r1 = play.open_round()
    url = reverse("console:dispute", args=[play.game.pk])
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    token = registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    # A player's tablet session does not open it; an anonymous visitor is sent to log in.
    client.get(f"/tablette/{token}/")
    assert client.get(url, {"mot": "HAINES"}).status_code == 302
    from django.contrib.auth import get_user_model

    outsider = get_user_model().objects.create_user("curieux", password="x-secret-42")
    client.force_login(outsider)
    assert client.get(url, {"mot": "HAINES"}).status_code == 403
    client.force_login(tournament_setup["arbiter"])
    page = client.get(url, {"mot": "HAINSE", "ref": "H4"}).content.decode()
    assert "absent du lexique" in page and "26 points" in page
    assert "le coup vaudrait zéro" in page
    page = client.get(url, {"mot": "HAINES", "ref": "H4"}).content.decode()
    assert "dans le lexique" in page and "Tous les mots formés sont dans le lexique." in page
    play.finish(r1)
    play.open_round()
    page = client.get(url, {"mot": "FEU", "ref": "H10"}).content.decode()
    assert "ne tient pas sur la grille du coup 2" in page
    bad = client.get(url, {"mot": "H2O"})
    assert bad.status_code == 400 and "un mot ne contient que des lettres" in bad.content.decode()
    game_page = client.get(reverse("console:game", args=[play.game.pk])).content.decode()
    assert f'href="{url}" data-key="v"' in game_page


def test_the_api_endpoint_for_arbiters(play, tournament_setup) -> None:
    play.open_round()
    url = f"/api/games/{play.game.pk}/dispute"
    api = APIClient()
    assert api.get(url, {"word": "HAINES"}).status_code == 401
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    token = registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    api.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    assert api.get(url, {"word": "HAINES"}).status_code == 403  # never a player
    api.credentials()
    api.force_authenticate(tournament_setup["arbiter"])
    body = api.get(url, {"word": "HAINSE", "reference": "H4"}).json()
    assert body["in_lexicon"] is False
    assert (body["move"]["fits"], body["move"]["score"], body["move"]["valid"]) == (
        True, 26, False,
    )  # fmt: skip
    refused = api.get(url, {"word": "H2O"})
    assert refused.status_code == 400 and set(refused.json()) == {
        "code", "detail", "params", "fields",
    }  # fmt: skip
    off = api.get(url, {"word": "HAINES", "reference": "H12"}).json()["move"]
    assert off["fits"] is False and off["code"] == "move.off_board" and off["detail"]
