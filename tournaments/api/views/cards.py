"""The card tables' API (docs/api.md, "Card tables"; issue 18).

* Tables (``/api/tournaments/{slug}/cards/tables/``, ``/api/cards/tables/{id}/…``): an
  arbiter lists and opens them, reads one (the shared view, never a hand, and each seat's
  link), closes it and reads its ``tirage-cards`` record at any time. A player token of the
  tournament opens a table too (the player holds seat 1, within the bounds of
  ``services.card_tables``), then reads and closes the tables it opened.
* A seat (``/api/cards/seats/{token}/…``, the seat's private token as on its tablet page):
  its own view (its own hand, never another seat's), its actions through the one service
  ``card_turn_play`` (play, accept, challenge, pass, exchange), and the record once the
  game is over (before, the record would show the other hands).

Every refusal is the API's one error body, the code kept from the service or the engine
(``turn.not_yours``, ``play.gap``, ``cards.player_tables``…)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, throttling
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.access import CardSeatActor, PlayerActor
from tournaments.api import serializers_cards as s
from tournaments.api.auth import player_of
from tournaments.api.permissions import arbiter_actor
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.cards import pages
from tournaments.errors import ServiceError
from tournaments.models import CardSeat, CardSeatKind, CardTable
from tournaments.throttle import player_allowed

TAGS = ["cards"]
RECORD = OpenApiResponse(description="The game's record, JSON tirage-cards version 1.")


def _summary(table: CardTable) -> dict[str, Any]:
    return {
        "id": table.pk,
        "name": str(table),
        "state": table.state,
        "seats": table.seats,
        "opened_by": table.opened_by.player.name if table.opened_by else None,
        "revision": table.revision,
        "created_at": table.created_at,
        "finished_at": table.finished_at,
    }


def _detail(request: Any, table: CardTable) -> dict[str, Any]:
    links = []
    for seat in selectors.card_seats(table):
        token = seat.access_token
        url = request.build_absolute_uri(reverse("cards:page", args=[token])) if token else None
        links.append(
            {"number": seat.number, "name": seat.name, "kind": seat.kind, "token": token,
             "url": url}
        )  # fmt: skip
    return {**_summary(table), "links": links}


def _table(table_id: int) -> CardTable:
    table = selectors.card_table_by_id(table_id)
    if table is None:
        raise ServiceError("card_table.unknown", f"There is no card table {table_id}.")
    return table


def _table_actor(request: Any, table: CardTable) -> Any:
    """An arbiter of the table's tournament, or the player (token) who opened it."""
    registration = player_of(request)
    if registration is None:
        return arbiter_actor(request, table.tournament_id)
    if table.opened_by_id is None or registration.pk != table.opened_by_id:
        raise ServiceError(
            "access.card_table", "Only the arbiters and the player who opened it read a table."
        )
    return PlayerActor.of(registration)


