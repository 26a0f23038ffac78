"""The round's clock in the head arbiter's hands: pause, resume, extend, and undoing a close.

The clock of an open round is its ``deadline`` (server clock). A pause stops it: the seconds
it still had are kept in ``paused_remaining`` and ``paused_at`` marks when (a database
constraint allows both only on an open round, and only together); resuming sets the deadline
again from them. While paused no time passes for anyone: a proposal received then is on time
(:func:`overdue`, used by ``proposal_submit`` under the round lock). Each change appends the
deadline then in force to the round's clock history (``round_deadlines``): a move judged
later is judged against the deadline in force when it arrived.

A close can be undone until the top is placed (:func:`round_reopen`): the round is open again
with the time it had left when it was closed, or the seconds the arbiter gives. What happens
to the proposals received while it was closed is in docs/rules-choices.md (*Round control*).

Each function locks the round row and checks its state first, as ``services.rounds`` does, and
writes one audit row per change. Every one needs the head arbiter.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.access import Actor, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import AuditLog, ClockChange, Round, RoundState
from tournaments.services.arrivals import arrivals_ingest_locked
from tournaments.services.audit import audit_record
from tournaments.services.centre_state import centre_closes_undo
from tournaments.services.round_deadlines import deadline_record
from tournaments.services.rounds import locked_round, time_left
from tournaments.services.standings import standings_update

#: The most seconds an extension, or the time given to a reopened round, may add at once.
MAX_SECONDS = 3600


def _checked_seconds(seconds: int) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= MAX_SECONDS:
        raise ServiceError(
            "round.seconds",
            f"A time is from 1 to {MAX_SECONDS} seconds.",
            low=1,
            high=MAX_SECONDS,
        )
    return seconds


def _open_round(round_id: int, actor: Actor) -> Round:
    """The round under its lock, for the head arbiter, refused unless it is open."""
    rnd = locked_round(round_id)
    require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
    if rnd.state != RoundState.OPEN:
        raise ServiceError(
            "round.not_open",
            f"Round {rnd.number} is {rnd.state}: only an open round has a clock.",
            round=rnd.number,
            state=rnd.state,
        )
    return rnd


def round_pause(*, round_id: int, actor: Actor) -> Round:
    """Stop the clock of an open round, keeping the seconds it had left. Pausing a paused
    round changes nothing; a round whose time is already over has nothing to pause."""
    with transaction.atomic():
        rnd = _open_round(round_id, actor)
        if rnd.paused_at is not None:
            return rnd
        now = timezone.now()
        left = time_left(rnd, now) or 0
        if left <= 0:
            raise ServiceError(
                "round.time_over",
                f"Round {rnd.number}'s time is over: nothing to pause.",
                round=rnd.number,
            )
        rnd.paused_at, rnd.paused_remaining = now, left
        rnd.save(update_fields=["paused_at", "paused_remaining"])
        deadline_record(rnd=rnd, kind=ClockChange.PAUSE, at=now)
        audit_record(actor=actor, action="round.pause", obj=rnd, remaining=left)
        return rnd


def round_resume(*, round_id: int, actor: Actor) -> Round:
    """Start the clock again: the deadline is now plus the seconds kept at the pause.
    Resuming a running clock changes nothing."""
    with transaction.atomic():
        rnd = _open_round(round_id, actor)
        if rnd.paused_at is None:
            return rnd
        now = timezone.now()
        left = int(rnd.paused_remaining or 0)
        paused_for = max(0, round((now - rnd.paused_at).total_seconds()))
        rnd.deadline = now + timedelta(seconds=left)
        rnd.paused_at = rnd.paused_remaining = None
        rnd.save(update_fields=["deadline", "paused_at", "paused_remaining"])
        deadline_record(rnd=rnd, kind=ClockChange.RESUME, at=now)
        audit_record(actor=actor, action="round.resume", obj=rnd, remaining=left,
                     paused_seconds=paused_for, deadline=rnd.deadline.isoformat())  # fmt: skip
        return rnd


def round_extend(*, round_id: int, seconds: int, actor: Actor, client_key: str = "") -> Round:
    """Give the round ``seconds`` more (1 to 3600): added to the paused time while paused,
    else to the deadline; a round whose time ran out gets them from now.

    ``client_key`` names one request of the console or an API client: a request sent again
    with the same key (a retry after a lost answer, a form posted twice) changes nothing the
    second time. The key is kept in the extension's audit row, which the round lock makes
    the one place to look."""
    seconds = _checked_seconds(seconds)
    key = (client_key or "").strip()[:64]
    with transaction.atomic():
        rnd = _open_round(round_id, actor)
        done = AuditLog.objects.filter(action="round.extend", object_type="round",
                                       object_id=rnd.pk, payload__client_key=key)  # fmt: skip
        if key and done.exists():
            return rnd
        if rnd.paused_at is not None:
            rnd.paused_remaining = int(rnd.paused_remaining or 0) + seconds
            rnd.save(update_fields=["paused_remaining"])
        else:
            now = timezone.now()
            start = max(rnd.deadline or now, now)
            rnd.deadline = start + timedelta(seconds=seconds)
            rnd.save(update_fields=["deadline"])
            deadline_record(rnd=rnd, kind=ClockChange.EXTEND, at=now)
        audit_record(actor=actor, action="round.extend", obj=rnd, seconds=seconds,
                     remaining=time_left(rnd), **({"client_key": key} if key else {}))  # fmt: skip
        return rnd


def round_reopen(*, round_id: int, actor: Actor, seconds: int | None = None) -> Round:
    """Undo a close while the top is not placed: the round is open again with the time it
    had left at the close (``seconds`` instead, when given). A close made after the time ran
    out left nothing: the arbiter then says how many seconds to give. Reopening an open
    round changes nothing."""
    if seconds is not None:
        seconds = _checked_seconds(seconds)
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, head=True)
        if rnd.state == RoundState.OPEN:
            return rnd
        if rnd.state != RoundState.CLOSED:
            raise ServiceError(
                "round.not_closed",
                f"Round {rnd.number} is {rnd.state}: only a closed round reopens.",
                round=rnd.number,
                state=rnd.state,
            )
        if rnd.top_placed_at is not None:
            raise ServiceError(
                "round.top_placed",
                f"Round {rnd.number}'s top is placed: its close stays.",
                round=rnd.number,
            )
        arrivals_ingest_locked(rnd, actor=actor)  # moves queued while closed: late ones
        closed_at = rnd.closed_at or timezone.now()
        had = 0
        if rnd.deadline is not None:
            had = max(0, math.ceil((rnd.deadline - closed_at).total_seconds()))
        given = seconds if seconds is not None else had
        if given <= 0:
            raise ServiceError(
                "round.no_time_left",
                f"Round {rnd.number} was closed after its time ran out: say how many "
                "seconds to give it.",
                round=rnd.number,
            )
        now = timezone.now()
        rnd.state, rnd.closed_at = RoundState.OPEN, None
        rnd.deadline = now + timedelta(seconds=given)
        rnd.save(update_fields=["state", "deadline", "closed_at"])
        deadline_record(rnd=rnd, kind=ClockChange.REOPEN, at=now)
        centre_closes_undo(rnd, actor)  # a simultaneous event: every centre plays it again
        standings_update(actor=actor, round_id=rnd.pk)  # an open round's figures don't count yet
        audit_record(
            actor=actor, action="round.reopen", obj=rnd, closed_at=closed_at.isoformat(),
            had=had, given=given, closed_seconds=max(0, round((now - closed_at).total_seconds())),
        )  # fmt: skip
        return rnd
