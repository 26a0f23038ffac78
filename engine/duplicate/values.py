"""The values a duplicate game hands out, in one module the game's others all import.

``racks`` (draws), ``endgame`` (the end), ``top`` (the chosen top) and ``game`` (rounds)
each need some of these; defined here, below all of them, they import no module of the
game, so ``engine/duplicate`` has no import circle (tests/engine/test_import_graph.py).
Each stays importable from the module that uses it most (``racks.Draw``, ``game.Round``…).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.moves import Move

#: A game played in the number of rounds announced before it (a short club game, a
#: pre-drawn game whose racks are all played): a normal end, not a rule of §1.4, whence a
#: word rather than an E code (docs/rules-choices.md).
ANNOUNCED = "announced"

#: Sentences for each way a game ends; codes are those of the rules (E1–E5), and
#: :data:`ANNOUNCED`.
END_REASONS = {
    "E1": "every tile has been drawn and placed",
    "E2": "no rack that can still be drawn has a legal move",
    "E3": "the tiles left cannot make a rack with a vowel and a consonant",
    "E4": "the cancelled round cannot be replaced by a different rack",
    "E5": "the arbiter stopped the game",
    ANNOUNCED: "the announced rounds have been played",
}


@dataclass(frozen=True, slots=True)
class EndOfGame:
    """Why the game ended, and the unplayed tiles at that moment (canonical order)."""

    code: str
    remaining: str
    message: str = ""

    def sentence(self) -> str:
        detail = f" ({self.message})" if self.message else ""
        return f"Game over, {self.code}: {END_REASONS[self.code]}{detail}."


@dataclass(frozen=True, slots=True)
class Draw:
    """One rack drawn: N5 text, reliquat kept, new tiles in draw order, and the verdict.

    ``rejected`` is ``None`` for the rack kept, else ``"minimum"`` (R1.4–R1.9),
    ``"repeat"`` (same as a cancelled rack or one without a legal move, §1.5) or
    ``"no_move"`` (R1.11). A rejected rack goes back to the bag whole.
    """

    rack: str
    reliquat: str
    new: str
    rejected: str | None = None
    message: str = ""

    @property
    def tiles(self) -> str:
        return self.reliquat + self.new


@dataclass(frozen=True, slots=True)
class DrawOutcome:
    """The verdict on a typed rack: the draw recorded, the round if kept, the end if any."""

    draw: Draw
    round: Round | None  # the pending round when kept
    end: EndOfGame | None

    @property
    def accepted(self) -> bool:
        return self.draw.rejected is None

    @property
    def error(self) -> EngineError | None:
        """The refusal as a coded error (``rack.minimum``, ``rack.repeat``, ``rack.no_move``)."""
        if self.accepted:
            return None
        return EngineError(f"rack.{self.draw.rejected}", self.draw.message, rack=self.draw.rack)


@dataclass(frozen=True, slots=True)
class TopChoice:
    """The tied moves of a round, those the rules allow, and the one placed.

    ``tied`` is every move reaching the top score in ``Move.sort_key`` order; ``eligible``
    the subset T2/T6 allow; ``chosen`` the move placed and ``chosen_by`` ``"default"``
    (first eligible move) or ``"arbiter"``.
    """

    score: int
    tied: tuple[Move, ...]
    eligible: tuple[Move, ...]
    chosen: Move
    chosen_by: str = "default"

    def with_choice(self, move: Move, chosen_by: str = "arbiter") -> TopChoice:
        return TopChoice(self.score, self.tied, self.eligible, move, chosen_by)


@dataclass(frozen=True, slots=True)
class Round:
    """One round of the history. ``status`` is ``pending`` (drawn, top not placed yet),
    ``played``, ``cancelled`` (§1.5: points void, its rack back in the bag) or ``void``
    (the game ended, E2/E4, while drawing it: only its rejected racks)."""

    number: int
    draws: tuple[Draw, ...]
    minimum: int
    choice: TopChoice | None
    cumulative: int
    status: str = "played"
    joker_swap: str = ""
    next_reliquat: str = ""
    cancel_reason: str = ""

    @property
    def draw(self) -> Draw:
        return self.draws[-1]

    @property
    def rack(self) -> str:
        return self.draw.rack

    @property
    def reliquat(self) -> str:
        return self.draw.reliquat

    @property
    def new(self) -> str:
        return self.draw.new

    @property
    def rejections(self) -> tuple[Draw, ...]:
        return tuple(d for d in self.draws if d.rejected)

    @property
    def top(self) -> Move | None:
        return self.choice.chosen if self.choice else None

    @property
    def tied(self) -> tuple[Move, ...]:
        return self.choice.tied if self.choice else ()

    @property
    def top_choice(self) -> TopChoice:
        """The choice of a pending, played or cancelled round: only a void one has none,
        so asking a void round is a bug."""
        if self.choice is None:
            raise RuntimeError(f"round {self.number} ({self.status}) has no top")
        return self.choice
