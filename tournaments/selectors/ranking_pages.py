"""Paged rankings read from the stored figures (issue 16, item 2): one table at a time
(the tournament's, one game's, one série or category group), a slice of it, optionally
the lines whose player matches a search, for the console page and the API.

Why not ``results_data``: at 5,000 players × 4 games it builds 25,000 ``RankingLine``s
and every sub-ranking in Python for a page that shows a hundred of them (docs/capacity.md).
Here a table costs one aggregate over the stored ``PlayerGameFigure`` rows (the players'
totals, no JSON read), the engine's own ranking rule (``totals.shared_ranks``) over those
totals, and the full lines (names, solos, warnings, per-game totals) of the sliced
players only. Nothing is cached, so the first view after a change costs what any view
costs.

The ranks are those of ``results_data`` (the printed sheets, exports, projector): same
figures, same rule, same order among equals (registration order); the checker
(``figures_check``) compares the two for every tournament it checks. When the stored
figures are missing or stale (as ``outcomes.game_outcomes`` decides), or the tournament
breaks ties on the last game (Québec rules, a key the totals alone do not hold), a table
is taken from ``results_data`` instead: slower, same lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import EmptyResultSet
from django.db.models import Count, Min, Q, Sum
from django.utils.translation import gettext

from engine.duplicate.totals import percent_of_top, shared_ranks
from tournaments.errors import ServiceError
from tournaments.models import Game, PlayerGameFigure, Registration, Tournament
from tournaments.selectors.player_lines import stored_figures
from tournaments.selectors.players import players_of
from tournaments.selectors.ranking_sql import ranked_slice
from tournaments.selectors.rankings import (
    OVERALL_TITLE,
    game_ranking,
    group_label,
    group_ranks,
    groups_in_order,
    results_data,
)
from tournaments.selectors.tournament import tournament_games
from tournaments.selectors.values import PlayerInfo, Ranking, RankingLine

#: The sub-ranking keys a page can show (as ``sub_rankings`` takes them): a registration's column.
SUB_COLUMNS = {"series": "player__series", "category": "player__category", "centre": "centre__name"}
SUB_KEYS = tuple(SUB_COLUMNS)
#: The longest search text read (a name or a table number).
SEARCH_LENGTH = 100

#: A table's players in ranking order: (player id, total, rank, ex aequo).
Row = tuple[int, int, int, bool]


@dataclass(frozen=True, slots=True)
class RankingTable:
    """One table of the rankings: ``kind`` is ``overall``, ``game`` or a sub-ranking key
    (``series``, ``category``); ``key`` the game's number or the group's label ("" for
    the players with none, "Non classés")."""

    kind: str
    key: str = ""

    @property
    def code(self) -> str:
        """The table as a query string names it: ``overall``, ``game-2``, ``series-1``."""
        return "overall" if self.kind == "overall" else f"{self.kind}-{self.key}"


OVERALL = RankingTable("overall")


def ranking_table_of(code: str | None) -> RankingTable:
    """The table a query string names (``overall`` when absent); ``query.table`` (a 400)
    for anything else than the codes :attr:`RankingTable.code` writes."""
    if not code:
        return OVERALL
    kind, _, key = code.partition("-")
    if code == "overall":
        return OVERALL
    if kind == "game" and key.isascii() and key.isdigit() and 0 < len(key) < 6:
        return RankingTable("game", str(int(key)))
    if kind in SUB_KEYS and len(key) <= SEARCH_LENGTH:
        return RankingTable(kind, key)
    raise ServiceError("query.table", "table: expected overall, game-N, series-X or category-X.")


@dataclass(frozen=True, slots=True)
class RankingPage:
    """A slice of one table: ``count`` lines in the table, ``found`` of them matching the
    search (``count`` without one), ``lines`` from ``offset`` (an index among the found
    lines). A group's table also gives each line's rank within the group
    (``group_ranks``, aligned with ``lines``)."""

    table: RankingTable
    title: str
    top_total: int
    rounds: int
    count: int
    found: int
    offset: int
    lines: tuple[RankingLine, ...]
    group_ranks: tuple[tuple[int, bool], ...] = field(default=())
    game_numbers: tuple[int, ...] = ()

    @property
    def sub_lines(self) -> tuple[tuple[int, bool, RankingLine], ...]:
        """``(rank within the group, shared?, line)`` as ``SubRanking.lines`` has them."""
        pairs = zip(self.group_ranks, self.lines, strict=True)
        return tuple((r, t, line) for (r, t), line in pairs)

    def ranking(self) -> Ranking:
        """The slice as a ``Ranking`` (what the templates and the API serialiser take)."""
        return Ranking(self.title, self.top_total, self.lines, self.game_numbers, self.rounds)


@dataclass
class _Order:
    """A table in ranking order, and how to read the full lines of some of its players."""

    rows: list[Row]
    top_total: int
    rounds: int
    lines: Callable[[list[int]], dict[int, RankingLine]]


class RankingReader:
    """The tables of one tournament for one request: the overall order is read once and
    shared by its sub-ranking groups."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._labels: dict[str, dict[int, str]] = {}

    @cached_property
    def games(self) -> list[Game]:
        return tournament_games(self.tournament)

    @cached_property
    def registered(self) -> int:
        return Registration.objects.filter(tournament_id=self.tournament.pk).count()

    @cached_property
    def overall(self) -> _Order:
        games = self.games
        if self.tournament.tie_break == "shared":
            stored = self._stored(games, overall=True)
            if stored is not None:
                return stored
        ranking = results_data(self.tournament).main
        return _from_ranking(ranking)

    def game(self, number: int) -> tuple[Game, _Order]:
        game = next((g for g in self.games if g.number == number), None)
        if game is None:
            raise ServiceError("game.unknown", f"There is no game {number}.")
        stored = self._stored([game], overall=False)
        return game, stored if stored is not None else _from_ranking(game_ranking(game))

    def _figures(self, games: list[Game]) -> dict[int, tuple[int, int]] | None:
        """Each game's stored (top total, rounds), or None when one of ``games`` has none
        or has them under other settings."""
        figures = stored_figures(games)
        return figures if len(figures) == len(games) else None

    def _sliced(self, table: RankingTable, offset: int, limit: int | None, search: str,
                within: RankingTable | None = None) -> RankingPage | None:  # fmt: skip
        """A slice of a table ranked by the database (``ranking_sql``), a group's, a
        search's or ``within``'s players filtered there after the whole table's ranks, or
        None: the Québec tie-break, figures missing or stale, or an empty slice (the whole
        path then answers)."""
        if table.kind == "game":
            games = [g for g in self.games if g.number == int(table.key)]
            title = gettext("Partie %(n)s") % {"n": table.key}
        else:
            games, title = self.games, gettext(OVERALL_TITLE)
            if self.tournament.tie_break != "shared":
                return None
        figures = self._figures(games) if games else None
        if figures is None:
            return None
        ids = [g.pk for g in games]
        try:
            members = self._members(within or table, "" if within else search)
            found = ranked_slice(ids, offset, limit, members)
        except EmptyResultSet:  # a group nobody is in
            return None
        if found is None or found.players != self.registered:
            return None
        if found.least != len(ids) or found.most != len(ids):
            return None
        top = sum(figures[i][0] for i in ids)
        players = [r[0] for r in found.rows]
        shown = ids if table.kind != "game" else []
        lines = self._lines(shown, ids, top, players, found.rows)
        group = table.kind in SUB_KEYS
        count = found.found if group or within else found.players
        return RankingPage(
            table, title, top, sum(figures[i][1] for i in ids), count,
            found.found, offset, tuple(lines[p] for p in players),
            tuple(found.within) if group else (), tuple(g.number for g in games),
        )  # fmt: skip

    def _members(self, table: RankingTable, search: str) -> tuple[str, Sequence[object]] | None:
        """The SQL of the player ids a group's table or a search keeps (None: everyone)."""
        regs = Registration.objects.filter(tournament_id=self.tournament.pk)
        if table.kind in SUB_KEYS:  # the values written that fall in the group (1A, 1B: 1)
            at, kind = SUB_KEYS.index(table.kind), table.kind
            raw = {v[at] for v in self._values if group_label(v[at], kind) == table.key}
            regs = regs.filter(**{f"{SUB_COLUMNS[kind]}__in": sorted(raw)}) if raw else regs.none()
        elif search:
            regs = regs.filter(self._wanted(search))
        else:
            return None
        return regs.values("player_id").query.sql_with_params()

    def _stored(self, games: list[Game], *, overall: bool) -> _Order | None:
        """The order from the stored figures, or None when they are missing or stale for
        one of ``games`` (``game_outcomes`` then recomputes: so do we, through it)."""
        ids = [g.pk for g in games]
        figures = self._figures(games)
        if figures is None:
            return None
        totals = list(
            PlayerGameFigure.objects.filter(game_id__in=ids)
            .values("player_id")
            .annotate(sum=Sum("total"), reg=Min("registration_id"), n=Count("id"))
            .order_by("reg")
            .values_list("player_id", "sum", "n")
        )
        if games and (len(totals) != self.registered or any(n != len(ids) for *_x, n in totals)):
            return None
        top = sum(figures[i][0] for i in ids)
        ranks = shared_ranks([(total,) for _p, total, _n in totals])
        shared = _shared(rank for _i, rank in ranks)
        rows = [(totals[i][0], totals[i][1], rank, rank in shared) for i, rank in ranks]

        def lines(players: list[int]) -> dict[int, RankingLine]:
            return self._lines(ids if overall else [], ids, top, players, rows)

        return _Order(rows, top, sum(figures[i][1] for i in ids), lines)

    def _lines(
        self, shown: list[int], ids: list[int], top: int, players: list[int], rows: list[Row]
    ) -> dict[int, RankingLine]:
        """The full lines of ``players``: their games' stored rows (``shown``: the games
        whose totals a tournament line lists, in game order)."""
        infos = players_of(self.tournament, only=players)
        figures = PlayerGameFigure.objects.filter(game_id__in=ids, player_id__in=players)
        per: dict[int, dict[int, tuple]] = defaultdict(dict)
        for game, player, *rest in figures.values_list(
            "game_id", "player_id", "total", "solo_rounds", "warnings", "penalties"
        ):
            per[player][game] = tuple(rest)
        wanted = set(players)
        out = {}
        for player, total, rank, tied in rows:
            if player not in wanted:
                continue
            games = per[player].values()
            info = infos.get(player) or PlayerInfo(player, f"#{player}", 0)
            out[player] = RankingLine(
                rank=rank,
                player=info,
                total=total,
                negatif=total - top,
                percent=percent_of_top(total, top),
                solos=sum(len(g[1]) for g in games),
                warnings=sum(g[2] for g in games),
                penalties=sum(g[3] for g in games),
                ex_aequo=tied,
                game_totals=tuple(per[player].get(g, (0,))[0] for g in shown),
            )
        return out

    def labels(self, attribute: str) -> dict[int, str]:
        """A sub-ranking key's group per player (one light query, once a request)."""
        if attribute not in self._labels:
            regs = Registration.objects.filter(tournament_id=self.tournament.pk)
            rows = regs.values_list("player_id", SUB_COLUMNS[attribute])
            self._labels[attribute] = {p: group_label(value, attribute) for p, value in rows}
        return self._labels[attribute]

    @cached_property
    def _values(self) -> list[tuple[str, ...]]:
        """The distinct (series, category, centre) values of the players: the picker lists
        the groups without reading 5,000 players."""
        regs = Registration.objects.filter(tournament_id=self.tournament.pk)
        return list(regs.values_list(*SUB_COLUMNS.values()).distinct())

    def groups(self, attribute: str) -> list[str]:
        """A key's groups in the federation's order; none when nobody has one."""
        column = SUB_KEYS.index(attribute)
        labels = {group_label(values[column], attribute) for values in self._values}
        return [] if labels <= {""} else groups_in_order(labels, attribute)

    def tables(self) -> list[RankingTable]:
        """Every table the tournament's rankings have, in the page's order."""
        out = [OVERALL]
        if len(self.games) > 1:
            out += [RankingTable("game", str(g.number)) for g in self.games]
        for attribute in SUB_KEYS:
            out += [RankingTable(attribute, label) for label in self.groups(attribute)]
        return out

    def page(
        self,
        table: RankingTable,
        *,
        offset: int = 0,
        limit: int | None = None,
        search: str = "",
        within: RankingTable | None = None,
    ) -> RankingPage:
        """``limit`` lines (None: all) of ``table`` from ``offset``, among the lines whose
        player matches ``search`` (a name's part or a table number). ``within``: a group
        (a centre's projector: its centre) whose lines of the overall or a game's table
        are kept with their ranks in the table; ``count`` is then the group's lines."""
        if within is not None and (within.kind not in SUB_KEYS or table.kind in SUB_KEYS):
            raise ValueError(f"{within} restricts the overall or a game's table to a group")
        numbers = tuple(g.number for g in self.games)
        if not (search and table.kind in SUB_KEYS) and not (search and within):
            fast = self._sliced(table, offset, limit, search, within)
            if fast is not None:
                return fast
        if table.kind == "game":
            game, order = self.game(int(table.key))
            title, numbers = gettext("Partie %(n)s") % {"n": game.number}, (game.number,)
            rows = order.rows
        else:
            order, title = self.overall, gettext(OVERALL_TITLE)
            rows = order.rows
            if table.kind != "overall":
                mine = self.labels(table.kind)
                rows = [r for r in rows if mine.get(r[0], "") == table.key]
        if within is not None:
            mine = self.labels(within.kind)
            rows = [r for r in rows if mine.get(r[0], "") == within.key]
        ranks = group_ranks([r[1] for r in rows]) if table.kind in SUB_KEYS else []
        found = list(range(len(rows)))
        if search:
            regs = Registration.objects.filter(tournament_id=self.tournament.pk)
            matching = set(regs.filter(self._wanted(search)).values_list("player_id", flat=True))
            found = [i for i in found if rows[i][0] in matching]
        cut = found[offset:] if limit is None else found[offset : offset + limit]
        lines = order.lines([rows[i][0] for i in cut])
        return RankingPage(
            table, title, order.top_total, order.rounds, len(rows), len(found), offset,
            tuple(lines[rows[i][0]] for i in cut), tuple(ranks[i] for i in cut) if ranks else (),
            numbers,
        )  # fmt: skip

    @staticmethod
    def _wanted(search: str) -> Q:
        """The players whose name holds ``search`` or who sit at table ``search``."""
        text = search.strip()[:SEARCH_LENGTH]
        wanted = Q(player__name__icontains=text)
        if text.isascii() and text.isdigit() and len(text) < 7:
            wanted |= Q(table_number=int(text))
        return wanted


def _shared(ranks: Iterable[int]) -> set[int]:
    """The ranks held by more than one line (ex aequo)."""
    seen: set[int] = set()
    twice: set[int] = set()
    for rank in ranks:
        (twice if rank in seen else seen).add(rank)
    return twice


def _from_ranking(ranking: Ranking) -> _Order:
    """A table taken whole from a ``Ranking`` built the long way (``results_data``)."""
    rows = [(line.player.player_id, line.total, line.rank, line.ex_aequo) for line in ranking.lines]
    by_player = {line.player.player_id: line for line in ranking.lines}
    return _Order(
        rows,
        ranking.top_total,
        ranking.rounds,
        lambda players: {p: by_player[p] for p in players if p in by_player},
    )


def ranking_page(
    tournament: Tournament,
    table: RankingTable = OVERALL,
    *,
    offset: int = 0,
    limit: int | None = None,
    search: str = "",
) -> RankingPage:
    """One slice of one table (see :class:`RankingReader`)."""
    return RankingReader(tournament).page(table, offset=offset, limit=limit, search=search)
