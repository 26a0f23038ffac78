"""Reads for the printed documents: a game as the sheets print it (its tops, every
player's moves and figures, the final board, the decisions), the tables of the room, and
the ``tirage-game`` record of a game. Plain values (``tournaments.selectors.values``) built
from the rows, the figures from ``tournaments.selectors.outcomes``, engine values from the
adapter; the renderers never touch a model."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from engine.duplicate.record import GameRecord, game_to_record
from engine.duplicate.scoresheet import game_scores as record_game_scores
from engine.duplicate.scoresheet import player_entry, scoring_json, totals_json
from engine.duplicate.top import new_tiles
from engine.duplicate.totals import GameResult, game_result
from tournaments import adapter, wording
from tournaments.models import Decision, Game, ProposalVersion, Registration, Tournament
from tournaments.models.choices import GameState
from tournaments.selectors.games import counted_rounds, game_rounds
from tournaments.selectors.outcomes import game_outcomes, tournament_standings
from tournaments.selectors.players import arrivals, players_of
from tournaments.selectors.slips import versions_by_player
from tournaments.selectors.tournament import tournament_info
from tournaments.selectors.values import (
    EMPTY_BOARD,
    DecisionLine,
    GameData,
    PlayerGameLine,
    PlayerMove,
    TableLine,
    TopLine,
)


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
        if reg.arrival_game > game.number or reg.gone_by(game.number, rnd.number):
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
    rounds = counted_rounds(game)
    result = result or game_outcomes(game)
    infos = players_of(tournament)
    regs = arrivals(tournament)
    by_player = versions_by_player(rounds)
    lines = []
    for pid, info in infos.items():
        pg = result.player(pid)
        if pg is None:
            continue
        moves = _moves(rounds, pg.rounds, by_player.get(pid, {}), regs[pid], game, pg.solo_rounds)
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
        finished=game.state == GameState.FINISHED,
    )


def tables_data(tournament: Tournament) -> tuple[TableLine, ...]:
    """Every table from 1 to the highest used, with its player and tournament total."""
    infos = players_of(tournament)
    totals = {s.player_id: s.total for s in tournament_standings(tournament)}
    by_table = {info.table: info for info in infos.values()}
    last = max(by_table, default=0)
    return tuple(
        TableLine(n, by_table.get(n), totals.get(by_table[n].player_id, 0) if n in by_table else 0)
        for n in range(1, last + 1)
    )


def document_cells(tournament: Tournament, game: Game | None, *, per_player: bool = False) -> int:
    """The size of a document as ``DIRECT_CELLS`` counts it: the tournament's players times
    the games it covers (one with ``game``, else every game, at least one); ``per_player``:
    the players alone (a document whose cost does not grow with the games)."""
    players = Registration.objects.filter(tournament_id=tournament.pk).count()
    if per_player:
        return players
    games = 1 if game is not None else Game.objects.filter(tournament_id=tournament.pk).count()
    return players * max(1, games)


def game_record(game: Game) -> dict:
    """The ``tirage-game`` v1 record of a game (engine.duplicate.record, P5/P7): the rounds
    replayed from their source, each player's proposal, review and decisions read by
    ``adapter.player_round`` (as the standings read them), the outcome that counts, and
    the totals computed from those very outcomes, so the record passes its own check."""
    tournament = game.tournament
    rounds = game_rounds(game)
    lexicon_row = tournament.lexicon
    eg = adapter.engine_game(game, rounds, adapter.engine_lexicon(lexicon_row))
    counted = counted_rounds(game)
    infos = players_of(tournament)
    regs = arrivals(tournament)
    present = [
        pid
        for pid in infos
        if regs[pid].arrival_game <= game.number and not regs[pid].gone_by(game.number, 1)
    ]
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
    taken: dict[tuple[int, int], list] = defaultdict(list)
    for d in Decision.objects.filter(round__in=counted).order_by("created_at", "id"):
        taken[(d.round_id, d.player_id)].append(d)
    round_players: dict[int, list[dict]] = {}
    placed = [r for r in rounds if r.top_placed_at is not None]
    for index, rnd in enumerate(placed):
        if rnd.pk not in counted_ids:
            continue
        entries = []
        for pid in present:
            line = adapter.player_round(versions.get((rnd.pk, pid)), taken[(rnd.pk, pid)])
            entries.append(player_entry(str(pid), line.proposal, line.judged,
                                        review=line.review, decisions=line.decisions))  # fmt: skip
        round_players[index] = entries
    var = adapter.variant(game.variant_code)
    scoring = adapter.scoring_settings(tournament, var)
    totals = adapter.totals_settings(tournament, var)
    record = game_to_record(
        eg, lexicon=eg_identity(lexicon_row), players=players, round_players=round_players
    )
    record["scoring"] = scoring_json(scoring, totals)
    result = game_result(record_game_scores(GameRecord(record, var)), totals)
    record["totals"]["players"] = totals_json(result)
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
