"""Reads of the card game's tables (issue 18): seats by token, tables, and **per-seat views**.

A seat never sees another seat's hand: :func:`card_seat_view` is the only read that holds
a hand, and it holds the reader's own; :func:`card_public_view` (the shared screen, the
console) holds none. Turns are shown without the hands and the cards drawn or exchanged
(the ``tirage-cards`` record keeps them, and it is given to the seats only once the game is
over). The replayed game is kept per process by table and revision: 3 to 6 tablets polling
once a second replay a table once per change, not once per request.
"""

from __future__ import annotations

import threading
from typing import Any

from engine.cards.deck import EXCHANGE_MIN_DECK, canonical
from engine.cards.table import Table
from tournaments import adapter
from tournaments.models import (
    CardEvent,
    CardSeat,
    CardSeatKind,
    CardSettings,
    CardTable,
    CardTableState,
)

MAX_TOKEN = 200
#: Turns shown on the pages, newest first.
RECENT_TURNS = 8
#: What a turn shows to everyone (never ``hand``, ``drawn``, ``exchanged``).
_PUBLIC_TURN = (
    "number",
    "seat",
    "action",
    "words",
    "bonus",
    "removed",
    "challenge",
    "score",
    "scores",
    "deck",
)

_CACHE: dict[int, tuple[int, adapter.CardsLive]] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_KEPT = 256


def card_seat_by_token(token: str) -> CardSeat | None:
    """The seat whose tablet token is ``token`` (None: unknown, or not a token at all)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    return (
        CardSeat.objects.select_related("table", "table__tournament", "table__lexicon")
        .filter(access_token=token)
        .first()
    )


def card_table_by_id(table_id: int) -> CardTable | None:
    rows = CardTable.objects.select_related("tournament", "lexicon", "opened_by__player")
    return rows.filter(pk=table_id).first()


def card_tables_of(tournament_id: int) -> list[CardTable]:
    rows = CardTable.objects.filter(tournament_id=tournament_id)
    return list(rows.select_related("opened_by__player").order_by("-id"))


def card_players_may_open(tournament_id: int) -> bool:
    """Whether the tournament's players may open card tables (no setting row: yes)."""
    row = CardSettings.objects.filter(tournament_id=tournament_id).first()
    return row is None or row.players_may_open


def card_tables_opened_by(registration_id: int) -> list[CardTable]:
    """The tables a player opened from their tablet link, newest first."""
    return list(CardTable.objects.filter(opened_by_id=registration_id).order_by("-id"))


def card_seats(table: CardTable) -> list[CardSeat]:
    return list(CardSeat.objects.filter(table=table).order_by("number"))


def card_revision(table_id: int) -> tuple[int, str] | None:
    """``(revision, state)`` of a table, one indexed read (the live pages' ETag)."""
    row = CardTable.objects.filter(pk=table_id).values_list("revision", "state").first()
    return (row[0], row[1]) if row else None


def card_live(table: CardTable) -> adapter.CardsLive:
    """The table's game replayed at ``table.revision`` (kept per process; never mutated)."""
    with _CACHE_LOCK:
        hit = _CACHE.get(table.pk)
    if hit is not None and hit[0] == table.revision:
        return hit[1]
    events = list(CardEvent.objects.filter(table=table).order_by("number"))
    live = adapter.cards_live(
        table, card_seats(table), events, adapter.engine_lexicon(table.lexicon)
    )
    revision = events[-1].number if events else 0
    with _CACHE_LOCK:
        if len(_CACHE) >= _CACHE_KEPT:
            _CACHE.clear()
        _CACHE[table.pk] = (revision, live)
    return live


def card_record(table: CardTable) -> dict[str, Any]:
    """The ``tirage-cards`` record: the stored one of a finished game, else the game so far."""
    if table.record is not None:
        return table.record
    return adapter.card_record(card_live(table), table.lexicon.path)


def _cells(table: Table) -> list[list[Any]]:
    return [[r, c, face] for (r, c), face in sorted(table.cells.items())]


def public_turn(turn: dict[str, Any]) -> dict[str, Any]:
    return {key: turn[key] for key in _PUBLIC_TURN if key in turn}


def card_public_view(table: CardTable) -> dict[str, Any]:
    """What everyone at the table (and the shared screen) may see: no hand."""
    live = card_live(table)
    game = live.game
    seats = card_seats(table)
    pending = game.pending
    pending_seat = pending.seat if pending is not None else None
    hands = [len(hand) for hand in game.hands]
    if pending is not None:  # the cards laid are on the table, no longer in the hand
        hands[pending.seat] -= len(pending.outcome.play.hand_cards())
    waiting = live.waiting_for()
    view: dict[str, Any] = {
        "table": {
            "id": table.pk,
            "name": str(table),
            "tournament": table.tournament.name,
            "state": table.state,
            "over": table.state != CardTableState.PLAYING,
            "closed": table.state == CardTableState.CLOSED,
            "revision": table.revision,
        },
        "seats": [
            {
                "number": seat.number,
                "name": seat.name,
                "kind": seat.kind,
                "engine": seat.kind != CardSeatKind.HUMAN,
                "score": game.scores[seat.number],
                "cards": hands[seat.number],
            }
            for seat in seats
        ],
        "current": None
        if game.over or table.state == CardTableState.CLOSED
        else (pending_seat if pending else game.current),
        "first": game.first,
        "deck": len(game.deck),
        "cells": _cells(game.table),
        "pending": None,
        "turns": [public_turn(t) for t in _recent(live)],
        "end": None,
    }
    if pending is not None:
        outcome = pending.outcome
        view["pending"] = {
            "seat": pending.seat,
            "cards": [[p.row, p.col, p.face] for p in outcome.play.cards],
            "prime": (
                {
                    "card": outcome.play.prime,
                    "row": outcome.play.prime_at[0],
                    "col": outcome.play.prime_at[1],
                }  # fmt: skip
                if outcome.play.prime and outcome.play.prime_at
                else None
            ),
            "words": [w.to_json() for w in outcome.words],
            "score": outcome.score,
            "waiting_for": waiting,
        }
    if game.end is not None:
        view["end"] = {
            "reason": game.end.reason,
            "out": game.end.out,
            "adjustments": list(game.end.adjustments),
            "scores": list(game.end.scores),
        }
    return view


def _recent(live: adapter.CardsLive) -> list[dict[str, Any]]:
    return [adapter.card_turn_json(t) for t in reversed(live.game.history[-RECENT_TURNS:])]


def card_seat_view(table: CardTable, seat: int) -> dict[str, Any]:
    """The public view plus this seat's own hand and what it may do now."""
    view = card_public_view(table)
    live = card_live(table)
    game = live.game
    hand = game.hands[seat]
    pending = game.pending
    if pending is not None and pending.seat == seat:
        left = list(hand)
        for card in pending.outcome.play.hand_cards():
            left.remove(card)
        hand = canonical(left)
    open_ = table.state == CardTableState.PLAYING
    mine = open_ and not game.over and pending is None and game.current == seat
    view["you"] = seat
    view["hand"] = hand
    view["can"] = {
        "play": mine,
        "pass": mine,
        "exchange": mine and len(game.deck) >= EXCHANGE_MIN_DECK,
        "answer": open_ and not game.over and seat in live.waiting_for(),
    }
    return view
