"""Who may act on a tournament: its arbiters, by role.

Services check this themselves (a rule enforced only in a page is no rule), so the console,
the API and management commands get the same answer. ``actor=None`` means the system itself
(a Celery task, a management command run by the operator) and is always allowed. A Django
superuser is head arbiter everywhere: the operator of the site.
"""

from __future__ import annotations

from typing import Any

from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership

HEAD = "head"
ARBITER = "arbiter"


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


def require_arbiter(*, actor: Any, tournament_id: int, head: bool = False) -> None:
    """Refuse (``access.*``, a 403) an actor who is not an arbiter (or head arbiter) here."""
    if actor is None:
        return
    role = arbiter_role(user=actor, tournament_id=tournament_id)
    if role is None:
        raise ServiceError("access.arbiter", "Only the arbiters of this tournament may do this.")
    if head and role != HEAD:
        raise ServiceError("access.head_arbiter", "Only the head arbiter may do this.")