class CardTablesView(ApiView):
    @extend_schema(responses={200: s.CardTableSerializer(many=True), **errors(401, 403, 404)},
                   tags=TAGS)  # fmt: skip
    def get(self, request: Any, slug: str) -> Response:
        """The tournament's card tables, newest first (arbiters)."""
        tournament = selectors.tournament_by_slug(slug)
        arbiter_actor(request, tournament.pk)
        tables = selectors.card_tables_of(tournament.pk)
        return Response(s.CardTableSerializer([_summary(t) for t in tables], many=True).data)

    @extend_schema(
        request=s.CardTableOpenSerializer,
        responses={201: s.CardTableDetailSerializer, **errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Any, slug: str) -> Response:
        """Open a table of 2 to 6 seats on the tournament's lexicon: an arbiter, or a
        player (``Authorization: Player``) who then holds seat 1. The answer gives each
        seat's private token and tablet link; engine seats play at once when it is
        their turn."""
        tournament = selectors.tournament_by_slug(slug)
        data = validated(s.CardTableOpenSerializer, request)
        seats = [services.SeatSpec(x["kind"], x["name"]) for x in data["seats"]]
        registration = player_of(request)
        if registration is not None:
            actor: Any = PlayerActor.of(registration)
            seats.insert(0, services.SeatSpec(CardSeatKind.HUMAN, registration.player.name))
            if data["seed"] is not None:
                raise ServiceError("access.card_seed", "Only an arbiter chooses the seed.")
        else:
            actor = arbiter_actor(request, tournament.pk)
        table = services.card_table_open(
            tournament_id=tournament.pk, seats=seats, actor=actor, name=data["name"],
            seed=data["seed"],
        )  # fmt: skip
        body = s.CardTableDetailSerializer(_detail(request, _table(table.pk))).data
        return Response(body, status=status.HTTP_201_CREATED)


class CardTableView(ApiView):
    @extend_schema(responses={200: s.CardTableDetailSerializer, **errors(401, 403, 404)}, tags=TAGS)
    def get(self, request: Any, table_id: int) -> Response:
        """One table and its seats' links (its arbiters, or the player who opened it)."""
        table = _table(table_id)
        _table_actor(request, table)
        return Response(s.CardTableDetailSerializer(_detail(request, table)).data)


class CardTablePublicView(ApiView):
    @extend_schema(responses={200: s.CardPublicViewSerializer, **errors(401, 403, 404)}, tags=TAGS)
    def get(self, request: Any, table_id: int) -> Response:
        """What the shared screen shows: the table, the scores, the last turns; no hand."""
        table = _table(table_id)
        _table_actor(request, table)
        return Response(pages.described(selectors.card_public_view(table)))


class CardTableCloseView(ApiView):
    @extend_schema(
        request=None,
        responses={200: s.CardTableSerializer, **errors(401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Any, table_id: int) -> Response:
        """Close a table in play (an arbiter, or the player who opened it): nothing more
        is played on it; its turns stay readable."""
        table = _table(table_id)
        actor = _table_actor(request, table)
        services.card_table_close(table_id=table.pk, actor=actor)
        return Response(s.CardTableSerializer(_summary(_table(table.pk))).data)


class CardTableRecordView(ApiView):
    @extend_schema(responses={200: RECORD, **errors(401, 403, 404)}, tags=TAGS)
    def get(self, request: Any, table_id: int) -> Response:
        """The table's ``tirage-cards`` record so far, every hand included (arbiters)."""
        table = _table(table_id)
        arbiter_actor(request, table.tournament_id)
        return Response(selectors.card_record(table))


# --- A seat, by its private token ------------------------------------------------------


class SeatRateThrottle(throttling.BaseThrottle):
    """The tablets' rate limit, per seat token (``tournaments.throttle``)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        allowed, self._retry = player_allowed(str(view.kwargs.get("token", "")))
        return allowed

    def wait(self) -> float | None:
        return getattr(self, "_retry", None)


class _SeatView(ApiView):
    # The token in the path is the only key: no header is read.
    authentication_classes: list = []
    throttle_classes = [SeatRateThrottle]

    def seat(self, token: str) -> CardSeat:
        seat = selectors.card_seat_by_token(token)
        if seat is None:
            raise ServiceError("card_seat.unknown", "There is no seat with this token.")
        return seat


def _seat_view(seat: CardSeat) -> dict[str, Any]:
    table = _table(seat.table_id)
    return pages.described(selectors.card_seat_view(table, seat.number))


class CardSeatView(_SeatView):
    @extend_schema(responses={200: s.CardSeatViewSerializer, **errors(404, 429)}, tags=TAGS)
    def get(self, request: Any, token: str) -> Response:
        """The seat's view: its own hand, the table, whose turn, the scores, what it may
        do now. Never another seat's hand."""
        return Response(_seat_view(self.seat(token)))


class CardSeatActionView(_SeatView):
    @extend_schema(
        request=s.CardActionSerializer,
        responses={201: s.CardSeatViewSerializer, **errors(400, 404, 409, 429)},
        tags=TAGS,
    )
    def post(self, request: Any, token: str) -> Response:
        """One action of the seat, judged by the engine: ``play`` (the cards laid with
        their squares, a joker's letter, at most one Prime card on a letter of a word
        formed), ``accept`` or ``challenge`` (the move laid by another seat), ``pass``,
        ``exchange`` (``cards``). The answer is the seat's new view, after the engine
        seats have played."""
        seat = self.seat(token)
        data = validated(s.CardActionSerializer, request)
        services.card_turn_play(
            table_id=seat.table_id, actor=CardSeatActor.of(seat), kind=data["kind"],
            play=data["play"], cards=data["cards"],
        )  # fmt: skip
        return Response(_seat_view(seat), status=status.HTTP_201_CREATED)


class CardSeatRecordView(_SeatView):
    @extend_schema(responses={200: RECORD, **errors(404, 409, 429)}, tags=TAGS)
    def get(self, request: Any, token: str) -> Response:
        """The game's record, once the game is over (it holds every hand)."""
        table = _table(self.seat(token).table_id)
        if table.record is None:
            raise ServiceError("cards.not_over", "The record is given once the game is over.")
        return Response(table.record)
