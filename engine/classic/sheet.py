"""The electronic score sheet of a classic game (seed page 004), as pure functions.

At a real table the players keep their racks to themselves, so a sheet never knows a rack.
What it knows is what is typed, turn after turn, in playing order: a move (reference and
word), which the sheet fits on its own board and scores as the engine scores any move; a
bare score, when the table only keeps the points (the board is then not followed for that
turn); a pass or an exchange (0). From the moves it also follows the tiles, as a player's
tracking sheet does: the letters not yet on the board are the bag and every rack, and the
"unseen" letters of one player are those minus their own rack, when they type it.

The sheet ends with page 004's two lines: « lettres restantes » (each player's tiles left,
typed as a value or as the letters, subtracted) and « partie terminée » (the one who went
out adds the others' total; after a blocked game nobody adds), by ``endgame.adjust`` and
``endgame.ranks`` like an engine game. Everything here is recomputed from the typed lines,
so a corrected line changes what follows it and a later move that no longer fits is named.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bag import canonical
from engine.board import EMPTY, SIZE, Board, Rack, fold_text
from engine.check import check_move, normalise_word
from engine.classic.endgame import Adjustment, adjust, rack_value, ranks
from engine.classic.settings import MAX_PLAYERS, MIN_PLAYERS, TIE_BREAKS
from engine.errors import EngineError
from engine.moves import Move, new_tiles
from engine.notation import parse_reference
from engine.tiles import COUNTS, JOKER

#: What a sheet line is: a move scored on the sheet's board, a bare score, a pass, an
#: exchange (the last two score 0 and leave the board as it was).
KINDS = ("move", "score", "pass", "exchange")
#: A bare score typed on a sheet: a challenge penalty may be negative (docs/classic.md).
SCORE_LOW, SCORE_HIGH = -500, 2000
_PASS = {"PASSE", "PASSER", "PASS", "-"}
_EXCHANGE = {"ECHANGE", "ECHANGER", "CHANGE"}
_INTEGER = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True, slots=True)
class SheetTurn:
    """One typed line: ``kind`` (``KINDS``), the move's ``coord`` and ``word`` (lowercase
    letters are jokers) or the bare ``score``."""

    kind: str
    coord: str = ""
    word: str = ""
    score: int = 0

    def text(self) -> str:
        """The line as it would be typed again (a correction form shows it)."""
        if self.kind == "move":
            return f"{self.coord} {self.word}"
        if self.kind == "score":
            return str(self.score)
        return "passe" if self.kind == "pass" else "échange"


@dataclass(frozen=True, slots=True)
class SheetLine:
    """A line once counted: its ``number`` and ``player`` (0-based, in playing order), the
    turn, the ``move`` fitted on the board (``None`` for a bare score, a pass or an
    exchange), its ``score``, the tiles it put down (``placed``, ``?`` for a joker) and
    every player's total after it."""

    number: int
    player: int
    turn: SheetTurn
    move: Move | None
    score: int
    placed: str
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SheetEnd:
    """Page 004's two end lines as typed: ``left`` is each player's « lettres restantes »
    (a value such as ``9``, or the letters such as ``QE``); ``went_out`` the player who
    played their last tile (``None``: a blocked game, nobody adds)."""

    left: tuple[str, ...]
    went_out: int | None


@dataclass(frozen=True, slots=True)
class SheetState:
    """Everything a sheet shows: the counted ``lines``, the ``board``, the ``totals`` before
    the end lines, the letters not on the board (``not_played``: bag and racks), whether
    every line was a move or a pass (``tracked``: otherwise a bare score left letters out of
    the count) and, once the end lines are typed, the ``adjustments`` and ``ranks``."""

    players: int
    lines: tuple[SheetLine, ...]
    board: Board
    totals: tuple[int, ...]
    not_played: str
    tracked: bool
    adjustments: tuple[Adjustment, ...] | None = None
    ranks: tuple[int, ...] | None = None

    @property
    def next_player(self) -> int:
        """Whose turn the next line is (turns go round in playing order)."""
        return len(self.lines) % self.players

    @property
    def finals(self) -> tuple[int, ...]:
        """The scores after the end lines, or the running totals before them."""
        if self.adjustments is None:
            return self.totals
        return tuple(a.final for a in self.adjustments)

    def unseen(self, rack: str = "") -> str:
        """The letters a player cannot see (bag and the other racks): the letters not on the
        board minus ``rack``, the player's own tiles as they type them."""
        return unseen_tiles(self.not_played, rack)


