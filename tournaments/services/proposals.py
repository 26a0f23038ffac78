"""Players' proposals: submitted from a tablet or entered by an arbiter, corrected by new
versions, never edited. Each version is judged by ``engine.duplicate.proposals``.

A submission is judged before any lock, once per round and move (``judgements.py``).
On an open round it then reads the round row under a *shared* lock (``FOR SHARE``):
submissions do not wait for each other, and ``round_close`` (``FOR UPDATE``) waits for
those in flight. Lateness is decided in one function, :func:`proposal_late`, under that
lock: the moment the submission reached the server against the deadline and the stored
close time. Two versions of the same player racing are kept apart by the (round, player,
version) unique constraint and a retry. Every other case (a closed round, a top not yet
computed) takes the round's exclusive lock as before. A client key makes a replayed
submission return the stored version instead of adding one.

Late is never better than on time, and never worse (docs/live-updates.md): a proposal
handed in after the deadline or the close is checked like any other, then stored for the
audit log, but it never replaces an on-time version; it only counts (zero, "late") when
the player handed in nothing on time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.duplicate.proposals import Outcome
from tournaments import adapter
from tournaments.access import Actor, PlayerActor, is_system, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    CentreClose,
    ProposalSource,
    ProposalVersion,
    Registration,
    Round,
    RoundDeadline,
    RoundState,
    SlipConflict,
)
from tournaments.services.audit import audit_record
from tournaments.services.judgements import (
    judged,
    judgement_key,
    judging_round,
    shared_round,
    tablet_score,
)
from tournaments.services.proposal_versions import (
    MAX_REFERENCE,
    MAX_WORD,
    ProposalResult,
    arbiter_slip,
    check_entry,
    judge_proposal,
    replayed_result,
    version_store,
    versions_of,
)
from tournaments.services.round_deadlines import in_force, late_by_clock
from tournaments.services.rounds import ensure_top, locked_round, overdue

__all__ = ["MAX_REFERENCE", "MAX_WORD", "ProposalResult", "check_entry", "judge_proposal",
           "proposal_correct", "proposal_late", "proposal_submit", "tablet_claim"]  # fmt: skip


def proposal_submit(
    *,
    round_id: int,
    player_id: int,
    word: str,
    reference: str = "",
    claimed_score: int | None = None,
    source: str = ProposalSource.TABLET,
    client_key: str = "",
    actor: Actor,
    ip: str | None = None,
    device: str = "",
    late: bool = False,
    judging: Round | None = None,
) -> ProposalResult:
    """Record a player's proposal for a round and judge it.

    A tablet proposal that reached the server after the deadline (server clock) or after
    the round closed is late (:func:`proposal_late`; the version's ``created_at`` is that
    moment);
    an arbiter entering a collected slip is on time unless ``late`` says otherwise. The
    entry is checked first (letters, lengths: the same refusals on time or late); a late
    version is then stored, but beside the player's on-time version when there is one,
    which stays current (``standing``); without one the late version counts, zero.
    The same ``client_key`` again returns the stored version (a different proposal under
    the same key is refused). A claimed score above the top is judged like any wrong
    score: no answer of the site may tell a player the top while the round is open.

    Arbiter entries (``source="arbiter"``, ``actor`` must arbitrate the tournament):
    the same slip entered again adds nothing (``replayed``); a different slip where
    another arbiter's entry is current is stored *beside* it and opens a ``SlipConflict``
    for the head arbiter (``conflict_resolve``); the first entry stays current meanwhile.
    Tablet submissions come from the player (``access.PlayerActor``, whose token the
    caller resolved) or from ``access.SYSTEM`` (the demo). One without a score gets
    the tablet's own (:func:`tablet_claim`), from the tablet page or the API.

    ``judging``: the round ``round_id`` as the caller read it a moment before, without a
    lock, with its game, tournament and lexicon (the API's slip view reads it to check the
    arbiter): it saves this read (``judgements.judging_round``). Only what does not change
    while a round is open is taken from it; the round is read again under its lock.
    """
    if source not in ProposalSource.values:
        raise ServiceError("proposal.source", "A proposal comes from tablet or arbiter.")
    entered_by = user_of(actor)
    if source == ProposalSource.ARBITER and entered_by is None:
        raise ServiceError("proposal.entered_by", "An arbiter's entry names the arbiter.")
    if source == ProposalSource.TABLET:
        _require_player(actor, player_id)
    check_entry(word, reference)
    arrived = timezone.now()  # lateness is this moment against the stored close time
    if judging is None or judging.pk != round_id:
        judging = judging_round(round_id)
    if source == ProposalSource.TABLET and claimed_score is None:
        claimed_score = tablet_score(judging, reference=reference, word=word)
    # Judge the move before taking any lock, once per round and move (judgements.py): the
    # board, the rack and the top of an open round never change.
    early = _judge_early(judging, word=word, reference=reference, claimed=claimed_score,
                         source=source)  # fmt: skip
    # An open round with its top: the round row under a shared lock (submissions do not
    # wait for each other; a close waits for them). Anything else, or a retry after a
    # shared attempt found the round changed: the exclusive lock, as every round change.
    shared, lost = judging is not None and _shareable(judging), 0
    while True:
        try:
            with transaction.atomic():
                rnd = shared_round(round_id, judging) if shared and judging else None
                if rnd is None or not _shareable(rnd):
                    if shared:
                        raise _Exclusive
                    rnd = locked_round(round_id)
                return _submit_locked(
                    rnd, player_id, word=word, reference=reference, claimed=claimed_score,
                    source=source, client_key=client_key, actor=actor, ip=ip, device=device,
                    late=late, arrived=arrived, early=early, shared=shared,
                )  # fmt: skip
        except _Exclusive:
            shared = False
        except IntegrityError:
            # A concurrent twin with the same key won the race: the stored row is the
            # answer. Else another version of this player took the number (or the current
            # slot) first: try again, it is then seen.
            stored = ProposalVersion.objects.filter(
                round_id=round_id, player_id=player_id, client_key=client_key
            ).first()
            if client_key and stored is not None:
                return replayed_result(stored, word, reference, claimed_score)
            lost += 1
            if lost >= SUBMIT_ATTEMPTS:
                raise


#: Attempts of a submission that lost a race for its version number (unique constraint).
SUBMIT_ATTEMPTS = 4


class _Exclusive(Exception):
    """A shared attempt found the round no longer open (closed meanwhile): take the
    exclusive lock instead (late paths and a closed round's figures are serialised)."""


def _shareable(rnd: Round) -> bool:
    return rnd.state == RoundState.OPEN and rnd.top is not None and rnd.top_score is not None


def proposal_late(
    rnd: Round, reg: Registration, *, source: str, late: bool, arrived: datetime,
    closes: dict[int, datetime] | None = None, clock: list[RoundDeadline] | None = None,
) -> bool:  # fmt: skip
    """Whether a proposal that reached the server at ``arrived`` is late: the one place
    that decides it, with the round read under its lock (shared or exclusive), so a close
    is either committed (its ``closed_at`` stored) or waits for this submission.

    An arbiter's entry is late only when the arbiter says so (``late``). A tablet's is late
    when it arrived at or after the stored close, or after the deadline **in force when it
    arrived** (the clock's history, ``services.round_deadlines``: no time passes while the
    clock is paused; a resume, an extension or a reopen after the move does not make it on
    time). A move that arrived before the close and before that deadline is on time even if
    it is judged after the close committed, or after the clock moved; one that arrived after
    the close is late even if the close had not committed yet (it waits for the close's
    lock). ``clock``: the round's history when the caller read it already (a batch).

    In a simultaneous event, the player's own centre's close (``CentreClose``, written
    under the round's exclusive lock like a close) counts the same way: each centre
    collects its slips by its own close. ``closes``: the round's centre closes (centre id
    → close time) when the caller read them already (a batch of arrivals)."""
    if source != ProposalSource.TABLET or late:
        return late
    if rnd.state == RoundState.CLOSED:
        if rnd.closed_at is None or arrived >= rnd.closed_at:
            return True
    elif overdue(rnd, arrived):  # the deadline only moves later: late then, late now
        return True
    row = in_force(rnd, arrived, clock)
    if row is not None and late_by_clock(row, arrived):
        return True
    # Before the round's close, the player's centre may have closed already (a move that
    # waited for the last centre's close is judged with the round closed).
    if reg.centre_id is not None and closes is not None:
        closed_at = closes.get(reg.centre_id)
        return closed_at is not None and closed_at <= arrived
    return reg.centre_id is not None and (
        CentreClose.objects.filter(
            round=rnd, centre_id=reg.centre_id, closed_at__lte=arrived
        ).exists()
    )


def _submit_locked(
    rnd: Round, player_id: int, *, word: str, reference: str, claimed: int | None, source: str,
    client_key: str, actor: Actor, ip: str | None, device: str, late: bool, arrived: datetime,
    early: tuple[tuple, Outcome] | None, shared: bool,
) -> ProposalResult:  # fmt: skip
    """The part of a submission under the round's lock (the caller holds it)."""
    entered_by = user_of(actor)
    claimed_score = claimed
    # The player's registration with their name (the answer names them), read once: the
    # centre rule, the withdrawal and the stored version's player.
    reg = (
        Registration.objects.select_related("player")
        .filter(tournament_id=rnd.game.tournament_id, player_id=player_id)
        .order_by("pk")
        .first()
    )
    if source == ProposalSource.ARBITER:
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, player_id=player_id,
                        registration=reg)  # fmt: skip
    elif isinstance(actor, PlayerActor) and actor.tournament_id != rnd.game.tournament_id:
        raise ServiceError("access.player", "This token belongs to another tournament.")
    # The player's versions of the round (usually none or one): the replay, the number,
    # the current one and an arbiter's twin or rival from one read (ordered by version
    # alone: the model's ordering joins the round, the game and the tournament).
    mine = versions_of(rnd.pk, player_id)
    if client_key:
        stored = next((v for v in mine if v.client_key == client_key), None)
        if stored is not None:
            return replayed_result(stored, word, reference, claimed_score)
    if reg is None:
        raise ServiceError(
            "player.not_registered", "This player is not registered in the tournament."
        )
    if reg.gone_by(rnd.game.number, rnd.number):
        raise ServiceError(
            "registration.withdrawn",
            "The player withdrew from the tournament: no more moves.",
            game=reg.withdrawn_game, round=reg.withdrawn_round,
        )  # fmt: skip
    if rnd.state not in (RoundState.OPEN, RoundState.CLOSED):
        raise ServiceError(
            "round.not_open",
            f"Round {rnd.number} is {rnd.state}: no proposal yet.",
            round=rnd.number,
            state=rnd.state,
        )
    late = proposal_late(rnd, reg, source=source, late=late, arrived=arrived)
    rnd = ensure_top(rnd)
    if late:
        return _submit_late(
            rnd, player_id, word=word, reference=reference, claimed=claimed_score,
            source=source, actor=actor, client_key=client_key, ip=ip, device=device,
            created_at=arrived,
        )  # fmt: skip
    rival = None
    if source == ProposalSource.ARBITER:
        slip = (word, reference, claimed_score)
        twin, rival = arbiter_slip(rnd, player_id, slip, entered_by, mine)
        if twin is not None:
            twin.player = reg.player
            return ProposalResult(twin, adapter.outcome(twin), replayed=True)
    key = _judgement_key(rnd, word=word, reference=reference, claimed=claimed_score,
                         source=source)  # fmt: skip
    if early is not None and early[0] == key:
        outcome = early[1]
    else:
        outcome = judge_proposal(rnd, word=word, reference=reference, claimed=claimed_score,
                         source=source, late=late)  # fmt: skip
    version = version_store(
        rnd, player_id, outcome, word=word, reference=reference,
        claimed_score=claimed_score, late=late, source=source, entered_by=entered_by,
        client_key=client_key, ip=ip, device=device, current=rival is None,
        known=mine, counts=not (shared and rnd.state == RoundState.OPEN), created_at=arrived,
    )  # fmt: skip
    version.player = reg.player  # the answer's name, read with the registration
    if rival is not None:
        conflict = SlipConflict.objects.create(
            round=rnd, player_id=player_id, first=rival, second=version
        )
        audit_record(
            actor=actor, action="proposal.conflict", obj=conflict, round=rnd.pk,
            player=player_id, first=rival.pk, second=version.pk,
        )  # fmt: skip
        return ProposalResult(version, outcome, conflict=conflict)
    audit_record(
        actor=actor, action="proposal.submit", obj=version,
        round=rnd.pk, player=player_id, score=outcome.score, code=outcome.code,
    )  # fmt: skip
    return ProposalResult(version, outcome)


