"""Reads of a round's slips and decisions (the round aggregate's rows): current proposal
versions, late attempts kept beside them, who is still missing, the slips left to the
arbiter's judgement, the decisions taken. Nothing here writes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Max, Q

from tournaments import adapter
from tournaments.errors import ServiceError
from tournaments.models import (
    Decision,
    ProposalArrival,
    ProposalVersion,
    Registration,
    Round,
)
from tournaments.selectors.players import arrived_q
from tournaments.selectors.tournament import MAX_ID


def current_versions(rnd: Round) -> dict[int, ProposalVersion]:
    """Player id → current proposal version for the round."""
    return {v.player_id: v for v in ProposalVersion.objects.filter(round=rnd, is_current=True)}


def current_proposal(round_id: int, player_id: int) -> ProposalVersion | None:
    """The player's current version on the round (None: no slip)."""
    return ProposalVersion.objects.filter(
        round_id=round_id, player_id=player_id, is_current=True
    ).first()


def pending_arrival(round_id: int, player_id: int) -> ProposalArrival | None:
    """The player's latest move of the round still waiting for the worker (the queued
    path, ``services.arrivals``), if any: the tablet shows it as sent."""
    return (
        ProposalArrival.objects.filter(
            round_id=round_id, player_id=player_id, ingested_at__isnull=True
        )
        .order_by("-received_at", "-id")
        .first()
    )


def proposal_by_id(proposal_id: int) -> ProposalVersion:
    """One proposal version with its round, game, tournament and player;
    ``proposal.unknown`` when there is none."""
    version = None
    if 0 < proposal_id <= MAX_ID:
        version = (
            ProposalVersion.objects.select_related("round__game__tournament", "player")
            .filter(pk=proposal_id)
            .first()
        )
    if version is None:
        raise ServiceError("proposal.unknown", f"There is no proposal {proposal_id}.")
    return version


def round_version(rnd: Round, version_id: int | None) -> ProposalVersion | None:
    """The version ``version_id`` if it belongs to ``rnd``."""
    if version_id is None or not 0 < version_id <= MAX_ID:
        return None
    return ProposalVersion.objects.filter(pk=version_id, round=rnd).first()


def late_attempts(rnd: Round) -> dict[int, list[ProposalVersion]]:
    """Player id → the late versions kept beside an on-time one (they never count, the
    arbiter sees them beside the slip)."""
    attempts: dict[int, list[ProposalVersion]] = {}
    versions = ProposalVersion.objects.filter(round=rnd, late=True, is_current=False)
    for v in versions.order_by("version"):
        attempts.setdefault(v.player_id, []).append(v)
    return attempts


def last_late_attempt(rnd: Round | None, player_id: int) -> ProposalVersion | None:
    """The player's newest late version kept beside the on-time one that counts."""
    if rnd is None:
        return None
    return (
        ProposalVersion.objects.filter(round=rnd, player_id=player_id, late=True, is_current=False)
        .order_by("-version")
        .first()
    )


def own_versions_mark(rnd: Round | None, player_id: int) -> tuple[Any, ...] | None:
    """The ids of the player's current and newest version on the round (one query): what
    a tablet's own view of the round depends on (a late version kept beside the current
    one changes what the tablet says, not what counts)."""
    if rnd is None:
        return None
    marks = ProposalVersion.objects.filter(round=rnd, player_id=player_id).aggregate(
        current=Max("id", filter=Q(is_current=True)), last=Max("id")
    )
    return tuple(marks.values())


def received_count(rnd: Round) -> int:
    """How many players have a current slip on the round."""
    return ProposalVersion.objects.filter(round=rnd, is_current=True).count()


def recent_versions(
    rnd: Round, limit: int = 50, player_ids: set[int] | None = None
) -> list[ProposalVersion]:
    """The round's proposal versions, newest first (the slip-entry log); with
    ``player_ids``, those players' only (a centre arbiter's centre)."""
    versions = ProposalVersion.objects.filter(round=rnd).select_related("player", "entered_by")
    if player_ids is not None:
        versions = versions.filter(player_id__in=player_ids)
    return list(versions.order_by("-created_at", "-id")[:limit])


