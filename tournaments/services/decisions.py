"""The arbiter's decisions about one player on one round: warnings (disciplinary ones
included), 5-point penalties, zeros and the moyenne (§4.3–4.5).

Each is a ``Decision`` row with its reason and author, plus an audit row; the standings apply
them to the round's current proposal with ``engine.duplicate.decisions`` (read through
``adapter.player_round``), so nothing derived is stored. The moyenne is computed once by
the engine (``apply_moyenne``) and its score kept.

*Group of a moyenne*: Tirage does not record which arbiter corrects which tables, so "the
other players of the same arbiter on that move" is every other player present on that round
(registered and arrived), no proposal counting as 0 and other moyennes left out; in a
simultaneous event, the other players of the same centre (``moyenne_registrations``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from engine.duplicate.decisions import apply_moyenne, moyenne_decision
from engine.duplicate.proposals import Outcome
from engine.errors import EngineError
from tournaments import adapter
from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    Decision,
    DecisionKind,
    ProposalVersion,
    Registration,
    Round,
    RoundState,
)
from tournaments.selectors.players import arrived_q
from tournaments.services.audit import audit_record
from tournaments.services.proposal_versions import judge_proposal
from tournaments.services.rounds import ensure_top, locked_round
from tournaments.services.standings import standings_update


def _decision_round(round_id: int, player_id: int, reason: str, actor: Actor) -> Round:
    if not reason.strip():
        raise ServiceError("decision.reason", "A decision states its reason.")
    if user_of(actor) is None:
        raise ServiceError("decision.author", "A decision names the arbiter who takes it.")
    rnd = locked_round(round_id)
    require_arbiter(actor=actor, tournament_id=rnd.game.tournament_id, player_id=player_id)
    if rnd.state not in (RoundState.OPEN, RoundState.CLOSED):
        raise ServiceError(
            "round.not_open",
            f"Round {rnd.number} is {rnd.state}: no decision on it.",
            round=rnd.number,
            state=rnd.state,
        )
    if not Registration.objects.filter(
        tournament_id=rnd.game.tournament_id, player_id=player_id
    ).exists():
        raise ServiceError("player.not_registered", "This player is not registered here.")
    return ensure_top(rnd)


def _decide(kind: str, *, round_id: int, player_id: int, reason: str, actor: Actor,
            **fields: Any) -> Decision:  # fmt: skip
    with transaction.atomic():
        rnd = _decision_round(round_id, player_id, reason, actor)
        decision = Decision.objects.create(
            round=rnd, player_id=player_id, kind=kind, reason=reason.strip(), author=user_of(actor),
            **fields,
        )  # fmt: skip
        standings_update(actor=actor, round_id=rnd.pk, player_ids=[player_id])
        audit_record(actor=actor, action=f"decision.{kind}", obj=decision, round=rnd.pk,
                     player=player_id, reason=decision.reason,
                     **{k: v for k, v in fields.items() if k != "params"})  # fmt: skip
        return decision


def decision_warning(
    *, round_id: int, player_id: int, reason: str, disciplinary: bool = False, actor: Actor
) -> Decision:
    """A warning: ``disciplinary`` ones stack with any other (§4.3); otherwise the round
    becomes a warning unless it already is one or is a zero or a penalty (§5.8)."""
    return _decide(DecisionKind.WARNING, round_id=round_id, player_id=player_id, reason=reason,
                   actor=actor, disciplinary=disciplinary)  # fmt: skip


def decision_penalty(*, round_id: int, player_id: int, reason: str, actor: Actor) -> Decision:
    """A 5-point penalty on the round (what was paid minus 5, never below 0)."""
    return _decide(
        DecisionKind.PENALTY, round_id=round_id, player_id=player_id, reason=reason, actor=actor
    )


def decision_zero(*, round_id: int, player_id: int, reason: str, actor: Actor) -> Decision:
    """The round scores 0 by the arbiter's decision (e.g. an illegible slip)."""
    return _decide(
        DecisionKind.ZERO, round_id=round_id, player_id=player_id, reason=reason, actor=actor
    )


def _rejudged(rnd: Round, player_id: int) -> Outcome:
    """The current proposal judged again (the stored row lacks the moyenne's cap)."""
    versions = ProposalVersion.objects.filter(round=rnd, player_id=player_id, is_current=True)
    version = versions.first()
    if version is None:
        return adapter.no_proposal()
    return judge_proposal(rnd, word=version.word, reference=version.reference,
                  claimed=version.claimed_score, source=version.source,
                  late=version.late)  # fmt: skip


def moyenne_registrations(tournament: Any, player_id: int) -> Any:
    """The registrations a player's moyenne averages over: the whole room, or in a
    simultaneous event the player's centre (the players "handled by the same arbiter",
    §4.5: each centre corrects its own slips; docs/rules-choices.md)."""
    regs = Registration.objects.filter(tournament_id=tournament.pk)
    if not tournament.simultaneous:
        return regs
    centre = regs.filter(player_id=player_id).values_list("centre_id", flat=True).first()
    return regs.filter(centre_id=centre) if centre is not None else regs.filter(centre__isnull=True)


