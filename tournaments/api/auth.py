"""Authentication of the API's two audiences.

* Arbiters: a Django session (the console, the browsable API) or a DRF token,
  ``Authorization: Token <key>`` (``POST /api/auth/token/`` with username and password).
* Players: the token of their registration, ``Authorization: Player <token>``. The request
  then has no user (``request.user`` is anonymous, so no arbiter rule can ever match) and
  ``request.auth`` is the ``Registration``: a player acts only as themself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from tournaments import selectors
from tournaments.models import Registration

PLAYER_KEYWORD = "Player"


def registration_by_token(token: str) -> Registration | None:
    """The registration holding ``token`` (``selectors.registration_by_token``)."""
    return selectors.registration_by_token(token)


class PlayerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Player <token>``: the request acts for one registration."""

    keyword = PLAYER_KEYWORD

    def authenticate(self, request: Any) -> tuple[AnonymousUser, Registration] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "The Player header is 'Authorization: Player <token>', with one token."
            )
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError as error:
            raise exceptions.AuthenticationFailed("A player token is plain ASCII.") from error
        registration = registration_by_token(token) if 0 < len(token) <= 200 else None
        if registration is None:
            raise exceptions.AuthenticationFailed("This player token is unknown or revoked.")
        return AnonymousUser(), registration

    def authenticate_header(self, request: Any) -> str:
        return self.keyword


def player_of(request: Any) -> Registration | None:
    """The registration a request acts for, or ``None`` (an arbiter or anonymous)."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, Registration) else None


class PlayerTokenScheme(OpenApiAuthenticationExtension):
    """Documents the Player header in the OpenAPI schema."""

    target_class = "tournaments.api.auth.PlayerTokenAuthentication"
    name = "playerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Player token of a registration: `Authorization: Player <token>`.",
        }
