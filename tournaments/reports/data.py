"""The one read module of the reports: plain frozen values built from the database.

Renderers never touch a model. This module asks the selectors for the figures (totals,
solos, warnings, rankings — recomputed by ``engine.duplicate.totals``, never stored) and the
adapter for engine values (boards, moves, variants), then flattens them into the small
dataclasses below, which tests can also build by hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from engine.board import Board
from engine.duplicate.record import game_to_record
from engine.duplicate.scoresheet import player_entry, scoring_json, totals_json
from engine.duplicate.top import new_tiles
from engine.duplicate.totals import GameResult, Standing
from engine.duplicate.totals import game_standings as engine_game_standings
from engine.tiles import SIZE
from tournaments import adapter, selectors, wording
from tournaments.models import Decision, Game, ProposalVersion, Registration, Tournament
from tournaments.reports.groups import group_order

EMPTY_BOARD = "." * (SIZE * SIZE)


# -- values ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What every header prints."""

    name: str
    slug: str
    date: date | None = None
    lexicon: str = ""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A registered player; ``access_token`` is empty until tablets get one."""

    player_id: int
    name: str
    table: int
    club: str = ""
    series: str = ""
    category: str = ""
    licence: str = ""
    federation: str = ""
    access_token: str = ""


@dataclass(frozen=True, slots=True)
class TopLine:
    """One round of the game sheet (P5): rack in N5 notation, the top, the running total."""

    number: int
    rack: str
    word: str
    reference: str
    score: int
    cumulative: int
    scrabble: bool = False
    rejected: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """A player's round: what they played and what it was credited.

    ``kind`` is the outcome kind (``valid``, ``warning``, ``penalty``, ``zero``) or
    ``absent``; ``code`` the outcome code; ``reason`` the outcome's sentence in the active
    language (``wording.outcome_text``, never the engine's English); ``correction`` the
    arbiter's reason when the slip was corrected."""

    number: int
    word: str
    reference: str
    score: int
    kind: str = "valid"
    code: str = "ok"
    reason: str = ""
    claimed_score: int | None = None
    solo: bool = False
    correction: str = ""


@dataclass(frozen=True, slots=True)
class DecisionLine:
    """An arbiter's decision (warning, penalty, moyenne…) about a player on a round."""

    round_number: int
    player_id: int
    kind: str
    reason: str
    disciplinary: bool = False


@dataclass(frozen=True, slots=True)
class PlayerGameLine:
    """One player's game: every round and the game figures (``totals.PlayerGame``)."""

    player: PlayerInfo
    moves: tuple[PlayerMove, ...]
    total: int
    solo_rounds: tuple[int, ...] = ()
    solo_bonus: int = 0
    warnings: int = 0
    warning_penalty: int = 0
    penalties: int = 0

    @property
    def present(self) -> bool:
        return any(m.kind != "absent" for m in self.moves)


@dataclass(frozen=True, slots=True)
class GameData:
    """A game as the sheets print it. ``board`` holds the 225 squares after the last placed
    top, row-major from A1 (``.`` empty, uppercase tile, lowercase joker)."""

    tournament: TournamentInfo
    number: int
    rounds: tuple[TopLine, ...]
    players: tuple[PlayerGameLine, ...] = ()
    board: str = EMPTY_BOARD
    decisions: tuple[DecisionLine, ...] = ()
    finished: bool = False

    @property
    def top_total(self) -> int:
        return sum(r.score for r in self.rounds)


@dataclass(frozen=True, slots=True)
class RankingLine:
    """A line of a results sheet (P6); ``game_totals`` only in a tournament ranking."""

    rank: int
    player: PlayerInfo
    total: int
    negatif: int
    percent: Decimal
    solos: int = 0
    warnings: int = 0
    penalties: int = 0
    ex_aequo: bool = False
    game_totals: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranking:
    """A ranking with its title (``Partie 2``, ``Classement général``) and top total."""

    title: str
    top_total: int
    lines: tuple[RankingLine, ...]
    game_numbers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ResultsData:
    """Per-game rankings then the cumulative one (``None`` for a single-game sheet)."""

    tournament: TournamentInfo
    games: tuple[Ranking, ...]
    overall: Ranking | None = None

    @property
    def main(self) -> Ranking:
        """The ranking the sub-rankings and exports are made from."""
        return self.overall or self.games[-1]


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table of the room for the SIGLES export; ``player`` ``None`` = empty table."""

    table: int
    player: PlayerInfo | None
    total: int = 0


@dataclass(frozen=True, slots=True)
class SubRanking:
    """A series or category ranking: its label and (rank within group, overall line)."""

    label: str
    lines: tuple[tuple[int, RankingLine], ...] = field(default=())


# -- pure helpers ---------------------------------------------------------------------------
def mark_ex_aequo(lines: Sequence[RankingLine]) -> tuple[RankingLine, ...]:
    """Flag every line whose rank another line shares."""
    counts: dict[int, int] = defaultdict(int)
    for line in lines:
        counts[line.rank] += 1
    return tuple(replace(line, ex_aequo=counts[line.rank] > 1) for line in lines)


def sub_rankings(ranking: Ranking, key: Callable[[PlayerInfo], str]) -> tuple[SubRanking, ...]:
    """Rankings inside each group (``key`` gives a player's series or category), in the
    order of the overall ranking, ex aequo shared; players without a group are left out."""
    groups: dict[str, list[RankingLine]] = defaultdict(list)
    for line in ranking.lines:
        if label := key(line.player).strip():
            groups[label].append(line)
    out = []
    for label in sorted(groups, key=_group_order):
        ranked: list[tuple[int, RankingLine]] = []
        for i, line in enumerate(groups[label]):
            same = i and groups[label][i - 1].total == line.total
            ranked.append((ranked[-1][0] if same else i + 1, line))
        out.append(SubRanking(label, tuple(ranked)))
    return tuple(out)


def _group_order(label: str) -> tuple[int, int, str]:
    """Séries 1–7 then categories in the federation's order (``reports.groups``)."""
    return group_order(label)


# -- reads ----------------------------------------------------------------------------------
def tournament_info(tournament: Tournament) -> TournamentInfo:
    lexicon = tournament.lexicon.label if tournament.lexicon_id else ""
    day = tournament.created_at.date() if tournament.created_at else None
    return TournamentInfo(tournament.name, tournament.slug, day, lexicon)


def players_of(tournament: Tournament) -> dict[int, PlayerInfo]:
    """The registered players by ``Player`` id, in table order."""
    regs = Registration.objects.filter(tournament=tournament).select_related("player")
    out = {}
    for reg in regs.order_by("table_number"):
        p = reg.player
        out[p.pk] = PlayerInfo(
            player_id=p.pk,
            name=p.name,
            table=reg.table_number,
            club=p.club,
            series=p.series,
            category=p.category,
            licence=p.licence,
            federation=p.federation,
            access_token=str(getattr(reg, "access_token", "") or ""),
        )
    return out


def _top_lines(game: Game, rounds: Sequence[Any]) -> tuple[TopLine, ...]:
    bonuses = adapter.variant(game.variant_code).bonuses
    lines, cumulative = [], 0
    for rnd in rounds:
        chosen = rnd.top["chosen"]
        cumulative += rnd.top_score or 0
        lines.append(
            TopLine(
                number=rnd.number,
                rack=rnd.rack,
                word=chosen["word"],
                reference=chosen["coord"],
                score=rnd.top_score or 0,
                cumulative=cumulative,
                scrabble=chosen["placed"] in bonuses,
                rejected=tuple(d["rack"] for d in rnd.rejections or ()),
            )
        )
    return tuple(lines)


def _final_board(rounds: Sequence[Any]) -> str:
    placed = [r for r in rounds if r.top_placed_at is not None]
    if not placed:
        return rounds[0].board_before.replace("\n", "") if rounds else EMPTY_BOARD
    last = placed[-1]
    board = adapter.board(last.board_before)
    return board.with_tiles(new_tiles(board, adapter.move(last.top["chosen"]))).cells


def _moves(
    rounds: Sequence[Any],
    credited: Sequence[int],
    versions: dict[int, ProposalVersion],
    reg: Registration,
    game: Game,
    solos: Iterable[int],
) -> tuple[PlayerMove, ...]:
    solo_set = set(solos)
    out = []
    for rnd, score in zip(rounds, credited, strict=True):
        if reg.arrival_game > game.number:
            out.append(PlayerMove(rnd.number, "", "", 0, "absent", "absent"))
            continue
        if reg.arrival_game == game.number and rnd.number < reg.arrival_round:
            out.append(PlayerMove(rnd.number, "", "", 0, "zero", "zero.late_arrival"))
            continue
        v = versions.get(rnd.pk)
        if v is None:
            out.append(PlayerMove(rnd.number, "", "", 0, "zero", "zero.no_proposal"))
            continue
        out.append(
            PlayerMove(
                number=rnd.number,
                word=v.word,
                reference=v.reference,
                score=score,
                kind=v.outcome_kind,
                code=v.outcome_code,
                reason=wording.outcome_text(v.outcome_code, v.outcome_params),
                correction=v.reason,
                claimed_score=v.claimed_score,
                solo=rnd.number in solo_set,
            )
        )
    return tuple(out)


def game_data(game: Game, *, result: GameResult | None = None) -> GameData:
    """Everything the game sheet, arbiter sheet, player records and slips print."""
    tournament = game.tournament
    rounds = selectors.game_counted_rounds(game)
    result = result or selectors.game_outcomes(game)
    infos = players_of(tournament)
    regs = {
        r.player_id: r for r in Registration.objects.filter(tournament=tournament)
    }  # arrival of each player
    by_player: dict[int, dict[int, ProposalVersion]] = defaultdict(dict)
    for v in ProposalVersion.objects.filter(round__in=rounds, is_current=True):
        by_player[v.player_id][v.round_id] = v
    lines = []
    for pid, info in infos.items():
        pg = result.player(pid)
        if pg is None:
            continue
        moves = _moves(rounds, pg.rounds, by_player[pid], regs[pid], game, pg.solo_rounds)
        lines.append(
            PlayerGameLine(
                player=info,
                moves=moves,
                total=pg.total,
                solo_rounds=pg.solo_rounds,
                solo_bonus=pg.solo_bonus,
                warnings=pg.warnings,
                warning_penalty=pg.warning_penalty,
                penalties=pg.penalties,
            )
        )
    numbers = {r.pk: r.number for r in rounds}
    decisions = tuple(
        DecisionLine(numbers[d.round_id], d.player_id, d.kind, d.reason, d.disciplinary)
        for d in Decision.objects.filter(round__in=rounds).order_by("round__number", "id")
    )
    return GameData(
        tournament=tournament_info(tournament),
        number=game.number,
        rounds=_top_lines(game, rounds),
        players=tuple(lines),
        board=_final_board(rounds),
        decisions=decisions,
        finished=game.state == "finished",
    )


def _lines(
    standings: Sequence[Standing],
    infos: dict[int, PlayerInfo],
    per_game: Sequence[GameResult] = (),
) -> tuple[RankingLine, ...]:
    out = []
    for s in standings:
        info = infos.get(s.player_id) or PlayerInfo(s.player_id, f"#{s.player_id}", 0)
        games = []
        for res in per_game:
            pg = res.player(s.player_id)
            games.append(pg.total if pg else 0)
        out.append(
            RankingLine(
                rank=s.rank,
                player=info,
                total=s.total,
                negatif=s.negatif,
                percent=s.percent,
                solos=s.solos,
                warnings=s.warnings,
                penalties=s.penalties,
                game_totals=tuple(games),
            )
        )
    return mark_ex_aequo(out)


def results_data(tournament: Tournament, game: Game | None = None) -> ResultsData:
    """One game's ranking (``game``), or every game's then the tournament's."""
    infos = players_of(tournament)
    games = [game] if game is not None else list(tournament.games.order_by("number"))
    results = [selectors.game_outcomes(g) for g in games]
    rankings = tuple(
        Ranking(
            gettext("Partie %(n)s") % {"n": g.number},
            res.top_total,
            _lines(engine_game_standings(res), infos),
            (g.number,),
        )
        for g, res in zip(games, results, strict=True)
    )
    overall = None
    if game is None:
        standings = selectors.tournament_standings(tournament, results)
        overall = Ranking(
            gettext("Classement général"),
            sum(r.top_total for r in results),
            _lines(standings, infos, results),
            tuple(g.number for g in games),
        )
    return ResultsData(tournament_info(tournament), rankings, overall)


def tables_data(tournament: Tournament) -> tuple[TableLine, ...]:
    """Every table from 1 to the highest used, with its player and tournament total."""
    infos = players_of(tournament)
    totals = {s.player_id: s.total for s in selectors.tournament_standings(tournament)}
    by_table = {info.table: info for info in infos.values()}
    last = max(by_table, default=0)
    return tuple(
        TableLine(n, by_table.get(n), totals.get(by_table[n].player_id, 0) if n in by_table else 0)
        for n in range(1, last + 1)
    )


def game_record(game: Game) -> dict:
    """The ``tirage-game`` v1 record of a game (engine.duplicate.record, P5/P7): the rounds
    replayed from their source, each player's current proposal and outcome, the totals."""
    tournament = game.tournament
    rounds = list(game.rounds.order_by("number", "id"))
    lexicon_row = tournament.lexicon
    eg = adapter.engine_game(game, rounds, adapter.engine_lexicon(lexicon_row))
    counted = selectors.game_counted_rounds(game)
    result = selectors.game_outcomes(game)
    infos = players_of(tournament)
    regs = {r.player_id: r for r in Registration.objects.filter(tournament=tournament)}
    present = [pid for pid in infos if regs[pid].arrival_game <= game.number]
    players = []
    for pid in present:
        entry = {"id": str(pid), "name": infos[pid].name, "table": infos[pid].table}
        if regs[pid].arrival_game == game.number and regs[pid].arrival_round > 1:
            entry["arrival"] = regs[pid].arrival_round
        players.append(entry)
    versions = {
        (v.round_id, v.player_id): v
        for v in ProposalVersion.objects.filter(round__in=counted, is_current=True)
    }
    counted_ids = {r.pk for r in counted}
    reviews: dict[tuple[int, int], list] = {}
    for d in Decision.objects.filter(round__in=counted, kind="review").order_by("created_at", "id"):
        reviews.setdefault((d.round_id, d.player_id), []).append(d)
    round_players: dict[int, list[dict]] = {}
    placed = [r for r in rounds if r.top_placed_at is not None]
    for index, rnd in enumerate(placed):
        if rnd.pk not in counted_ids:
            continue
        entries = []
        for pid in present:
            v = versions.get((rnd.pk, pid))
            proposal = (
                adapter.proposal(
                    word=v.word,
                    reference=v.reference,
                    claimed_score=v.claimed_score,
                    source=v.source,
                    late=v.late,
                )
                if v
                else None
            )
            outcome = adapter.outcome(v) if v else adapter.no_proposal()
            choice = adapter.review_choice(v, reviews.get((rnd.pk, pid), ()))
            entries.append(player_entry(str(pid), proposal, outcome, review=choice))
        round_players[index] = entries
    record = game_to_record(
        eg,
        lexicon=eg_identity(lexicon_row),
        players=players,
        round_players=round_players,
        player_totals=[
            {**t, "player": str(t["player"])}
            for t in totals_json(result)
            if t["player"] in set(present)
        ],
    )
    var = adapter.variant(game.variant_code)
    record["scoring"] = scoring_json(
        adapter.scoring_settings(tournament, var), adapter.totals_settings(tournament, var)
    )
    return record


def eg_identity(row: Any) -> dict | None:
    """The lexicon identity a record names (the registered row's fields)."""
    if row is None:
        return None
    return {
        "name": row.name,
        "source": row.source,
        "version": row.version,
        "word_count": row.word_count,
        "sha256": row.sha256,
    }


def board_of(cells: str) -> Board:
    """The 225-square text as an engine board (for tests and renderers that need one)."""
    return Board(cells)