def parse_turn(text: str) -> SheetTurn:
    """Read a typed line: ``H8 CHAT`` (a move; a lowercase letter is a joker), ``23`` (a
    bare score), ``passe`` or ``-``, ``échange``."""
    words = (text or "").split()
    if not words:
        raise EngineError("sheet.empty", "Type a move (H8 CHAT), a score, passe or échange.")
    head = fold_text(words[0]).upper()
    if len(words) == 1 and _INTEGER.match(words[0]):
        score = int(words[0])
        if not SCORE_LOW <= score <= SCORE_HIGH:
            raise EngineError(
                "sheet.score_range",
                f"A score typed on a sheet is from {SCORE_LOW} to {SCORE_HIGH}.",
                low=SCORE_LOW,
                high=SCORE_HIGH,
            )
        return SheetTurn("score", score=score)
    if len(words) == 1 and head in _PASS:
        return SheetTurn("pass")
    if head in _EXCHANGE:
        return SheetTurn("exchange")
    if len(words) != 2:
        raise EngineError(
            "sheet.line",
            "Type a move as a reference and a word (H8 CHAT), a score, passe or échange.",
            line=text.strip(),
        )
    return SheetTurn("move", coord=words[0].upper(), word=words[1])


def _required(word: str, board: Board, coord: str) -> str:
    """The rack a move needs: the word's letters on empty squares (``?`` for a lowercase
    joker). The sheet knows no rack, so it lends the move exactly these tiles; a word
    running off the board is left to ``check_move`` to refuse."""
    ref = parse_reference(coord)
    letters = normalise_word(word)
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    need = []
    for i, letter in enumerate(letters):
        row, col = ref.row + dr * i, ref.col + dc * i
        if row < SIZE and col < SIZE and board.at(row, col) == EMPTY:
            need.append(JOKER if letter.islower() else letter.upper())
    return "".join(need)


def score_move(board: Board, coord: str, word: str, not_played: str, rack_size: int = 7) -> Move:
    """Fit ``word`` at ``coord`` on the sheet's ``board`` and score it (the engine's
    ``check_move``, the seven-tile bonus included). The tiles it puts down must still be
    among the letters ``not_played``: a third Z is refused. No lexicon is consulted: a
    sheet records what was played, a challenge is settled at the table."""
    rack = _required(word, board, coord)
    if len(rack) > rack_size:
        raise EngineError(
            "move.too_many_tiles",
            f"At most {rack_size} tiles may be placed in one move.",
            max_tiles=rack_size,
        )
    missing = Counter(rack) - Counter(not_played)
    if missing[JOKER]:
        raise EngineError(
            "sheet.jokers",
            "A lowercase letter is a joker, and not that many jokers are left: type the word "
            "in capitals, a joker's letter alone in lowercase.",
            jokers=Counter(not_played)[JOKER],
        )
    if missing:
        letter = sorted(missing)[0]
        raise EngineError(
            "sheet.tiles_gone",
            f"Every {letter} is already on the board.",
            letter="joker" if letter == JOKER else letter,
        )
    checked = check_move(board, Rack(rack), coord, word)
    return Move(checked.reference, checked.word, checked.score, checked.placed)


def unseen_tiles(not_played: str, rack: str = "") -> str:
    """``not_played`` minus the tiles of ``rack`` (typed freely: accents folded, ``?`` for a
    joker); a tile the rack cannot hold is refused."""
    tiles = Rack.parse(rack).tiles
    extra = Counter(tiles) - Counter(not_played)
    if extra:
        raise EngineError(
            "sheet.rack_unseen",
            f"The rack {tiles} holds a tile already on the board.",
            rack=tiles,
        )
    left = Counter(not_played)
    left.subtract(tiles)
    return canonical((+left).elements())


