"""Reads of a simultaneous event (issue 16): its centres, who arbitrates each, and where a
round stands in each centre (closed or still open), for the console's pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count

from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, Centre, CentreClose, Round


@dataclass(frozen=True, slots=True)
class CentreRound:
    """A centre on a round: closed (when, by whom) or still playing it."""

    centre: Centre
    closed_at: datetime | None
    closed_by: str = ""

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


def tournament_centres(tournament_id: int) -> list[Centre]:
    """The tournament's centres by name (none outside a simultaneous event)."""
    return list(Centre.objects.filter(tournament_id=tournament_id).order_by("name", "id"))


def centre_by_id(centre_id: int) -> Centre:
    """The centre ``centre_id``; ``centre.unknown`` (404) when there is none."""
    centre = Centre.objects.filter(pk=centre_id).first() if 0 < centre_id < 2**62 else None
    if centre is None:
        raise ServiceError("centre.unknown", f"There is no centre {centre_id}.")
    return centre


def tournament_centre(tournament_id: int, centre_id: int) -> Centre | None:
    """The tournament's centre ``centre_id``, None when it has no such centre."""
    if not 0 < centre_id < 2**62:
        return None
    return Centre.objects.filter(pk=centre_id, tournament_id=tournament_id).first()


def round_centres(rnd: Round) -> list[CentreRound]:
    """Each centre of the round's tournament, closed or not on ``rnd`` (the organiser's
    view of which centres are still playing)."""
    closes = {
        c.centre_id: c for c in CentreClose.objects.filter(round=rnd).select_related("closed_by")
    }
    out = []
    for centre in tournament_centres(rnd.game.tournament_id):
        close = closes.get(centre.pk)
        who = close.closed_by.get_username() if close and close.closed_by else ""
        out.append(CentreRound(centre, close.closed_at if close else None, who))
    return out


def centre_counts(tournament_id: int) -> dict[int, int]:
    """How many players each centre has (centre id → count)."""
    rows = Centre.objects.filter(tournament_id=tournament_id).annotate(n=Count("registrations"))
    return {c.pk: c.n for c in rows}


def centre_close_at(round_id: int, centre_id: int | None) -> datetime | None:
    """When the centre closed the round (None: still playing it, or no centre): a player
    of that centre plays no more on that round (``proposals.proposal_late`` decides)."""
    if not centre_id:
        return None
    return (
        CentreClose.objects.filter(round_id=round_id, centre_id=centre_id)
        .values_list("closed_at", flat=True)
        .first()
    )


def centre_by_name(tournament_id: int, name: str) -> Centre | None:
    """The tournament's centre named ``name`` (case does not matter, as in the players'
    import), or None."""
    rows = Centre.objects.filter(tournament_id=tournament_id, name__iexact=name.strip())
    return rows.order_by("id").first()


#: The console route arguments that name a tournament, and how a membership reaches it.
_ROUTE_TOURNAMENT = {
    "round_id": "tournament__games__rounds__pk",
    "game_id": "tournament__games__pk",
    "slug": "tournament__slug",
    "centre_id": "tournament__centres__pk",
}


def arbiter_time_zone(user_id: int, route: dict[str, Any]) -> str | None:
    """The time zone of the centre ``user_id`` arbitrates in the tournament a console
    route's arguments name (``round_id``, ``game_id``, ``slug`` or ``centre_id``), or None:
    an arbiter of the whole event, the organiser, a route naming no tournament. One query."""
    for name, lookup in _ROUTE_TOURNAMENT.items():
        if name in route:
            rows = ArbiterMembership.objects.filter(user_id=user_id, centre__isnull=False,
                                                    **{lookup: route[name]})  # fmt: skip
            return rows.values_list("centre__time_zone", flat=True).first()
    return None
