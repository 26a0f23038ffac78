"""The game side of duplicate Scrabble as a plain library (no Django): draws, tops, games,
records (this package's ``bag``, ``racks``, ``endgame``, ``top``, ``game``, ``record``) and
the players' scoring (``proposals``, ``totals``).

The common names are re-exported here; the choices behind them are in docs/rules-choices.md.
"""

from engine.bag import Bag, Xoshiro256
from engine.duplicate.endgame import EndOfGame, end_before_draw
from engine.duplicate.game import Game, Round
from engine.duplicate.racks import (
    Draw,
    DrawOutcome,
    ManualSource,
    PredrawnSource,
    RackSource,
    SeededSource,
    format_rack,
    meets_minimum,
    required_minimum,
)
from engine.duplicate.record import Difference, GameRecord, game_to_record, load_record, replay
from engine.duplicate.top import TopChoice, choose_top, engine_top_finder
from engine.duplicate.variants import VARIANTS, Variant, get_variant

__all__ = [
    "VARIANTS",
    "Bag",
    "Difference",
    "Draw",
    "DrawOutcome",
    "EndOfGame",
    "Game",
    "GameRecord",
    "ManualSource",
    "PredrawnSource",
    "RackSource",
    "Round",
    "SeededSource",
    "TopChoice",
    "Variant",
    "Xoshiro256",
    "choose_top",
    "end_before_draw",
    "engine_top_finder",
    "format_rack",
    "game_to_record",
    "get_variant",
    "load_record",
    "meets_minimum",
    "replay",
    "required_minimum",
]
