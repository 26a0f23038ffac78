"""Centres of a simultaneous event (issue 16): created and edited by the organiser (the
tournament's head arbiter), their arbiters bound to them, their players registered in
them, and each centre's close of a round.

Why a centre closes on its own: the same game is played at once in many clubs, each with
its own clock on the wall and its own slips to collect. A move from a centre's player is
late against *that centre's* close (``proposals.proposal_late``); the round itself (its
top placed, the next round drawn, its results) waits until every centre has closed: the
last centre's close closes the round (``rounds.round_close`` as ``SYSTEM``), and the head
arbiter closing the round directly is refused while a centre is still open
(``round.centres_open``). docs/simultaneous.md.
"""

from __future__ import annotations

from zoneinfo import available_timezones

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.access import HEAD, SYSTEM, Actor, centre_scope, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    ArbiterMembership,
    Centre,
    CentreClose,
    Registration,
    Round,
    RoundState,
)
from tournaments.services.arrivals import arrivals_ingest_locked
from tournaments.services.audit import audit_record
from tournaments.services.centre_state import open_centres
from tournaments.services.registry import locked_tournament
from tournaments.services.rounds import locked_round, round_close, time_left

#: Column limits of ``Centre`` (a longer entry is refused, never cut).
MAX_NAME = 200
MAX_ADDRESS = 1000


def _checked(name: str, club: str, address: str, time_zone: str) -> dict[str, str]:
    name, club, address, time_zone = name.strip(), club.strip(), address.strip(), time_zone.strip()
    if not name or len(name) > MAX_NAME:
        raise ServiceError("centre.name", "A centre has a name (at most 200 characters).")
    if len(club) > MAX_NAME or len(address) > MAX_ADDRESS:
        raise ServiceError("centre.too_long", "The club or the address is too long.")
    if time_zone not in available_timezones():
        raise ServiceError("centre.time_zone", f"'{time_zone}' is not a time zone.",
                           zone=time_zone[:64])  # fmt: skip
    return {"name": name, "club": club, "address": address, "time_zone": time_zone}


def _saved(centre: Centre) -> Centre:
    try:
        with transaction.atomic():
            centre.save()
    except IntegrityError:
        raise ServiceError("centre.name_taken", f"A centre is already named {centre.name}.",
                           name=centre.name) from None  # fmt: skip
    return centre


def centre_create(
    *, tournament_id: int, name: str, club: str = "", address: str = "",
    time_zone: str = "Europe/Paris", actor: Actor,
) -> Centre:  # fmt: skip
    """Add a centre to a simultaneous tournament (head arbiter only)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        if not tournament.simultaneous:
            raise ServiceError("centre.not_simultaneous", "This tournament has no centres.")
        centre = _saved(Centre(tournament=tournament, **_checked(name, club, address, time_zone)))
        audit_record(actor=actor, action="centre.create", obj=centre, name=centre.name,
                     club=centre.club, time_zone=centre.time_zone)  # fmt: skip
        return centre


def locked_centre(centre_id: int, tournament_id: int | None = None) -> Centre:
    """The centre under a row lock (of that tournament when given), or ``centre.unknown``."""
    rows = Centre.objects.select_for_update().filter(pk=centre_id)
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    centre = rows.first()
    if centre is None:
        raise ServiceError("centre.unknown", f"There is no centre {centre_id}.")
    return centre


def centre_update(
    *, centre_id: int, name: str, club: str = "", address: str = "",
    time_zone: str = "Europe/Paris", actor: Actor,
) -> Centre:  # fmt: skip
    """Change a centre's name, club, address or time zone (head arbiter only)."""
    with transaction.atomic():
        centre = locked_centre(centre_id)
        require_arbiter(actor=actor, tournament_id=centre.tournament_id, head=True)
        values = _checked(name, club, address, time_zone)
        changes = {k: [getattr(centre, k), v] for k, v in values.items() if getattr(centre, k) != v}
        if not changes:
            return centre
        for key, (_before, after) in changes.items():
            setattr(centre, key, after)
        _saved(centre)
        audit_record(actor=actor, action="centre.update", obj=centre, changes=changes)
        return centre


def centre_delete(*, centre_id: int, actor: Actor) -> str:
    """Remove a centre that nobody uses (head arbiter only); returns its name. Refused with
    ``centre.in_use`` (409) while players are registered in it or arbiters bound to it:
    they would silently lose their centre (an arbiter would then see every centre), so
    the organiser moves them first. Its closes of rounds (``CentreClose``) go with it,
    counted in the audit row."""
    with transaction.atomic():
        centre = locked_centre(centre_id)
        require_arbiter(actor=actor, tournament_id=centre.tournament_id, head=True)
        players = Registration.objects.filter(centre=centre).count()
        arbiters = ArbiterMembership.objects.filter(centre=centre).count()
        if players or arbiters:
            raise ServiceError("centre.in_use", f"Centre {centre.name} has {players} players "
                               f"and {arbiters} arbiters.", name=centre.name, players=players,
                               arbiters=arbiters)  # fmt: skip
        closes = CentreClose.objects.filter(centre=centre).count()
        audit_record(actor=actor, action="centre.delete", obj=centre, name=centre.name,
                     club=centre.club, time_zone=centre.time_zone, closes=closes)  # fmt: skip
        name = centre.name
        centre.delete()
        return name


