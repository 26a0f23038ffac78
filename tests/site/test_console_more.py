"""Console pages for decisions, cancels, stops, conflicts, recomputations and the players'
tablet tokens, through the Django test client (embedded profile).

Seed 7 on the conformance list: round 1 ESIUHAN, top H4 HAINES 26; round 2 U+OEE?AF, top
G6 AUlOFEE 70 (tests/site/test_console.py). Solos count from 3 players (10 points)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.scenario import new_game
from tournaments.models import (
    ArbiterMembership,
    AuditLog,
    Decision,
    ProposalVersion,
    Registration,
    SlipConflict,
)
from tournaments.selectors import game_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def head(client, tournament_setup) -> dict[str, Any]:
    """The fixture tournament, its head arbiter logged in, a seeded game (seed 7)."""
    setup = tournament_setup
    ArbiterMembership.objects.update_or_create(
        user=setup["arbiter"], tournament=setup["tournament"], defaults={"role": "head"}
    )
    client.force_login(setup["arbiter"])
    play = new_game(setup, seed=7)
    return {**setup, "client": client, "game": play.game, "play": play}


def ranking_cells(page: str, player_id: int) -> list[str]:
    """The numeric cells (score, négatif, %, solos, warnings) of the player's first row."""
    row = page.split(f'<tr data-player="{player_id}">', 1)[1].split("</tr>", 1)[0]
    return [c.split(">", 1)[1].split("<", 1)[0] for c in row.split('<td class="num')[1:]]


def totals(game) -> dict[int, int]:
    return {s.player_id: s.total for s in game_standings(game)}


def test_a_warning_shows_in_the_rankings(head) -> None:
    client = head["client"]
    anne, bruno, chloe = head["players"]
    r1 = head["play"].open_round()
    head["play"].propose(r1, anne, "HAINES", "H4")
    head["play"].propose(r1, bruno, "HAINES", "H4")
    url = reverse("console:decisions", args=[r1.pk])
    page = client.get(url).content.decode()
    assert "Décision d'arbitrage" in page and "HAINES" in page and "Annuler le coup" in page

    # The reason is required: 400, what was typed kept.
    response = client.post(url, {"table_number": "1", "kind": "warning", "reason": ""})
    assert response.status_code == 400 and 'value="1"' in response.content.decode()
    # A moyenne needs the earlier round.
    response = client.post(url, {"table_number": "1", "kind": "moyenne", "reason": "Mot répété"})
    assert response.status_code == 400 and "coup précédent" in response.content.decode()
    # An unknown table: the sentence, a 404 (``table.unknown``, as for a slip and the API).
    response = client.post(url, {"table_number": "9", "kind": "zero", "reason": "x"})
    assert response.status_code == 404 and "table 9" in response.content.decode()

    response = client.post(url, {"table_number": "1", "kind": "warning",
                                 "reason": "Bulletin mal rempli"})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == url
    response = client.post(url, {"table_number": "2", "kind": "disciplinary",
                                 "reason": "Téléphone"})  # fmt: skip
    assert response.status_code == 302
    response = client.post(url, {"table_number": "3", "kind": "penalty", "reason": "Retard"})
    assert response.status_code == 302
    kinds = {(d.player_id, d.kind, d.disciplinary) for d in Decision.objects.filter(round=r1)}
    assert kinds == {(anne.pk, "warning", False), (bruno.pk, "warning", True),
                     (chloe.pk, "penalty", False)}  # fmt: skip
    page = client.get(url).content.decode()
    assert "Bulletin mal rempli" in page and "disciplinaire" in page
    head["play"].finish(r1)

    ranking = client.get(reverse("console:rankings", args=["open-test"])).content.decode()
    # Columns: score, négatif, % du top, solos, warnings. Anne: the top with a warning
    # (26 kept, one warning); Bruno: the top and a disciplinary warning (one warning).
    assert ranking_cells(ranking, anne.pk)[0] == "26" and ranking_cells(ranking, anne.pk)[4] == "1"
    assert ranking_cells(ranking, bruno.pk)[4] == "1"
    assert ranking_cells(ranking, chloe.pk)[4] == "0"


