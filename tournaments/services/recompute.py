"""Recomputing after a correction: a contested word, a lexicon changed, a top re-examined.

``round_recompute`` judges every current proposal of a round again against its stored top;
``game_recompute`` first replays the whole game with the engine (tops, tied sets, boards)
and then does the same for every round. A changed outcome is a new proposal version (the old
one stays), and every difference goes into the audit row. Nothing changes when nothing
differs, so running either twice is harmless (the Celery tasks rely on it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from engine.duplicate.record import typed_rack
from engine.errors import EngineError
from engine.movegen import best_moves
from tournaments import adapter
from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import Game, GameKind, ProposalVersion, Round, RoundState
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_record
from tournaments.services.lifecycle import _locked_game
from tournaments.services.proposal_versions import judge_proposal, version_store
from tournaments.services.rounds import BEST_N, lexicon_of, locked_round, rounds_until
from tournaments.services.standings import standings_update

OUTCOME_FIELDS = ("outcome_kind", "outcome_score", "outcome_raw_score", "outcome_code")


@dataclass(frozen=True, slots=True)
class RecomputeResult:
    """What changed: tops (round number, field, before, after) and outcomes (round number,
    player id, before, after as ``"code score"``)."""

    tops: list[tuple[int, str, Any, Any]] = field(default_factory=list)
    outcomes: list[tuple[int, int, str, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.tops or self.outcomes)


def _rejudge(rnd: Round, reason: str, actor: Actor) -> list[tuple[int, int, str, str]]:
    """New versions for the current proposals whose outcome differs (caller holds locks)."""
    changes = []
    for v in ProposalVersion.objects.filter(round=rnd, is_current=True).order_by("player_id"):
        outcome = judge_proposal(rnd, word=v.word, reference=v.reference, claimed=v.claimed_score,
                         source=v.source, late=v.late)  # fmt: skip
        fields = adapter.outcome_fields(outcome)
        if all(fields[name] == getattr(v, name) for name in OUTCOME_FIELDS):
            continue
        version_store(rnd, v.player_id, outcome, word=v.word, reference=v.reference,
               claimed_score=v.claimed_score, late=v.late, source=v.source,
               entered_by=user_of(actor) or v.entered_by,
               reason=reason)  # fmt: skip
        before = f"{v.outcome_code} {v.outcome_score}"
        changes.append((rnd.number, v.player_id, before, f"{outcome.code} {outcome.score}"))
    return changes


def round_recompute(*, round_id: int, actor: Actor, reason: str = "") -> RecomputeResult:
    """Judge every current proposal of the round again against its stored top (after a
    contested word or a lexicon change). Head arbiter."""
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
        if rnd.top is None or rnd.state not in (RoundState.OPEN, RoundState.CLOSED):
            return RecomputeResult()
        changes = _rejudge(rnd, reason or "recompute", actor)
        result = RecomputeResult(outcomes=changes)
        if changes:
            audit_record(actor=actor, action="round.recompute", obj=rnd,
                         outcomes=[list(c) for c in changes])  # fmt: skip
        return result


def _top_json(eg: Any, rnd: Round, lexicon: Any, var: Any) -> dict:
    choice = eg.pending.choice
    best = best_moves(eg.board, adapter.rack(rnd.rack), lexicon, BEST_N, bonuses=var.bonuses,
                      max_tiles=var.max_tiles)  # fmt: skip
    return {
        "chosen": adapter.move_json(choice.chosen),
        "tied": [adapter.move_json(m) for m in choice.tied],
        "eligible": [i for i, m in enumerate(choice.tied) if m in choice.eligible],
        "best": [adapter.move_json(m) for m in best],
    }


def _replay_tops(game: Game, tops: list) -> None:
    """Replay the game round by round with today's engine and lexicon, updating each
    round's top, tied set and board; ``tops`` collects the differences."""
    lexicon, var = lexicon_of(game), adapter.variant(game.variant_code)
    eg = adapter.engine_game(game, [], lexicon)
    for rnd in rounds_until(game, 10**6):
        try:
            if game.kind == GameKind.MANUAL:
                for draw in [*rnd.rejections, {"reliquat": rnd.reliquat, "new": rnd.new_letters}]:
                    eg.offer_rack(typed_rack(draw))
            else:
                eg.draw()
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        pending = eg.pending
        if pending is None or pending.rack != rnd.rack:
            raise ServiceError(
                "recompute.rack_changed",
                f"With the corrected tops, round {rnd.number} would get another rack than "
                f"{rnd.rack}: cancel the rounds from there instead.",
                round=rnd.number,
                rack=rnd.rack,
            )
        if rnd.state == RoundState.CANCELLED:
            eg.cancel(rnd.cancel_reason)
            continue
        board = adapter.board_text(eg.board)
        top = _top_json(eg, rnd, lexicon, var)
        old_chosen = (rnd.top or {}).get("chosen")
        kept = old_chosen if old_chosen in [top["tied"][i] for i in top["eligible"]] else None
        top["chosen"] = kept or top["chosen"]
        changed: dict[str, Any] = {"board_before": board}
        if rnd.top is not None:
            changed.update(top=top, top_score=pending.top_choice.score)
        if rnd.top_placed_at is not None:
            placed = eg.place(adapter.move(top["chosen"]) if kept else None)
            changed["next_reliquat"] = placed.next_reliquat
        for name, value in changed.items():
            if getattr(rnd, name) != value:
                if name != "top" or old_chosen != top["chosen"]:
                    tops.append((rnd.number, name, _short(getattr(rnd, name)), _short(value)))
                setattr(rnd, name, value)
                rnd.save(update_fields=[name])
        if rnd.top_placed_at is None:
            return


