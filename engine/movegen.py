"""Every legal move of a position, with its exact FISF score (the compiled core does the work).

Three ways to ask, all sorted by :meth:`engine.moves.Move.sort_key` (score descending, then
row, column, horizontal before vertical, then word):

* :func:`generate_moves` — every legal move;
* :func:`find_top` — the best score and every move reaching it, without building a Python
  object for the others and without even generating the moves that provably cannot reach
  it (see docs/engine.md, "Top search"); ``count_moves=True`` also counts every legal move,
  at the price of the full enumeration;
* :func:`best_moves` — the ``n`` best.

A move is identified by its reference and its word, jokers in lower case (both those placed
by the move and those already on the board inside the main word). A one-tile move is listed
once: with its horizontal reference when it forms a horizontal word of two letters or more,
else with its vertical one; both words count in its score either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine import _core
from engine.board import MAX_RACK, Board, Rack
from engine.lexicon.automaton import Lexicon
from engine.moves import Move
from engine.notation import Reference
from engine.tiles import (
    CLASSIC_BONUSES,
    JOKER,
    LETTER_MULTIPLIERS,
    LETTERS,
    VALUES,
    WORD_MULTIPLIERS,
)

__all__ = ["Top", "best_moves", "find_top", "generate_moves"]

_core.configure(Move, Reference)

_VALUES = tuple(VALUES[ch] for ch in LETTERS + JOKER)
_ALL, _TOP, _BEST, _TOP_COUNTED = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Top:
    """The best score of a position, every move reaching it, and the number of legal moves.

    ``score`` is 0 and ``moves`` empty when no legal move exists. ``n_moves`` is ``None``
    unless :func:`find_top` was asked to count (the pruned search does not see every move).
    """

    score: int
    moves: tuple[Move, ...]
    n_moves: int | None


def _bonus_table(bonuses: Mapping[int, int]) -> tuple[int, ...]:
    if bonuses is CLASSIC_BONUSES:  # the usual case, built once (a no-joker top is ~50 µs)
        return _CLASSIC_TABLE
    return tuple(int(bonuses.get(n, 0)) for n in range(MAX_RACK + 1))


_CLASSIC_TABLE = tuple(int(CLASSIC_BONUSES.get(n, 0)) for n in range(MAX_RACK + 1))


def _limit(max_tiles: int | None) -> int:
    if max_tiles is None:
        return MAX_RACK
    if max_tiles < 0:
        raise ValueError(f"max_tiles must be positive or None, not {max_tiles}")
    return min(int(max_tiles), MAX_RACK)


def _arguments(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    bonuses: Mapping[int, int],
    max_tiles: int | None,
) -> tuple[_core.Gaddag, str, str, tuple[int, ...], bytes, bytes, tuple[int, ...], int]:
    return (
        lexicon.handle,
        board.cells,
        rack.tiles,
        _VALUES,
        LETTER_MULTIPLIERS,
        WORD_MULTIPLIERS,
        _bonus_table(bonuses),
        _limit(max_tiles),
    )


def _moves(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    bonuses: Mapping[int, int],
    max_tiles: int | None,
    mode: int,
    n: int = 0,
) -> list[Move]:
    """Modes ``_ALL`` and ``_BEST``: the moves, built by the core as ``Move`` (configured)."""
    moves: list[Move] = _core.generate(
        *_arguments(board, rack, lexicon, bonuses, max_tiles), mode, n
    )
    return moves


def _top(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    bonuses: Mapping[int, int],
    max_tiles: int | None,
    mode: int,
) -> tuple[int, list[Move], int | None]:
    """Modes ``_TOP`` and ``_TOP_COUNTED``: the top score, its moves, the moves counted."""
    found: tuple[int, list[Move], int | None] = _core.generate(
        *_arguments(board, rack, lexicon, bonuses, max_tiles), mode, 0
    )
    return found


def anchor_bounds(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    bonuses: Mapping[int, int] = CLASSIC_BONUSES,
    max_tiles: int | None = None,
) -> list[tuple[bool, int, int, int, int]]:
    """Test hook for the pruned top search: ``(vertical, line, position, bound, best)`` for
    every anchor square of both directions, where ``bound`` is the upper bound the search
    prunes with and ``best`` the best score generated from that anchor by the full
    enumeration (-1 when none). The search is exact only if ``bound >= best`` everywhere."""
    return _core.anchor_bounds(*_arguments(board, rack, lexicon, bonuses, max_tiles))


def board_tables(
    board: Board, lexicon: Lexicon, *, kept: bool = True
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Test hook for the boards the core keeps between calls (docs/engine.md, "Kept
    boards"): ``(xset, xsum, xflag, anchor, tiles)`` of ``board``, each table 450 entries,
    view 0 (horizontal moves, square ``row * 15 + col``) then view 1 (vertical moves, square
    ``225 + col * 15 + row``). ``xset`` is the cross-check as a bit set (bit 0 = A), ``xsum``
    the face value of the perpendicular tiles, ``xflag`` 1 when a perpendicular word is
    formed, ``anchor`` 1 on the squares a move must start from; all 0 on covered squares.
    ``kept=True`` goes through the kept boards exactly as a move search does (updating them),
    ``kept=False`` computes afresh and leaves them alone."""
    return _core.board_tables(lexicon.handle, board.cells, _VALUES, kept)


def generate_moves(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    bonuses: Mapping[int, int] = CLASSIC_BONUSES,
    max_tiles: int | None = None,
) -> list[Move]:
    """Every legal move of ``rack`` on ``board``, sorted, each listed once.

    ``bonuses`` maps a number of tiles placed to the bonus added after the multipliers
    (the standard game's ``{7: 50}``); ``max_tiles`` caps the tiles placeable in one move
    (7 for the "7 sur 8" variant), ``None`` meaning the whole rack.
    """
    return _moves(board, rack, lexicon, bonuses, max_tiles, _ALL)


def find_top(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    bonuses: Mapping[int, int] = CLASSIC_BONUSES,
    max_tiles: int | None = None,
    count_moves: bool = False,
) -> Top:
    """The top score and every move reaching it (sorted), ties included.

    Anchors are searched best bound first and any branch whose score bound is below the best
    score already found is cut, so only a fraction of the moves is generated; with
    ``count_moves`` nothing is cut and ``Top.n_moves`` is the number of legal moves.
    """
    mode = _TOP_COUNTED if count_moves else _TOP
    score, moves, n_moves = _top(board, rack, lexicon, bonuses, max_tiles, mode)
    return Top(score=score, moves=tuple(moves), n_moves=n_moves)


def best_moves(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    n: int,
    *,
    bonuses: Mapping[int, int] = CLASSIC_BONUSES,
    max_tiles: int | None = None,
) -> list[Move]:
    """The ``n`` first moves of :func:`generate_moves` (fewer when fewer exist)."""
    if n <= 0:
        return []
    return _moves(board, rack, lexicon, bonuses, max_tiles, _BEST, n)
