"""The card game's tables (issue 18): opening a table, and every turn through one service.

* :func:`card_table_open`: an arbiter of a tournament, or one of its players from their
  tablet link (``services.card_tables`` sets the bounds), opens a table of 2 to 6 seats,
  each a player (a private tablet link) or an engine opponent (``strong`` or ``weak``);
  the tournament's lexicon settles the challenges.
* :func:`card_turn_play`: a seat lays a move, lets the move laid stand (``accept``),
  challenges it, passes or exchanges. The engine judges (``engine.cards.CardGame``); the
  event is stored only when the engine accepts it, then the engine opponents whose turn it
  is play at once, in the same transaction, as ``access.SYSTEM``;
* :func:`card_table_settle`: an arbiter lets a waiting move stand for the players who have
  not answered it.

The game is never stored as engine state: each call replays the table's events under the
table's row lock (``adapter.cards_live``), applies the new one and appends it. A move laid
waits until every other *human* seat lets it stand or one challenges it (engines never
challenge); docs/cards.md ("On the site") gives the reasons.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.cards.match import action_of
from engine.cards.players import Action
from engine.errors import EngineError
from tournaments import adapter
from tournaments.access import SYSTEM, Actor, CardSeatActor, is_system, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    CardEvent,
    CardEventKind,
    CardSeat,
    CardSeatKind,
    CardTable,
    CardTableState,
    Tournament,
)
from tournaments.models.cards import MAX_SEATS, MIN_SEATS
from tournaments.services.audit import audit_record
from tournaments.services.card_tables import opener_checked

MAX_NAME = 80
#: Engine turns played in one call at most: a safety net (a game ends in 20 to 40 turns).
MAX_ENGINE_TURNS = 1000


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat asked for: ``kind`` ``human``, ``strong`` or ``weak``, and a name."""

    kind: str
    name: str = ""


def _seats_checked(seats: Sequence[SeatSpec]) -> list[SeatSpec]:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ServiceError(
            "cards.seats", f"A table has {MIN_SEATS} to {MAX_SEATS} seats.", count=len(seats)
        )
    out = []
    for number, spec in enumerate(seats):
        if spec.kind not in CardSeatKind.values:
            raise ServiceError("cards.seat_kind", f"Seat {number + 1}: unknown kind.")
        name = " ".join(str(spec.name or "").split())[:MAX_NAME]
        if spec.kind == CardSeatKind.HUMAN and not name:
            raise ServiceError("cards.seat_name", f"Seat {number + 1} needs the player's name.")
        out.append(SeatSpec(spec.kind, name))
    if not any(spec.kind == CardSeatKind.HUMAN for spec in out):
        raise ServiceError("cards.no_human", "A table needs at least one player on a tablet.")
    return out


def card_table_open(
    *,
    tournament_id: int,
    seats: Sequence[SeatSpec],
    actor: Actor,
    name: str = "",
    seed: int | None = None,
) -> CardTable:
    """Open a table on the tournament's lexicon: seats in order, a token per player.

    An arbiter of the tournament (or the system) opens one, or a player of the tournament
    (``access.PlayerActor``) within ``card_tables.opener_checked``'s bounds; the table then
    remembers them (``opened_by``). The seed is random unless given (tests, a replayed
    evening)."""
    specs = _seats_checked(seats)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
        opener = opener_checked(actor=actor, tournament=tournament)
        if tournament.lexicon is None:
            raise ServiceError(
                "tournament.no_lexicon",
                f"The tournament '{tournament}' has no lexicon set.",
                tournament=str(tournament),
            )
        if seed is None:
            seed = secrets.randbits(63)
        elif not 0 <= seed < 2**63:
            raise ServiceError("cards.seed", "The seed is a whole number from 0 to 2^63 - 1.")
        table = CardTable.objects.create(
            tournament=tournament,
            name=" ".join(name.split())[:MAX_NAME],
            lexicon=tournament.lexicon,
            seed=seed,
            seats=len(specs),
            created_by=user_of(actor),
            opened_by=opener,
        )
        for number, spec in enumerate(specs):
            engine = spec.kind != CardSeatKind.HUMAN
            CardSeat.objects.create(
                table=table,
                number=number,
                kind=spec.kind,
                name=spec.name or str(CardSeatKind(spec.kind).label),
                access_token=None if engine else secrets.token_urlsafe(32),
            )
        audit_record(
            actor=actor,
            action="cards.table_open",
            obj=table,
            seats=[spec.kind for spec in specs],
            registration=opener.pk if opener is not None else None,
        )
        live = _live(table)
        _engines_play(table, live)
        return table


def _locked_table(table_id: int) -> CardTable:
    table = CardTable.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise ServiceError("card_table.unknown", f"There is no card table {table_id}.")
    return table


def _in_play(table: CardTable) -> None:
    if table.state == CardTableState.FINISHED:
        raise ServiceError("game.over", "The game is over.")
    if table.state != CardTableState.PLAYING:
        raise ServiceError("card_table.state", "The table is no longer in play.")


def _live(table: CardTable) -> adapter.CardsLive:
    seats = list(CardSeat.objects.filter(table=table))
    events = CardEvent.objects.filter(table=table).order_by("number")
    return adapter.cards_live(table, seats, events, adapter.engine_lexicon(table.lexicon))


