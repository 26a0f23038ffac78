"""The values the renderers print, re-exported from ``tournaments.selectors.values`` (kept
so ``from tournaments.reports.data import GameData`` still works). The reads that build them
live in ``tournaments.selectors``: ``game_data``, ``results_data``, ``tables_data``,
``game_record``, ``players_of``, ``tournament_info``. Nothing here reads the database."""

from __future__ import annotations

from tournaments.selectors.values import (
    EMPTY_BOARD,
    UNCLASSED,
    DecisionLine,
    GameData,
    PlayerGameLine,
    PlayerInfo,
    PlayerMove,
    Ranking,
    RankingLine,
    ResultsData,
    SubRanking,
    TableLine,
    TopLine,
    TournamentInfo,
    mark_ex_aequo,
)

__all__ = [
    "EMPTY_BOARD",
    "UNCLASSED",
    "DecisionLine",
    "GameData",
    "PlayerGameLine",
    "PlayerInfo",
    "PlayerMove",
    "Ranking",
    "RankingLine",
    "ResultsData",
    "SubRanking",
    "TableLine",
    "TopLine",
    "TournamentInfo",
    "mark_ex_aequo",
]
