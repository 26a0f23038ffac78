"""The projector's classic view, /projecteur/<slug>/classique/: each division's last round
pairings and its standings, in large type for the room. Read-only and public like the
duplicate projector; the page reloads itself every ``?rafraichir=`` seconds (30 by default)
with a meta refresh, no script."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.projector.views import _tournament, room_language


def _refresh(request: HttpRequest) -> int:
    try:
        return min(600, max(5, int(request.GET.get("rafraichir", 30))))
    except ValueError:
        return 30


@require_GET
@room_language
def page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    divisions = selectors.classic_report(tournament)
    if selectors.classic_event(tournament) is None:
        raise Http404
    ctx = {"tournament": tournament, "divisions": divisions, "refresh": _refresh(request)}
    return render(request, "projector/classic.html", ctx)