def arbiter_centre_set(
    *, tournament_id: int, user_id: int, centre_id: int | None, centre_head: bool = False,
    actor: Actor,
) -> ArbiterMembership:  # fmt: skip
    """Bind an arbiter to a centre (``None``: the whole event), as its head arbiter with
    ``centre_head`` (the centre's previous head stays an arbiter of the centre). Head
    arbiter only; the tournament's head arbiter directs the whole event and is bound to
    none (``centre.head_role``)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        membership = (
            ArbiterMembership.objects.select_for_update()
            .filter(tournament=tournament, user_id=user_id)
            .first()
        )
        if membership is None:
            raise ServiceError("arbiter.unknown", f"User {user_id} does not arbitrate here.",
                               user=user_id)  # fmt: skip
        if centre_id is not None:
            locked_centre(centre_id, tournament.pk)
            if membership.role == HEAD:
                raise ServiceError("centre.head_role", "The head arbiter directs every centre.")
        head = bool(centre_head and centre_id is not None)
        if (membership.centre_id, membership.centre_head) == (centre_id, head):
            return membership
        if head and centre_id is not None:
            ArbiterMembership.objects.filter(centre_id=centre_id, centre_head=True).exclude(
                pk=membership.pk
            ).update(centre_head=False)
        before = [membership.centre_id, membership.centre_head]
        membership.centre_id, membership.centre_head = centre_id, head
        membership.save(update_fields=["centre", "centre_head"])
        audit_record(actor=actor, action="arbiter.centre", obj=membership, user=user_id,
                     centre=centre_id, centre_head=head, before=before)  # fmt: skip
        return membership


def registration_centre_set(*, registration_id: int, centre_id: int | None,
                            actor: Actor) -> Registration:  # fmt: skip
    """Register a player in a centre (``None``: in none). The organiser places the players
    (head arbiter only): a centre arbiter never moves a player into or out of a centre."""
    with transaction.atomic():
        reg = Registration.objects.select_for_update().filter(pk=registration_id).first()
        if reg is None:
            raise ServiceError("registration.unknown", f"No registration {registration_id}.")
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, head=True)
        if centre_id is not None:
            locked_centre(centre_id, reg.tournament_id)
        if reg.centre_id == centre_id:
            return reg
        before = reg.centre_id
        reg.centre_id = centre_id
        reg.save(update_fields=["centre"])
        audit_record(actor=actor, action="registration.centre", obj=reg,
                     player=reg.player_id, centre=centre_id, before=before)  # fmt: skip
        return reg


# --- A round in the centres -------------------------------------------------------------


def centre_close(*, round_id: int, centre_id: int, actor: Actor, confirm: bool = False) -> Round:
    """The centre collects its slips for the round: from now on its players' moves are
    late. The centre's head arbiter or the tournament's head arbiter; while the round's
    clock still runs, ``confirm`` is needed (``centre.time_left``, as a round's close).
    Closing twice is a no-op. When it was the last open centre, the round closes
    (``round_close`` as ``SYSTEM``, in the same transaction); returns the round."""
    with transaction.atomic():
        rnd = locked_round(round_id)
        tournament_id = rnd.game.tournament_id
        require_arbiter(actor=actor, tournament_id=tournament_id)
        centre = locked_centre(centre_id, tournament_id)
        scope = centre_scope(actor=actor, tournament_id=tournament_id)
        if scope.centre_id is not None and not (scope.centre_id == centre.pk and scope.centre_head):
            raise ServiceError("access.centre_head", "Only the centre's head arbiter closes it.")
        if scope.centre_id is None:  # a whole-event arbiter: the head arbiter only
            require_arbiter(actor=actor, tournament_id=tournament_id, head=True)
        if CentreClose.objects.filter(round=rnd, centre=centre).exists():
            return rnd
        if rnd.state != RoundState.OPEN:
            raise ServiceError("round.not_open", f"Round {rnd.number} is {rnd.state}.",
                               round=rnd.number, state=rnd.state)  # fmt: skip
        left = time_left(rnd) or 0
        if left > 0 and not confirm:
            raise ServiceError("centre.time_left", f"{left} s left: confirm the close.",
                               round=rnd.number, seconds=left, minutes=left // 60,
                               rest=left % 60)  # fmt: skip
        now = timezone.now()
        arrivals_ingest_locked(rnd, actor=actor, before=now)  # the queued moves before it
        row = CentreClose.objects.create(round=rnd, centre=centre, closed_at=now,
                                         closed_by=user_of(actor))  # fmt: skip
        audit_record(actor=actor, action="centre.close", obj=row, round=rnd.pk,
                     centre=centre.pk, time_left=left)  # fmt: skip
        if not open_centres(rnd):
            return round_close(round_id=rnd.pk, actor=SYSTEM, confirm=True)
        return rnd
