"""Engine opponents for the card game: every legal move on an unbounded table, and a choice.

Move generation reuses the compiled GADDAG generator of the board game (:mod:`engine._core`)
on 15×15 *windows* of the table, every square worth its plain letter value (no premium, no
bonus), then translates each move back to table squares and judges it with
:func:`engine.cards.rules.evaluate` plus the lexicon, so a word cut by a window's edge can
never slip through. Which windows (docs/cards.md, "Move generation"):

* an empty table: one window centred on (0, 0), the generator's centre square;
* otherwise, for moves across: the window's rows span the table's rows plus one on each side
  (every perpendicular word then lies inside), and its columns are shifted so that every
  main word reaching at most 7 squares outside the table fits in one of them; the same,
  transposed, for moves down. A table deeper than 13 lines gets a window at every line.
  Every move whose words fit together in 15 × 15 squares is found: all of them but a move
  whose perpendicular words stick out on both sides over more than 15 lines in all.

The best move counts Prime cards: a Prime goes on the square shared by the most valuable
words, and the move scoring most with or without it wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import _core
from engine.board import EMPTY
from engine.cards.deck import EXCHANGE_MIN_DECK, HAND_SIZE, PRIME_FACTOR, canonical, is_prime
from engine.cards.rules import (
    FIRST_FACTOR,
    SCRABBLE_BONUS,
    Placed,
    Play,
    Scoring,
    invalid_words,
    score_play,
)
from engine.cards.table import Table
from engine.errors import EngineError
from engine.moves import Move
from engine.notation import Reference
from engine.tiles import JOKER, LETTERS, SIZE, VALUES

_core.configure(Move, Reference)

_VALUES = tuple(VALUES[ch] for ch in LETTERS + JOKER)
_FLAT = bytes([1]) * (SIZE * SIZE)
_NO_BONUS = (0,) * 10
_ALL, _BEST = 0, 2
#: Moves listed per window when looking for the best one (more are listed when needed).
BEST_LIMIT = 60
_HALF = SIZE // 2
_REACH = HAND_SIZE  # how far a move may reach outside the table

STRONG, WEAK = "strong", "weak"
LEVELS = (STRONG, WEAK)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move the generator found, with its score before any Prime card (window estimate)."""

    play: Play
    estimate: int


def _main_starts(lo: int, hi: int) -> list[int]:
    """Window starts along the main axis so every main word reaching ≤ 7 outside fits.

    A main word lies within ``[lo - 7, hi + 7]``, its part outside the table is made of the
    at most 7 cards laid, and it has at most 15 letters. A narrow table (8 squares or fewer)
    needs a few windows shifted by ``16 - width``; a wider one gets every start.
    """
    width = hi - lo + 1
    if width > SIZE - _REACH:
        return list(range(lo - _REACH, hi + _REACH - SIZE + 2))
    starts, left = [], _REACH
    stride = SIZE - _REACH - width + 1
    while left >= 0:  # start lo - left holds the words reaching left - stride + 1 .. left out
        starts.append(lo - left)
        left -= stride
    return starts


