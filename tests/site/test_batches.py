"""Console pages for batches of pre-drawn games (issue 5), and the tournament's
``public_rankings`` setting on the API's rankings (embedded profile: tasks run eagerly)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import ArbiterMembership, BatchJob, Game, Tournament
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def head(client, tournament_setup) -> dict[str, Any]:
    client.force_login(tournament_setup["arbiter"])
    return {**tournament_setup, "client": client}


def _prepare(client: Any, capture: Any, **data: Any) -> Any:
    body = {"count": 2, "seed_base": 7, "variant": "standard", **data}
    with capture(execute=True):
        return client.post(reverse("console:batch_prepare", args=["open-test"]), body)


def test_a_batch_of_two_games_is_prepared_and_becomes_a_game(
    head, eager_celery, django_capture_on_commit_callbacks
) -> None:
    client = head["client"]
    dashboard = client.get(reverse("console:tournament", args=["open-test"])).content.decode()
    assert reverse("console:batch_prepare", args=["open-test"]) in dashboard
    page = client.get(reverse("console:batch_prepare", args=["open-test"]))
    assert page.status_code == 200 and "Nombre de parties" in page.content.decode()

    response = _prepare(client, django_capture_on_commit_callbacks)
    job = BatchJob.objects.get()
    assert response.status_code == 302
    assert (
        response["Location"] == reverse("console:batch", args=[job.pk]) == f"/arbitre/lot/{job.pk}/"
    )
    assert (job.tournament, job.total, job.seed_base) == (head["tournament"], 2, 7)

    status = client.get(reverse("console:batch_status", args=[job.pk]))
    assert status.status_code == 200 and status["Cache-Control"] == "no-store"
    state = status.json()
    assert (state["done"], state["total"], state["state"]) == (2, 2, "done")
    assert [(g["seed"], g["ready"]) for g in state["games"]] == [(7, True), (8, True)]
    assert all(g["rounds"] > 0 and g["top_total"] > 0 for g in state["games"])

    first = state["games"][0]
    shown = client.get(reverse("console:batch", args=[job.pk])).content.decode()
    assert "Créer la partie dans ce tournoi" in shown and first["create"] in shown
    assert str(first["top_total"]) in shown
    assert '<script type="module" src="/static/tournaments/batch_job.js">' in shown

    created = client.post(first["create"])
    game = Game.objects.get(tournament=head["tournament"])
    assert created.status_code == 302
    assert created["Location"] == reverse("console:game", args=[game.pk])
    assert game.kind == "predrawn" and game.predrawn.splitlines()[0] == "ESIUHAN"
    assert list(game.prepared_from.values_list("pk", flat=True)) == [first["id"]]
    # The batch is listed on the form page for later use.
    listing = client.get(reverse("console:batch_prepare", args=["open-test"])).content.decode()
    assert reverse("console:batch", args=[job.pk]) in listing


def test_a_plain_arbiter_may_not_prepare_nor_create(
    head, eager_celery, django_capture_on_commit_callbacks, django_user_model
) -> None:
    _prepare(head["client"], django_capture_on_commit_callbacks)
    job = BatchJob.objects.get()
    prepared = job.games.get(index=0)
    plain = django_user_model.objects.create_user("assesseur", password="x")
    ArbiterMembership.objects.create(user=plain, tournament=head["tournament"], role="arbiter")
    client = head["client"]
    client.force_login(plain)
    assert client.get(reverse("console:batch_prepare", args=["open-test"])).status_code == 403
    assert _prepare(client, django_capture_on_commit_callbacks).status_code == 403
    assert BatchJob.objects.count() == 1
    # An arbiter follows the batch but gets no create button, and may not create.
    page = client.get(reverse("console:batch", args=[job.pk]))
    assert (
        page.status_code == 200 and "Créer la partie dans ce tournoi" not in page.content.decode()
    )
    assert client.post(reverse("console:prepared_create", args=[prepared.pk])).status_code == 403
    assert not Game.objects.exists()
    # An outsider sees nothing; an unknown batch is a 404.
    client.force_login(django_user_model.objects.create_user("dehors", password="x"))
    assert client.get(reverse("console:batch_status", args=[job.pk])).status_code == 403
    assert client.get(reverse("console:batch", args=[job.pk + 1])).status_code == 404


@pytest.mark.parametrize("count", ["0", "51", "beaucoup"])
def test_a_bad_count_is_refused_in_french(
    head, eager_celery, django_capture_on_commit_callbacks, count
) -> None:
    response = _prepare(head["client"], django_capture_on_commit_callbacks, count=count)
    assert response.status_code == 400
    assert "Un lot compte de 1 à 50 parties." in response.content.decode()
    assert not BatchJob.objects.exists()


def test_a_tournament_without_lexicon_cannot_prepare(
    head, eager_celery, django_capture_on_commit_callbacks
) -> None:
    Tournament.objects.filter(pk=head["tournament"].pk).update(lexicon=None)
    response = _prepare(head["client"], django_capture_on_commit_callbacks)
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert "Le tournoi « Open de test » n'a pas de lexique." in text


# --- public_rankings -----------------------------------------------------------------------


def test_rankings_are_public_only_when_the_tournament_says_so(head) -> None:
    tournament, arbiter = head["tournament"], head["arbiter"]
    Game.objects.create(tournament=tournament, number=1, kind="seeded", seed=7)
    urls = ["/api/tournaments/open-test/rankings/", "/api/tournaments/open-test/games/1/rankings/"]
    anonymous, signed_in = APIClient(), APIClient()
    signed_in.force_authenticate(arbiter)
    assert tournament.public_rankings is False
    for url in urls:
        refused = anonymous.get(url)
        assert refused.status_code in {401, 403} and refused.json()["code"] == "access.rankings"
        assert signed_in.get(url).status_code == 200  # arbiters always may
    Tournament.objects.filter(pk=tournament.pk).update(public_rankings=True)
    for url in urls:
        assert anonymous.get(url).status_code == 200
    assert anonymous.get("/api/tournaments/open-test/").json()["public_rankings"] is True


def test_public_rankings_is_set_at_creation(django_user_model, tournament_setup) -> None:
    root = django_user_model.objects.create_superuser("root", password="x")
    lex = tournament_setup["lexicon"].pk
    made = tournament_create(name="Privé", slug="prive", lexicon_id=lex, actor=root)
    assert made.public_rankings is False
    made = tournament_create(name="Public", slug="public", public_rankings=True, lexicon_id=lex,
                             actor=root)  # fmt: skip
    assert made.public_rankings is True
    api = APIClient()
    api.force_authenticate(root)
    body = {"name": "Par l'API", "slug": "par-api", "public_rankings": True, "lexicon": lex}
    created = api.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201 and created.json()["public_rankings"] is True
    assert Tournament.objects.get(slug="par-api").public_rankings is True
