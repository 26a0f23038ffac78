"""Reads of the work around games: batches of prepared games, slip conflicts waiting for
the head arbiter, report jobs. A look-up by id returns ``None`` for an unknown id (the
console answers its 404 page)."""

from __future__ import annotations

from tournaments.models import (
    BatchJob,
    PreparedGame,
    Registration,
    ReportJob,
    SlipConflict,
    Tournament,
)
from tournaments.selectors.tournament import MAX_ID


def _valid(pk: int) -> bool:
    return 0 < pk <= MAX_ID


def batch_by_id(job_id: int) -> BatchJob | None:
    """The batch with its tournament."""
    if not _valid(job_id):
        return None
    return BatchJob.objects.select_related("tournament").filter(pk=job_id).first()


def tournament_batches(tournament: Tournament, limit: int = 20) -> list[BatchJob]:
    """The tournament's latest batches."""
    return list(BatchJob.objects.filter(tournament=tournament)[:limit])


def prepared_game_by_id(prepared_id: int) -> PreparedGame | None:
    """A prepared game with its batch and the batch's tournament."""
    if not _valid(prepared_id):
        return None
    return PreparedGame.objects.select_related("job__tournament").filter(pk=prepared_id).first()


def batch_progress(job_id: int) -> dict | None:
    """``{"total", "done", "state", "games": [{"id", "index", "seed", "ready", "rounds",
    "top_total"}]}`` of a batch, or None."""
    job = BatchJob.objects.filter(pk=job_id).first() if _valid(job_id) else None
    if job is None:
        return None
    games = [
        {"id": g.pk, "index": g.index, "seed": g.seed, "ready": g.prepared_at is not None,
         "rounds": g.rounds, "top_total": g.top_total}
        for g in job.games.order_by("index")
    ]  # fmt: skip
    return {"id": job.pk, "total": job.total, "done": job.done, "state": job.state, "games": games}


def open_conflicts(*, tournament_id: int | None = None, round_id: int | None = None) -> list:
    """Slip conflicts the head arbiter has not settled, oldest first."""
    conflicts = SlipConflict.objects.filter(resolved_at__isnull=True)
    if tournament_id is not None:
        conflicts = conflicts.filter(round__game__tournament_id=tournament_id)
    if round_id is not None:
        conflicts = conflicts.filter(round_id=round_id)
    return list(
        conflicts.select_related("first", "second", "player", "round").order_by("created_at", "id")
    )


def resolved_conflicts(
    tournament: Tournament, limit: int = 20, *, centre_id: int | None = None
) -> list[SlipConflict]:
    """The tournament's latest settled conflicts, newest first; with ``centre_id``, only
    those of the players registered in that centre (filtered before the limit, so a centre
    arbiter sees their centre's latest ``limit``, not what is left of the event's)."""
    conflicts = SlipConflict.objects.filter(round__game__tournament=tournament)
    if centre_id is not None:
        players = Registration.objects.filter(tournament=tournament, centre_id=centre_id)
        conflicts = conflicts.filter(player_id__in=players.values("player_id"))
    return list(
        conflicts.filter(resolved_at__isnull=False)
        .select_related("round__game", "player", "kept", "resolved_by")
        .order_by("-resolved_at")[:limit]
    )


def conflict_by_id(conflict_id: int) -> SlipConflict | None:
    """A conflict with its round, game and tournament."""
    if not _valid(conflict_id):
        return None
    conflicts = SlipConflict.objects.select_related("round__game__tournament")
    return conflicts.filter(pk=conflict_id).first()


def report_jobs(tournament: Tournament, limit: int = 10) -> list[ReportJob]:
    """The tournament's latest report jobs with who asked for them."""
    jobs = ReportJob.objects.filter(tournament=tournament).select_related("created_by")
    return list(jobs[:limit])


def report_job_by_id(job_id: int) -> ReportJob | None:
    """A report job with its tournament."""
    if not _valid(job_id):
        return None
    return ReportJob.objects.select_related("tournament").filter(pk=job_id).first()