def _cross_starts(lo: int, hi: int) -> list[int]:
    """Window starts across the main axis: the table plus one line each side.

    One centred window when that fits in 15 lines; else every start, so that every move
    whose perpendicular words fit in 15 lines is inside one window.
    """
    need = hi - lo + 3
    if need > SIZE:
        return list(range(lo - 1, hi + 1 - SIZE + 2))
    return [lo - 1 - (SIZE - need) // 2]


def windows(table: Table) -> list[tuple[int, int]]:
    """Table squares of the windows' top-left corners (see the module docstring)."""
    if table.is_empty():
        return [(-_HALF, -_HALF)]
    top, left, bottom, right = table.bounds()
    across = [(r, c) for r in _cross_starts(top, bottom) for c in _main_starts(left, right)]
    down = [(r, c) for r in _main_starts(top, bottom) for c in _cross_starts(left, right)]
    return list(dict.fromkeys(across + down))


def _window_cells(table: Table, origin: tuple[int, int]) -> str:
    r0, c0 = origin
    cells = [EMPTY] * (SIZE * SIZE)
    for (r, c), ch in table.cells.items():
        if r0 <= r < r0 + SIZE and c0 <= c < c0 + SIZE:
            cells[(r - r0) * SIZE + (c - c0)] = ch
    return "".join(cells)


def _generate(table: Table, rack: str, lexicon, max_cards: int, limit: int | None):
    """Moves per window as ``{(row, col, across, word): estimate}`` and the listing cutoff.

    With ``limit``, each window lists only its ``limit`` best moves; ``cutoff`` is then the
    highest estimate a move left out of some window may have (None when nothing was left out).
    """
    found: dict[tuple[int, int, bool, str], int] = {}
    cutoff = None
    mode, n = (_ALL, 0) if limit is None else (_BEST, limit)
    for r0, c0 in windows(table):
        cells = _window_cells(table, (r0, c0))
        moves = _core.generate(
            lexicon.handle, cells, rack, _VALUES, _FLAT, _FLAT, _NO_BONUS, max_cards, mode, n
        )
        if limit is not None and len(moves) >= limit:
            cutoff = max(cutoff or 0, moves[-1].score)
        for move in moves:
            ref = move.reference
            key = (r0 + ref.row, c0 + ref.col, ref.horizontal, move.word)
            if found.get(key, -1) < move.score:
                found[key] = move.score
    return found, cutoff


def candidates(
    table: Table, hand: str, lexicon, *, max_cards: int = HAND_SIZE, limit: int | None = None
) -> tuple[list[Candidate], int | None]:
    """Moves found in the windows (letters only, no Prime), best estimate first, each once.

    A move cut by a window's edge may be listed and be illegal; :func:`judge` decides. With
    ``limit``, the second value is the cutoff of :func:`_generate` (moves not listed have an
    estimate at most that), else None.
    """
    rack = "".join(card for card in hand if not is_prime(card))
    if not rack:
        return [], None
    found, cutoff = _generate(table, rack, lexicon, min(max_cards, len(rack)), limit)
    out, seen = [], set()
    for key, score in sorted(found.items(), key=lambda item: (-item[1], item[0])):
        play = _to_play(table, key)
        if play not in seen:
            seen.add(play)
            out.append(Candidate(play, score))
    return out, cutoff


def _to_play(table: Table, key: tuple[int, int, bool, str]) -> Play:
    row, col, across, word = key
    dr, dc = (0, 1) if across else (1, 0)
    cards = []
    for i, ch in enumerate(word):
        square = (row + dr * i, col + dc * i)
        if square not in table.cells:
            cards.append(Placed(square[0], square[1], ch.upper(), ch.islower()))
    return Play(tuple(sorted(cards)))


def judge(table: Table, hand: str, play: Play, lexicon) -> Scoring | None:
    """The scoring of ``play`` when it is legal and every word it forms is valid, else None."""
    try:
        scoring = score_play(table, hand, play)
    except EngineError:
        return None
    return None if invalid_words(scoring, lexicon) else scoring


def with_best_prime(scoring: Scoring, hand: str, first: bool) -> tuple[Play, int]:
    """The move with the best Prime card held on the square worth most, and its score.

    Unchanged when no Prime card may be played (none held, or the first word).
    """
    primes = sorted({card for card in hand if is_prime(card)}, key=PRIME_FACTOR.__getitem__)
    if first or not primes:
        return scoring.play, scoring.score
    prime = primes[-1]
    gains: dict[tuple[int, int], int] = {}
    for scored in scoring.words:
        for square in scored.word.squares():
            gains[square] = gains.get(square, 0) + scored.base
    square = max(sorted(gains), key=gains.__getitem__)
    extra = (PRIME_FACTOR[prime] - 1) * gains[square]
    return Play(scoring.play.cards, prime, square), scoring.score + extra


def legal_plays(table: Table, hand: str, lexicon) -> list[Scoring]:
    """Every legal move with valid words, without Prime cards, highest score first."""
    out = []
    for cand in candidates(table, hand, lexicon)[0]:
        scoring = judge(table, hand, cand.play, lexicon)
        if scoring is not None:
            out.append(scoring)
    return sorted(out, key=lambda o: (-o.score, sorted(o.play.cards)))


def _masked(key: tuple[int, int, bool, str]) -> tuple[int, int, bool, str]:
    """A move with its jokers' letters hidden: every reading of the jokers scores the same."""
    row, col, across, word = key
    return row, col, across, "".join("?" if ch.islower() else ch for ch in word)


def best_play(table: Table, hand: str, lexicon, *, max_cards: int = HAND_SIZE) -> Play | None:
    """The highest-scoring move counting the best use of a Prime card; None when none.

    Moves are judged best estimate first. A move is skipped when even the largest factor a
    Prime card (or the first word) may bring and its Scrabble bonus cannot beat the best found
    (ties keep the first found), or when another reading of its jokers was already judged
    legal (same score); the search stops when no estimate left can. Windows list their best
    moves only; when that short list does not settle it, every move is listed.
    """
    first = table.is_empty()
    factor = (
        FIRST_FACTOR if first else max((PRIME_FACTOR[c] for c in hand if is_prime(c)), default=1)
    )
    rack = "".join(card for card in hand if not is_prime(card))
    if not rack:
        return None
    cards = min(max_cards, len(rack))
    most = SCRABBLE_BONUS if cards >= HAND_SIZE else 0
    best: tuple[int, Play] | None = None
    for limit in (BEST_LIMIT, None):
        found, cutoff = _generate(table, rack, lexicon, cards, limit)
        best, judged = None, set()
        for key, estimate in sorted(found.items(), key=lambda item: (-item[1], item[0])):
            if best is not None and estimate * factor + most <= best[0]:
                break  # estimates are sorted: nothing further can beat the best
            masked = _masked(key)
            if masked in judged:
                continue
            play = _to_play(table, key)
            bonus = SCRABBLE_BONUS if len(play.cards) >= HAND_SIZE else 0
            if best is not None and estimate * factor + bonus <= best[0]:
                continue
            scoring = judge(table, hand, play, lexicon)
            if scoring is None:
                continue
            judged.add(masked)
            play, score = with_best_prime(scoring, hand, first)
            if best is None or score > best[0]:
                best = (score, play)
        if cutoff is None or (best is not None and cutoff * factor + most <= best[0]):
            break
    return best[1] if best else None


#: The weaker engine lays at most this many cards and plays a Prime only on 2 words or more.
WEAK_MAX_CARDS = 4


def weak_play(table: Table, hand: str, lexicon) -> Play | None:
    """A weaker player: the best move of at most four cards, a Prime only on several words."""
    play = best_play(table, hand, lexicon, max_cards=WEAK_MAX_CARDS)
    if play is None or play.prime is None:
        return play
    words = score_play(table, hand, play).words
    return play if len(words) >= 2 else Play(play.cards)


def exchange_cards(hand: str) -> str:
    """What an engine gives back when it cannot play: every letter but the jokers."""
    return canonical(card for card in hand if card != JOKER and not is_prime(card))


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's turn: ``play`` (with ``play``), ``exchange`` (with ``cards``) or ``pass``."""

    kind: str
    play: Play | None = None
    cards: str = ""

    @property
    def placed(self) -> Play:
        """The play of a ``play`` action (asking another kind is a bug)."""
        if self.play is None:
            raise RuntimeError(f"a {self.kind} action has no play")
        return self.play


def engine_action(table: Table, hand: str, deck: int, lexicon, level: str) -> Action:
    """The engine's choice: its move, else an exchange while the deck allows one, else a pass."""
    chooser = best_play if level == STRONG else weak_play
    play = chooser(table, hand, lexicon)
    if play is not None:
        return Action("play", play)
    cards = exchange_cards(hand)
    if cards and deck >= EXCHANGE_MIN_DECK:
        return Action("exchange", cards=cards)
    return Action("pass")
