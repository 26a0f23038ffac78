"""The queued ingestion path of tablet moves (issue 16, item 3; ``TIRAGE_QUEUED_PROPOSALS``).

The request does the minimum (:func:`arrival_receive`): the playing round from this
process's snapshot (``ingest_cache``), the checks a player gets as a 4xx (lengths,
reference syntax, placement and rack letters: the refusals of the judgement, taken from
the per-round judgement cache, never the lexicon's verdict nor the top), the arrival time
stamped, and **one INSERT** of a ``ProposalArrival`` (client key unique per round and
player: a replay finds the stored row). The move is then durable in PostgreSQL before the
answer (``202``), whatever happens to the web worker, the Celery worker or Redis.

A worker turns the pending arrivals of a round into ``ProposalVersion`` rows in batches
(:func:`arrivals_ingest`, queued by name, at most one message per round in flight: a Redis
``SET NX`` debounces 300 moves a second into a few batches). Each batch holds the round's
exclusive lock (the one ``round_close`` takes), reads the players' registrations and
versions and the centres' closes once, judges from the cache, decides lateness with
``proposal_late`` against the stamped arrival, numbers the versions and keeps one current
as ``proposal_versions.version_store`` does (late never replaces an on-time version),
writes the versions, their audit rows and the arrivals' completion in bulk, and bumps the
live versions once.
Running it twice changes nothing: an ingested arrival is never read again, and an arrival
whose client key already has a version is linked to it.

``round_close``, ``centres.centre_close``, ``round_reopen`` and ``round_cancel`` call
:func:`arrivals_ingest_locked` under their lock first: every move that reached the server
before the close is a version when the close commits, and results never wait on the
worker. A worker's start sweeps every round with pending arrivals (:func:`arrivals_sweep`).
"""

from __future__ import annotations

import contextlib
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from engine.duplicate.proposals import Outcome
from tournaments import adapter, live_versions
from tournaments.access import SYSTEM, Actor, PlayerActor
from tournaments.errors import ServiceError
from tournaments.metrics import PROPOSALS
from tournaments.models import (
    AuditLog,
    CentreClose,
    ProposalArrival,
    ProposalSource,
    ProposalVersion,
    Registration,
    Round,
    RoundState,
)
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_row
from tournaments.services.judgements import judged, judgement_key, tablet_score
from tournaments.services.proposal_versions import check_entry, judge_proposal
from tournaments.services.proposals import proposal_late
from tournaments.services.round_deadlines import round_clock
from tournaments.services.rounds import ensure_top, locked_round
from tournaments.services.standings import standings_update
from tournaments.shared_cache import cache_key, redis_client

#: Seconds a round's ingestion message waits, so that the moves of that moment make one batch.
BATCH_DELAY = 0.5
#: Arrivals judged and written in one transaction by the worker.
BATCH_SIZE = 500
#: Seconds the debounce key lives at most (a lost message is made good by then).
NUDGE_TTL = 5


def queued_proposals() -> bool:
    """Whether tablets' moves take the queued path (the production profile's default)."""
    return bool(getattr(settings, "TIRAGE_QUEUED_PROPOSALS", False))


@dataclass(frozen=True, slots=True)
class Receipt:
    """A received move: its arrival row, and whether it was a replay (same client key)."""

    arrival: ProposalArrival
    replayed: bool = False


def arrival_receive(
    *, actor: PlayerActor, rnd: Round, registration: Registration, word: str, reference: str,
    claimed_score: int | None = None, client_key: str = "", ip: str | None = None,
    device: str = "",
) -> Receipt:  # fmt: skip
    """Make a tablet's move durable and answer: the checks, the stamp, one INSERT.

    ``rnd`` is the playing round with its game, tournament and lexicon (the caller's
    snapshot); it must be open (the caller takes the synchronous path otherwise).
    ``registration`` is the token's. Refusals are those of ``proposal_submit``: lengths,
    a withdrawn player, then the judgement's refusals (syntax, placement, letters); the
    outcome itself (a word's validity, the top) is not looked at here. ``actor`` is the
    token's player (``PlayerActor.of(registration)``): the version made of this move later
    is theirs."""
    if actor.registration_id != registration.pk:
        raise ValueError("arrival_receive: the actor is not the registration's player")
    claimed_score = arrival_checked(rnd=rnd, registration=registration, word=word,
                                    reference=reference, claimed_score=claimed_score)  # fmt: skip
    key = arrival_key(client_key)
    arrival = arrival_insert(
        rnd.pk, registration.player_id, word=word, reference=reference, claimed=claimed_score,
        client_key=key, ip=ip, device=device,
    )  # fmt: skip
    if arrival is not None:
        if connection.in_atomic_block:  # bumped after the commit, the message sent after it
            _nudge(rnd.pk)
            live_versions.changed(players=[registration.player_id])
        else:
            arrival_signal(round_id=rnd.pk, player_id=registration.player_id)
        return Receipt(arrival)
    stored = ProposalArrival.objects.get(
        round_id=rnd.pk, player_id=registration.player_id, client_key=key
    )
    if (stored.word, stored.reference, stored.claimed_score) != (word, reference, claimed_score):
        raise ServiceError(
            "proposal.key_reused", "This client key was already used for another proposal."
        )
    return Receipt(stored, replayed=True)


