"""Who may call what. The rules themselves are ``tournaments.access`` (the services check
them too); these helpers turn the request into an actor and refuse early with a 4xx."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, permissions, throttling

from tournaments.access import require_arbiter
from tournaments.api.auth import player_of
from tournaments.errors import ServiceError
from tournaments.models import Registration
from tournaments.throttle import COUNTED, player_allowed


def arbiter_actor(request: Any, tournament_id: int, *, head: bool = False) -> Any:
    """The user acting as an arbiter of the tournament, or a 401/403 with a reason.

    A player token never reaches an arbiter action (403 ``access.arbiter``)."""
    if player_of(request) is not None:
        raise ServiceError(
            "access.arbiter", "A player token cannot do this: only the tournament's arbiters may."
        )
    user = request.user
    if not getattr(user, "is_authenticated", False):
        raise exceptions.NotAuthenticated("Sign in as an arbiter (session or Token header).")
    require_arbiter(actor=user, tournament_id=tournament_id, head=head)
    return user


def is_arbiter(request: Any, tournament_id: int) -> bool:
    """Whether the request comes from an arbiter of the tournament (no error raised)."""
    try:
        arbiter_actor(request, tournament_id)
    except (ServiceError, exceptions.APIException):
        return False
    return True


def signed_in_user(request: Any) -> Any:
    """An authenticated user (not a player token), or a 401/403."""
    if player_of(request) is not None:
        raise ServiceError("access.arbiter", "A player token cannot do this.")
    if not getattr(request.user, "is_authenticated", False):
        raise exceptions.NotAuthenticated("Sign in as an arbiter (session or Token header).")
    return request.user


class IsPlayer(permissions.BasePermission):
    """Only a request carrying a valid ``Authorization: Player <token>`` header."""

    message = "This needs a player token: 'Authorization: Player <token>'."
    code = "access.player"

    def has_permission(self, request: Any, view: Any) -> bool:
        if isinstance(request.auth, Registration):
            return True
        if not getattr(request.user, "is_authenticated", False):
            raise exceptions.NotAuthenticated(self.message)
        raise ServiceError("access.player", "Only a player (with a player token) may do this.")


class PlayerRateThrottle(throttling.BaseThrottle):
    """The player side's rate limit, per registration (``tournaments.throttle``)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        reg = request.auth
        if not isinstance(reg, Registration) or not reg.access_token:
            return True
        # The submissions' WSGI lane may have counted it already (``throttle.COUNTED``).
        counted = request._request.META.get(COUNTED)
        allowed, self._retry = player_allowed(reg.access_token, counted=counted)
        return allowed

    def wait(self) -> float | None:
        return getattr(self, "_retry", None)


class ApiDocsAllowed(permissions.BasePermission):
    """The schema and the API docs: anyone in development; in production (unless
    ``TIRAGE_API_DOCS_PUBLIC``) only a signed-in staff member or arbiter of a tournament.
    A player token is not enough."""

    def has_permission(self, request: Any, view: Any) -> bool:
        from django.conf import settings

        from tournaments.models import ArbiterMembership

        if getattr(settings, "TIRAGE_API_DOCS_PUBLIC", True):
            return True
        user = request.user
        if not getattr(user, "is_authenticated", False):
            raise exceptions.NotAuthenticated("Sign in as an arbiter to read the API schema.")
        if user.is_staff or user.is_superuser:
            return True
        return ArbiterMembership.objects.filter(user=user).exists()
