"""Who acts, and who may act on a tournament: its arbiters, by role.

Every service takes a required ``actor`` (an :data:`Actor`), so no write happens without
saying who made it, and checks the rights itself (a rule enforced only in a page is no
rule): the console, the API, the tablets and the workers get the same answer.

An actor is one of three things:

* a **user** (``request.user``): an arbiter, a head arbiter, or anyone signed in; a Django
  superuser is head arbiter everywhere (the operator of the site);
* :data:`SYSTEM`: the site itself, named explicitly by the Celery tasks, the management
  commands and internal bookkeeping (a computed top). It has every right, which is why it
  is never a default: forgetting the actor is a bug (``actor=None`` raises), never a pass;
* a :class:`PlayerActor`: a player acting through their tablet token, who may only hand in
  their own proposals.

The audit log records the kind (``AuditLog.actor_kind``), so a system action is told apart
from a user's and from a player's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias

from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, Registration

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

logger = logging.getLogger(__name__)

HEAD = "head"
ARBITER = "arbiter"


@dataclass(frozen=True)
class SystemActor:
    """The site itself (a worker, a command, an internal computation): every right."""

    is_authenticated: ClassVar[bool] = False  # never a signed-in user: no user in audit rows

    def __repr__(self) -> str:
        return "SYSTEM"


@dataclass(frozen=True)
class PlayerActor:
    """A player acting through their tablet token (the caller checked the token)."""

    registration_id: int
    player_id: int
    tournament_id: int
    is_authenticated: ClassVar[bool] = False

    @classmethod
    def of(cls, registration: Any) -> PlayerActor:
        """The actor of a ``Registration`` row (a tablet's token resolved by the caller)."""
        return cls(registration.pk, registration.player_id, registration.tournament_id)


@dataclass(frozen=True)
class CardSeatActor:
    """A player of a card table acting through their seat's tablet token (issue 18)."""

    seat_id: int
    table_id: int
    seat: int
    is_authenticated: ClassVar[bool] = False

    @classmethod
    def of(cls, seat: Any) -> CardSeatActor:
        """The actor of a ``CardSeat`` row (the token resolved by the caller)."""
        return cls(seat.pk, seat.table_id, seat.number)


#: The one system actor: tasks, commands and the demo name it explicitly.
SYSTEM: Final = SystemActor()

#: Who performs a service: a user (possibly anonymous, then refused), the system, a player.
Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | SystemActor | PlayerActor | CardSeatActor"


def actor_kind(actor: Actor) -> str:
    """``"system"``, ``"player"`` or ``"user"`` (as stored in ``AuditLog.actor_kind``)."""
    check_actor(actor)
    if isinstance(actor, SystemActor):
        return "system"
    if isinstance(actor, PlayerActor | CardSeatActor):
        return "player"
    return "user"


def check_actor(actor: Any) -> None:
    """A missing actor is a bug in the caller (logged, raised), never the system."""
    if actor is None:
        logger.error("a service was called without an actor", stack_info=True)
        raise TypeError("actor is required: pass a user, a PlayerActor or access.SYSTEM")


def user_of(actor: Actor) -> Any:
    """The signed-in user behind ``actor``, or ``None`` (the system, a player, anonymous)."""
    check_actor(actor)
    return actor if getattr(actor, "is_authenticated", False) else None


def registration_of(actor: Actor) -> int | None:
    """The registration (id) of the tablet behind ``actor``, or ``None`` (anyone else):
    what a row a player's tablet wrote records beside ``user_of``."""
    check_actor(actor)
    return actor.registration_id if isinstance(actor, PlayerActor) else None


def is_system(actor: Actor) -> bool:
    check_actor(actor)
    return isinstance(actor, SystemActor)


def arbiter_role(*, user: Any, tournament_id: int) -> str | None:
    """``"head"``, ``"arbiter"`` or ``None`` for a user who does not arbitrate it."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return HEAD
    return (
        ArbiterMembership.objects.filter(user=user, tournament_id=tournament_id)
        .values_list("role", flat=True)
        .first()
    )


def require_arbiter(
    *, actor: Actor, tournament_id: int, head: bool = False, player_id: int | None = None,
    registration: Registration | None = None,
) -> None:  # fmt: skip
    """Refuse (``access.*``, a 403) an actor who is not an arbiter (or head arbiter) here.

    With ``player_id``, an arbiter bound to a centre of a simultaneous event must also
    handle that player (``access.centre``): a centre arbiter acts only on their centre's
    players (docs/simultaneous.md). ``registration``: the player's registration in the
    tournament when the caller read it already (its centre is then not read again).
    :data:`SYSTEM` passes; ``None`` is a bug (``TypeError``, logged): the caller forgot
    to say who acts. A player or an anonymous user is refused like any outsider.

    One read of the arbiter's membership gives the role and the centre (the same row
    :func:`arbiter_role` and :func:`centre_scope` read)."""
    if is_system(actor):
        return
    role, scope = _membership(actor, tournament_id)
    if role is None:
        raise ServiceError("access.arbiter", "Only the arbiters of this tournament may do this.")
    if head and role != HEAD:
        raise ServiceError("access.head_arbiter", "Only the head arbiter may do this.")
    if player_id is None or scope.centre_id is None:
        return
    if (
        registration is not None
        and registration.player_id == player_id
        and registration.tournament_id == tournament_id
    ):
        ok = registration.centre_id == scope.centre_id
    else:
        ok = Registration.objects.filter(
            tournament_id=tournament_id, player_id=player_id, centre_id=scope.centre_id
        ).exists()
    if not ok:
        raise ServiceError("access.centre", "This player plays in another centre.")


def _membership(user: Any, tournament_id: int) -> tuple[str | None, CentreScope]:
    """``(arbiter_role, centre_scope)`` of a user in one read of their membership."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None, WHOLE_EVENT
    if user.is_superuser:
        return HEAD, WHOLE_EVENT
    row = (
        ArbiterMembership.objects.filter(user=user, tournament_id=tournament_id)
        .values_list("role", "centre_id", "centre_head")
        .first()
    )
    if row is None:
        return None, WHOLE_EVENT
    role, centre_id, centre_head = row
    return role, WHOLE_EVENT if centre_id is None else CentreScope(centre_id, centre_head)


