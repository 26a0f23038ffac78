"""Issue 16, guards of a simultaneous event: no seeded game (every centre plays the same
pre-drawn racks, sealed until their release: docs/simultaneous.md), and no centre deleted
while players or arbiters are in it (no silent cascade). Service, API and console."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments.errors import ServiceError, http_status
from tournaments.models import AuditLog, Centre, Game, Registration, SealedGame, Tournament
from tournaments.services import (
    arbiter_add,
    centre_create,
    centre_delete,
    registration_centre_set,
    tournament_update,
)
from tournaments.services.games import game_create
from tournaments.wording import error_text

pytestmark = pytest.mark.django_db

SEEDED_SENTENCE = (
    "Un tournoi simultané ne joue que des parties prétirées et scellées : chaque centre joue "
    "les mêmes tirages, inconnus de tous jusqu'à leur dévoilement. Une partie tirée d'une "
    "graine n'y a pas sa place."
)


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value


def simultaneous(setup) -> Tournament:
    t = setup["tournament"]
    tournament_update(actor=setup["arbiter"], tournament_id=t.pk, simultaneous=True)
    return t


def logged(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- no seeded game in a simultaneous event ----------------------------------------------


def test_a_seeded_game_is_refused_in_a_simultaneous_event(tournament_setup) -> None:
    t, head = simultaneous(tournament_setup), tournament_setup["arbiter"]
    error = refusal(lambda: game_create(tournament_id=t.pk, seed=7, actor=head))
    assert (error.code, http_status(error.code)) == ("game.simultaneous_seeded", 409)
    assert error_text(error) == SEEDED_SENTENCE
    # The default kind is seeded: no kind given is refused the same way.
    assert refusal(lambda: game_create(tournament_id=t.pk, actor=head)).code == (
        "game.simultaneous_seeded"
    )
    assert not Game.objects.exists()
    # A pre-drawn game is the event's game, sealed whether ticked or not.
    game = game_create(tournament_id=t.pk, kind="predrawn", predrawn="WHISKYE\n", actor=head)
    assert game.predrawn == "" and SealedGame.objects.filter(game=game).exists()


def test_the_api_and_the_console_refuse_it_with_409_and_the_sentence(tournament_setup) -> None:
    t, head = simultaneous(tournament_setup), tournament_setup["arbiter"]
    api = APIClient()
    api.force_login(head)
    answer = api.post(f"/api/tournaments/{t.slug}/games/", {"kind": "seeded", "seed": 7},
                      format="json")  # fmt: skip
    assert answer.status_code == 409
    assert (answer.json()["code"], answer.json()["detail"]) == (
        "game.simultaneous_seeded", SEEDED_SENTENCE
    )  # fmt: skip
    page = logged(head).post(reverse("console:game_create", args=[t.slug]),
                             {"kind": "seeded", "seed": "7"})  # fmt: skip
    assert page.status_code == 409
    assert "ne joue que des parties prétirées et scellées" in page.content.decode()
    assert not Game.objects.exists()
    # The game form of a simultaneous tournament offers a pre-drawn game first.
    dashboard = logged(head).get(reverse("console:tournament", args=[t.slug])).content.decode()
    assert '<option value="predrawn" selected>' in dashboard


def test_a_tournament_with_a_seeded_game_does_not_become_simultaneous(tournament_setup) -> None:
    """The other way round: ticking « simultané » after a seeded game was created."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    new_game(tournament_setup, seed=7)
    error = refusal(lambda: tournament_update(actor=head, tournament_id=t.pk, simultaneous=True))
    assert (error.code, http_status(error.code)) == ("game.simultaneous_seeded", 409)
    t.refresh_from_db()
    assert t.simultaneous is False


MANUAL_SENTENCE = (
    "Un tournoi simultané ne joue que des parties prétirées et scellées : chaque centre joue "
    "les mêmes tirages, inconnus de tous jusqu'à leur dévoilement. Une partie saisie à la "
    "main depuis le sac d'une salle n'y a pas sa place."
)


