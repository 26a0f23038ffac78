"""Issue 15's left-over: a game played in fewer rounds than the bag allows ends through the
normal path, not « Arrêter la partie » (E5, for abnormal stops: its undecided round is
cancelled and it reads « arrêtée par l'arbitre »).

A game announced in N rounds (« partie en N coups ») ends once round N's top is placed, its
results standing as of that top; a pre-drawn game ends the same way once its last line is
played (before, the next draw was refused, « La partie pré-tirée n'a plus de tirage », and
the game stayed in play). docs/rules-choices.md, "A game shorter than the bag".

The game is seed 7 (racks ESIUHAN, U+OEE?AF): HAINES H4 is 26 (tests/site/test_centres.py).
The pre-drawn text is tests/site/test_sealed_release.py's, three lines.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.scenario import new_game, new_predrawn_game
from tournaments import wording
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, AuditLog, Game, RoundState
from tournaments.models.choices import GameState
from tournaments.selectors import game_standings
from tournaments.services import game_rounds_set, game_stop
from tournaments.services.games import announced_rounds

pytestmark = pytest.mark.django_db

TEXT = "WHISKYE\nE+BBCCDD BOUDEXL\nBLU+?MAN\n"


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call()
    return info.value


def test_a_game_announced_in_two_rounds_ends_after_the_second_top(tournament_setup) -> None:
    head, anne = tournament_setup["arbiter"], tournament_setup["players"][0]
    play = new_game(tournament_setup, seed=7)
    game_rounds_set(game_id=play.game.pk, rounds=2, actor=head)
    play.play({anne: ("HAINES", "H4", 26)})
    play.game.refresh_from_db()
    assert play.game.state == GameState.PLAYING
    play.play({})
    game = Game.objects.get(pk=play.game.pk)
    assert game.state == GameState.FINISHED and game.end["code"] == "announced"
    assert wording.end_text(game.end).startswith(
        "Partie terminée : les coups annoncés ont été joués."
    )
    # The normal end: no round dropped (an E5 stop cancels the undecided one), nothing more
    # to draw, and E5 is no longer offered on a finished game.
    assert set(game.rounds.values_list("state", flat=True)) == {RoundState.CLOSED}
    assert refusal(play.draw).code == "game.over"
    assert refusal(lambda: game_stop(game_id=game.pk, reason="fin", actor=head)).code == (
        "game.over"
    )
    # The results stand as of round 2: Anne's HAINES 26 and its solo (3 players, the others
    # handed nothing in: §4.6, +10) = 36.
    assert {s.player_id: s.total for s in game_standings(game)}[anne.pk] == 36
    end = AuditLog.objects.get(action="game.end", object_id=game.pk)
    assert end.payload["code"] == "announced"


def test_announcing_during_play(tournament_setup, django_user_model) -> None:
    head, t = tournament_setup["arbiter"], tournament_setup["tournament"]
    play = new_game(tournament_setup, seed=7)
    play.play({})
    second = play.draw()
    # Round 2 is drawn: the game cannot be announced shorter than that.
    error = refusal(lambda: game_rounds_set(game_id=play.game.pk, rounds=1, actor=head))
    assert (error.code, error.details["round"]) == ("game.rounds_drawn", 2)
    assert wording.error_text(error) == ("Le coup 2 est déjà tiré : annoncez au moins 2 coups.")
    assert refusal(lambda: game_rounds_set(game_id=play.game.pk, rounds=0, actor=head)).code == (
        "game.rounds"
    )
    helper = django_user_model.objects.create_user("second", password="x")
    ArbiterMembership.objects.create(user=helper, tournament=t, role="arbiter")
    assert refusal(lambda: game_rounds_set(game_id=play.game.pk, rounds=3, actor=helper)).code == (
        "access.head_arbiter"
    )
    # Announced as 2 while round 2 is being played: it ends after that round's top.
    game_rounds_set(game_id=play.game.pk, rounds=2, actor=head)
    play.open(second)
    play.finish(second)
    assert Game.objects.get(pk=play.game.pk).end["code"] == "announced"


def test_announcing_the_last_placed_round_ends_the_game_at_once(tournament_setup) -> None:
    head = tournament_setup["arbiter"]
    play = new_game(tournament_setup, seed=7)
    play.play({})
    game = game_rounds_set(game_id=play.game.pk, rounds=1, actor=head)
    assert (game.state, game.end["code"], game.rounds_announced) == (
        GameState.FINISHED,
        "announced",
        1,
    )
    assert AuditLog.objects.filter(action="game.rounds").count() == 1
    assert refusal(lambda: game_rounds_set(game_id=game.pk, rounds=5, actor=head)).code == (
        "game.over"
    )


def test_a_predrawn_game_ends_when_its_lines_are_played(tournament_setup) -> None:
    play = new_predrawn_game(tournament_setup, TEXT)
    assert announced_rounds(play.game) == 3
    play.play({})
    play.play({})
    play.game.refresh_from_db()
    assert play.game.state == GameState.PLAYING
    play.play({})
    game = Game.objects.get(pk=play.game.pk)
    assert (game.state, game.end["code"]) == (GameState.FINISHED, "announced")
    # An announced number below the lines ends it sooner; a sealed game counts its lines.
    shorter = new_predrawn_game(tournament_setup, TEXT)
    game_rounds_set(game_id=shorter.game.pk, rounds=1, actor=tournament_setup["arbiter"])
    shorter.play({})
    assert Game.objects.get(pk=shorter.game.pk).end["code"] == "announced"
    sealed = new_predrawn_game(tournament_setup, TEXT, sealed=True)
    assert announced_rounds(sealed.game) == 3


def test_the_console_and_the_api_announce_the_rounds(tournament_setup, django_user_model) -> None:
    head, t = tournament_setup["arbiter"], tournament_setup["tournament"]
    play = new_game(tournament_setup, seed=7)
    console = Client()
    console.force_login(head)
    page = console.get(reverse("console:game", args=[play.game.pk])).content.decode()
    assert 'id="announced-rounds"' in page
    url = reverse("console:game_rounds", args=[play.game.pk])
    assert console.post(url, {"rounds": "12"}).status_code == 302
    assert Game.objects.get(pk=play.game.pk).rounds_announced == 12
    refused = console.post(url, {"rounds": "douze"})
    assert refused.status_code == 400
    assert "Une partie se joue en 1 à 1000 coups." in refused.content.decode()
    assert console.post(url, {"rounds": ""}).status_code == 302  # back to the end of the bag
    assert Game.objects.get(pk=play.game.pk).rounds_announced is None
    helper = django_user_model.objects.create_user("second", password="x")
    ArbiterMembership.objects.create(user=helper, tournament=t, role="arbiter")
    other = Client()
    other.force_login(helper)
    assert other.post(url, {"rounds": "3"}).status_code == 403
    # A game created with its announced rounds, from the dashboard and from the API.
    created = console.post(reverse("console:game_create", args=[t.slug]),
                           {"kind": "seeded", "rounds": "15"})  # fmt: skip
    assert created.status_code == 302
    assert Game.objects.get(tournament=t, number=2).rounds_announced == 15
    api = APIClient()
    api.force_login(head)
    answer = api.post(f"/api/tournaments/{t.slug}/games/", {"kind": "seeded", "rounds": 3},
                      format="json")  # fmt: skip
    assert (answer.status_code, answer.json()["rounds"]) == (201, 3)
    bad = api.post(f"/api/tournaments/{t.slug}/games/", {"rounds": 0}, format="json")
    assert bad.status_code == 400


def test_the_api_changes_a_games_announced_rounds(tournament_setup, django_user_model) -> None:
    """``PATCH /api/games/<id>/`` (docs/api.md): the head arbiter announces or withdraws the
    number of rounds; refusals carry the service's code and its French sentence."""
    head, t = tournament_setup["arbiter"], tournament_setup["tournament"]
    play = new_game(tournament_setup, seed=7)
    url = f"/api/games/{play.game.pk}/"
    api = APIClient()
    api.force_login(head)
    answer = api.patch(url, {"rounds": 12}, format="json")
    assert (answer.status_code, answer.json()["id"]) == (200, play.game.pk)
    assert Game.objects.get(pk=play.game.pk).rounds_announced == 12
    assert api.patch(url, {"rounds": None}, format="json").status_code == 200  # to the bag's end
    assert Game.objects.get(pk=play.game.pk).rounds_announced is None
    assert api.patch(url, {}, format="json").status_code == 200  # nothing to change
    assert AuditLog.objects.filter(action="game.rounds").count() == 2
    for bad in ({"rounds": 0}, {"rounds": 1001}, {"rounds": "douze"}, {"rounds": True}):
        assert api.patch(url, bad, format="json").status_code == 400, bad
    # Round 2 drawn: not fewer than 2 (409, the sentence the console shows).
    play.play({})
    second = play.draw()
    drawn = api.patch(url, {"rounds": 1}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert (drawn.status_code, drawn.json()["code"]) == (409, "game.rounds_drawn")
    assert drawn.json()["detail"] == "Le coup 2 est déjà tiré : annoncez au moins 2 coups."
    # Only the head arbiter; an unknown game is a 404.
    helper = django_user_model.objects.create_user("second", password="x")
    ArbiterMembership.objects.create(user=helper, tournament=t, role="arbiter")
    other = APIClient()
    other.force_login(helper)
    assert other.patch(url, {"rounds": 3}, format="json").status_code == 403
    assert APIClient().patch(url, {"rounds": 3}, format="json").status_code in (401, 403)
    assert api.patch("/api/games/999999/", {"rounds": 3}, format="json").status_code == 404
    # Announced as the round being played (2), then that round played: the game is over.
    assert api.patch(url, {"rounds": 2}, format="json").status_code == 200
    play.open(second)
    play.finish(second)
    over = api.patch(url, {"rounds": 5}, format="json")
    assert (over.status_code, over.json()["code"]) == (409, "game.over")