def _submit_late(
    rnd: Round, player_id: int, *, word: str, reference: str, claimed: int | None,
    source: str, actor: Actor, **fields: Any,
) -> ProposalResult:  # fmt: skip
    """Store a late proposal (the caller holds the lock). Judging it checks the entry
    first, so a refused one is not stored; it stays beside an on-time current version."""
    outcome = judge_proposal(rnd, word=word, reference=reference, claimed=claimed, source=source,
                     late=True)  # fmt: skip
    current = ProposalVersion.objects.filter(
        round=rnd, player_id=player_id, is_current=True
    ).first()
    standing = current if current is not None and not current.late else None
    version = version_store(
        rnd, player_id, outcome, word=word, reference=reference, claimed_score=claimed,
        late=True, source=source, entered_by=user_of(actor), current=standing is None,
        **fields,
    )  # fmt: skip
    audit_record(
        actor=actor, action="proposal.submit", obj=version, round=rnd.pk,
        player=player_id, score=outcome.score, code=outcome.code, late=True,
        standing=standing.pk if standing else None,
    )  # fmt: skip
    return ProposalResult(version, outcome, standing=standing)


def _require_player(actor: Actor, player_id: int) -> None:
    """A tablet proposal comes from that player's token, or from the system (the demo)."""
    if is_system(actor):
        return
    if not isinstance(actor, PlayerActor) or actor.player_id != player_id:
        raise ServiceError("access.player", "A player hands in only their own proposals.")


