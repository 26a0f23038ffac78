"""Home page, language switch, API schema and the Celery task in the embedded profile."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tournaments import celery_app
from tournaments.models import Tournament
from tournaments.services import request_touch
from tournaments.tasks import tournament_touch

EN_CATALOG = Path(settings.BASE_DIR, "tournaments/locale/en/LC_MESSAGES/django.mo")


@pytest.fixture
def demo(db) -> Tournament:
    """A tournament as the home page lists it (the full demo: tests/site/test_demo.py)."""
    return Tournament.objects.create(
        slug="demo", name="Tournoi de démonstration", created_at=datetime(2025, 1, 4, 9, tzinfo=UTC)
    )


def test_home_lists_the_demo_tournament_in_french(client, demo) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert "<h1>Tournois</h1>" in page
    assert "Tournoi de démonstration" in page
    assert "Créé le 4 janvier 2025" in page
    assert '<option value="en">English</option>' in page  # each language in its own name


def test_home_links_each_tournament_and_the_footer_goes_to_the_console(client, demo) -> None:
    page = client.get(reverse("home")).content.decode()
    assert '<a href="/arbitre/tournoi/demo/">Tournoi de démonstration</a>' in page
    assert '<a href="/projecteur/demo/">Projecteur</a>' in page
    assert '<a href="/arbitre/">Espace arbitre</a>' in page
    assert "/admin/" not in page  # an arbiter works in the console, never in Django's admin


def test_home_without_tournaments(client, db) -> None:
    assert "Aucun tournoi pour l’instant." in client.get("/").content.decode()


def test_home_in_english_on_request(client, demo) -> None:
    assert EN_CATALOG.exists(), "compile the catalogs first: make messages (make test does)"
    page = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert '<html lang="en">' in page
    assert "<h1>Tournaments</h1>" in page
    assert "Tournoi de démonstration" in page


def test_api_lists_tournaments_and_publishes_its_schema(client, demo) -> None:
    listing = client.get("/api/tournaments/")
    assert listing.status_code == 200
    assert [row["slug"] for row in listing.json()] == ["demo"]
    schema = client.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    assert "/api/tournaments/" in schema.json()["paths"]


def test_touch_stamps_and_is_idempotent(demo) -> None:
    # apply() runs the task body in-process whatever the profile: this checks the logic only.
    first = tournament_touch.apply(args=[demo.pk]).get()
    second = tournament_touch.apply(args=[demo.pk]).get()
    demo.refresh_from_db()
    assert first is not None and second is not None and first <= second
    assert demo.last_computed_at.isoformat() == second
    assert tournament_touch.apply(args=[10**9]).get() is None


def test_request_touch_queues_only_after_commit(
    demo, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent: list[tuple] = []
    # Queued by name: the registered task is sent with its arguments.
    monkeypatch.setattr(tournament_touch, "apply_async", sent.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        request_touch(demo.pk)
    assert sent == []
    for callback in callbacks:
        callback()
    assert sent == [(demo.pk,)]


def test_eager_mode_runs_the_task_at_commit(
    demo, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    # Eager is the embedded default; forced here so the test also runs when REDIS_URL is set.
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    with django_capture_on_commit_callbacks(execute=True):
        request_touch(demo.pk)
    demo.refresh_from_db()
    assert demo.last_computed_at is not None