def arrival_key(client_key: str) -> str:
    """The key a move is stored under: the client's, else one made up (never a replay)."""
    return client_key or f"srv-{uuid.uuid4().hex}"


def arrival_checked(*, rnd: Round, registration: Registration, word: str, reference: str,
                    claimed_score: int | None) -> int | None:  # fmt: skip
    """The refusals a move gets before it is stored (``arrival_receive``; the submissions'
    fast lane, ``tournaments.proposal_lane``, runs the same): the claimed score to store."""
    check_entry(word, reference)
    if registration.gone_by(rnd.game.number, rnd.number):
        raise ServiceError(
            "registration.withdrawn", "The player withdrew from the tournament: no more moves.",
            game=registration.withdrawn_game, round=registration.withdrawn_round,
        )  # fmt: skip
    if claimed_score is None:
        claimed_score = tablet_score(rnd, reference=reference, word=word)
    _judged_on_time(rnd, word=word, reference=reference, claimed=claimed_score)  # refusals
    return claimed_score


def arrival_signal(*, round_id: int, player_id: int) -> None:
    """After an arrival's INSERT (outside a transaction): the round's ingestion debounced
    and the player's live version bumped in ONE Redis round trip (``SET NX`` and ``SET``);
    the message queued when the debounce key was free. Without Redis, or when it fails,
    the cache API's way (``_nudge``, ``live_versions.changed``: a failed bump is retried)."""
    client = redis_client()
    if client is not None and live_versions.writable():
        try:
            pipe = client.pipeline(transaction=False)
            pipe.set(cache_key(_nudge_key(round_id)), 1, ex=NUDGE_TTL, nx=True)
            live_versions.queue_bump(pipe, [live_versions.player_key(player_id)])
            first = pipe.execute()[0]
        except Exception:  # noqa: BLE001 - the cache's way below (it logs and retries)
            pass
        else:
            if first:
                queue_after_commit("tournaments.ingest_arrivals", round_id, countdown=BATCH_DELAY)
            return
    _nudge(round_id)
    live_versions.changed(players=[player_id])


