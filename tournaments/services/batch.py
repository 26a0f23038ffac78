"""Batches of pre-drawn games: K games played top by top by the workers, one task a game.

``predrawn_batch_prepare`` creates the ``BatchJob`` and its ``PreparedGame`` rows (seeds
``seed_base``, ``seed_base + 1``, …) and queues ``prepare_game`` for each once committed.
``prepared_game_play`` (the task's work) computes outside any transaction, then stores the
record under the row's lock and counts the job's progress with ``F()``; a game already
prepared is skipped, so a redelivered task counts nothing twice.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from engine.duplicate import Game, SeededSource, engine_top_finder, game_to_record
from engine.duplicate.variants import STANDARD
from tournaments import adapter
from tournaments.access import Actor, is_system, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import BatchJob, BatchState, GameKind, Lexicon, PreparedGame, Tournament
from tournaments.models import Game as GameRow
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_record
from tournaments.services.games import game_create

MAX_BATCH = 500


def predrawn_batch_prepare(
    *,
    tournament_id: int | None = None,
    count: int,
    seed_base: int,
    variant: str = STANDARD.code,
    lexicon_id: int,
    actor: Actor,
) -> BatchJob:
    """Create a batch of ``count`` games to prepare (head arbiter of the tournament, or a
    superuser/the system for a batch outside any tournament)."""
    if not 1 <= count <= MAX_BATCH:
        raise ServiceError("batch.count", f"A batch holds 1 to {MAX_BATCH} games.", max=MAX_BATCH)
    if not 0 <= seed_base < 2**63 - count:
        raise ServiceError(
            "seed.range", "A seed is a whole number from 0 to 2^63 - 1.", max=2**63 - 1
        )
    variant = adapter.variant(variant).code  # an old code is stored as today's
    _require_batch_right(actor, tournament_id)
    with transaction.atomic():
        lexicon = Lexicon.objects.filter(pk=lexicon_id).first()
        if lexicon is None:
            raise ServiceError("lexicon.unknown", f"There is no lexicon {lexicon_id}.")
        job = BatchJob.objects.create(
            tournament_id=tournament_id, lexicon=lexicon, variant_code=variant,
            seed_base=seed_base, total=count,
            created_by=user_of(actor),
        )  # fmt: skip
        PreparedGame.objects.bulk_create(
            PreparedGame(job=job, index=i, seed=seed_base + i) for i in range(count)
        )
        games = PreparedGame.objects.filter(job=job).order_by("index")
        audit_record(actor=actor, action="batch.create", obj=job, count=count, seed=seed_base)
        for prepared in games:
            queue_after_commit("tournaments.prepare_game", prepared.pk)
        return job


def predrawn_text(eg: Game) -> str:
    """The game's racks as a pre-drawn game: one line a round, rejected racks first."""
    lines = []
    for rnd in eg.history:
        if rnd.status == "void":
            continue
        typed = [f"{d.reliquat}+{d.new}" if d.reliquat else d.new for d in rnd.draws]
        lines.append(" ".join(typed))
    return "\n".join(lines) + "\n"


def _require_batch_right(actor: Actor, tournament_id: int | None) -> None:
    """The head arbiter of the batch's tournament; outside any tournament, a superuser or
    the system."""
    if tournament_id is not None:
        require_arbiter(actor=actor, tournament_id=tournament_id, head=True)
    elif not is_system(actor) and not getattr(actor, "is_superuser", False):
        raise ServiceError("access.batch", "Only an operator prepares games outside a tournament.")


def prepared_game_play(*, prepared_game_id: int, actor: Actor) -> PreparedGame | None:
    """Play the prepared game's seed to the end, top by top, and store its record (the
    worker's task, as ``access.SYSTEM``)."""
    rows = PreparedGame.objects.select_related("job__lexicon")
    prepared = rows.filter(pk=prepared_game_id).first()
    if prepared is None:
        return None
    _require_batch_right(actor, prepared.job.tournament_id)
    if prepared.prepared_at is not None:
        return prepared
    job = prepared.job
    lexicon, var = adapter.engine_lexicon(job.lexicon), adapter.variant(job.variant_code)
    eg = Game(SeededSource(prepared.seed), engine_top_finder(lexicon, var), var)
    eg.play_to_end()
    record = game_to_record(eg, lexicon=lexicon.identity)
    with transaction.atomic():
        row = PreparedGame.objects.select_for_update().get(pk=prepared.pk)
        if row.prepared_at is not None:
            return row
        row.record, row.predrawn = record, predrawn_text(eg)
        row.rounds, row.top_total = len(eg.played), eg.cumulative
        row.prepared_at = timezone.now()
        row.save(update_fields=["record", "predrawn", "rounds", "top_total", "prepared_at"])
        BatchJob.objects.filter(pk=job.pk).update(done=F("done") + 1)
        finished = BatchJob.objects.filter(pk=job.pk, done=F("total"), state=BatchState.RUNNING)
        if finished.update(state=BatchState.DONE, finished_at=timezone.now()):
            audit_record(actor=actor, action="batch.done", obj=job)
        return row


def game_create_from_prepared(
    *, tournament_id: int, prepared_game_id: int, sealed: bool = False, actor: Actor
) -> GameRow:
    """A pre-drawn game of the tournament from a prepared game (same lexicon required:
    with another word list the tops, hence the reliquats, would differ); ``sealed``: its
    racks encrypted until each round's release (docs/simultaneous.md)."""
    prepared = PreparedGame.objects.select_related("job").filter(pk=prepared_game_id).first()
    if prepared is None or prepared.prepared_at is None:
        raise ServiceError("prepared.unknown", "This prepared game does not exist or is not ready.")
    lexicons = Tournament.objects.filter(pk=tournament_id).values_list("lexicon_id", flat=True)
    lexicon_id = lexicons.first()
    if lexicon_id != prepared.job.lexicon_id:
        raise ServiceError(
            "prepared.lexicon", "The prepared game was computed with another lexicon."
        )
    with transaction.atomic():
        game = game_create(tournament_id=tournament_id, kind=GameKind.PREDRAWN,
                           predrawn=prepared.predrawn, variant_code=prepared.job.variant_code,
                           sealed=sealed, actor=actor)  # fmt: skip
        prepared.games.add(game)
        return game