def test_plain_arbiter_decides_but_does_not_cancel(head) -> None:
    client, game = head["client"], head["game"]
    r1 = head["play"].open_round()
    helper = get_user_model().objects.create_user("assesseur", password="y")
    ArbiterMembership.objects.create(user=helper, tournament=head["tournament"])
    client.force_login(helper)
    url = reverse("console:decisions", args=[r1.pk])
    page = client.get(url).content.decode()
    assert "Décision d'arbitrage" in page and "Annuler le coup" not in page
    assert client.post(url, {"table_number": "1", "kind": "zero",
                             "reason": "Illisible"}).status_code == 302  # fmt: skip
    for name, args in (("round_cancel", [r1.pk]), ("round_recompute", [r1.pk]),
                       ("game_stop", [game.pk]), ("game_recompute", [game.pk])):  # fmt: skip
        response = client.post(reverse(f"console:{name}", args=args), {"reason": "x"})
        assert response.status_code == 403, name
    r1.refresh_from_db()
    assert r1.state == "open"
    outsider = get_user_model().objects.create_user("autre", password="z")
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_a_cancelled_round_voids_its_points(head) -> None:
    client, game = head["client"], head["game"]
    anne, bruno, chloe = head["players"]
    r1 = head["play"].open_round()
    head["play"].propose(r1, anne, "HAINES", "H4")
    head["play"].finish(r1)
    r2 = head["play"].open_round()
    head["play"].propose(r2, bruno, "AUlOFEE", "G6")
    head["play"].propose(r2, chloe, "HAINES", "H4")  # not playable any more: 0
    head["play"].finish(r2)
    # By hand: round 1 Anne 26 + solo 10 = 36; round 2 Bruno 70 + solo 10 = 80, Chloé 0.
    assert totals(game) == {anne.pk: 36, bruno.pk: 80, chloe.pk: 0}

    url = reverse("console:round_cancel", args=[r2.pk])
    response = client.post(url, {"reason": ""})
    assert response.status_code == 400
    response = client.post(reverse("console:round_cancel", args=[r1.pk]), {"reason": "x"})
    assert (
        response.status_code == 400 and 'data-code="cancel.not_last"' in response.content.decode()
    )
    response = client.post(url, {"reason": "Lettre tombée du sac", "redraw": ["0", "1"]})
    assert response.status_code == 302
    assert response["Location"] == reverse("console:game", args=[game.pk])
    r2.refresh_from_db()
    assert (r2.state, r2.cancel_reason) == ("cancelled", "Lettre tombée du sac")
    # Totals drop by round 2's scores (80 for Bruno, 0 for the others); a new round 2 drawn.
    assert totals(game) == {anne.pk: 36, bruno.pk: 0, chloe.pk: 0}
    replacement = game.rounds.exclude(state="cancelled").get(number=2)
    assert replacement.rack != r2.rack
    ranking = client.get(reverse("console:rankings", args=["open-test"])).content.decode()
    assert ranking_cells(ranking, bruno.pk)[0] == "0" and ranking_cells(ranking, anne.pk)[0] == "36"