def moyenne_group(rnd: Round, player_id: int) -> list[Outcome]:
    """The other players present on the round, with their current outcome (decisions
    applied): the group the moyenne averages (see the module's note)."""
    game = rnd.game
    current = {v.player_id: v for v in ProposalVersion.objects.filter(round=rnd, is_current=True)}
    decided: dict[int, list[Decision]] = {}
    for d in Decision.objects.filter(round=rnd).order_by("created_at", "id"):
        decided.setdefault(d.player_id, []).append(d)
    group = []
    # On the round: arrived by then and not withdrawn before it (a withdrawn player plays
    # no move there, so he is no 0 in the average: selectors.arrived_q).
    for reg in moyenne_registrations(game.tournament, player_id).filter(arrived_q(rnd)):
        if reg.player_id == player_id:
            continue
        group.append(adapter.player_round(current.get(reg.player_id),
                                          decided.get(reg.player_id, ())).counted)  # fmt: skip
    return group


def decision_moyenne(
    *, round_id: int, player_id: int, earlier_round_id: int, reason: str, actor: Actor
) -> Decision:
    """The moyenne (§4.5): the player's proposal on ``round_id`` repeats an invalid word
    already refused on ``earlier_round_id`` (same game); the round scores the average of
    the other players (rounded down), capped at the player's own move. The engine refuses
    anything else (``moyenne.*`` codes)."""
    with transaction.atomic():
        rnd = _decision_round(round_id, player_id, reason, actor)
        earlier = Round.objects.filter(pk=earlier_round_id, game_id=rnd.game_id).first()
        if earlier is None or earlier.number >= rnd.number or earlier.state == RoundState.CANCELLED:
            raise ServiceError(
                "moyenne.earlier", "The first zero must be on an earlier round of this game."
            )
        earlier.game = rnd.game
        if Decision.objects.filter(
            round=rnd, player_id=player_id, kind=DecisionKind.MOYENNE
        ).exists():
            raise ServiceError("moyenne.twice", "This round already has a moyenne.")
        try:
            result = apply_moyenne(
                earlier=_rejudged(earlier, player_id),
                later=_rejudged(rnd, player_id),
                others=moyenne_group(rnd, player_id),
            )
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        kept = moyenne_decision(result, reason=reason.strip(), earlier_round=earlier.pk)
        decision = Decision.objects.create(
            round=rnd, player_id=player_id, kind=DecisionKind.MOYENNE, reason=kept.reason,
            author=user_of(actor), score=kept.score, params=dict(kept.params),
        )  # fmt: skip
        standings_update(actor=actor, round_id=rnd.pk, player_ids=[player_id])
        audit_record(actor=actor, action="decision.moyenne", obj=decision, round=rnd.pk,
                     player=player_id, reason=decision.reason, score=result.score,
                     earlier_round=earlier.pk)  # fmt: skip
        return decision


REVIEW_CHOICES = ("default", "alternative")
REVIEW_REASONS = {
    "default": "Révision : la décision par défaut du règlement est confirmée.",
    "alternative": "Révision : l'arbitre retient l'autre décision.",
}


def decision_review(
    *, round_id: int, player_id: int, version_id: int, choice: str, actor: Actor, reason: str = ""
) -> Decision:
    """The arbiter settles a slip the engine left to his judgement (``Outcome.review``: a
    possible raccordement fallacieux, several solutions, connecting letters fitting several
    places, an illegible slip): ``choice`` "default" keeps the rulebook's default outcome,
    "alternative" takes the other one the engine computed. Recorded as a ``review``
    decision on that proposal version; the last one counts (``adapter.review_choice``)."""
    if choice not in REVIEW_CHOICES:
        raise ServiceError(
            "review.choice", f"'{choice}' is not a review choice: default or alternative.",
            choice=choice,
        )  # fmt: skip
    with transaction.atomic():
        rnd = _decision_round(round_id, player_id, reason or REVIEW_REASONS[choice], actor)
        version = ProposalVersion.objects.filter(
            pk=version_id, round=rnd, player_id=player_id, is_current=True
        ).first()
        if version is None or adapter.outcome(version).alternative is None:
            raise ServiceError(
                "review.nothing", "This slip is not waiting for the arbiter's review."
            )
        decision = Decision.objects.create(
            round=rnd, player_id=player_id, kind=DecisionKind.REVIEW, author=user_of(actor),
            reason=(reason or REVIEW_REASONS[choice]).strip(),
            params={"version": version.pk, "choice": choice,
                    "review": adapter.outcome(version).review},
        )  # fmt: skip
        standings_update(actor=actor, round_id=rnd.pk, player_ids=[player_id])
        audit_record(actor=actor, action="decision.review", obj=decision, round=rnd.pk,
                     player=player_id, version=version.pk, choice=choice)  # fmt: skip
        return decision