@dataclass(frozen=True)
class CentreScope:
    """The centre an arbiter is bound to (``None``: the whole event) and whether they are
    its head arbiter (who closes the centre's rounds)."""

    centre_id: int | None
    centre_head: bool = False


#: The scope of whoever sees the whole event (the system, the head arbiter, an arbiter
#: bound to no centre).
WHOLE_EVENT: Final = CentreScope(None)


def centre_scope(*, actor: Actor, tournament_id: int) -> CentreScope:
    """Which centre's players ``actor`` handles in the tournament (the one rule that pages,
    the API, exports and services all apply)."""
    if is_system(actor) or getattr(actor, "is_superuser", False):
        return WHOLE_EVENT
    row = (
        ArbiterMembership.objects.filter(user=user_of(actor), tournament_id=tournament_id)
        .values_list("centre_id", "centre_head")
        .first()
    )
    if row is None or row[0] is None:
        return WHOLE_EVENT
    return CentreScope(row[0], row[1])


def require_centre_player(*, actor: Actor, tournament_id: int, player_id: int) -> None:
    """Refuse (``access.centre``, a 403) a centre arbiter acting on a player registered in
    another centre (or in none): they see and act only on their own centre's players."""
    scope = centre_scope(actor=actor, tournament_id=tournament_id)
    if scope.centre_id is None:
        return
    ok = Registration.objects.filter(
        tournament_id=tournament_id, player_id=player_id, centre_id=scope.centre_id
    ).exists()
    if not ok:
        raise ServiceError("access.centre", "This player plays in another centre.")


def centre_players(*, actor: Actor, tournament_id: int) -> set[int] | None:
    """The ``Player`` ids a centre arbiter handles in the tournament, ``None`` for whoever
    sees the whole event: what the pages, the API and the exports keep of a list."""
    centre = centre_scope(actor=actor, tournament_id=tournament_id).centre_id
    if centre is None:
        return None
    rows = Registration.objects.filter(tournament_id=tournament_id, centre_id=centre)
    return set(rows.values_list("player_id", flat=True))


def only_centre(items: Any, *, actor: Actor, tournament_id: int, key: str = "player_id") -> Any:
    """``items`` (rows or values with a ``key`` attribute naming a player) kept to the
    actor's centre: all of them for the whole event."""
    allowed = centre_players(actor=actor, tournament_id=tournament_id)
    if allowed is None:
        return items
    return [item for item in items if getattr(item, key) in allowed]


#: Documents that carry what only a player's own arbiters may hold (the tablets' tokens):
#: refused to a centre arbiter, since they cover every centre.
WHOLE_EVENT_DOCUMENTS: Final = frozenset({"tablet-links"})


def require_document(*, actor: Actor, tournament_id: int, kind: str) -> None:
    """Refuse (``access.centre_document``, a 403) a centre arbiter a document listing every
    centre's tablet tokens: each centre's arbiters hand out their own players' links from
    the players page."""
    if kind not in WHOLE_EVENT_DOCUMENTS:
        return
    if centre_scope(actor=actor, tournament_id=tournament_id).centre_id is not None:
        raise ServiceError("access.centre_document", "This document covers every centre.")