def test_game_stop_and_recompute_buttons(head, django_capture_on_commit_callbacks) -> None:
    client, game = head["client"], head["game"]
    r1 = head["play"].open_round()
    head["play"].propose(r1, head["players"][0], "HAINES", "H4")
    head["play"].finish(r1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(reverse("console:round_recompute", args=[r1.pk]))
    assert response.status_code == 302 and len(callbacks) == 1  # recompute_round queued
    response = client.post(reverse("console:game_recompute", args=[game.pk]), {"reason": ""})
    assert response.status_code == 400
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(reverse("console:game_recompute", args=[game.pk]),
                               {"reason": "Lexique corrigé", "round": str(r1.pk)})  # fmt: skip
    assert response.status_code == 302 and len(callbacks) == 1
    assert response["Location"] == reverse("console:decisions", args=[r1.pk])

    r2 = head["play"].open_round()
    assert client.post(reverse("console:game_stop", args=[game.pk]),
                       {"reason": ""}).status_code == 400  # fmt: skip
    response = client.post(reverse("console:game_stop", args=[game.pk]),
                           {"reason": "Alerte incendie"})  # fmt: skip
    assert response.status_code == 302
    game.refresh_from_db()
    r2.refresh_from_db()
    assert game.state == "finished" and game.end["code"] == "E5" and r2.state == "cancelled"
    assert AuditLog.objects.filter(action="round.cancel").count() == 1


def test_conflict_resolution_keeps_the_chosen_version(head) -> None:
    client, arbiter = head["client"], head["arbiter"]
    anne = head["players"][0]
    r1 = head["play"].open_round()
    second = get_user_model().objects.create_user("arbitre-2", password="y")
    ArbiterMembership.objects.create(user=second, tournament=head["tournament"])
    slips = reverse("console:slips", args=[r1.pk])
    assert client.post(slips, {"line": "1 H4 HAINES 26"}).status_code == 302
    client.force_login(second)
    answer = client.post(slips, {"line": "1 H4 HAIES 22"}, follow=True)
    # The second arbiter is told at once, on the page the form comes back to (no JavaScript).
    assert answer.redirect_chain[0][1] == 302
    assert "conflit ouvert, le juge-arbitre tranche" in answer.content.decode()
    conflict = SlipConflict.objects.get(round=r1)
    first_id, second_id = conflict.first_id, conflict.second_id
    assert ProposalVersion.objects.get(round=r1, player=anne, is_current=True).pk == first_id

    url = reverse("console:conflicts", args=["open-test"])
    page = client.get(url).content.decode()  # a plain arbiter sees them, without buttons
    assert "HAIES" in page and "Garder cette version" not in page
    keep = reverse("console:conflict_keep", args=[conflict.pk])
    assert client.post(keep, {"version": str(second_id)}).status_code == 403

    client.force_login(arbiter)
    page = client.get(url).content.decode()
    assert page.count("Garder cette version") == 2 and "HAINES" in page and "HAIES" in page
    assert client.post(keep, {"version": "abc"}).status_code == 400
    response = client.post(keep, {"version": str(second_id)})
    assert response.status_code == 302 and response["Location"] == url
    assert ProposalVersion.objects.get(round=r1, player=anne, is_current=True).pk == second_id
    conflict.refresh_from_db()
    assert conflict.kept_id == second_id and conflict.resolved_by == arbiter
    page = client.get(url).content.decode()
    assert "Aucun conflit de saisie en attente." in page and "Conflits réglés" in page
    # Changing one's mind after the fact is refused with a sentence.
    response = client.post(keep, {"version": str(first_id)})
    assert (
        response.status_code == 400 and 'data-code="conflict.resolved"' in response.content.decode()
    )
    assert Registration.objects.count() == 3


# --- Players: tablet links and late arrivals ------------------------------------------------


def test_token_issue_and_revoke_change_the_link(head) -> None:
    client, tournament = head["client"], head["tournament"]
    anne = Registration.objects.get(tournament=tournament, table_number=1)
    players = reverse("console:players", args=["open-test"])
    page = client.get(players).content.decode()
    assert "Créer un lien" in page and "Imprimer les liens des tablettes" in page

    response = client.post(reverse("console:token_issue", args=[anne.pk]))
    assert response.status_code == 302 and response["Location"] == f"{players}#t1"
    anne.refresh_from_db()
    first = anne.access_token
    link = reverse("tablet:page", args=[first])
    page = client.get(players).content.decode()
    assert f'href="{link}"' in page and f"http://testserver{link}" in page
    assert client.get(link).status_code == 200

    client.post(reverse("console:token_issue", args=[anne.pk]))  # a new link
    anne.refresh_from_db()
    assert anne.access_token and anne.access_token != first
    assert client.get(link).status_code == 404  # the old link is dead
    new_link = reverse("tablet:page", args=[anne.access_token])
    assert client.get(new_link).status_code == 200
    assert f'href="{new_link}"' in client.get(players).content.decode()

    client.post(reverse("console:token_revoke", args=[anne.pk]))
    anne.refresh_from_db()
    assert anne.access_token is None
    assert client.get(new_link).status_code == 404
    assert "révoqué" in client.get(players).content.decode()
    assert client.get(reverse("console:token_issue", args=[anne.pk])).status_code == 405

    outsider = get_user_model().objects.create_user("autre", password="z")
    client.force_login(outsider)
    assert client.post(reverse("console:token_issue", args=[anne.pk])).status_code == 403


def test_late_arrival_from_the_players_page(head) -> None:
    client, tournament = head["client"], head["tournament"]
    url = reverse("console:arrive", args=["open-test"])
    response = client.post(url, {"table": "2", "game": "1", "round": "3"})
    assert response.status_code == 302
    bruno = Registration.objects.get(tournament=tournament, table_number=2)
    assert (bruno.arrival_game, bruno.arrival_round) == (1, 3)
    page = client.get(reverse("console:players", args=["open-test"])).content.decode()
    assert "partie 1, coup 3" in page
    assert (
        client.post(url, {"table": "9", "game": "1", "round": "1"}).status_code == 404
    )  # table.unknown
    response = client.post(url, {"table": "2", "game": "", "round": "1"})
    assert (
        response.status_code == 400
        and 'data-code="registration.arrival"' in response.content.decode()
    )