def _short(value: Any) -> Any:
    return value.get("chosen") if isinstance(value, dict) else value


def game_recompute(*, game_id: int, reason: str, actor: Actor) -> RecomputeResult:
    """Recompute the game's tops with the engine (lexicon change, rack correction) and then
    every outcome. A placed top that is still an allowed tied move stays placed; otherwise
    the default top replaces it. If that would change a later rack, nothing is saved
    (``recompute.rack_changed``). Head arbiter; the differences go to the audit."""
    if not reason.strip():
        raise ServiceError("recompute.reason", "A recomputation states why.")
    with transaction.atomic():
        game = _locked_game(game_id)
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        tops: list = []
        _replay_tops(game, tops)
        outcomes = []
        for rnd in game.rounds.filter(
            state__in=[RoundState.OPEN, RoundState.CLOSED], top__isnull=False
        ):
            rnd = locked_round(rnd.pk)
            outcomes += _rejudge(rnd, reason.strip(), actor)
        result = RecomputeResult(tops, outcomes)
        standings_update(actor=actor, game_id=game.pk)  # the tops may have changed
        audit_record(actor=actor, action="game.recompute", obj=game, reason=reason.strip(),
                     tops=[list(t) for t in tops],
                     outcomes=[list(o) for o in outcomes])  # fmt: skip
        return result


def round_recompute_later(*, round_id: int, actor: Actor) -> None:
    """Check access now and queue the ``recompute_round`` task once the transaction commits
    (the worker recomputes as ``access.SYSTEM``)."""
    tournament_id = (
        Round.objects.filter(pk=round_id).values_list("game__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise ServiceError("round.unknown", f"There is no round {round_id}.")
    require_arbiter(actor=actor, tournament_id=tournament_id, head=True)
    queue_after_commit("tournaments.recompute_round", round_id)


def game_recompute_later(*, game_id: int, reason: str, actor: Actor) -> None:
    """Check access now and queue the ``recompute_game`` task once the transaction commits
    (the worker recomputes as ``access.SYSTEM``)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    if not reason.strip():
        raise ServiceError("recompute.reason", "A recomputation states why.")
    require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
    queue_after_commit("tournaments.recompute_game", game_id, reason.strip())
