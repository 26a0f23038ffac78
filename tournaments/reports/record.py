"""The game record file (``tirage-game`` v1, rules §7 P5/P7): export of a game built by
:func:`tournaments.reports.data.game_record`, and import of a record file as printable
data, so a game exported elsewhere can be printed (game sheet, player records…) here."""

from __future__ import annotations

from collections.abc import Mapping

from engine.board import Board
from engine.duplicate.record import GameRecord, load_record, move_from_json
from engine.duplicate.scoresheet import game_scores, scoring_settings
from engine.duplicate.top import new_tiles
from engine.duplicate.totals import game_result
from tournaments.reports.base import JSON, Rendered, slug
from tournaments.reports.data import (
    GameData,
    PlayerGameLine,
    PlayerInfo,
    PlayerMove,
    TopLine,
    TournamentInfo,
)


def record_json(record: Mapping, *, tournament_slug: str, game_number: int) -> Rendered:
    """The record as UTF-8 JSON (validated by ``load_record`` first: we never write a file
    we could not read back)."""
    checked = load_record(dict(record))
    content = checked.to_json().encode("utf-8")
    return Rendered(f"{slug(tournament_slug)}-partie-{game_number}.tirage.json", JSON, content)


def read_record(data: str | bytes) -> GameRecord:
    """Read and validate a record file; errors are ``EngineError`` coded ``record.*``."""
    return load_record(data)


def game_data_from_record(
    record: GameRecord, tournament: TournamentInfo, *, game_number: int = 1
) -> GameData:
    """The printable game of a record: tops, final board, players and their totals."""
    board = Board()
    bonuses = record.variant.bonuses
    tops = []
    for rnd in record.rounds:
        if rnd["status"] != "played":
            continue
        move = move_from_json(rnd["top"], f"round {rnd['number']}")
        board = board.with_tiles(new_tiles(board, move))
        rejected = tuple(d["rack"] for d in rnd["draws"] if d["rejected"])
        tops.append(TopLine(rnd["number"], rnd["rack"], move.word, move.coord, move.score,
                            rnd["cumulative"], move.placed in bonuses, rejected))  # fmt: skip
    _, totals = scoring_settings(record)
    result = game_result(game_scores(record), totals)
    played = [r for r in record.rounds if r["status"] == "played"]
    lines = []
    for index, p in enumerate(record.data["players"]):
        pg = result.player(p["id"])
        info = PlayerInfo(index + 1, str(p.get("name") or p["id"]), int(p.get("table") or 0))
        moves = []
        for i, rnd in enumerate(played):
            entry = next((e for e in rnd["players"] if e["player"] == p["id"]), None)
            outcome = entry and entry.get("outcome")
            if not outcome:
                moves.append(PlayerMove(rnd["number"], "", "", 0, "absent", "absent"))
                continue
            proposal = entry.get("proposal") or {}
            moves.append(
                PlayerMove(
                    rnd["number"],
                    proposal.get("word", ""),
                    proposal.get("reference", ""),
                    pg.rounds[i] if pg else outcome["score"],
                    outcome["kind"],
                    outcome["code"],
                    claimed_score=proposal.get("claimed_score"),
                    solo=bool(pg and rnd["number"] in pg.solo_rounds),
                )
            )
        lines.append(
            PlayerGameLine(
                info,
                tuple(moves),
                pg.total if pg else 0,
                pg.solo_rounds if pg else (),
                pg.solo_bonus if pg else 0,
                pg.warnings if pg else 0,
                pg.warning_penalty if pg else 0,
                pg.penalties if pg else 0,
            )  # fmt: skip
        )
    return GameData(tournament, game_number, tuple(tops), tuple(lines), board.cells,
                    finished=record.data["end"] is not None)  # fmt: skip
