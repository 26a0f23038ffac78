"""Rounds cancelled (§1.5), games stopped (E5) and slip conflicts settled by the head arbiter.

A cancelled round stays in the history with its rack, proposals and decisions; it no longer
counts for anyone, its tiles go back to the bag and the replacement round reuses its number.
The engine decides whether the round may be cancelled (``Game.cancel``: the round being
played, or the last round placed when no rack was drawn since).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from engine.errors import EngineError
from tournaments import adapter
from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    Game,
    GameKind,
    GameState,
    ProposalVersion,
    Round,
    RoundState,
    SlipConflict,
)
from tournaments.services.arrivals import arrivals_ingest_locked
from tournaments.services.audit import audit_record
from tournaments.services.games import _finish, round_draw
from tournaments.services.rounds import lexicon_of, locked_round, rounds_until
from tournaments.services.sealing import is_sealed
from tournaments.services.standings import standings_update


@dataclass(frozen=True, slots=True)
class CancelResult:
    """The cancelled round and, when redrawn, the round that replaces it."""

    cancelled: Round
    replacement: Round | None = None


def _locked_game(game_id: int) -> Game:
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("tournament__lexicon")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    return game


def round_cancel(*, round_id: int, reason: str, actor: Actor, redraw: bool = True) -> CancelResult:
    """Cancel a round (head arbiter, reason required): its points are void for everyone and
    every tile, the previous reliquat included, goes back to the bag. With ``redraw`` a
    seeded or pre-drawn game draws the replacement rack at once (a manual game waits for
    the arbiter's typed rack). Cancelling a cancelled round again changes nothing."""
    if not reason.strip():
        raise ServiceError("cancel.reason", "A cancelled round states why.")
    with transaction.atomic():
        game_id = Round.objects.filter(pk=round_id).values_list("game_id", flat=True).first()
        if game_id is None:
            raise ServiceError("round.unknown", f"There is no round {round_id}.")
        game = _locked_game(game_id)  # lock order: game, round
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        rnd = locked_round(round_id)
        if rnd.state == RoundState.CANCELLED:
            return CancelResult(rnd)
        if is_sealed(game):  # every centre plays the same racks: the next one is the event's
            raise ServiceError(
                "release.cancel", "A round of a sealed game cannot be cancelled.", round=rnd.number
            )
        if game.state == GameState.FINISHED:
            raise ServiceError("game.over", "The game is over: its rounds stay as they are.")
        later = game.rounds.filter(number__gt=rnd.number).exclude(state=RoundState.CANCELLED)
        if later.exists():
            raise ServiceError(
                "cancel.not_last",
                f"Round {rnd.number} is not the game's last round.",
                round=rnd.number,
            )
        eg = adapter.engine_game(game, rounds_until(game, rnd.number), lexicon_of(game))
        try:
            eg.cancel(reason.strip())
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        arrivals_ingest_locked(rnd, actor=actor)  # queued moves first, as they reached us
        was = rnd.state
        rnd.state, rnd.cancel_reason, rnd.cancelled_at = (
            RoundState.CANCELLED,
            reason.strip(),
            timezone.now(),
        )
        rnd.top_placed_at = None
        rnd.save(update_fields=["state", "cancel_reason", "cancelled_at", "top_placed_at"])
        standings_update(actor=actor, round_id=rnd.pk)
        game.pending_draws = []
        game.save(update_fields=["pending_draws"])
        audit_record(actor=actor, action="round.cancel", obj=rnd, reason=rnd.cancel_reason,
                     was=was, rack=rnd.rack)  # fmt: skip
        if eg.end is not None:
            _finish(game, eg.end, actor)
    if redraw and game.kind != GameKind.MANUAL and game.state != GameState.FINISHED:
        return CancelResult(rnd, round_draw(game_id=game.pk, actor=actor))
    return CancelResult(rnd)


def game_stop(*, game_id: int, reason: str, actor: Actor) -> Game:
    """End the game on the head arbiter's decision (E5). A round not decided yet (its top
    not placed) is dropped: cancelled with the same reason. Stopping twice is a no-op."""
    if not reason.strip():
        raise ServiceError("stop.reason", "Stopping a game states why.")
    with transaction.atomic():
        game = _locked_game(game_id)
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if game.state == GameState.FINISHED:
            if (game.end or {}).get("code") == "E5":
                return game
            raise ServiceError("game.over", (game.end or {}).get("message") or "Game over.")
        rounds = rounds_until(game, 10**6)
        eg = adapter.engine_game(game, rounds, lexicon_of(game))
        end = eg.stop(reason.strip())
        undecided = [
            r for r in rounds if r.state != RoundState.CANCELLED and r.top_placed_at is None
        ]
        for rnd in undecided:
            rnd.state, rnd.cancel_reason, rnd.cancelled_at = (
                RoundState.CANCELLED,
                reason,
                timezone.now(),
            )
            rnd.save(update_fields=["state", "cancel_reason", "cancelled_at"])
            audit_record(actor=actor, action="round.cancel", obj=rnd, reason=reason, stop=True)
        game.pending_draws = []
        _finish(game, end, actor)
        standings_update(actor=actor, game_id=game.pk)
        return game


def conflict_resolve(*, conflict_id: int, keep_version_id: int, actor: Actor) -> SlipConflict:
    """The head arbiter keeps one of two conflicting slips; it becomes the current version.
    Resolving again with the same choice changes nothing."""
    with transaction.atomic():
        round_id = (
            SlipConflict.objects.filter(pk=conflict_id).values_list("round_id", flat=True).first()
        )
        if round_id is None:
            raise ServiceError("conflict.unknown", f"There is no conflict {conflict_id}.")
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
        conflict = SlipConflict.objects.select_for_update().get(pk=conflict_id)
        if keep_version_id not in {conflict.first_id, conflict.second_id}:
            raise ServiceError("conflict.version", "Keep one of the two slips in conflict.")
        if conflict.resolved_at is not None:
            if conflict.kept_id == keep_version_id:
                return conflict
            raise ServiceError("conflict.resolved", "This conflict was already settled.")
        versions = ProposalVersion.objects.filter(round=rnd, player_id=conflict.player_id)
        if not versions.filter(pk=keep_version_id, is_current=True).exists():
            versions.filter(is_current=True).update(is_current=False)
            versions.filter(pk=keep_version_id).update(is_current=True)
        conflict.kept_id, conflict.resolved_by = keep_version_id, user_of(actor)
        conflict.resolved_at = timezone.now()
        conflict.save(update_fields=["kept", "resolved_by", "resolved_at"])
        standings_update(actor=actor, round_id=rnd.pk, player_ids=[conflict.player_id])
        audit_record(actor=actor, action="conflict.resolve", obj=conflict, kept=keep_version_id,
                     round=rnd.pk, player=conflict.player_id)  # fmt: skip
        return conflict
