"""Celery tasks. Each one takes ids, calls one service as ``access.SYSTEM`` and is safe to
run twice (acks_late).

Tasks import the services; the services never import this module: they queue a task by its
name (``tournaments.queueing.queue_after_commit("tournaments.compute_top", round_id)``), so
the dependency runs one way (``tests/site/test_layers.py`` checks it). Every process
registers these tasks at start-up (``TournamentsConfig.ready``), so a name always resolves,
eagerly in the embedded profile."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import Game, Round
from tournaments.models.choices import RoundState
from tournaments.services.arrivals import arrivals_ingest, arrivals_sweep
from tournaments.services.batch import prepared_game_play
from tournaments.services.recompute import game_recompute, round_recompute
from tournaments.services.registry import tournament_touch as touch_service
from tournaments.services.release import release_advance, release_requeue, round_release
from tournaments.services.release import release_sweep as release_sweep_service
from tournaments.services.rounds import round_compute_top

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.tournament_touch")
def tournament_touch(tournament_id: int) -> str | None:
    """Reload a tournament and stamp ``last_computed_at``; return the stamp (ISO 8601).

    The worker receives only an id, re-reads the row under a lock and records its result,
    so a redelivered message (acks_late) just stamps again. A tournament deleted meanwhile
    is not an error: returns None.
    """
    tournament = touch_service(tournament_id=tournament_id, actor=SYSTEM)
    if tournament is None:
        logger.warning("tournament_touch: tournament %s no longer exists", tournament_id)
        return None
    logger.info("tournament_touch: tournament %s stamped", tournament_id)
    return tournament.last_computed_at.isoformat()


@shared_task(name="tournaments.compute_top", soft_time_limit=60, time_limit=90)
def compute_top(round_id: int) -> int | None:
    """Compute and store a round's top (``round_compute_top``); return the top score.

    Idempotent: a stored top is returned as is, so a redelivered message costs one query.
    The lexicon is loaded once per worker process (``adapter.engine_lexicon``). A round
    deleted meanwhile returns None.
    """
    if not Round.objects.filter(pk=round_id).exists():
        logger.warning("compute_top: round %s no longer exists", round_id)
        return None
    rnd = round_compute_top(round_id=round_id, actor=SYSTEM)
    logger.info("compute_top: round %s top %s", round_id, rnd.top_score)
    return rnd.top_score


@shared_task(name="tournaments.recompute_round", soft_time_limit=120, time_limit=150)
def recompute_round(round_id: int) -> int | None:
    """Judge a round's current proposals again (``round_recompute``); return how many
    outcomes changed. Idempotent: a second run finds nothing to change."""
    if not Round.objects.filter(pk=round_id).exists():
        logger.warning("recompute_round: round %s no longer exists", round_id)
        return None
    result = round_recompute(round_id=round_id, actor=SYSTEM, reason="recompute (task)")
    return len(result.outcomes)


@shared_task(name="tournaments.recompute_game", soft_time_limit=540, time_limit=600)
def recompute_game(game_id: int, reason: str = "recompute (task)") -> int | None:
    """Recompute a game's tops and outcomes (``game_recompute``); return the number of
    differences. Idempotent: a second run finds none."""
    if not Game.objects.filter(pk=game_id).exists():
        logger.warning("recompute_game: game %s no longer exists", game_id)
        return None
    result = game_recompute(game_id=game_id, reason=reason, actor=SYSTEM)
    return len(result.tops) + len(result.outcomes)


@shared_task(name="tournaments.prepare_game", soft_time_limit=540, time_limit=600)
def prepare_game(prepared_game_id: int) -> int | None:
    """Play one prepared game of a batch to the end and store its record
    (``prepared_game_play``); return its top total. A game already prepared is skipped."""
    prepared = prepared_game_play(prepared_game_id=prepared_game_id, actor=SYSTEM)
    if prepared is None:
        logger.warning("prepare_game: prepared game %s no longer exists", prepared_game_id)
        return None
    logger.info("prepare_game: %s top total %s", prepared_game_id, prepared.top_total)
    return prepared.top_total


from tournaments.tasks_lexicons import build_lexicon  # noqa: E402, F401  (Celery registers it)
from tournaments.tasks_reports import build_report  # noqa: E402, F401  (Celery registers it)


@shared_task(name="tournaments.requeue_pending_tops", soft_time_limit=30, time_limit=60)
def requeue_pending_tops() -> int:
    """Queue ``compute_top`` again for every drawn or open round still without its top.

    A message lost with Redis (restarted, or down when the round was drawn) would otherwise
    leave the round waiting until a proposal or "place" computed it in the web process. Run
    when a worker starts (``tournaments.celery``); ``compute_top`` is idempotent, so a round
    queued twice costs one query the second time.
    """
    pending = list(
        Round.objects.filter(
            state__in=(RoundState.DRAWN, RoundState.OPEN), top__isnull=True
        ).values_list("pk", flat=True)
    )
    for round_id in pending:
        compute_top.delay(round_id)
    logger.info("requeue_pending_tops: %d round(s) queued", len(pending))
    return len(pending)


@shared_task(name="tournaments.release_round", bind=True, soft_time_limit=60, time_limit=90)
def release_round(self: Any, game_id: int, number: int) -> int | None:
    """Release round ``number`` of a sealed game at its time (``round_release``, queued with
    an ETA by ``release_schedule_set``); return the round's id once drawn. Idempotent. A
    message that arrives a little early (clocks, ETA precision) retries at the time; one
    whose round was moved later does nothing (the new time has its own message)."""
    try:
        rnd = round_release(game_id=game_id, number=number, actor=SYSTEM)
    except ServiceError as error:
        seconds = int(error.details.get("seconds") or 0)
        if error.code == "release.early" and seconds <= 120:
            raise self.retry(countdown=seconds, max_retries=5) from None
        logger.warning("release_round: game %s round %s: %s", game_id, number, error.code)
        return None
    return rnd.pk if rnd is not None else None


@shared_task(name="tournaments.release_sweep_game", soft_time_limit=60, time_limit=90)
def release_sweep_game(game_id: int) -> int | None:
    """Release what is due in one sealed game and draw its next round if it may be (queued
    when a top is placed); return the round drawn, if any."""
    try:
        rnd = release_advance(game_id=game_id, actor=SYSTEM)
    except ServiceError as error:
        logger.warning("release_sweep_game: game %s: %s", game_id, error.code)
        return None
    return rnd.pk if rnd is not None else None


@shared_task(name="tournaments.release_sweep", soft_time_limit=120, time_limit=150)
def release_sweep() -> int:
    """Release every sealed round due (``services.release.release_sweep``) and queue the
    future ones again: run when a worker starts, so messages lost with Redis are made good;
    ``manage.py tirage_release_sweep`` does the same from a timer."""
    drawn = release_sweep_service(actor=SYSTEM)
    release_requeue(actor=SYSTEM)
    return len(drawn)


@shared_task(
    name="tournaments.ingest_arrivals", soft_time_limit=60, time_limit=90, ignore_result=True
)
def ingest_arrivals(round_id: int) -> int:
    """Turn a round's queued moves into versions (``arrivals_ingest``, in batches); return
    how many. Queued by ``arrival_receive`` at most once per round in flight; idempotent."""
    return arrivals_ingest(round_id=round_id, actor=SYSTEM)


@shared_task(name="tournaments.ingest_sweep", soft_time_limit=120, time_limit=150)
def ingest_sweep() -> int:
    """Every round's pending moves (``arrivals_sweep``): run when a worker starts, so a
    message lost with Redis or a worker killed mid-batch leaves nothing behind."""
    return arrivals_sweep(actor=SYSTEM)
