"""A card table's pages for the room (issue 18): each seat's tablet and the shared screen.

* ``/cartes/<token>/``: the seat's tablet (no account, the private token is the key): its
  own hand, the shared table, whose turn, the scores, the deck; ``etat/`` is that seat's
  view (``selectors.card_seat_view``) polled with ``If-None-Match``; ``jouer/`` is the one
  write, ``services.card_turn_play`` as the seat (``access.CardSeatActor``);
* ``partie.json`` / ``partie.pdf``: the game record, for the seats once the game is over
  (before, it would show the other hands: the record keeps every hand);
* ``/cartes/ecran/<table>/``: the shared screen (the table and the scores, no hand).

A token that is unknown gets a 404 with a sentence; the token only ever reads its own seat.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services, wording
from tournaments.access import CardSeatActor
from tournaments.cards import pages
from tournaments.errors import ServiceError, http_status
from tournaments.language import speaking
from tournaments.models import CardSeat, CardTable
from tournaments.tablet import live
from tournaments.tablet.views import rate_limited


def _unknown(request: HttpRequest, *, as_json: bool) -> HttpResponse:
    sentence = _(
        "Ce lien de table de cartes n'est pas valable. Demandez le lien ou le QR code de "
        "votre place à l'arbitre."
    )
    if as_json:
        return JsonResponse({"code": "card_seat.unknown", "message": sentence}, status=404)
    return render(request, "tablet/unknown.html", {"sentence": sentence}, status=404)


def seat_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the token to its seat (404 otherwise), in the tournament's language."""

    @wraps(view)
    def resolved(request: HttpRequest, token: str) -> HttpResponse:
        seat = selectors.card_seat_by_token(token)
        code = seat.table.tournament.language if seat is not None else None
        with speaking(code, request):
            if seat is None:  # the page itself is the only HTML answer
                html = request.method == "GET" and request.path.endswith(f"/{token}/")
                return _unknown(request, as_json=not html)
            return view(request, seat)

    return resolved


def _etag(table_id: int, *extra: Any) -> str | None:
    mark = selectors.card_revision(table_id)
    if mark is None:
        return None
    parts = [get_language() or "", table_id, *mark, *extra]
    digest = hashlib.sha1(repr(parts).encode(), usedforsecurity=False).hexdigest()[:20]
    return f'"{digest}"'


def _seat_json(table: CardTable, seat: CardSeat) -> dict[str, Any]:
    return pages.described(selectors.card_seat_view(table, seat.number))


@require_GET
@ensure_csrf_cookie
@never_cache
@rate_limited
@seat_view
def page(request: HttpRequest, seat: CardSeat) -> HttpResponse:
    token = seat.access_token or ""
    config = {
        "urls": {
            "state": reverse("cards:state", args=[token]),
            "act": reverse("cards:act", args=[token]),
        },
        "csrf": get_token(request),
        "seat": seat.number,
        "i18n": pages.strings(),
    }
    context = {"seat": seat, "table": seat.table, "config": config}
    return render(request, "cards/tablet.html", context)


@require_GET
@rate_limited
@seat_view
def state(request: HttpRequest, seat: CardSeat) -> HttpResponse:
    version = _etag(seat.table_id, "seat", seat.number)
    if version is None:  # pragma: no cover - the seat's table was just deleted
        return _unknown(request, as_json=True)
    table = selectors.card_table_by_id(seat.table_id)
    return live.conditional_json(request, version, lambda: _seat_json(table, seat))


def _body(request: HttpRequest) -> dict[str, Any] | None:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


@require_POST
@rate_limited
@seat_view
def act(request: HttpRequest, seat: CardSeat) -> HttpResponse:
    """One action of the seat: ``{"kind": "play", "play": {...}}``, ``accept``,
    ``challenge``, ``pass`` or ``{"kind": "exchange", "cards": "AE?"}``. The answer is the
    seat's new view (201), or the refusal's code and French sentence."""
    data = _body(request)
    if data is None:
        error = ServiceError("cards.move", "The request is not a JSON object.")
        return _refusal(error)
    try:
        services.card_turn_play(
            table_id=seat.table_id,
            actor=CardSeatActor.of(seat),
            kind=str(data.get("kind", "")),
            play=data.get("play"),
            cards=data.get("cards", ""),
        )
    except ServiceError as error:
        return _refusal(error)
    table = selectors.card_table_by_id(seat.table_id)
    answer = _seat_json(table, seat)
    return JsonResponse(answer, status=201, json_dumps_params={"ensure_ascii": False})


def _refusal(error: ServiceError) -> JsonResponse:
    body = {"code": error.code, "message": wording.error_text(error)}
    status = http_status(error.code)
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def _not_over() -> JsonResponse:
    sentence = _("La feuille de partie se télécharge une fois la partie terminée.")
    return JsonResponse({"code": "cards.not_over", "message": sentence}, status=409)


@require_GET
@seat_view
def record_json(request: HttpRequest, seat: CardSeat) -> HttpResponse:
    table = selectors.card_table_by_id(seat.table_id)
    if table is None or table.record is None:
        return _not_over()
    return pages.record_response(table)


@require_GET
@seat_view
def record_pdf(request: HttpRequest, seat: CardSeat) -> HttpResponse:
    table = selectors.card_table_by_id(seat.table_id)
    if table is None or table.record is None:
        return _not_over()
    return pages.pdf_response(table)


# --- The shared screen --------------------------------------------------------------------


def _screen_table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def resolved(request: HttpRequest, table_id: int) -> HttpResponse:
        table = selectors.card_table_by_id(table_id)
        with speaking(table.tournament.language if table else None, request):
            if table is None:
                sentence = wording.error_text(ServiceError("card_table.unknown", ""))
                if request.path.endswith("/etat/"):
                    body = {"code": "card_table.unknown", "message": sentence}
                    return JsonResponse(body, status=404)
                context = {"sentence": sentence}
                return render(request, "tablet/unknown.html", context, status=404)
            return view(request, table)

    return resolved


@require_GET
@never_cache
@_screen_table
def screen(request: HttpRequest, table: CardTable) -> HttpResponse:
    config = {
        "urls": {"state": reverse("cards:screen_state", args=[table.pk])},
        "seat": None,
        "i18n": pages.strings(),
    }
    return render(request, "cards/screen.html", {"table": table, "config": config})


@require_GET
@_screen_table
def screen_state(request: HttpRequest, table: CardTable) -> HttpResponse:
    version = _etag(table.pk, "screen") or '"gone"'
    return live.conditional_json(
        request, version, lambda: pages.described(selectors.card_public_view(table))
    )
