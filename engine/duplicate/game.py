"""A duplicate game played round by round: draw → top → place (rules §1, §2, §8 V1).

`Game` owns the mutable state (board, bag, rack) and hands out only immutable values
(`Draw`, `Round`, `TopChoice`). At every step the 102 tiles are all somewhere: on the board,
in the bag, on the rack or — in the joker game — set aside (``reserve``).

The top finder is injected (``(board, rack) -> Top``): rules are tested with small stubs
and games played for real with :func:`engine.duplicate.top.engine_top_finder`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from engine.bag import Bag, canonical
from engine.board import Board, Rack
from engine.duplicate.endgame import EndOfGame, end_before_draw, other_rack_exists
from engine.duplicate.racks import (
    Draw,
    DrawContext,
    DrawOutcome,
    RackSource,
    format_rack,
    minimum_failure,
    parse_typed_rack,
    required_minimum,
)
from engine.duplicate.top import (
    TopChoice,
    TopFinder,
    TopLike,
    choose_top,
    ends_game,
    joker_swap,
    new_tiles,
    rack_tiles_used,
)
from engine.duplicate.values import ANNOUNCED
from engine.duplicate.values import Round as Round
from engine.duplicate.variants import STANDARD, Variant
from engine.errors import EngineError
from engine.moves import Move
from engine.tiles import JOKER

MAX_ATTEMPTS = 100_000  # a valid rack always exists by then; more means a bug


@dataclass(slots=True)
class _RoundState:
    index: int
    number: int
    minimum: int
    draws: list[Draw] = field(default_factory=list)
    excluded: dict[str, str] = field(default_factory=dict)
    after_rejection: bool = False


class Game:
    """One game. ``source`` gives racks, ``top_finder`` the tops; ``variant`` the formula."""

    def __init__(
        self, source: RackSource, top_finder: TopFinder, variant: Variant = STANDARD
    ) -> None:
        self.variant = variant
        self.source = source
        self._finder = top_finder
        self.board = Board()
        self._bag = Bag.full(jokers=not variant.joker_game)
        self._reserve = JOKER * 2 if variant.joker_game else ""
        self._rack = ""
        self._history: list[Round] = []
        self._cumulative = 0
        self._state: _RoundState | None = None
        self._pending: tuple[Round, TopLike] | None = None
        self._before: tuple[Board, str, str, str, int] | None = None  # state at round start
        self._undo: tuple[Board, str, str, str, int] | None = None  # same, last round placed
        self._cancelled: dict[str, str] = {}
        self._rounds_started = 0
        self.end: EndOfGame | None = None

    # -- state -------------------------------------------------------------------------
    @property
    def _drawing(self) -> _RoundState:
        """The round whose rack is being drawn; asking between rounds is a bug."""
        if self._state is None:
            raise RuntimeError("no round is being drawn")
        return self._state

    @property
    def bag(self) -> str:
        return self._bag.tiles()

    @property
    def reserve(self) -> str:
        """The joker game's jokers set aside (empty in other formulas)."""
        return self._reserve

    @property
    def rack(self) -> str:
        """Tiles on the rack: the reliquat between rounds, the whole rack while pending."""
        return self._rack

    @property
    def history(self) -> tuple[Round, ...]:
        return tuple(self._history)

    @property
    def played(self) -> tuple[Round, ...]:
        return tuple(r for r in self._history if r.status == "played")

    @property
    def cumulative(self) -> int:
        return self._cumulative

    @property
    def number(self) -> int:
        """The number of the round being or about to be played."""
        return len(self.played) + 1

    @property
    def pending(self) -> Round | None:
        return self._pending[0] if self._pending else None

    def remaining(self) -> str:
        """Every unplayed tile, R = rack ∪ bag ∪ reserve, in canonical order."""
        return canonical(self._rack + self._bag.tiles() + self._reserve)

    def accounting(self) -> dict[str, int]:
        """Where the 102 tiles are; ``total`` is always 102."""
        parts = dict(board=self.board.tile_count(), bag=len(self._bag))
        parts.update(reserve=len(self._reserve), rack=len(self._rack))
        return {**parts, "total": sum(parts.values())}

    # -- drawing -------------------------------------------------------------------------
    def draw(self) -> Round | None:
        """Draw the next rack from the source, rejecting until it is valid and playable:
        the pending round (rack and default top), or ``None`` when the game is over."""
        if self.end:
            return None
        self._start_round()
        for _ in range(MAX_ATTEMPTS):
            if self.end or self._pending:
                return self.pending
            ctx = self._context()
            draw, top = self._evaluate(ctx, self.source.new_letters(ctx))
            self._commit(ctx, draw, top)
        raise RuntimeError(f"no valid rack after {MAX_ATTEMPTS} draws")  # pragma: no cover

    def offer_rack(self, text: str) -> DrawOutcome:
        """One rack typed by the arbiter (manual games): kept, or rejected and put back.

        Malformed input or letters the bag lacks raise ``EngineError`` and change nothing; a
        rack that misses the minimum is recorded as a rejection (see ``DrawOutcome.error``).
        """
        if self.source.kind != "manual":
            raise EngineError(
                "draw.not_manual", "This game draws its racks itself; it takes no typed rack."
            )
        if not self.end:
            self._start_round()  # may find E4 right after a cancelled round
        if self.end:
            raise EngineError("game.over", self.end.sentence())
        ctx = self._context()
        new = parse_typed_rack(text, reliquat=ctx.reliquat, joker=ctx.joker, needed=ctx.needed)
        draw, top = self._evaluate(ctx, new)
        self._commit(ctx, draw, top)
        return DrawOutcome(draw, self.pending, self.end)

    def _start_round(self) -> None:
        if self._pending:
            raise EngineError(
                "draw.pending",
                f"The top of round {self.number} has not been placed yet.",
                round=self.number,
            )
        if self._state is not None:
            return
        number = self.number
        minimum = required_minimum(number, self.remaining(), self.variant.minimum_strict_until)
        self._before = (self.board, self._bag.tiles(), self._reserve, self._rack, self._cumulative)
        self._undo = None
        st = _RoundState(self._rounds_started, number, minimum, excluded=dict(self._cancelled))
        st.after_rejection = bool(self._cancelled)
        self._state = st
        self._rounds_started += 1
        self._cancelled = {}
        if st.excluded:
            self._check_exhausted()

    def _joker(self) -> str:
        """The jokers the joker game adds to the rack (V1): one when none is on it, or
        ``""``. Once the bag is empty the jokers set aside are the only tiles left to draw,
        so they all come (R1.3: the rack is the leftover plus every tile left); otherwise
        the last jokers aside would make racks of one joker, rejected for ever, where the
        end-of-game rules (E3: {?, ?} goes on) want the game played to its end."""
        if not (self.variant.joker_game and self._reserve):
            return ""
        free = self.variant.rack_size - len(self._rack)
        if not self._bag:
            return JOKER * min(len(self._reserve), free)
        return "" if JOKER in self._rack else JOKER

    def _context(self) -> DrawContext:
        st = self._drawing
        joker = self._joker()
        needed = min(self.variant.rack_size - len(self._rack) - len(joker), len(self._bag))
        return DrawContext(
            st.index, st.number, len(st.draws), self._rack, joker, needed, self._bag.copy()
        )

    def _evaluate(self, ctx: DrawContext, new: str) -> tuple[Draw, TopLike | None]:
        """Judge one rack without changing anything (so a source may still refuse it)."""
        if missing := self._bag.missing(new):
            raise EngineError(
                "rack.not_in_bag",
                f"The bag does not hold {missing}: it holds {self._bag.tiles() or 'nothing'}.",
                missing=missing,
                bag=self._bag.tiles(),
            )
        st = self._drawing
        tiles = ctx.reliquat + ctx.joker + new
        text = format_rack(ctx.reliquat, ctx.joker + new, after_rejection=st.after_rejection)

        def rejected(reason: str, message: str) -> tuple[Draw, None]:
            return Draw(text, ctx.reliquat, ctx.joker + new, reason, message), None

        if failure := minimum_failure(tiles, st.minimum, st.number):
            return rejected("minimum", failure)
        key = canonical(tiles)
        if why := st.excluded.get(key):
            what = "the rack of the cancelled round" if why == "cancelled" else "without a move"
            return rejected("repeat", f"{key} is {what}: a different rack is needed")
        top = self._finder(self.board, Rack(tiles))
        if not top.moves:
            return rejected("no_move", f"no legal move with {key}: all tiles go back")
        return Draw(text, ctx.reliquat, ctx.joker + new), top

    def _commit(self, ctx: DrawContext, draw: Draw, top: TopLike | None) -> None:
        self.source.check(ctx, draw.rejected is None)
        st = self._drawing
        self._bag.remove(draw.new.replace(JOKER, "") if ctx.joker else draw.new)
        self._reserve = self._reserve[len(ctx.joker) :]
        self._rack = draw.tiles
        st.draws.append(draw)
        if draw.rejected:
            if draw.rejected == "no_move":
                st.excluded[canonical(draw.tiles)] = "no_move"
            self._put_back()
            st.after_rejection = True
            if st.excluded:
                self._check_exhausted()
            return
        if top is None:  # _evaluate gives an accepted rack its top
            raise RuntimeError("an accepted rack without its top")
        choice = choose_top(self.board, top, self.remaining(), ending=self._ends_game)
        pending = Round(st.number, tuple(st.draws), st.minimum, choice, self._cumulative, "pending")
        self._pending = (pending, top)
        self._state = None

    def _put_back(self) -> None:
        """Every rack tile back: letters to the bag, the joker game's jokers aside (R1.8)."""
        if self.variant.joker_game:
            self._reserve += JOKER * self._rack.count(JOKER)
            self._bag.add(self._rack.replace(JOKER, ""))
        else:
            self._bag.add(self._rack)
        self._rack = ""

    def _check_exhausted(self) -> None:
        """E2/E4: end when no valid rack outside the excluded ones can be drawn any more."""
        st, fixed = self._drawing, self._joker()
        size = self.variant.rack_size - len(fixed)
        if not other_rack_exists(self._bag.tiles(), size, st.minimum, st.excluded, fixed):
            code = "E4" if "cancelled" in st.excluded.values() else "E2"
            if st.draws:  # keep the racks tried: a round that could not be played
                void = Round(st.number, tuple(st.draws), st.minimum, None, self._cumulative)
                self._history.append(replace(void, status="void"))
            self.end, self._state = EndOfGame(code, self.remaining()), None

    # -- the top -------------------------------------------------------------------------
    def _swap_letter(self, move: Move) -> str:
        return joker_swap(self.board, move, self._bag.counts()) if self.variant.joker_game else ""

    def _ends_game(self, move: Move) -> bool:
        return ends_game(self.board, move, self.remaining(), self._swap_letter(move))

    def place(self, choice: Move | None = None) -> Round:
        """Place the pending round's top: the default one, or the arbiter's tied ``choice``."""
        if not self._pending:
            raise EngineError("place.no_rack", "No rack is waiting for its top.")
        pending, top = self._pending
        if choice is None:
            return self._place(pending, pending.top_choice)
        ending = self._ends_game
        return self._place(
            pending, choose_top(self.board, top, self.remaining(), choice=choice, ending=ending)
        )

    def place_forced(self, move: Move) -> Round:
        """Place a non-top move that fits (``check_move``) as ``chosen_by="record"``: replays
        of a record made with another lexicon go on, so later differences still show."""
        if not self._pending:
            raise EngineError("place.no_rack", "No rack is waiting for its top.")
        pending = self._pending[0]
        tied, eligible = pending.top_choice.tied, pending.top_choice.eligible
        return self._place(pending, TopChoice(move.score, tied, eligible, move, "record"))

    def _place(self, pending: Round, choice: TopChoice) -> Round:
        move = choice.chosen
        tiles = new_tiles(self.board, move)
        used = rack_tiles_used(self.board, move)
        if Counter(used) - Counter(self._rack):
            raise ValueError(f"{move} uses tiles not on the rack {self._rack}")  # finder bug
        swap = self._swap_letter(move)
        if swap:
            square = next(sq for sq, ch in tiles.items() if ch == swap.lower())
            tiles[square] = swap
            self._bag.remove(swap)
            self._reserve += JOKER
        self.board = self.board.with_tiles(tiles)
        left = Counter(self._rack)
        left.subtract(used)
        self._rack = canonical(left.elements())
        self._cumulative += move.score
        done = replace(pending, choice=choice, cumulative=self._cumulative, status="played")
        done = replace(done, joker_swap=swap, next_reliquat=self._rack)
        self._history.append(done)
        self._pending, self._undo = None, self._before
        self.end = end_before_draw(self.remaining())
        return done

    def play_round(self) -> Round | None:
        """Draw and place the default top; ``None`` once the game is over."""
        return self.place() if self.draw() else None

    def play_to_end(self) -> tuple[Round, ...]:
        while self.play_round():
            pass
        return self.history

    # -- cancelling and stopping ---------------------------------------------------------
    def cancel(self, reason: str = "") -> Round:
        """Cancel the current round (§1.5): drawn-but-unplaced, or the last one placed if no
        rack has been drawn since. Its points are void, all its tiles return to the bag,
        and the next rack must differ from it (E4 when that is impossible)."""
        if self._pending:
            cancelled, before = self._pending[0], self._before
            self._pending = None
        elif self._undo:
            cancelled, before = self._history.pop(), self._undo
        else:
            raise EngineError("cancel.nothing", "There is no round to cancel.")
        if before is None:  # _start_round saved it before the pending round was drawn
            raise RuntimeError("a pending round without the state before it")
        board, bag, reserve, rack, cumulative = before
        self._undo = None
        self.board, self._bag, self._reserve = board, Bag(bag), reserve
        self._rack, self._cumulative = rack, cumulative
        self._put_back()
        self._cancelled = {canonical(cancelled.draw.tiles): "cancelled"}
        record = replace(cancelled, status="cancelled", cumulative=cumulative, next_reliquat="")
        record = replace(record, cancel_reason=reason)
        self._history.append(record)
        self.end = end_before_draw(self.remaining())
        return record

    def end_as_announced(self) -> EndOfGame:
        """End the game after its announced rounds (a game played short of the bag, as its
        organiser planned, or a pre-drawn game whose racks are all played): a normal end,
        the results standing as of the last top placed. Only between two rounds."""
        if self.end:
            return self.end
        if self._pending or (self._state is not None and self._state.draws):
            raise EngineError(
                "end.round_pending", f"Round {self.number} is being played.", round=self.number
            )
        self._state = self._undo = None
        self.end = EndOfGame(ANNOUNCED, self.remaining())
        return self.end

    def stop(self, reason: str = "") -> EndOfGame:
        """End the game on the arbiter's decision (E5); a pending round is dropped."""
        if self._pending:
            self._pending = None
            self._put_back()
        self._state = self._undo = None
        self.end = EndOfGame("E5", self.remaining(), reason)
        return self.end
