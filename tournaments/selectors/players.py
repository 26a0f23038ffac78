"""Reads of the player aggregate: a tournament's registrations (a player at a table), by
token, by id, **by table** (one look-up, one error code: ``table.unknown``), who is expected
on a round (late arrivals count from their arrival round), and the players as the printed
sheets name them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Q

from tournaments.errors import ServiceError
from tournaments.models import ProposalVersion, Registration, Round, Tournament
from tournaments.models.choices import RoundState
from tournaments.selectors.tournament import MAX_ID
from tournaments.selectors.values import PlayerInfo

#: A tablet token is at most this long; a longer one is unknown without asking.
MAX_TOKEN = 200


def _tournament_id(tournament: Tournament | int) -> int:
    return tournament if isinstance(tournament, int) else tournament.pk


def registrations(tournament: Tournament | int) -> list[Registration]:
    """The tournament's registrations with their players, by table."""
    return list(
        Registration.objects.filter(tournament_id=_tournament_id(tournament))
        .select_related("player", "centre")
        .order_by("table_number")
    )


def registration_by_id(registration_id: int) -> Registration:
    """The registration ``registration_id``; ``registration.unknown`` when there is none."""
    reg = None
    if 0 < registration_id <= MAX_ID:
        reg = (
            Registration.objects.select_related("player", "tournament")
            .filter(pk=registration_id)
            .first()
        )
    if reg is None:
        raise ServiceError("registration.unknown", f"There is no registration {registration_id}.")
    return reg


