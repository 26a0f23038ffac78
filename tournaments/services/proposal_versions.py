"""The building blocks of a proposal's version (``services.proposals``, ``arrivals``,
``decisions``, ``recompute``): the entry's column checks, the engine's judgement of a move
against its round, appending a version (the only current one, or kept beside it), and
matching an arbiter's slip with the versions already stored. They take the caller's lock
for granted: the services that decide lateness and take the round's lock call them.

"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from engine.duplicate.proposals import Outcome, score_proposal
from engine.errors import EngineError
from tournaments import adapter
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import (
    ProposalSource,
    ProposalVersion,
    Round,
    SlipConflict,
)
from tournaments.services.rounds import lexicon_of
from tournaments.services.standings import standings_update


@dataclass(frozen=True, slots=True)
class ProposalResult:
    """The stored version, its judged outcome, whether it was a replay (same client key, or
    the same slip entered again), and the conflict it opened with another arbiter's slip."""

    version: ProposalVersion
    outcome: Outcome
    replayed: bool = False
    conflict: SlipConflict | None = None
    standing: ProposalVersion | None = None

    @property
    def counted(self) -> ProposalVersion:
        """The version that counts for the player: the stored one, or the on-time version
        a late one was kept beside (``standing``)."""
        return self.standing or self.version


#: Column limits of ``ProposalVersion`` (a longer entry is refused, never cut).
MAX_WORD = 30
MAX_REFERENCE = 10


def check_entry(word: str, reference: str) -> None:
    """Refuse what no column can hold, on time or late, before anything is decided."""
    if len(word) > MAX_WORD:
        raise ServiceError(
            "proposal.too_long",
            f"A word is at most {MAX_WORD} characters long.",
            field="word",
            limit=MAX_WORD,
        )
    if len(reference) > MAX_REFERENCE:
        raise ServiceError(
            "proposal.too_long",
            f"A reference is at most {MAX_REFERENCE} characters long.",
            field="reference",
            limit=MAX_REFERENCE,
        )


def judge_proposal(rnd: Round, *, word: str, reference: str, claimed: int | None, source: str,
           late: bool) -> Outcome:  # fmt: skip
    game = rnd.game
    var = adapter.variant(game.variant_code)
    if rnd.top_score is None:  # every caller computes the top first (ensure_top)
        raise RuntimeError(f"round {rnd.pk} judged before its top was computed")
    try:
        return score_proposal(
            board=adapter.board(rnd.board_before),
            rack=adapter.rack(rnd.rack),
            round_number=rnd.number,
            top_score=rnd.top_score,
            proposal=adapter.proposal(
                word=word, reference=reference, claimed_score=claimed, source=source, late=late
            ),
            lexicon=lexicon_of(game),
            settings=adapter.scoring_settings(game.tournament, var),
            top_move=adapter.top_move(rnd),
        )
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


def version_store(
    rnd: Round, player_id: int, outcome: Outcome, *, current: bool = True,
    known: list[ProposalVersion] | None = None, counts: bool = True, **fields: Any,
) -> ProposalVersion:  # fmt: skip
    """Append a version and make it the only current one (the caller holds the lock); with
    ``current=False`` it is kept beside the current one (a slip in conflict).

    ``known``: the player's versions of the round as the caller just read them (saves the
    reads). Under the shared lock two submissions of the same player may race: both
    number their version ``last + 1``, and the (round, player, version) unique constraint
    refuses the second, which the caller retries. ``counts=False``: the caller holds the
    round open under its lock, so no stored figure depends on it (an open round has none:
    ``standings`` removes a round's figure when it stops counting) and the figures are
    not asked."""
    versions = ProposalVersion.objects.filter(round=rnd, player_id=player_id)
    if known is None:
        last = versions.aggregate(n=Max("version"))["n"] or 0
        has_current = True
    else:
        last = max((v.version for v in known), default=0)
        has_current = any(v.is_current for v in known)
    if current and has_current:
        versions.filter(is_current=True).update(is_current=False)
    version = ProposalVersion.objects.create(
        round=rnd,
        player_id=player_id,
        version=last + 1,
        is_current=current,
        **fields,
        **adapter.outcome_fields(outcome),
    )
    if current and counts:
        standings_update(actor=SYSTEM, round_id=rnd.pk, player_ids=[player_id])
    return version


def versions_of(round_id: int, player_id: int) -> list[ProposalVersion]:
    """A player's versions of a round, by version number."""
    return list(
        ProposalVersion.objects.filter(round_id=round_id, player_id=player_id).order_by("version")
    )


def arbiter_slip(
    rnd: Round, player_id: int, slip: tuple, arbiter: Any, mine: list[ProposalVersion]
) -> tuple[ProposalVersion | None, ProposalVersion | None]:
    """``(twin, rival)``: a stored arbiter version with the same content (current, or
    waiting in an open conflict), else the current version another arbiter entered.
    ``mine``: the player's versions of the round as the caller just read them (under the
    round's lock); a version waiting in a conflict is one of them that is not current,
    so the conflicts are read only when there is one."""
    current = next((v for v in mine if v.is_current), None)
    beside = [v.pk for v in mine if not v.is_current and v.source == ProposalSource.ARBITER]
    waiting: list[ProposalVersion] = []
    if beside:
        seconds = set(
            SlipConflict.objects.filter(
                round=rnd, player_id=player_id, resolved_at__isnull=True, second_id__in=beside
            )
            .order_by()
            .values_list("second_id", flat=True)
        )
        waiting = [v for v in mine if v.pk in seconds]
    for version in [*([current] if current else []), *waiting]:
        if (
            version.source == ProposalSource.ARBITER
            and (version.word, version.reference, version.claimed_score) == slip
        ):
            return version, None
    if (
        current is not None
        and current.source == ProposalSource.ARBITER
        and current.entered_by_id
        and current.entered_by_id != arbiter.pk
    ):
        return None, current
    return None, None


def replayed_result(
    stored: ProposalVersion, word: str, reference: str, claimed: int | None
) -> ProposalResult:
    if (stored.word, stored.reference, stored.claimed_score) != (word, reference, claimed):
        raise ServiceError(
            "proposal.key_reused", "This client key was already used for another proposal."
        )
    return ProposalResult(stored, adapter.outcome(stored), replayed=True)
