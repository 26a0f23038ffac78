"""The classic formula (partie libre) as a plain library (no Django): 2 to 4 players take
turns on one board with their own racks (this package's ``settings``, ``opening``,
``game``, ``endgame``, ``players``, ``record``).

Board, tiles, lexicon, move checking, scoring and the seeded bag are the engine's shared
modules; the choices behind the rules are in docs/classic.md.
"""

from engine.classic.endgame import Adjustment, adjust, rack_value, ranks
from engine.classic.game import Challenge, End, Game, Turn
from engine.classic.opening import OpeningDraw, draw_first_player
from engine.classic.players import EnginePlayer, Exchange, Pass, Play, apply, play_to_end
from engine.classic.record import ClassicRecord, Difference, game_to_record, load_record, replay
from engine.classic.settings import CHALLENGE_RULES, TIE_BREAKS, Settings

__all__ = [
    "CHALLENGE_RULES",
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
    "Settings",
    "Turn",
    "adjust",
    "apply",
    "draw_first_player",
    "game_to_record",
    "load_record",
    "play_to_end",
    "rack_value",
    "ranks",
    "replay",
]
