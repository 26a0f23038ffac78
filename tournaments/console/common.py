"""Helpers shared by the console modules: access by role, the status of a refusal and its
displayed text, and the game or round a URL names."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from tournaments import selectors, wording
from tournaments.access import HEAD, arbiter_role
from tournaments.errors import ServiceError, http_status
from tournaments.models import Game, Round, Tournament


def role_or_403(request: HttpRequest, tournament_id: int, *, head: bool = False) -> str:
    """The user's role on the tournament; 403 for an outsider (or a non-head for ``head``)."""
    role = arbiter_role(user=request.user, tournament_id=tournament_id)
    if role is None:
        raise PermissionDenied(_("Seuls les arbitres de ce tournoi ont accès à cette page."))
    if head and role != HEAD:
        raise PermissionDenied(_("Seul le juge-arbitre peut faire cela."))
    return role


def error_status(error: ServiceError) -> int:
    """The refusal's status, the same as the API's (``tournaments.errors.http_status``):
    403 for access, 404 for an unknown object, 409 for a conflict with the current state,
    else 400."""
    return http_status(error.code)


def error_text(error: Any) -> str:
    """The sentence shown for a refusal, in the reader's language (``tournaments.wording``)."""
    return str(wording.error_text(error))


def found(value: Any) -> Any:
    """``value``, or the console's 404 page when a selector found nothing (``None``)."""
    if value is None:
        raise Http404
    return value


def _or_404(read: Any, *args: Any) -> Any:
    """A selector's look-up; its ``….unknown`` refusal becomes the console's 404 page."""
    try:
        return read(*args)
    except ServiceError as error:
        raise Http404(error_text(error)) from error


def tournament_or_404(slug: str) -> Tournament:
    return _or_404(selectors.tournament_by_slug, slug)


def game_or_404(game_id: int) -> Game:
    return _or_404(selectors.game_by_id, game_id)


def round_or_404(round_id: int) -> Round:
    return _or_404(selectors.round_by_id, round_id)