def _judgement_key(rnd: Round, *, word: str, reference: str, claimed: int | None,
                   source: str) -> tuple:  # fmt: skip
    return judgement_key(rnd, word=word, reference=reference, claimed=claimed, source=source)


def _judge_early(
    rnd: Round | None, *, word: str, reference: str, claimed: int | None, source: str
) -> tuple[tuple, Outcome] | None:
    """``(key, outcome)`` judged on time without a lock (from this process's cache of the
    round's judgements when the same move was judged before), or None when it can't be
    (round not open yet, top not computed, or a refusal the locked path will raise in its
    proper order). The locked path uses it only if the round read under the lock gives
    the same key."""
    if rnd is None or rnd.state != RoundState.OPEN or rnd.top is None or rnd.top_score is None:
        return None
    key = _judgement_key(rnd, word=word, reference=reference, claimed=claimed, source=source)
    try:
        outcome = judged(key, lambda: judge_proposal(rnd, word=word, reference=reference,
                                             claimed=claimed, source=source,
                                             late=False))  # fmt: skip
    except ServiceError:
        return None
    return key, outcome


def proposal_correct(
    *,
    round_id: int,
    player_id: int,
    word: str,
    reference: str = "",
    claimed_score: int | None = None,
    reason: str,
    actor: Actor,
    ip: str | None = None,
    device: str = "",
) -> ProposalResult:
    """An arbiter's correction: a new version with its reason, judged again; the round's
    earlier versions stay. Lateness of the corrected proposal is kept (it is a fact)."""
    if not reason.strip():
        raise ServiceError("correction.reason", "A correction states why it is made.")
    if user_of(actor) is None:
        raise ServiceError("correction.actor", "A correction names the arbiter who made it.")
    with transaction.atomic():
        rnd = locked_round(round_id)
        require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, player_id=player_id)
        rnd = ensure_top(rnd)
        mine = versions_of(rnd.pk, player_id)
        current = next((v for v in mine if v.is_current), None)
        late = current.late if current else False
        outcome = judge_proposal(rnd, word=word, reference=reference, claimed=claimed_score,
                         source=ProposalSource.ARBITER, late=late)  # fmt: skip
        version = version_store(
            rnd, player_id, outcome, word=word, reference=reference, claimed_score=claimed_score,
            late=late, source=ProposalSource.ARBITER, entered_by=user_of(actor), ip=ip,
            device=device, reason=reason, known=mine,
        )  # fmt: skip
        audit_record(
            actor=actor, action="proposal.correct", obj=version, round=rnd.pk, player=player_id,
            reason=reason, score=outcome.score, previous=current.pk if current else None,
        )  # fmt: skip
        return ProposalResult(version, outcome)


def tablet_claim(round_id: int, *, reference: str, word: str) -> int | None:
    """The score a tablet writes for its player when the tournament requires scores
    (``engine.duplicate.proposals.automatic_claim``: placement and letters, never the
    lexicon); ``None`` otherwise, or when the move does not fit or the round is unknown
    (the submission then refuses it in its proper order)."""
    return tablet_score(judging_round(round_id), reference=reference, word=word)
