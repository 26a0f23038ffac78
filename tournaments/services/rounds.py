"""A round's life after its rack is drawn: the top computed, opened with a deadline, closed.

Each function locks the round row (``select_for_update``) and checks its state before
changing it, so a retried request or a second arbiter gets the stored result instead of
applying the change twice. The server clock (``timezone.now``) sets every deadline.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.movegen import best_moves
from tournaments import adapter
from tournaments.access import SYSTEM, Actor, require_arbiter
from tournaments.errors import ServiceError
from tournaments.metrics import TOP_SECONDS
from tournaments.models import ClockChange, Game, Round, RoundState
from tournaments.services.audit import audit_record
from tournaments.services.centre_state import refuse_open_centres
from tournaments.services.round_deadlines import deadline_record
from tournaments.services.standings import standings_update

BEST_N = 20  # sous-tops kept per round for the arbiter's sheet


def lexicon_of(game: Game) -> Any:
    """The engine lexicon of the game's tournament (loaded once per process)."""
    row = game.tournament.lexicon
    if row is None:
        raise ServiceError(
            "tournament.no_lexicon",
            f"The tournament '{game.tournament}' has no lexicon set.",
            tournament=str(game.tournament),
        )
    return adapter.engine_lexicon(row)


def rounds_until(game: Game, number: int) -> list[Round]:
    """The rounds of the game up to ``number`` included, in play order: cancelled rounds
    too (the replay needs them), each before the round that replaced it."""
    return list(game.rounds.filter(number__lte=number).order_by("number", "id"))


def locked_round(round_id: int) -> Round:
    """The round under a row lock, with its game, tournament and lexicon."""
    rnd = (
        Round.objects.select_for_update(of=("self",))
        .select_related("game__tournament__lexicon")
        .filter(pk=round_id)
        .order_by("pk")  # not the model's ordering (the tournament's columns, for one row)
        .first()
    )
    if rnd is None:
        raise ServiceError("round.unknown", f"There is no round {round_id}.")
    return rnd


def computed_top(rnd: Round) -> dict[str, Any]:
    """The round's stored top (``{"chosen", "tied", "eligible", "best"}``), for a round that
    went through ``ensure_top``: asking before is a bug."""
    if rnd.top is None:
        raise RuntimeError(f"round {rnd.pk} has no computed top")
    top: dict[str, Any] = rnd.top
    return top


def ensure_top(rnd: Round, *, best: int = BEST_N) -> Round:
    """Compute and store the round's top once (the caller holds the round's lock).

    Whoever triggers it (a worker, a proposal, the arbiter placing the top), the top is the
    site's own computation: its audit row names ``access.SYSTEM``."""
    if rnd.top is not None or rnd.state == RoundState.CANCELLED:
        return rnd
    game = rnd.game
    lexicon = lexicon_of(game)
    with TOP_SECONDS.time():
        eg = adapter.engine_game(game, rounds_until(game, rnd.number), lexicon)
        pending = eg.pending
        if pending is None or pending.number != rnd.number:
            raise RuntimeError(f"round {rnd.pk} is not the pending round of its game")
        choice, var = pending.top_choice, adapter.variant(game.variant_code)
        sous_tops = best_moves(
            eg.board,
            adapter.rack(rnd.rack),
            lexicon,
            best,
            bonuses=var.bonuses,
            max_tiles=var.max_tiles,
        )
    rnd.top = {
        "chosen": adapter.move_json(choice.chosen),
        "tied": [adapter.move_json(m) for m in choice.tied],
        "eligible": [i for i, m in enumerate(choice.tied) if m in choice.eligible],
        "best": [adapter.move_json(m) for m in sous_tops],
    }
    rnd.top_score, rnd.chosen_by, rnd.computed_at = choice.score, choice.chosen_by, timezone.now()
    rnd.save(update_fields=["top", "top_score", "chosen_by", "computed_at"])
    standings_update(actor=SYSTEM, round_id=rnd.pk)  # a closed round counts from its top
    audit_record(actor=SYSTEM, action="round.top_computed", obj=rnd, top=rnd.top["chosen"])
    return rnd


