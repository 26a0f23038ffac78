"""Read-only queries the console pages need (what they show, never a change).

Game figures (standings) come from ``tournaments.selectors``; this module only gathers rows
for display: the board grid, a round's slips, the tables still missing, the status payload
the game screen polls. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from engine.duplicate.totals import game_standings as engine_game_standings
from engine.tiles import DOUBLE_LETTER, DOUBLE_WORD, ROWS, SIZE, TRIPLE_LETTER, TRIPLE_WORD
from tournaments import adapter, selectors
from tournaments.models import Game, ProposalVersion, Registration, Round, Tournament
from tournaments.reports.groups import group_order, series_group

CENTRE = (7, 7)


def arbiter_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` arbitrates (every one for a superuser)."""
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(arbiters__user=user)
    return qs.order_by("-created_at", "name")


def game_rounds(game: Game) -> list[Round]:
    """Every round of the game, cancelled ones included, in play order."""
    return list(game.rounds.order_by("number", "id"))


def current_round(game: Game) -> Round | None:
    """The last round that is not cancelled (the one the game screen is about)."""
    return game.rounds.exclude(state="cancelled").order_by("-number", "-id").first()


def registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("table_number")
    )


def expected_registrations(rnd: Round) -> list[Registration]:
    """Players who play ``rnd`` (late arrivals count from their arrival round)."""
    game = rnd.game
    return list(
        Registration.objects.filter(tournament_id=game.tournament_id)
        .filter(
            Q(arrival_game__lt=game.number)
            | Q(arrival_game=game.number, arrival_round__lte=rnd.number)
        )
        .select_related("player")
        .order_by("table_number")
    )


def registration_at_table(tournament_id: int, table: int) -> Registration | None:
    return (
        Registration.objects.filter(tournament_id=tournament_id, table_number=table)
        .select_related("player")
        .first()
    )


def current_versions(rnd: Round) -> dict[int, ProposalVersion]:
    """Player id → current proposal version for the round."""
    return {v.player_id: v for v in rnd.proposals.filter(is_current=True)}


def late_attempts(rnd: Round) -> dict[int, list[ProposalVersion]]:
    """Player id → the late versions kept beside an on-time one (they never count, the
    arbiter sees them beside the slip)."""
    attempts: dict[int, list[ProposalVersion]] = {}
    for v in rnd.proposals.filter(late=True, is_current=False).order_by("version"):
        attempts.setdefault(v.player_id, []).append(v)
    return attempts


def received_count(rnd: Round) -> int:
    return rnd.proposals.filter(is_current=True).count()


def missing_tables(rnd: Round) -> list[Registration]:
    """Expected players with no slip (no current version) for the round."""
    return selectors.missing_slips(rnd)


def recent_versions(rnd: Round, limit: int = 50) -> list[ProposalVersion]:
    """The round's proposal versions, newest first (the slip-entry log)."""
    return list(
        rnd.proposals.select_related("player", "entered_by").order_by("-created_at", "-id")[:limit]
    )


def tables_by_player(tournament_id: int) -> dict[int, int]:
    return dict(
        Registration.objects.filter(tournament_id=tournament_id).values_list(
            "player_id", "table_number"
        )
    )


# --- The board -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the grid as shown: its tile, premium and marks."""

    name: str
    letter: str
    premium: str
    joker: bool
    last: bool

    @property
    def css(self) -> str:
        """The square's classes: premium, ``tile``, ``joker``, ``last``."""
        marks = [self.premium, "tile" * bool(self.letter), "joker" * self.joker]
        marks.append("last" * self.last)
        return " ".join(m for m in marks if m)


def _premium(row: int, col: int) -> str:
    if (row, col) == CENTRE:
        return "centre"
    if (row, col) in TRIPLE_WORD:
        return "mt"
    if (row, col) in DOUBLE_WORD:
        return "md"
    if (row, col) in TRIPLE_LETTER:
        return "lt"
    if (row, col) in DOUBLE_LETTER:
        return "ld"
    return ""


