"""Choosing the top among tied moves (rules §2 T2, T6) and placing it on the board.

The score comes from the move generator; this module only decides *which* of the moves
that reach it is placed. The rules fix two things (T6.1: keep the joker(s) when a tied move
allows it; T6.2: a move that ends the game wins) and leave the rest to the arbiter; the
default among what is left is the engine's listing order (``Move.sort_key``: reference in
board order, horizontal first, then the word), a convenience the arbiter may override.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.bag import canonical
from engine.board import Board, Rack
from engine.check import check_move
from engine.duplicate.endgame import end_before_draw
from engine.duplicate.values import TopChoice as TopChoice
from engine.errors import EngineError
from engine.moves import Move, new_tiles, rack_tiles_used
from engine.tiles import JOKER

if TYPE_CHECKING:
    from engine.duplicate.variants import Variant
    from engine.lexicon.automaton import Lexicon


class TopLike(Protocol):
    """What a top finder returns: ``engine.movegen.Top`` or a test stub."""

    @property
    def score(self) -> int: ...
    @property
    def moves(self) -> Sequence[Move]: ...


TopFinder = Callable[[Board, Rack], TopLike]


def jokers_from_rack(board: Board, move: Move) -> int:
    """Jokers the move takes from the rack. ``Move.word`` lowercases board jokers too."""
    return rack_tiles_used(board, move).count(JOKER)


def remaining_after(board: Board, move: Move, remaining: str) -> str:
    """The unplayed tiles once the move is down (``remaining`` includes the rack)."""
    left = Counter(remaining)
    left.subtract(rack_tiles_used(board, move))
    if any(n < 0 for n in left.values()):
        raise ValueError(f"{move} uses tiles that are not in play")  # generator bug
    return "".join(left.elements())


def joker_swap(board: Board, move: Move, bag: Counter[str]) -> str:
    """Joker game (V1): the letter the bag gives to replace the move's joker, or ``""``.

    The joker comes back while its letter is still in the bag; otherwise it stays put.
    """
    for ch in new_tiles(board, move).values():
        if ch.islower() and bag[ch.upper()]:
            return ch.upper()
    return ""


def ends_game(board: Board, move: Move, remaining: str, swap: str = "") -> bool:
    """T6.2: whether the game ends (E1/E3) right after the move (and the joker's swap)."""
    left = remaining_after(board, move, remaining)
    if swap:
        left = left.replace(swap, JOKER, 1)
    return end_before_draw(left) is not None


def eligible_moves(
    board: Board,
    tied: Sequence[Move],
    remaining: str,
    *,
    ending: Callable[[Move], bool] | None = None,
) -> tuple[tuple[Move, ...], dict[Move, str]]:
    """The tied moves the rules allow, and for each other one the rule that excludes it.

    T2: on an empty board only horizontal readings (the vertical ones are their mirror).
    T6.1: fewest jokers from the rack. T6.2: among those, the moves that end the game.
    ``ending`` (does a move end the game?) defaults to :func:`ends_game` without a swap.
    """
    moves = sorted(tied, key=Move.sort_key)
    excluded: dict[Move, str] = {}

    def narrow(kept: list[Move], rule: str) -> None:
        nonlocal moves
        if kept and len(kept) < len(moves):
            excluded.update((m, rule) for m in moves if m not in kept)
            moves = kept

    if board.is_empty():
        narrow([m for m in moves if m.reference.horizontal], "T2")
    fewest = min(jokers_from_rack(board, m) for m in moves)
    narrow([m for m in moves if jokers_from_rack(board, m) == fewest], "T6.1")
    if ending is None:
        narrow([m for m in moves if ends_game(board, m, remaining)], "T6.2")
    else:
        narrow([m for m in moves if ending(m)], "T6.2")
    return tuple(moves), excluded


_WHY = {
    "T2": "the first top is announced horizontally",
    "T6.1": "a tied move keeps more jokers on the rack, and keeping the joker is mandatory",
    "T6.2": "a tied move ends the game, and such a move is mandatory",
}


def choose_top(
    board: Board,
    top: TopLike,
    remaining: str,
    *,
    choice: Move | None = None,
    ending: Callable[[Move], bool] | None = None,
) -> TopChoice:
    """Pick the top to place: the arbiter's ``choice`` if the rules allow it, else the default.

    Raises ``EngineError`` ``top.not_tied`` / ``top.not_allowed`` for a choice the rules
    refuse (with the rule in the sentence).
    """
    if not top.moves:
        raise ValueError("choose_top needs at least one move")  # callers check for no move
    tied = tuple(sorted(top.moves, key=Move.sort_key))
    eligible, excluded = eligible_moves(board, tied, remaining, ending=ending)
    if choice is None:
        return TopChoice(top.score, tied, eligible, eligible[0])
    key = (choice.reference, choice.word)
    match = next((m for m in tied if (m.reference, m.word) == key), None)
    if match is None:
        raise EngineError(
            "top.not_tied",
            f"{choice.coord} {choice.word} is not one of the moves that reach the top of "
            f"{top.score} points.",
            coord=choice.coord,
            word=choice.word,
            score=top.score,
        )
    if match in excluded:
        rule = excluded[match]
        raise EngineError(
            "top.not_allowed",
            f"{match.coord} {match.word} cannot be the top: {_WHY[rule]} ({rule}).",
            rule=rule,
            coord=match.coord,
            word=match.word,
        )
    return TopChoice(top.score, tied, eligible, match, "arbiter")


def engine_top_finder(lexicon: Lexicon, variant: Variant) -> TopFinder:
    """A top finder on the compiled generator with the variant's bonuses and tile limit."""
    from engine.movegen import find_top

    def finder(board: Board, rack: Rack) -> TopLike:
        return find_top(board, rack, lexicon, bonuses=variant.bonuses, max_tiles=variant.max_tiles)

    return finder


@dataclass(frozen=True, slots=True)
class StoredTop:
    """A round's top as stored (its tied moves and score): a ``TopLike`` read, not searched.
    No moves means the rack was rejected for having none (R1: ``no_move``)."""

    score: int
    moves: tuple[Move, ...] = ()


class StoredTops:
    """A top finder that answers from stored tops and searches only what it does not know.

    Replaying a game to draw, place or cancel its current round needs every past round's
    top, and a move search per round made drawing round N cost N searches under the game's
    lock. The tops are stored once computed, so ``known`` maps ``(board text, rack in bag
    order)`` to them; each stored move is checked on the board (fits the rack, scores what
    was stored, every word in the lexicon): a few look-ups instead of a search. Anything
    else (the round being drawn) goes to ``search``; ``searches`` counts those calls.
    """

    def __init__(
        self,
        known: dict[tuple[str, str], StoredTop],
        search: TopFinder,
        *,
        lexicon: Any = None,
        variant: Any = None,
    ) -> None:
        self._known, self._search = known, search
        self._lexicon, self._variant = lexicon, variant
        self.searches = 0

    @staticmethod
    def key(board: Board, rack: Rack | str) -> tuple[str, str]:
        tiles = rack.tiles if isinstance(rack, Rack) else Rack.parse(rack).tiles
        return board.to_text(), canonical(tiles)

    def __call__(self, board: Board, rack: Rack) -> TopLike:
        stored = self._known.get(self.key(board, rack))
        if stored is None:
            self.searches += 1
            return self._search(board, rack)
        for move in stored.moves:
            self._check(board, rack, move)
        return stored

    def _check(self, board: Board, rack: Rack, move: Move) -> None:
        limits = {}
        if self._variant is not None:
            limits = {"bonuses": self._variant.bonuses, "max_tiles": self._variant.max_tiles}
        try:
            checked = check_move(board, rack, move.reference, move.word, lexicon=self._lexicon,
                                 **limits)  # fmt: skip
        except EngineError as error:
            raise RuntimeError(f"stored top {move} does not fit: {error}") from error  # a bug
        if checked.score != move.score or checked.invalid_words:
            raise RuntimeError(f"stored top {move} is not legal here: {checked}")  # a bug