def arrival_insert(round_id: int, player_id: int, *, word: str, reference: str, claimed: int | None,
            client_key: str, ip: str | None, device: str) -> ProposalArrival | None:  # fmt: skip
    """One ``INSERT ... ON CONFLICT DO NOTHING``: the new row, or None for a replay (the
    one SQL of a received move, for ``arrival_receive`` and the fast lane)."""
    now = timezone.now()
    table = connection.ops.quote_name(ProposalArrival._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (round_id, player_id, reference, word, claimed_score, "  # noqa: S608
            "client_key, ip, device, received_at, refusal) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s, %s, '') ON CONFLICT DO NOTHING RETURNING id",
            [round_id, player_id, reference, word, claimed, client_key, ip, device[:200], now],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return ProposalArrival(
        pk=row[0], round_id=round_id, player_id=player_id, reference=reference, word=word,
        claimed_score=claimed, client_key=client_key, ip=ip, device=device[:200],
        received_at=now,
    )  # fmt: skip


def _nudge_key(round_id: int) -> str:
    return f"tirage:ingest:{round_id}"


def _nudge(round_id: int) -> None:
    """Queue the round's ingestion unless a message is already waiting (``SET NX``). The
    worker deletes the key before it reads the pending rows, so a move whose request saw
    the key committed before that read (no move is left behind)."""
    try:
        first = cache.add(_nudge_key(round_id), 1, NUDGE_TTL)
    except Exception:  # noqa: BLE001 - the cache down: queue anyway (the task is idempotent)
        first = True
    if first:
        queue_after_commit("tournaments.ingest_arrivals", round_id, countdown=BATCH_DELAY)


def arrivals_ingest(*, round_id: int, actor: Actor, limit: int = BATCH_SIZE) -> int:
    """The worker's job: every pending arrival of the round, in batches of ``limit`` (one
    transaction each, under the round's exclusive lock); returns how many were ingested.
    A round deleted meanwhile has nothing left (its arrivals went with it)."""
    with contextlib.suppress(Exception):  # the cache down: the key then just expires
        cache.delete(_nudge_key(round_id))
    total = 0
    while True:
        with transaction.atomic():
            if not Round.objects.filter(pk=round_id).exists():
                return total
            done = arrivals_ingest_locked(locked_round(round_id), actor=actor, limit=limit)
        total += done
        if done < limit:
            return total


def arrivals_sweep(*, actor: Actor) -> int:
    """Ingest every round's pending arrivals (a worker's start: messages lost with Redis)."""
    rounds = (
        ProposalArrival.objects.filter(ingested_at__isnull=True)
        .values_list("round_id", flat=True)
        .distinct()
    )
    return sum(arrivals_ingest(round_id=round_id, actor=actor) for round_id in list(rounds))


def _judged_on_time(rnd: Round, *, word: str, reference: str, claimed: int | None) -> Outcome:
    key = judgement_key(rnd, word=word, reference=reference, claimed=claimed,
                        source=ProposalSource.TABLET)  # fmt: skip
    return judged(key, lambda: judge_proposal(rnd, word=word, reference=reference,
                                              claimed=claimed, source=ProposalSource.TABLET,
                                              late=False))  # fmt: skip


def arrivals_ingest_locked(
    rnd: Round, *, actor: Actor = SYSTEM, limit: int | None = None,
    before: datetime | None = None,
) -> int:  # fmt: skip
    """Turn the round's pending arrivals (the oldest ``limit``, or all; only those received
    before ``before`` when given: a close ingests what reached the server before its own
    moment, the later ones are late and left to the worker) into versions; the caller holds
    the round's exclusive lock (``locked_round``). Returns how many."""
    pending = ProposalArrival.objects.filter(round=rnd, ingested_at__isnull=True)
    if before is not None:
        pending = pending.filter(received_at__lt=before)
    pending = pending.order_by("received_at", "id")
    arrivals = list(pending[:limit] if limit else pending)
    if not arrivals:
        return 0
    tournament_id = rnd.game.tournament_id
    players = {a.player_id for a in arrivals}
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(tournament_id=tournament_id, player_id__in=players)
    }
    mine: dict[int, list[ProposalVersion]] = defaultdict(list)
    for version in ProposalVersion.objects.filter(round=rnd, player_id__in=players):
        mine[version.player_id].append(version)
    closes = dict(CentreClose.objects.filter(round=rnd).values_list("centre_id", "closed_at"))
    if rnd.state in (RoundState.OPEN, RoundState.CLOSED):
        rnd = ensure_top(rnd)
    batch = _Batch(rnd, closes)
    for arrival in arrivals:
        batch.take(arrival, regs.get(arrival.player_id), mine[arrival.player_id])
    batch.write(actor)
    return len(arrivals)


class _Batch:
    """One batch's decisions, then its writes in bulk."""

    def __init__(self, rnd: Round, closes: dict[int, datetime]) -> None:
        self.rnd, self.closes = rnd, closes
        self.clock = round_clock(rnd)  # lateness against the deadline in force at arrival
        self.now = timezone.now()
        self.uncurrent: set[int] = set()
        self.versions: list[ProposalVersion] = []
        self.done: list[tuple[ProposalArrival, ProposalVersion | None, dict]] = []
        self.changed_players: set[int] = set()

    def refuse(self, arrival: ProposalArrival, code: str) -> None:
        arrival.refusal = code[:40]
        self.done.append((arrival, None, {}))

    def take(self, arrival: ProposalArrival, reg: Registration | None,
             versions: list[ProposalVersion]) -> None:  # fmt: skip
        rnd = self.rnd
        stored = next((v for v in versions if v.client_key == arrival.client_key), None)
        if stored is not None:  # a version with this client key exists: link it
            same = (stored.word, stored.reference, stored.claimed_score) == (
                arrival.word, arrival.reference, arrival.claimed_score)  # fmt: skip
            if not same:
                return self.refuse(arrival, "proposal.key_reused")
            return self.done.append((arrival, stored, {}))
        if reg is None:
            return self.refuse(arrival, "player.not_registered")
        if reg.gone_by(rnd.game.number, rnd.number):
            return self.refuse(arrival, "registration.withdrawn")
        if rnd.state not in (RoundState.OPEN, RoundState.CLOSED):
            return self.refuse(arrival, "round.not_open")
        late = proposal_late(rnd, reg, source=ProposalSource.TABLET, late=False,
                             arrived=arrival.received_at, closes=self.closes,
                             clock=self.clock)  # fmt: skip
        word, ref, claimed = arrival.word, arrival.reference, arrival.claimed_score
        try:
            if late:
                outcome = judge_proposal(rnd, word=word, reference=ref, claimed=claimed,
                                         source=ProposalSource.TABLET, late=True)  # fmt: skip
            else:
                outcome = _judged_on_time(rnd, word=word, reference=ref, claimed=claimed)
        except ServiceError as error:
            return self.refuse(arrival, error.code)
        current = next((v for v in versions if v.is_current), None)
        standing = current if late and current is not None and not current.late else None
        is_current = standing is None
        if is_current and current is not None:
            current.is_current = False
            if current.pk:
                self.uncurrent.add(current.pk)
        version = ProposalVersion(
            round=rnd, player_id=arrival.player_id,
            version=max((v.version for v in versions), default=0) + 1, is_current=is_current,
            word=arrival.word, reference=arrival.reference, claimed_score=arrival.claimed_score,
            late=late, source=ProposalSource.TABLET, client_key=arrival.client_key,
            ip=arrival.ip, device=arrival.device, created_at=arrival.received_at,
            **adapter.outcome_fields(outcome),
        )  # fmt: skip
        versions.append(version)
        self.versions.append(version)
        self.changed_players.add(arrival.player_id)
        payload = {"round": rnd.pk, "player": arrival.player_id, "score": outcome.score,
                   "code": outcome.code, "arrival": arrival.pk}  # fmt: skip
        if late:
            payload.update(late=True, standing=standing.pk if standing else None)
        self.done.append((arrival, version, {"actor": PlayerActor(reg.pk, reg.player_id,
                                                                  reg.tournament_id),
                                             "payload": payload}))  # fmt: skip
        return None

    def write(self, actor: Actor) -> None:
        rnd = self.rnd
        if self.uncurrent:
            ProposalVersion.objects.filter(pk__in=self.uncurrent).update(is_current=False)
        ProposalVersion.objects.bulk_create(self.versions)  # no post_save: counted below
        if self.versions:
            stored = len(self.versions)
            transaction.on_commit(
                lambda: PROPOSALS.labels(source=ProposalSource.TABLET).inc(stored)
            )
        rows = [
            audit_row(
                actor=audit["actor"],
                action="proposal.submit",
                object_type="proposalversion",
                object_id=version.pk,
                payload=audit["payload"],
            )  # fmt: skip
            for _, version, audit in self.done
            if audit and version is not None
        ]
        if rows:
            AuditLog.objects.bulk_create(rows)
        for arrival, version, _ in self.done:
            arrival.ingested_at, arrival.version = self.now, version
        _complete([arrival for arrival, _, _ in self.done], self.now)
        if self.changed_players and rnd.state == RoundState.CLOSED:
            standings_update(actor=actor, round_id=rnd.pk, player_ids=sorted(self.changed_players))
        # As ``live_versions.audited`` for proposals: an open round's moves are private.
        public = rnd.state != RoundState.OPEN
        live_versions.changed(
            tournaments=[rnd.game.tournament_id] if public and self.versions else [],
            players=self.changed_players,
        )


def _complete(arrivals: list[ProposalArrival], now: datetime) -> None:
    """Mark the batch's arrivals ingested (their version or refusal) in ONE ``UPDATE ...
    FROM (VALUES ...)``: Django's ``bulk_update`` builds a ``CASE`` per field and row, most
    of a large batch's Python time."""
    if not arrivals:
        return
    table = connection.ops.quote_name(ProposalArrival._meta.db_table)
    rows = ", ".join(["(%s::bigint, %s::bigint, %s::varchar)"] * len(arrivals))
    params: list[int | str | datetime | None] = [now]
    for arrival in arrivals:
        params += [arrival.pk, arrival.version.pk if arrival.version else None, arrival.refusal]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS a SET ingested_at = %s, version_id = v.version_id, "  # noqa: S608
            f"refusal = v.refusal FROM (VALUES {rows}) AS v (id, version_id, refusal) "
            "WHERE a.id = v.id",
            params,
        )