def test_a_hand_typed_game_is_refused_in_a_simultaneous_event(tournament_setup) -> None:
    """A « manuelle » game takes one room's bag, round by round: the other centres could
    not play it on a release schedule (docs/simultaneous.md)."""
    t, head = simultaneous(tournament_setup), tournament_setup["arbiter"]
    error = refusal(lambda: game_create(tournament_id=t.pk, kind="manual", actor=head))
    assert (error.code, http_status(error.code)) == ("game.simultaneous_manual", 409)
    assert error_text(error) == MANUAL_SENTENCE
    api = APIClient()
    api.force_login(head)
    answer = api.post(f"/api/tournaments/{t.slug}/games/", {"kind": "manual"}, format="json")
    assert (answer.status_code, answer.json()["code"], answer.json()["detail"]) == (
        409, "game.simultaneous_manual", MANUAL_SENTENCE
    )  # fmt: skip
    page = logged(head).post(reverse("console:game_create", args=[t.slug]), {"kind": "manual"})
    assert page.status_code == 409
    assert "saisie à la main depuis le sac" in page.content.decode()
    assert not Game.objects.exists()


def test_a_tournament_with_a_hand_typed_game_does_not_become_simultaneous(
    tournament_setup,
) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    game_create(tournament_id=t.pk, kind="manual", actor=head)
    error = refusal(lambda: tournament_update(actor=head, tournament_id=t.pk, simultaneous=True))
    assert (error.code, http_status(error.code)) == ("game.simultaneous_manual", 409)
    t.refresh_from_db()
    assert t.simultaneous is False
    assert AuditLog.objects.filter(action="tournament.update").count() == 0


# --- a centre in use is not deleted -------------------------------------------------------


def test_a_centre_with_players_or_arbiters_is_not_deleted(tournament_setup) -> None:
    t, head = simultaneous(tournament_setup), tournament_setup["arbiter"]
    lyon = centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    reg = Registration.objects.get(tournament=t, player=tournament_setup["players"][0])
    registration_centre_set(registration_id=reg.pk, centre_id=lyon.pk, actor=head)
    error = refusal(lambda: centre_delete(centre_id=lyon.pk, actor=head))
    assert (error.code, http_status(error.code)) == ("centre.in_use", 409)
    assert error_text(error) == (
        "Le centre « Lyon » a encore 1 joueur(s) et 0 arbitre(s) : déplacez-les dans un "
        "autre centre avant de le supprimer."
    )
    # The player moved out, an arbiter still bound: still refused.
    registration_centre_set(registration_id=reg.pk, centre_id=None, actor=head)
    member = arbiter_add(actor=head, tournament_id=t.pk, login="arbitre-lyon",
                         centre_id=lyon.pk).membership  # fmt: skip
    assert refusal(lambda: centre_delete(centre_id=lyon.pk, actor=head)).details == {
        "name": "Lyon", "players": 0, "arbiters": 1,
    }  # fmt: skip
    # Only the head arbiter deletes: the centre's own arbiter is refused (403).
    error = refusal(lambda: centre_delete(centre_id=lyon.pk, actor=member.user))
    assert http_status(error.code) == 403
    # Nobody left in it: deleted, audited; the player and the arbiter are untouched.
    from tournaments.services import arbiter_centre_set

    arbiter_centre_set(tournament_id=t.pk, user_id=member.user_id, centre_id=None, actor=head)
    assert centre_delete(centre_id=lyon.pk, actor=head) == "Lyon"
    assert not Centre.objects.exists()
    row = AuditLog.objects.get(action="centre.delete")
    assert row.payload["name"] == "Lyon" and row.payload["closes"] == 0
    assert Registration.objects.filter(pk=reg.pk).exists()


def test_the_console_deletes_an_unused_centre_and_says_why_not_otherwise(tournament_setup) -> None:
    t, head = simultaneous(tournament_setup), tournament_setup["arbiter"]
    lyon = centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    empty = centre_create(tournament_id=t.pk, name="Nantes", actor=head)
    reg = Registration.objects.get(tournament=t, player=tournament_setup["players"][0])
    registration_centre_set(registration_id=reg.pk, centre_id=lyon.pk, actor=head)
    client = logged(head)
    refused = client.post(reverse("console:centre_delete", args=[lyon.pk]))
    assert refused.status_code == 409
    text = refused.content.decode()
    assert "Le centre « Lyon » a encore 1 joueur(s) et 0 arbitre(s)" in text
    assert 'data-code="centre.in_use"' in text
    done = client.post(reverse("console:centre_delete", args=[empty.pk]), follow=True)
    assert done.status_code == 200 and "Centre « Nantes » supprimé." in done.content.decode()
    assert list(Centre.objects.values_list("name", flat=True)) == ["Lyon"]
    # The centres page offers the button to the head arbiter.
    page = client.get(reverse("console:centres", args=[t.slug])).content.decode()
    assert reverse("console:centre_delete", args=[lyon.pk]) in page
