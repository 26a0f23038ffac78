"""One slice of a ranking ranked by PostgreSQL (issue 16, item 2): the players' totals
summed over the stored ``PlayerGameFigure`` rows of the table's games, ranked with a
window function, and only the slice's rows sent to Python. The rule is the engine's
(``totals.shared_ranks`` on the total alone, as ``game_standings`` and the "shared"
tie-break of ``tournament_standings``): ``RANK() OVER (ORDER BY total DESC)`` gives equal
totals the same rank and skips the next ones (1, 2, 2, 4); among equals the order is the
registration order (``registration_id``), as the engine's stable sort keeps it; a rank
held by more than one line is ex aequo. ``ranking_check`` compares these slices with the
engine's whole rankings after every scenario game of the tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from tournaments.models import PlayerGameFigure


@dataclass(frozen=True, slots=True)
class Slice:
    """``rows`` (player id, total, rank, ex aequo) of the slice, in ranking order;
    ``players`` how many the whole table has; ``least`` and ``most`` the fewest and most
    stored game rows a player has (both the number of games when the figures are whole).
    With ``members``: ``found`` how many of them the table has, ``within`` each row's
    (rank among them, shared?): a group's own ranking."""

    rows: list[tuple[int, int, int, bool]]
    players: int
    least: int
    most: int
    found: int
    within: list[tuple[int, bool]]


def ranked_slice(
    game_ids: Sequence[int],
    offset: int,
    limit: int | None,
    members: tuple[str, Sequence[object]] | None = None,
) -> Slice | None:
    """The slice ``[offset, offset + limit)`` of the ranking over ``game_ids``, among the
    players of ``members`` (an SQL query of player ids and its parameters: a group, a
    search) when given, each keeping their rank in the whole table. None when the slice is
    empty (past the end, nobody matches, no stored row)."""
    if not game_ids:
        return None
    table = connection.ops.quote_name(PlayerGameFigure._meta.db_table)
    marks = ", ".join(["%s"] * len(game_ids))
    among, params = ("", []) if members is None else (f"WHERE player_id IN ({members[0]})",
                                                       list(members[1]))  # fmt: skip
    # One sort for the ranks: the ex aequo count is the rank's peers (a frame of the same
    # window), not a second window partitioned by total; without ``members`` the group's
    # columns are the table's (no second ranking).
    peers = "RANGE BETWEEN CURRENT ROW AND CURRENT ROW"
    group = (
        "rnk AS within, tied AS within_tied, players AS found" if members is None else
        f"RANK() OVER g AS within, COUNT(*) OVER (g {peers}) AS within_tied, "
        "COUNT(*) OVER () AS found"
    )  # fmt: skip
    sql = f"""
        SELECT player_id, total, rnk, tied, players, least, most, {group}
        FROM (
            SELECT player_id, total, reg,
                   RANK() OVER w AS rnk,
                   COUNT(*) OVER (w {peers}) AS tied,
                   COUNT(*) OVER () AS players,
                   MIN(n) OVER () AS least,
                   MAX(n) OVER () AS most
            FROM (
                SELECT player_id, SUM(total) AS total, MIN(registration_id) AS reg,
                       COUNT(*) AS n
                FROM {table} WHERE game_id IN ({marks}) GROUP BY player_id
            ) AS per_player
            WINDOW w AS (ORDER BY total DESC)
        ) AS ranked
        {among}
        {"WINDOW g AS (ORDER BY total DESC)" if members is not None else ""}
        ORDER BY total DESC, reg
        LIMIT %s OFFSET %s"""  # noqa: S608 (quoted names, placeholders, the ORM's subquery)
    with connection.cursor() as cursor:
        limit_value = limit if limit is not None else 10**9
        cursor.execute(sql, [*game_ids, *params, limit_value, offset])
        found = cursor.fetchall()
    if not found:
        return None
    first = found[0]
    rows = [(p, int(total), int(rank), tied > 1) for p, total, rank, tied, *_c in found]
    within = [(int(r[7]), r[8] > 1) for r in found]
    return Slice(rows, int(first[4]), int(first[5]), int(first[6]), int(first[9]), within)


def player_places(player_id: int, game_ids: Sequence[int]) -> dict[int, tuple[int, int, int]]:
    """Per game of ``game_ids`` where the player has a stored line: (players with a higher
    total, players with the same total (the player included), players with a line). The
    player's rank in the game is the first plus one (``RANK()``, equal totals sharing it),
    ex aequo when the second is above one. One pass over the games' stored totals, no
    sort."""
    if not game_ids:
        return {}
    table = connection.ops.quote_name(PlayerGameFigure._meta.db_table)
    marks = ", ".join(["%s"] * len(game_ids))
    sql = f"""
        SELECT other.game_id,
               COUNT(*) FILTER (WHERE other.total > mine.total),
               COUNT(*) FILTER (WHERE other.total = mine.total),
               COUNT(*)
        FROM {table} AS other
        JOIN {table} AS mine ON mine.game_id = other.game_id AND mine.player_id = %s
        WHERE other.game_id IN ({marks})
        GROUP BY other.game_id"""  # noqa: S608 (a quoted name and placeholders)
    with connection.cursor() as cursor:
        cursor.execute(sql, [player_id, *game_ids])
        return {game: (int(a), int(b), int(c)) for game, a, b, c in cursor.fetchall()}