def move_squares(move: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The squares a stored top covers, with the letter on each."""
    ref = adapter.move(move).reference
    out = {}
    for i, ch in enumerate(move["word"]):
        row, col = (ref.row, ref.col + i) if ref.horizontal else (ref.row + i, ref.col)
        out[(row, col)] = ch
    return out


def board_grid(rnd: Round | None, previous: Round | None) -> list[tuple[str, list[Square]]]:
    """Rows of squares: the board before ``rnd`` plus its top once placed; the last placed
    top is marked. With no round, the empty board."""
    cells = adapter.board(rnd.board_before if rnd else "").cells
    letters = {(i // SIZE, i % SIZE): ch for i, ch in enumerate(cells) if ch != "."}
    last: set[tuple[int, int]] = set()
    if rnd is not None and rnd.top_placed_at is not None:
        placed = move_squares(rnd.top["chosen"])
        letters.update({sq: ch for sq, ch in placed.items() if sq not in letters})
        last = set(placed)
    elif previous is not None and previous.top_placed_at is not None:
        last = set(move_squares(previous.top["chosen"]))
    rows = []
    for r in range(SIZE):
        squares = []
        for c in range(SIZE):
            ch = letters.get((r, c), "")
            squares.append(
                Square(
                    f"{ROWS[r]}{c + 1}", ch.upper(), _premium(r, c), ch.islower(), (r, c) in last
                )
            )
        rows.append((ROWS[r], squares))
    return rows


# --- The status the game screen polls --------------------------------------------------


def status_payload(game: Game) -> dict[str, Any]:
    """What changes while the arbiter watches: round state, top, deadline, slips count.

    Deliberately free of the current time, so an unchanged game keeps its ETag."""
    rnd = current_round(game)
    data: dict[str, Any] = {"game": game.pk, "state": game.state, "round": None}
    if rnd is not None:
        chosen = (rnd.top or {}).get("chosen")
        data["round"] = {
            "id": rnd.pk,
            "number": rnd.number,
            "state": rnd.state,
            "rack": rnd.rack,
            "top_ready": rnd.top is not None,
            "top": chosen,
            "top_placed": rnd.top_placed_at is not None,
            "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
            "received": received_count(rnd),
            "registered": len(expected_registrations(rnd)),
        }
    return data


# --- Rankings ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: int
    tied: bool
    player: Any
    table: int | None
    total: int
    negatif_text: str
    percent: Any
    solos: int
    warnings: int


def ranking_lines(standings: Any, players: dict[int, Any], tables: dict[int, int]) -> list:
    ranks: dict[int, int] = {}
    for s in standings:
        ranks[s.rank] = ranks.get(s.rank, 0) + 1
    return [
        RankingLine(
            s.rank,
            ranks[s.rank] > 1,
            players[s.player_id],
            tables.get(s.player_id),
            s.total,
            s.negatif_text,
            s.percent,
            s.solos,
            s.warnings,
        )  # fmt: skip
        for s in standings
        if s.player_id in players
    ]


def sub_rankings(lines: list[RankingLine], attribute: str) -> list[tuple[str, list[tuple]]]:
    """Per série 1–7 (sub-series 1A, 1B… together) or per category, in the federation's
    order (``reports.groups``): (rank within the group, ex aequo?, line), same order."""
    groups: dict[str, list[RankingLine]] = {}
    for line in lines:
        key = getattr(line.player, attribute) or ""
        key = (series_group(key) if attribute == "series" else key.strip()) or "—"
        groups.setdefault(key, []).append(line)
    out = []
    for key in sorted(groups, key=lambda k: (k == "—", group_order(k))):
        ranked, previous, rank = [], None, 0
        for i, line in enumerate(groups[key], start=1):
            if line.total != previous:
                rank, previous = i, line.total
            ranked.append([rank, False, line])
        counts: dict[int, int] = {}
        for item in ranked:
            counts[item[0]] = counts.get(item[0], 0) + 1
        out.append((key, [(r, counts[r] > 1, line) for r, _, line in ranked]))
    return out


def rankings(tournament: Tournament) -> dict[str, Any]:
    """Per-game and cumulative rankings, with series and category sub-rankings."""
    players = {reg.player_id: reg.player for reg in registrations(tournament)}
    tables = tables_by_player(tournament.pk)
    games, results = [], []
    for game in tournament.games.order_by("number"):
        result = selectors.game_outcomes(game)
        results.append(result)
        lines = ranking_lines(engine_game_standings(result), players, tables)
        games.append(
            {
                "game": game,
                "lines": lines,
                "rounds": len(result.tops),
                "top_total": result.top_total,
            }
        )
    total = ranking_lines(selectors.tournament_standings(tournament, results), players, tables)
    return {
        "games": games,
        "total": total,
        "top_total": sum(g["top_total"] for g in games),
        "series": sub_rankings(total, "series"),
        "categories": sub_rankings(total, "category"),
        "playing": any(g["game"].state == "playing" for g in games),
    }
