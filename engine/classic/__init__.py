"""The classic formula (partie libre) as a plain library (no Django): 2 to 4 players take
turns on one board with their own racks (this package's ``settings``, ``opening``,
``game``, ``endgame``, ``players``, ``record``), the score sheet a table keeps by hand
(``sheet``), and its tournaments' pairings and standings (``pairings``, ``standings``).

Board, tiles, lexicon, move checking, scoring and the seeded bag are the engine's shared
modules; the choices behind the rules are in docs/classic.md.
"""

from engine.classic.endgame import Adjustment, adjust, rack_value, ranks
from engine.classic.game import Challenge, End, Game, Turn
from engine.classic.opening import OpeningDraw, draw_first_player
from engine.classic.pairings import SYSTEMS, Table, pair_round
from engine.classic.players import EnginePlayer, Exchange, Pass, Play, apply, play_to_end
from engine.classic.record import ClassicRecord, Difference, game_to_record, load_record, replay
from engine.classic.settings import CHALLENGE_RULES, TIE_BREAKS, Settings
from engine.classic.sheet import SheetEnd, SheetLine, SheetState, SheetTurn, parse_turn, sheet_state
from engine.classic.standings import Result, Row, TournamentSettings, standings

__all__ = [
    "CHALLENGE_RULES",
    "SYSTEMS",
    "TIE_BREAKS",
    "Adjustment",
    "Challenge",
    "ClassicRecord",
    "Difference",
    "End",
    "EnginePlayer",
    "Exchange",
    "Game",
    "OpeningDraw",
    "Pass",
    "Play",
    "Result",
    "Row",
    "Settings",
    "SheetEnd",
    "SheetLine",
    "SheetState",
    "SheetTurn",
    "Table",
    "TournamentSettings",
    "Turn",
    "adjust",
    "apply",
    "draw_first_player",
    "game_to_record",
    "load_record",
    "pair_round",
    "parse_turn",
    "play_to_end",
    "rack_value",
    "ranks",
    "replay",
    "sheet_state",
    "standings",
]
