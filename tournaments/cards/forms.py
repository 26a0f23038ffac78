"""What the console and the players' page share to open a table: the seats' form, and
each seat's tablet link with its QR code."""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments import selectors, services
from tournaments.models import CardSeatKind, CardTable
from tournaments.models.cards import MAX_SEATS

SEAT_CHOICES = [("", _("(place vide)")), *CardSeatKind.choices]


class TableOpenForm(forms.Form):
    """Seats in order; a blank seat is left out (2 to 6 seats remain).

    ``first``: the name of the player opening the table from their tablet link; seat 1 is
    theirs and the form asks only for the other seats."""

    name = forms.CharField(label=_("Nom de la table"), max_length=80, required=False)

    def __init__(self, *args: Any, first: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first = first
        for i in range(self._start, MAX_SEATS):
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

    @property
    def _start(self) -> int:
        return 0 if self.first is None else 1

    def seats(self) -> list[services.SeatSpec]:
        data = self.cleaned_data
        given = [
            services.SeatSpec(data[f"kind_{i}"], data[f"name_{i}"])
            for i in range(self._start, MAX_SEATS)
            if data.get(f"kind_{i}")
        ]
        if self.first is not None:
            given.insert(0, services.SeatSpec(CardSeatKind.HUMAN, self.first))
        return given

    def rows(self) -> list[tuple[int, Any, Any]]:
        return [
            (i + 1, self[f"kind_{i}"], self[f"name_{i}"]) for i in range(self._start, MAX_SEATS)
        ]


def qr_data_url(url: str) -> str:
    """The QR code of ``url`` as an SVG data URL (reportlab draws it, nothing external)."""
    from reportlab.graphics import renderSVG

    from tournaments.reports.slips import _qr

    svg = renderSVG.drawToString(_qr(url))
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def seat_links(request: HttpRequest, table: CardTable) -> list[dict[str, Any]]:
    """Each seat with its tablet link and QR code (empty for an engine seat)."""
    seats = []
    for seat in selectors.card_seats(table):
        link = ""
        if seat.access_token:
            link = request.build_absolute_uri(reverse("cards:page", args=[seat.access_token]))
        seats.append({"seat": seat, "link": link, "qr": qr_data_url(link) if link else ""})
    return seats
