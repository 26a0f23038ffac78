"""Helpers shared by the console modules: access by role, the status of a refusal and its
displayed text, and the game or round a URL names."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments import wording
from tournaments.access import HEAD, arbiter_role
from tournaments.errors import ServiceError, http_status
from tournaments.models import Game, Round


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


def game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("tournament"), pk=game_id)


def round_or_404(round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("game__tournament"), pk=round_id)
