"""A whole game between engine players, turn by turn (the CLI and the tests use it)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards.game import CardGame, Turn
from engine.cards.players import LEVELS, STRONG, Action, engine_action
from engine.errors import EngineError

#: A safety net: engine games end in 20 to 40 turns (bench/cards_engine.py).
MAX_TURNS = 1000


def action_of(game: CardGame, seat: int, level: str) -> Action:
    return engine_action(game.table, game.hands[seat], len(game.deck), game.lexicon, level)


def apply(game: CardGame, seat: int, action: Action) -> Turn:
    """Carry out ``action`` for ``seat``; a move stands unchallenged (engine players are right)."""
    if action.kind == "play":
        game.play(seat, action.placed)
        return game.accept()
    if action.kind == "exchange":
        return game.exchange(seat, action.cards)
    return game.pass_turn(seat)


def play_engine_game(
    players: int, seed: int, lexicon, levels: Sequence[str] | None = None, *, after_turn=None
) -> CardGame:
    """Play a seeded game between engine seats to its end (strict: only valid words)."""
    levels = list(levels or [STRONG] * players)
    if len(levels) != players or any(level not in LEVELS for level in levels):
        raise EngineError("game.levels", f"One level per player, among: {', '.join(LEVELS)}.")
    game = CardGame(players, seed, lexicon=lexicon, strict=True)
    game.levels = levels
    while not game.over:
        if len(game.history) > MAX_TURNS:  # exchanges forever: never seen, a bug if it happens
            raise RuntimeError(f"seed {seed}: no end after {MAX_TURNS} turns")
        seat = game.current
        turn = apply(game, seat, action_of(game, seat, levels[seat]))
        if after_turn is not None:
            after_turn(game, turn)
    return game
