"""One definition of each notion the selectors own (issue 20): the current round as the
room and the arbiter see it, the game figures cached per game, the sub-rankings with the
players who have no series.

Seed 7 on the conformance list: round 1 ESIUHAN, top H4 HAINES 26 (tests/site/test_console.py).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.scenario import new_game, scenario_of
from tournaments import selectors
from tournaments.models import Player
from tournaments.services import (
    registration_token_issue,
    round_cancel,
    round_draw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(client, tournament_setup) -> dict:
    """Round 1 of a seeded game placed; the head arbiter logged in."""
    setup = tournament_setup
    arbiter = setup["arbiter"]
    client.force_login(arbiter)
    scenario = new_game(setup, seed=7)
    r1 = scenario.play({setup["players"][0]: ("HAINES", "H4", None)})
    return {**setup, "client": client, "game": scenario.game, "r1": r1}


def test_a_cancelled_round_is_current_for_the_room_not_for_the_arbiter(played) -> None:
    client, game, arbiter, r1 = played["client"], played["game"], played["arbiter"], played["r1"]
    r2 = round_draw(game_id=game.pk, actor=arbiter)
    round_cancel(round_id=r2.pk, reason="Sac renversé", redraw=False, actor=arbiter)
    assert selectors.current_round(game).pk == r2.pk  # the room: "coup annulé"
    assert selectors.current_round(game, cancelled=False).pk == r1.pk  # play goes on from 1
    # The tablet and the player API show the cancelled round, the same one.
    reg = selectors.registration_at_table(played["tournament"].pk, 1)
    token = registration_token_issue(registration_id=reg.pk, actor=arbiter)
    tablet = client.get(reverse("tablet:state", args=[token])).json()
    player = Client()  # no arbiter session: the player token alone
    api = player.get(reverse("api-player-round"), headers={"Authorization": f"Player {token}"})
    assert tablet["round"]["state"] == api.json()["round"]["state"] == "cancelled"
    assert tablet["round"]["id"] == api.json()["round"]["id"] == r2.pk
    assert tablet["round"]["rack"] == "" and api.json()["round"]["rack"] is None  # never shown
    # The arbiter's screen is on round 1, whose top is placed: the next rack may be drawn.
    status = client.get(reverse("console:game_status", args=[game.pk])).json()
    assert status["round"]["number"] == 1 and status["round"]["top_placed"] is True
    # Drawn again: one current round for everyone.
    again = round_draw(game_id=game.pk, actor=arbiter)
    assert selectors.current_round(game).pk == again.pk
    assert selectors.current_round(game, cancelled=False).pk == again.pk
    assert selectors.current_game(played["tournament"].pk).pk == game.pk
    assert selectors.playing_round(played["tournament"].pk).pk == again.pk


def test_the_playing_round_is_the_current_games_current_round(played) -> None:
    """``playing_round`` (one query, the player API's submissions) gives what
    ``current_round(current_game(...))`` gives, also for a new game without a round yet."""
    tournament_id, game = played["tournament"].pk, played["game"]
    assert selectors.playing_round(tournament_id).pk == played["r1"].pk
    second = new_game(played, seed=8).game
    assert selectors.current_game(tournament_id).pk in {game.pk, second.pk}
    expected = selectors.current_round(selectors.current_game(tournament_id))
    got = selectors.playing_round(tournament_id)
    assert (got.pk if got else None) == (expected.pk if expected else None)
    round_draw(game_id=second.pk, actor=played["arbiter"])
    expected = selectors.current_round(selectors.current_game(tournament_id))
    assert selectors.playing_round(tournament_id).pk == expected.pk
    assert selectors.playing_round(0) is None


def test_a_game_created_ahead_leaves_the_room_on_the_game_being_played(played) -> None:
    """An event prepares its next game while this one is played (bench/stack_event.py found
    every tablet sent to the new, empty game): the room stays on the game with rounds until
    the new one's first rack is drawn, or until this one is over."""
    tournament_id, game = played["tournament"].pk, played["game"]
    second = new_game(played, seed=8).game  # created ahead, nothing drawn
    assert selectors.current_game(tournament_id).pk == game.pk
    assert selectors.playing_round(tournament_id).pk == played["r1"].pk
    first = round_draw(game_id=second.pk, actor=played["arbiter"])  # the next game starts
    assert selectors.current_game(tournament_id).pk == second.pk
    assert selectors.playing_round(tournament_id).pk == first.pk


def test_the_figures_are_cached_per_game(played) -> None:
    game, arbiter = played["game"], played["arbiter"]
    anne, bruno = played["players"][:2]
    other = new_game(played, seed=7)
    first = selectors.game_outcomes(game)
    assert selectors.game_outcomes(game) is first  # nothing changed: the cached figures
    before = selectors.game_revision(game)
    # A round played in the other game leaves this game's revision and figures alone.
    other.play({bruno: ("HAINES", "H4", None)})
    assert selectors.game_revision(game) == before
    assert selectors.game_outcomes(game) is first
    assert selectors.game_revision(other.game) > before
    # A change in this game (round 2 played) is a new revision and new figures.
    # Anne's HAINES at H4 is not a legal move on round 2: a zero, still a slip.
    scenario_of(game, arbiter).play({anne: ("HAINES", "H4", None)})
    assert selectors.game_revision(game) > before
    assert selectors.game_outcomes(game) is not first
    assert len(selectors.game_outcomes(game).tops) == 2


def test_the_console_ranks_players_without_a_series_under_non_classes(played) -> None:
    client = played["client"]
    anne, bruno, chloe = played["players"]
    Player.objects.filter(pk=anne.pk).update(series="1A", category="Senior")
    Player.objects.filter(pk=bruno.pk).update(series="1A")
    page = client.get(reverse("console:rankings", args=["open-test"])).content.decode()
    series = page.split("Par série", 1)[1].split("Par catégorie", 1)[0]
    # Groups: série 1 (Anne 26, Bruno 0, sub-series 1A), then Chloé, who has no series,
    # last and not dropped.
    assert series.index("Série 1") < series.index("Non classés")
    unclassed = series.split("Non classés", 1)[1]
    assert "Chloé" in unclassed and "Anne" not in unclassed and "Bruno" not in unclassed
    categories = page.split("Par catégorie", 1)[1]
    assert "Catégorie Senior" in categories and "Non classés" in categories
    # The printed sheet ranks the same groups: its sub-rankings come from the same rule.
    groups = selectors.sub_rankings(selectors.results_data(played["tournament"]).main, "series")
    assert [(g.label, [line.player.name for _r, _t, line in g.lines]) for g in groups] == [
        ("1", ["Anne", "Bruno"]),
        ("Non classés", ["Chloé"]),
    ]