def round_compute_top(*, round_id: int, actor: Actor, best: int = BEST_N) -> Round:
    """The work of the ``compute_top`` task (``access.SYSTEM``), or an arbiter's: top, tied
    set and ``best`` sous-tops, stored once; running it again returns the stored values
    (idempotent)."""
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id)
        return ensure_top(rnd, best=best)


def time_left(rnd: Round, now: datetime | None = None) -> int | None:
    """Whole seconds left on an open round's clock (rounded up, so a running clock never
    reads 0 before it is over); the paused seconds while paused; None unless open."""
    if rnd.state != RoundState.OPEN or rnd.deadline is None:
        return None
    if rnd.paused_at is not None:
        return int(rnd.paused_remaining or 0)
    now = now or timezone.now()
    return max(0, math.ceil((rnd.deadline - now).total_seconds()))


def effective_deadline(rnd: Round) -> datetime | None:
    """When the round's time runs out: its deadline while the clock runs, None while it is
    paused (no time passes) or when the round is not open."""
    if rnd.state != RoundState.OPEN or rnd.paused_at is not None:
        return None
    return rnd.deadline


def overdue(rnd: Round, now: datetime | None = None) -> bool:
    """The round's time is over by the server clock: never during a pause."""
    deadline = effective_deadline(rnd)
    return deadline is not None and (now or timezone.now()) > deadline


def round_open(*, round_id: int, actor: Actor) -> Round:
    """Announce the rack: the deadline is the server's now plus the seconds per move."""
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
        if rnd.state == RoundState.OPEN:
            return rnd
        if rnd.state != RoundState.DRAWN:
            raise ServiceError(
                "round.not_drawn",
                f"Round {rnd.number} is {rnd.state}: it cannot be opened.",
                round=rnd.number,
                state=rnd.state,
            )
        tournament = rnd.game.tournament
        seconds = adapter.seconds_per_move(tournament, adapter.variant(rnd.game.variant_code))
        now = timezone.now()
        rnd.state, rnd.opened_at, rnd.deadline = (
            RoundState.OPEN,
            now,
            now + timedelta(seconds=seconds),
        )
        rnd.save(update_fields=["state", "opened_at", "deadline"])
        deadline_record(rnd=rnd, kind=ClockChange.OPEN, at=now)
        audit_record(actor=actor, action="round.open", obj=rnd, deadline=rnd.deadline.isoformat())
        return rnd


def round_close(*, round_id: int, actor: Actor, confirm: bool = False) -> Round:
    """Collect the slips: no tablet proposal counts after this. Closing twice is a no-op.

    While the clock still has time (running or paused), closing needs ``confirm``: else the
    refusal ``round.time_left`` says how many seconds are left (the console asks the arbiter,
    the API wants ``{"confirm": true}``). A paused round is closed with the paused seconds
    as its time left, so that undoing the close (``round_reopen``) gives them back."""
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
        if rnd.state == RoundState.CLOSED:
            return rnd
        if rnd.state != RoundState.OPEN:
            raise ServiceError(
                "round.not_open",
                f"Round {rnd.number} is {rnd.state}: only an open round closes.",
                round=rnd.number,
                state=rnd.state,
            )
        refuse_open_centres(rnd, actor)  # a simultaneous event: every centre closes first
        now = timezone.now()
        left = time_left(rnd, now) or 0
        if left > 0 and not confirm:
            raise ServiceError(
                "round.time_left",
                f"Round {rnd.number} still has {left} s on its clock: confirm the close.",
                round=rnd.number,
                seconds=left,
                minutes=left // 60,
                rest=left % 60,
            )
        # The queued path: every move that reached the server before the close becomes a
        # version in this transaction (results never wait on the worker).
        from tournaments.services.arrivals import arrivals_ingest_locked  # it imports this

        arrivals_ingest_locked(rnd, actor=actor, before=now)
        if rnd.paused_at is not None:
            rnd.deadline = now + timedelta(seconds=left)
            rnd.paused_at = rnd.paused_remaining = None
        rnd.state, rnd.closed_at = RoundState.CLOSED, now
        rnd.save(update_fields=["state", "closed_at", "deadline", "paused_at", "paused_remaining"])
        deadline_record(rnd=rnd, kind=ClockChange.CLOSE, at=now)
        standings_update(actor=actor, round_id=rnd.pk)
        audit_record(actor=actor, action="round.close", obj=rnd, time_left=left)
        return rnd