def registration_by_token(token: str) -> Registration | None:
    """The registration whose tablet token is ``token`` (None: unknown or revoked)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    return (
        Registration.objects.select_related("player", "tournament")
        .filter(access_token=token)
        .first()
    )


#: The columns of a registration a received move needs (``registration_for_move``).
_MOVE_FIELDS = {"id", "tournament_id", "player_id", "centre_id", "withdrawn_game",
                "withdrawn_round"}  # fmt: skip
# In the model's field order: ``Model.from_db`` pairs the values with the fields that way.
_FOR_MOVE = tuple(
    f.attname for f in Registration._meta.concrete_fields if f.attname in _MOVE_FIELDS
)


def registration_for_move(token: str) -> Registration | None:
    """``registration_by_token`` reduced to what a received move needs, for the submissions'
    fast lane (``tournaments.proposal_lane``): one indexed SELECT of the id, tournament,
    player, centre and withdrawal, no join and no query to compile (the ORM's takes ~2 ms of CPU);
    the other fields are deferred (read from the database if ever touched)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    table = connection.ops.quote_name(Registration._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(_FOR_MOVE)} FROM {table} WHERE access_token = %s",  # noqa: S608
            [token],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return Registration.from_db(connection.alias, list(_FOR_MOVE), row)


def registration_at_table(tournament_id: int, table: int | None) -> Registration:
    """The registration at table ``table`` of the tournament: the one look-up behind a
    slip, a decision, a late arrival (console and API). ``table.unknown`` (a 404) when
    nobody sits there, worded with the table's number."""
    reg = None
    if table is not None and 0 < table <= MAX_ID:
        reg = (
            Registration.objects.select_related("player", "tournament")
            .filter(tournament_id=tournament_id, table_number=table)
            .first()
        )
    if reg is None:
        details = {} if table is None else {"table": table}
        raise ServiceError("table.unknown", f"Nobody is registered at table {table}.", **details)
    return reg


def tables_by_player(tournament_id: int) -> dict[int, int]:
    """Player id → table number."""
    return dict(
        Registration.objects.filter(tournament_id=tournament_id).values_list(
            "player_id", "table_number"
        )
    )


def names_by_player(tournament_id: int) -> dict[int, str]:
    """Player id → name."""
    return dict(
        Registration.objects.filter(tournament_id=tournament_id).values_list(
            "player_id", "player__name"
        )
    )


def table_of(tournament_id: int, player_id: int) -> int | None:
    """The player's table in the tournament (None: not registered)."""
    return (
        Registration.objects.filter(tournament_id=tournament_id, player_id=player_id)
        .values_list("table_number", flat=True)
        .first()
    )


def arrived_q(rnd: Round) -> Q:
    """The registrations playing ``rnd``: arrived before its game, or by its round, and
    not withdrawn by then (a withdrawn player is no longer expected: no missing slip)."""
    game = rnd.game
    arrived = Q(arrival_game__lt=game.number) | Q(
        arrival_game=game.number, arrival_round__lte=rnd.number
    )
    staying = (
        Q(withdrawn_game__isnull=True)
        | Q(withdrawn_game__gt=game.number)
        | Q(withdrawn_game=game.number, withdrawn_round__gt=rnd.number)
    )
    return arrived & staying


def expected_registrations(rnd: Round) -> list[Registration]:
    """Players who play ``rnd`` (late arrivals count from their arrival round), by table."""
    return list(
        Registration.objects.filter(tournament_id=rnd.game.tournament_id)
        .filter(arrived_q(rnd))
        .select_related("player")
        .order_by("table_number")
    )


def expected_count(rnd: Round) -> int:
    """How many players play ``rnd``."""
    return (
        Registration.objects.filter(tournament_id=rnd.game.tournament_id)
        .filter(arrived_q(rnd))
        .count()
    )


def last_move_from(
    reg: Registration, game_number: int, round_number: int
) -> tuple[int, int] | None:
    """``(game, round)`` of the player's last move handed in at round ``round_number``
    of game ``game_number`` or later (cancelled rounds aside), None when there is none:
    a withdrawal from there would hide a recorded result."""
    later = Q(round__game__number__gt=game_number) | Q(
        round__game__number=game_number, round__number__gte=round_number
    )
    return (
        ProposalVersion.objects.filter(
            player_id=reg.player_id, round__game__tournament_id=reg.tournament_id
        )
        .filter(later)
        .exclude(round__state=RoundState.CANCELLED)
        .order_by("-round__game__number", "-round__number")
        .values_list("round__game__number", "round__number")
        .first()
    )


def withdrawal_start(reg: Registration) -> tuple[int, int]:
    """The round a withdrawal decided now starts from, as the console proposes it: the
    current round of the last game when the player has no move there and its top is not
    placed, else the next one; never before the player's arrival."""
    rnd = (
        Round.objects.filter(game__tournament_id=reg.tournament_id)
        .exclude(state=RoundState.CANCELLED)
        .order_by("-game__number", "-number")
        .select_related("game")
        .first()
    )
    if rnd is None:
        return max((1, 1), (reg.arrival_game, reg.arrival_round))
    here = (rnd.game.number, rnd.number)
    done = rnd.top_placed_at is not None or last_move_from(reg, *here) is not None
    start = (here[0], here[1] + 1) if done else here
    return max(start, (reg.arrival_game, reg.arrival_round))


def arrivals(tournament: Tournament | int) -> dict[int, Registration]:
    """Player id → registration (its arrival game and round), without the players."""
    return {
        r.player_id: r
        for r in Registration.objects.filter(tournament_id=_tournament_id(tournament))
    }


def players_of(
    tournament: Tournament | int, only: Iterable[int] | None = None
) -> dict[int, PlayerInfo]:
    """The registered players by ``Player`` id, in table order, as the sheets name them;
    ``only`` those players (a ranking page names its hundred lines, not 5,000). Read as
    plain values (no model instance: 5,000 of them cost more than the ranking itself)."""
    rows = Registration.objects.filter(tournament_id=_tournament_id(tournament))
    if only is not None:
        rows = rows.filter(player_id__in=list(only))
    out = {}
    for player, name, table, *text, token, gone, centre in rows.order_by(
        "table_number"
    ).values_list(*_INFO_COLUMNS):  # club, series, category, licence, federation: text
        out[player] = PlayerInfo(
            player, name, table, *text, str(token or ""), gone is not None, centre or ""
        )
    return out


#: The columns of a ``PlayerInfo``, in :func:`players_of`'s order.
_INFO_COLUMNS = (
    "player_id", "player__name", "table_number", "player__club", "player__series",
    "player__category", "player__licence", "player__federation", "access_token",
    "withdrawn_game", "centre__name",
)  # fmt: skip