def _append(
    table: CardTable,
    live: adapter.CardsLive,
    *,
    kind: str,
    seat: int,
    data: Mapping[str, Any],
    actor: Actor,
) -> CardEvent:
    """Apply one event to the replayed game and store it (refused: nothing is stored)."""
    try:
        turn = adapter.card_apply(live, kind, seat, data)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    table.revision += 1
    event = CardEvent.objects.create(
        table=table,
        number=table.revision,
        seat=seat,
        kind=kind,
        data=dict(data),
        turn=adapter.card_turn_json(turn) if turn is not None else None,
    )
    fields = ["revision"]
    if live.game.over:
        table.state = CardTableState.FINISHED
        table.finished_at = timezone.now()
        table.record = adapter.card_record(live, table.lexicon.path)
        fields += ["state", "finished_at", "record"]
    table.save(update_fields=fields)
    audit_record(
        actor=actor,
        action=f"cards.{kind}",
        obj=table,
        seat=seat,
        event=event.number,
        turn=turn.number if turn is not None else None,
    )
    return event


def _engine_event(action: Action) -> tuple[str, dict[str, Any]]:
    if action.kind == CardEventKind.PLAY:
        return CardEventKind.PLAY, action.placed.to_json()
    if action.kind == CardEventKind.EXCHANGE:
        return CardEventKind.EXCHANGE, {"cards": action.cards}
    return CardEventKind.PASS, {}


def _engines_play(table: CardTable, live: adapter.CardsLive) -> None:
    """Engine seats play while it is their turn and no move waits for an answer."""
    game = live.game
    for _ in range(MAX_ENGINE_TURNS):
        if game.over or game.pending is not None or live.is_human(game.current):
            return
        seat = game.current
        kind, data = _engine_event(action_of(game, seat, live.levels[seat]))
        _append(table, live, kind=kind, seat=seat, data=data, actor=SYSTEM)
    raise RuntimeError(f"card table {table.pk}: the engines do not stop")  # a bug


ACTIONS = tuple(CardEventKind.values)


def card_turn_play(
    *,
    table_id: int,
    actor: Actor,
    kind: str,
    play: Mapping[str, Any] | None = None,
    cards: str = "",
    seat: int | None = None,
) -> CardEvent:
    """One action of a seat: ``play`` (``play``: ``engine.cards.Play`` JSON), ``accept``
    (let the move laid stand), ``challenge``, ``pass`` or ``exchange`` (``cards``).

    The actor is the seat's token (``access.CardSeatActor``); ``SYSTEM`` may act for a
    ``seat`` (tests, a command). Refusals keep the engine's codes (``turn.not_yours``,
    ``play.gap``, ``challenge.nothing``…). The engine seats' turns that follow are played
    before this returns."""
    if kind not in ACTIONS:
        raise ServiceError(
            "cards.action", "Unknown action: play, accept, challenge, pass, exchange."
        )
    with transaction.atomic():
        table = _locked_table(table_id)
        if isinstance(actor, CardSeatActor):
            if actor.table_id != table.pk:
                raise ServiceError("access.card_seat", "This tablet is not a seat of this table.")
            number = actor.seat
        elif is_system(actor) and seat is not None:
            number = seat
        else:
            raise ServiceError("access.card_seat", "Only a seat of the table plays its turns.")
        _in_play(table)
        live = _live(table)
        if not 0 <= number < table.seats or not live.is_human(number):
            raise ServiceError("access.card_seat", "Only a player's seat plays through here.")
        data: dict[str, Any] = {}
        if kind == CardEventKind.PLAY:
            data = _play_data(play)
        elif kind == CardEventKind.EXCHANGE:
            data = {"cards": _cards_text(cards)}
        event = _append(table, live, kind=kind, seat=number, data=data, actor=actor)
        _engines_play(table, live)
        return event


def _cards_text(cards: Any) -> str:
    if not isinstance(cards, str) or len(cards) > 7:
        raise ServiceError("exchange.count", "An exchange gives back 1 to 7 cards of the hand.")
    return cards.upper()


def _play_data(play: Mapping[str, Any] | None) -> dict[str, Any]:
    """The move as ``engine.cards.Play`` JSON, checked for shape (a bad one: ``cards.move``)."""
    try:
        if not isinstance(play, Mapping) or not isinstance(play.get("cards"), list):
            raise ValueError
        if len(play["cards"]) > 7:
            raise ServiceError("play.not_in_hand", "The hand holds 7 cards at most.")
        parsed = adapter.CardPlay.from_json(play)
        for placed in parsed.cards:
            if len(placed.letter) != 1 or abs(placed.row) > 10_000 or abs(placed.col) > 10_000:
                raise ValueError
        if parsed.prime is not None and len(parsed.prime) != 1:
            raise ValueError
    except (KeyError, TypeError, ValueError) as error:
        raise ServiceError("cards.move", "The move could not be read.") from error
    return parsed.to_json()


def card_table_settle(*, table_id: int, actor: Actor) -> CardTable:
    """An arbiter lets the move waiting for answers stand for the players who have not
    answered (a player gone from the table must not hold it up). Each of those seats gets
    its ``accept`` event, audited as the arbiter's; the engine seats then play on."""
    with transaction.atomic():
        table = _locked_table(table_id)
        require_arbiter(actor=actor, tournament_id=table.tournament_id)
        _in_play(table)
        live = _live(table)
        waiting = live.waiting_for()
        if not waiting:
            raise ServiceError("challenge.nothing", "No move is waiting to be challenged.")
        for seat in waiting:
            _append(table, live, kind=CardEventKind.ACCEPT, seat=seat, data={}, actor=actor)
        _engines_play(table, live)
        return table
