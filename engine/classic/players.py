"""Engine players for classic games: ``best`` plays the top score, ``weak`` a lower move.

They exist to play whole games for tests, demonstrations and the CLI, not to play well:
neither keeps a balanced rack nor challenges (the generator only offers valid words).
With no legal move a player exchanges its whole rack while the bag allows it, else passes.

``weak`` draws, with its own seeded generator, one of the ten best moves that score less
than the top (the top itself when every move ties), so its games stay reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bag import MASK64, Xoshiro256, splitmix64
from engine.board import Rack
from engine.classic.game import Game, Turn
from engine.errors import EngineError

LEVELS = ("best", "weak")
WEAK_CHOICES = 10


@dataclass(frozen=True, slots=True)
class Play:
    coord: str
    word: str


@dataclass(frozen=True, slots=True)
class Exchange:
    tiles: str


@dataclass(frozen=True, slots=True)
class Pass:
    pass


Action = Play | Exchange | Pass


def player_seed(game_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s own generator, derived from the game's seed."""
    return splitmix64((game_seed + 0x5EED * (seat + 1)) & MASK64)[1]


class EnginePlayer:
    """Chooses the action of one seat from the board and its own rack only."""

    def __init__(self, lexicon: Any, level: str = "best", seed: int = 0) -> None:
        if level not in LEVELS:
            raise EngineError(
                "player.level", f"An engine player's level is best or weak, not {level!r}."
            )
        self.lexicon = lexicon
        self.level = level
        self._rng = Xoshiro256(seed)

    def choose(self, game: Game) -> Action:
        from engine.movegen import best_moves

        seat = game.current
        if seat is None:  # play_to_end stops at the end
            raise RuntimeError("no player to move: the game is over")
        rack = Rack(game.racks[seat])
        bonuses = game.settings.bonuses
        wanted = 1 if self.level == "best" else 4 * WEAK_CHOICES
        moves = best_moves(game.board, rack, self.lexicon, wanted, bonuses=bonuses)
        if not moves:
            if len(game.bag) >= game.settings.exchange_minimum:
                return Exchange(rack.tiles)
            return Pass()
        if self.level == "weak":
            lower = [m for m in moves if m.score < moves[0].score][:WEAK_CHOICES] or moves
            move = lower[self._rng.below(len(lower))]
        else:
            move = moves[0]
        return Play(move.coord, move.word)


def apply(game: Game, action: Action, *, challenged_by: int | None = None) -> Turn:
    """Carry out an action on the game."""
    if isinstance(action, Play):
        return game.play(action.coord, action.word, challenged_by=challenged_by)
    if isinstance(action, Exchange):
        return game.exchange(action.tiles)
    return game.pass_turn()


def play_to_end(game: Game, players: list[EnginePlayer]) -> Game:
    """Let the engine players play until the game ends."""
    while game.current is not None:
        apply(game, players[game.current].choose(game))
    return game
