"""Whether the centres of a simultaneous event have closed a round (issue 16): read by
``rounds.round_close`` (the round as a whole waits for every centre) and by
``centres.centre_close`` (the last centre's close closes the round). Apart from
``centres`` so that ``rounds`` can import it without a cycle."""

from __future__ import annotations

from tournaments.access import Actor, centre_scope, is_system
from tournaments.errors import ServiceError
from tournaments.models import Centre, CentreClose, Round
from tournaments.services.audit import audit_record


def open_centres(rnd: Round) -> list[Centre]:
    """The centres of the round's tournament that have not closed it yet (none outside a
    simultaneous event)."""
    tournament = rnd.game.tournament
    if not tournament.simultaneous:
        return []
    closed = CentreClose.objects.filter(round=rnd).values("centre_id")
    return list(Centre.objects.filter(tournament_id=tournament.pk).exclude(pk__in=closed))


def refuse_open_centres(rnd: Round, actor: Actor) -> None:
    """``round.centres_open`` while a centre has not closed the round (the round as a
    whole waits for every centre); the system (the last centre's close) passes."""
    if is_system(actor):
        return
    still = open_centres(rnd)
    if still:
        raise ServiceError("round.centres_open", "Some centres have not closed this round.",
                           round=rnd.number, centres=", ".join(c.name for c in still))  # fmt: skip


def registration_centre(*, tournament_id: int, actor: Actor, centre_id: int | None) -> int | None:
    """The centre a new registration goes to: the one asked (of this tournament, else
    ``centre.unknown``), and for a centre arbiter always their own (``access.centre`` when
    they name another)."""
    scope = centre_scope(actor=actor, tournament_id=tournament_id)
    if scope.centre_id is not None:
        if centre_id not in (None, scope.centre_id):
            raise ServiceError("access.centre", "This centre is not yours.")
        return scope.centre_id
    if centre_id is None:
        return None
    if not Centre.objects.filter(pk=centre_id, tournament_id=tournament_id).exists():
        raise ServiceError("centre.unknown", f"There is no centre {centre_id}.")
    return centre_id


def centre_closes_undo(rnd: Round, actor: Actor) -> list[int]:
    """The round reopened (``round_reopen``): every centre plays it again, so no centre's
    close stands (each undone close keeps its audit row, ``centre.reopen``). The centres'
    ids."""
    closes = list(CentreClose.objects.filter(round=rnd))
    for close in closes:
        audit_record(actor=actor, action="centre.reopen", obj=close, round=rnd.pk,
                     centre=close.centre_id, closed_at=close.closed_at.isoformat())  # fmt: skip
    CentreClose.objects.filter(pk__in=[c.pk for c in closes]).delete()
    return [c.centre_id for c in closes]