def _left(text: str, not_played: Counter[str]) -> tuple[int, int | None]:
    """A « lettres restantes » entry: a value (``9``) or the letters (``QE``): its value,
    and the number of tiles when letters were typed (``None`` otherwise)."""
    text = (text or "").strip()
    if _INTEGER.match(text):
        value = int(text)
        if value < 0:
            raise EngineError("end.negative", "The value of the tiles left cannot be negative.")
        return value, None
    if not text or text == "-":
        return 0, 0
    tiles = Rack.parse(text).tiles
    if Counter(tiles) - not_played:
        raise EngineError(
            "sheet.left_unseen",
            f"The letters {tiles} are not all still off the board.",
            letters=tiles,
        )
    return rack_value(tiles), len(tiles)


def sheet_end(
    totals: Sequence[int], end: SheetEnd, not_played: str, tie_break: str = "ex_aequo"
) -> tuple[tuple[Adjustment, ...], tuple[int, ...]]:
    """The end lines: each player's « lettres restantes » subtracted, the total of the
    others added to the one who went out (none after a blocked game), then the places.
    With the ``fewest_tiles`` tie-break the places need the number of tiles left, so the
    remaining tiles must then be typed as letters."""
    if tie_break not in TIE_BREAKS:
        raise EngineError("settings.tie_break", "Unknown tie-break.", choices=TIE_BREAKS)
    if len(end.left) != len(totals):
        raise EngineError(
            "sheet.left_count", "Type the tiles left of every player.", players=len(totals)
        )
    pool = Counter(not_played)
    counted = [_left(text, pool) for text in end.left]
    letters = [Rack.parse(t).tiles if not _INTEGER.match(t.strip()) else "" for t in end.left]
    if Counter("".join(letters)) - pool:
        raise EngineError(
            "sheet.left_unseen",
            "The letters typed for the players are more than the tiles still off the board.",
        )
    values = [value for value, _ in counted]
    adjustments = adjust(totals, values, end.went_out, letters)
    counts = [count for _, count in counted]
    if tie_break == "fewest_tiles" and any(count is None for count in counts):
        raise EngineError(
            "sheet.letters_needed",
            "With the fewest-tiles tie-break, type the letters left, not their value.",
        )
    places = ranks([a.final for a in adjustments], [c or 0 for c in counts], tie_break)
    return adjustments, places


def sheet_state(
    players: int,
    turns: Sequence[SheetTurn],
    end: SheetEnd | None = None,
    tie_break: str = "ex_aequo",
) -> SheetState:
    """Count a sheet: every line in order on a fresh board, then the end lines. A move that
    does not fit raises its ``EngineError`` with ``number``, the line's number, added."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise EngineError(
            "classic.players",
            f"A classic game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.",
            players=players,
        )
    board = Board()
    pool = Counter(COUNTS)
    totals = [0] * players
    lines: list[SheetLine] = []
    tracked = True
    for index, turn in enumerate(turns):
        number, player = index + 1, index % players
        move, placed, score = None, "", turn.score
        if turn.kind == "move":
            try:
                move = score_move(board, turn.coord, turn.word, canonical(pool.elements()))
            except EngineError as error:
                raise EngineError(
                    error.code, f"Line {number}: {error.message}", **error.details, number=number
                ) from error
            tiles = new_tiles(board, move)
            placed = "".join(JOKER if ch.islower() else ch for ch in tiles.values())
            board = board.with_tiles(tiles)
            pool.subtract(placed)
            score = move.score
        elif turn.kind == "score":
            tracked = False
        elif turn.kind in ("pass", "exchange"):
            score = 0
        else:
            raise EngineError("sheet.kind", f"Unknown line kind {turn.kind!r}.")
        totals[player] += score
        lines.append(SheetLine(number, player, turn, move, score, placed, tuple(totals)))
    not_played = canonical((+pool).elements())
    state = SheetState(players, tuple(lines), board, tuple(totals), not_played, tracked)
    if end is None:
        return state
    adjustments, places = sheet_end(totals, end, not_played, tie_break)
    return SheetState(
        players, state.lines, board, state.totals, not_played, tracked, adjustments, places
    )
