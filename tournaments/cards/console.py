"""Card tables in the arbiter console (issue 18), under /arbitre/cartes/.

An arbiter of the tournament opens a table (2 to 6 seats, each a player by name or an
engine opponent) and hands out each player's tablet link or QR code; the table's page
follows the game (the shared view, never a hand) and offers the record (JSON, PDF)."""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.cards import pages
from tournaments.console.common import error_status, error_text, role_or_403, tournament_or_404
from tournaments.errors import ServiceError
from tournaments.models import CardSeatKind, CardTable
from tournaments.models.cards import MAX_SEATS

SEAT_CHOICES = [("", _("(place vide)")), *CardSeatKind.choices]


class TableOpenForm(forms.Form):
    """Seats in order; a blank seat is left out (2 to 6 seats remain)."""

    name = forms.CharField(label=_("Nom de la table"), max_length=80, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_SEATS):
            default = CardSeatKind.HUMAN if i < 2 else ""
            self.fields[f"kind_{i}"] = forms.ChoiceField(
                label=_("Place %(n)s") % {"n": i + 1},
                choices=SEAT_CHOICES,
                required=False,
                initial=default,
            )
            self.fields[f"name_{i}"] = forms.CharField(
                label=_("Nom du joueur"), max_length=80, required=False
            )

    def seats(self) -> list[services.SeatSpec]:
        data = self.cleaned_data
        return [
            services.SeatSpec(data[f"kind_{i}"], data[f"name_{i}"])
            for i in range(MAX_SEATS)
            if data.get(f"kind_{i}")
        ]

    def rows(self) -> list[tuple[Any, Any]]:
        return [(self[f"kind_{i}"], self[f"name_{i}"]) for i in range(MAX_SEATS)]


@login_required
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's card tables and the form opening a new one."""
    tournament = tournament_or_404(slug)
    role_or_403(request, tournament.pk)
    form = TableOpenForm(request.POST or None)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                table = services.card_table_open(
                    tournament_id=tournament.pk,
                    seats=form.seats(),
                    name=form.cleaned_data["name"],
                    actor=request.user,
                )
            except ServiceError as refusal:
                error, status = error_text(refusal), error_status(refusal)
            else:
                return redirect("cards_console:table", table_id=table.pk)
        else:
            status = 400
    context = {
        "tournament": tournament,
        "tables": selectors.card_tables_of(tournament.pk),
        "form": form,
        "error": error,
    }
    return render(request, "cards/console_tables.html", context, status=status)


def _table_or_404(request: HttpRequest, table_id: int) -> CardTable:
    table = selectors.card_table_by_id(table_id)
    if table is None:
        raise Http404(error_text(ServiceError("card_table.unknown", "")))
    role_or_403(request, table.tournament_id)
    return table


def _qr_data_url(url: str) -> str:
    """The QR code of ``url`` as an SVG data URL (reportlab draws it, nothing external)."""
    from reportlab.graphics import renderSVG

    from tournaments.reports.slips import _qr

    svg = renderSVG.drawToString(_qr(url))
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    seats = []
    for seat in selectors.card_seats(table):
        link = ""
        if seat.access_token:
            link = request.build_absolute_uri(reverse("cards:page", args=[seat.access_token]))
        seats.append({"seat": seat, "link": link, "qr": _qr_data_url(link) if link else ""})
    view = pages.described(selectors.card_public_view(table))
    names = {s["number"]: s["name"] for s in view["seats"]}
    pending = view["pending"]
    waiting = [names[n] for n in pending["waiting_for"]] if pending else []
    context = {
        "waiting": waiting,
        "tournament": table.tournament,
        "table": table,
        "seats": seats,
        "view": view,
        "screen": reverse("cards:screen", args=[table.pk]),
    }
    return render(request, "cards/console_table.html", context)


@login_required
@require_POST
def settle(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting move stands for the players who have not answered (``card_table_settle``)."""
    table = _table_or_404(request, table_id)
    try:
        services.card_table_settle(table_id=table.pk, actor=request.user)
    except ServiceError as refusal:
        return HttpResponse(error_text(refusal), status=error_status(refusal),
                            content_type="text/plain; charset=utf-8")  # fmt: skip
    return redirect("cards_console:table", table_id=table.pk)


@login_required
@require_GET
def record_json(request: HttpRequest, table_id: int) -> HttpResponse:
    return pages.record_response(_table_or_404(request, table_id))


@login_required
@require_GET
def record_pdf(request: HttpRequest, table_id: int) -> HttpResponse:
    return pages.pdf_response(_table_or_404(request, table_id))
