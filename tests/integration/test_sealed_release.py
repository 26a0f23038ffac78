"""A sealed game's rounds released by the real Celery worker (docs/simultaneous.md): the
ETA message of the schedule releases round 1 at its time, not before, and the sweep task
releases a round whose message never came. Racks and tops: tests/site/test_sealed_release.py
(hand computed: WHISKYE → H4 WHISKY 92)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.integration.test_worker_games import wait_until
from tests.scenario import new_predrawn_game
from tests.site.test_sealed_release import TEXT
from tournaments.models import Round, SealedRound
from tournaments.services.release import Schedule, release_schedule_set
from tournaments.tasks import release_sweep

pytestmark = pytest.mark.integration


@pytest.mark.django_db(transaction=True)
def test_the_worker_releases_at_the_time_and_the_sweep_catches_up(
    celery_worker, tournament_setup
) -> None:
    head = tournament_setup["arbiter"]
    play = new_predrawn_game(tournament_setup, TEXT, sealed=True)
    game = play.game
    at = timezone.now() + timedelta(seconds=3)
    release_schedule_set(game_id=game.pk, schedule=Schedule(starts_at=at, interval=3600),
                         actor=head)  # fmt: skip
    assert not Round.objects.filter(game=game).exists()  # queued with an ETA, not run
    first = wait_until(
        lambda: Round.objects.filter(game=game, number=1, computed_at__isnull=False).first(),
        "round 1 released by its ETA message",
    )
    line = SealedRound.objects.get(sealed_id=game.pk, number=1)
    assert line.released_at is not None and line.released_at >= at  # not before its time
    assert (first.rack, first.top_score) == ("WHISKYE", 92)
    play.finish(play.open(first))  # the place queues release_sweep_game: round 2 not due
    # A second sealed game whose round 1 never had a message: its time is set in the past
    # by a write of the test's own (no service, so nothing queued); the sweep task, on the
    # worker, releases it and nothing else (game 1's round 2 is an hour away).
    other = new_predrawn_game(tournament_setup, TEXT, sealed=True).game
    SealedRound.objects.filter(sealed_id=other.pk, number=1).update(
        release_at=timezone.now() - timedelta(seconds=1)
    )
    assert release_sweep.delay().get(timeout=60) == 1
    late = Round.objects.get(game=other)
    assert (late.number, late.rack, late.top_score) == (1, "WHISKYE", 92)
    assert not Round.objects.filter(game=game, number=2).exists()