def round_proposals(rnd: Round, *, all_versions: bool = False) -> list[ProposalVersion]:
    """The round's current versions (every version with ``all_versions``), by table."""
    versions = ProposalVersion.objects.filter(round=rnd).select_related("player")
    if not all_versions:
        versions = versions.filter(is_current=True)
    return list(versions.order_by("player__registrations__table_number", "version").distinct())


def best_moves(rnd: Round, limit: int) -> list[ProposalVersion]:
    """The round's best-scoring current versions (scoring more than 0), players named."""
    versions = ProposalVersion.objects.filter(round=rnd, is_current=True, outcome_score__gt=0)
    versions = versions.select_related("player").order_by("-outcome_score", "player__name")
    return list(versions[:limit])


def player_versions(rounds: Iterable[Round], player_id: int) -> dict[int, ProposalVersion]:
    """Round id → the player's current version on each of ``rounds``."""
    versions = ProposalVersion.objects.filter(
        round__in=list(rounds), player_id=player_id, is_current=True
    ).select_related("player")
    return {v.round_id: v for v in versions}


def versions_by_player(rounds: Iterable[Round]) -> dict[int, dict[int, ProposalVersion]]:
    """Player id → round id → current version, over ``rounds``."""
    out: dict[int, dict[int, ProposalVersion]] = defaultdict(dict)
    for v in ProposalVersion.objects.filter(round__in=list(rounds), is_current=True):
        out[v.player_id][v.round_id] = v
    return out


def entered_by_names(version_ids: Iterable[int]) -> dict[int, str]:
    """Version id → the username of the arbiter who typed it (tablet versions left out)."""
    return dict(
        ProposalVersion.objects.filter(
            pk__in=list(version_ids), entered_by__isnull=False
        ).values_list("pk", "entered_by__username")
    )


def missing_slips(rnd: Round) -> list[Registration]:
    """Registrations present on the round (arrived) with no current proposal, by table."""
    have = ProposalVersion.objects.filter(round=rnd, is_current=True).values("player_id")
    return list(
        Registration.objects.filter(tournament_id=rnd.game.tournament_id)
        .filter(arrived_q(rnd))
        .exclude(player_id__in=have)
        .select_related("player")
        .order_by("table_number")
    )


def round_decisions(rnd: Round) -> list[Decision]:
    """The arbiters' decisions on the round with their authors, in the order taken."""
    return list(
        Decision.objects.filter(round=rnd).select_related("author").order_by("created_at", "id")
    )


def decisions_by_player(rnd: Round) -> dict[int, list[Decision]]:
    """Player id → the decisions on the round about them, in the order taken."""
    out: dict[int, list[Decision]] = {}
    for d in round_decisions(rnd):
        out.setdefault(d.player_id, []).append(d)
    return out


def slips_to_review(rnd: Round) -> list[dict]:
    """The round's current slips whose outcome the engine left to the arbiter's judgement
    (``Outcome.review``), waiting ones first, then by table: ``{"registration",
    "version", "outcome", "choice"}`` (``choice`` None while waiting)."""
    versions = ProposalVersion.objects.filter(round=rnd, is_current=True)
    versions = [v for v in versions if (v.outcome_params or {}).get("alternative")]
    if not versions:
        return []
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament_id=rnd.game.tournament_id, player_id__in=[v.player_id for v in versions]
        ).select_related("player")
    }
    taken: dict[int, list[Decision]] = defaultdict(list)
    for d in Decision.objects.filter(round=rnd, kind="review").order_by("created_at", "id"):
        taken[d.player_id].append(d)
    lines = [
        {"registration": regs[v.player_id], "version": v, "outcome": adapter.outcome(v),
         "choice": adapter.review_choice(v, taken[v.player_id])}
        for v in versions if v.player_id in regs
    ]  # fmt: skip
    lines.sort(key=lambda line: (line["choice"] is not None, line["registration"].table_number))
    return lines
