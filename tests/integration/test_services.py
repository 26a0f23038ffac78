"""The real stack: PostgreSQL through Django, and a task sent through Redis to a worker."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection, transaction

from tournaments import celery_app
from tournaments.models import Tournament
from tournaments.services import request_touch
from tournaments.tasks import tournament_touch

pytestmark = pytest.mark.integration


def wait_for_stamp(tournament: Tournament, timeout: float = 30.0) -> Tournament:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.last_computed_at is not None:
            return tournament
        time.sleep(0.2)
    pytest.fail(f"the worker did not stamp tournament {tournament.pk} within {timeout} s")


@pytest.mark.django_db
def test_database_is_postgresql(postgresql: str) -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        assert cursor.fetchone()[0].split()[0] == postgresql


@pytest.mark.django_db(transaction=True)
def test_task_reaches_a_real_worker_after_commit(celery_worker) -> None:
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert celery_app.conf.task_always_eager is False
    with transaction.atomic():
        tournament = Tournament.objects.create(name="Tournoi d'intégration", slug="integration")
        request_touch(tournament.pk)  # sent on commit, else the worker would miss the row
    assert wait_for_stamp(tournament).last_computed_at is not None


@pytest.mark.django_db(transaction=True)
def test_task_is_idempotent_on_the_worker(celery_worker) -> None:
    tournament = Tournament.objects.create(name="Tournoi rejoué", slug="rejoue")
    first = tournament_touch.delay(tournament.pk).get(timeout=30)
    second = tournament_touch.delay(tournament.pk).get(timeout=30)
    tournament.refresh_from_db()
    assert first is not None and first <= second
    assert tournament.last_computed_at.isoformat() == second
    assert tournament_touch.delay(tournament.pk + 10_000).get(timeout=30) is None
