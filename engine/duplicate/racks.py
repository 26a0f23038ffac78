"""Racks: the vowel/consonant minimum (§1.2), rack notation (N5) and where racks come from.

A game draws its racks from a :class:`RackSource`: a seeded generator, the arbiter typing
what he drew from a real bag, or a pre-drawn sequence. The source only proposes new letters;
the `Game` alone judges them (minimum, repeat, no legal move), so every source obeys the
same rules and every rejection is recorded the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bag import Bag, Xoshiro256, canonical
from engine.board import fold_text
from engine.duplicate.values import Draw as Draw
from engine.duplicate.values import DrawOutcome as DrawOutcome
from engine.errors import EngineError
from engine.tiles import CONSONANTS, FLEXIBLE, JOKER, VOWELS


def classes(tiles: str) -> tuple[int, int, int]:
    """``(vowels, consonants, flexible)`` of some tiles; Y and jokers are flexible (R1.6)."""
    v = sum(1 for t in tiles if t in VOWELS)
    c = sum(1 for t in tiles if t in CONSONANTS)
    f = sum(1 for t in tiles if t in FLEXIBLE)
    return v, c, f


def meets_minimum(tiles: str, m: int) -> bool:
    """At least ``m`` vowels and ``m`` consonants, each Y or joker counted once on one side.

    ``max(0, m - v) + max(0, m - c) <= f``: the flexible tiles fill the missing places, each
    filling one (the FISF reading of R1.6; Eliot counts them on both sides at once).
    """
    v, c, f = classes(tiles)
    return max(0, m - v) + max(0, m - c) <= f


def required_minimum(round_number: int, remaining: str, strict_until: int = 15) -> int:
    """The minimum a round's rack must meet, given every unplayed tile (``remaining``).

    2+2 up to round ``strict_until``, 1+1 after (R1.4); 1+1 earlier when the unplayed tiles
    cannot give 2+2 at all (R1.5, "si le reliquat le permet").
    """
    if round_number <= strict_until and meets_minimum(remaining, 2):
        return 2
    return 1


def _count(n: int, what: str) -> str:
    if n == 0:
        return f"no {what}"
    return f"{n} {what}" + ("s" if n > 1 else "")


def minimum_failure(tiles: str, m: int, round_number: int) -> str | None:
    """Why a rack misses the minimum, as a sentence for the arbiter; ``None`` if it meets it.

    For example "only 1 vowel: move 7 needs 2 vowels and 2 consonants".
    """
    if meets_minimum(tiles, m):
        return None
    v, c, f = classes(tiles)
    need = f"move {round_number} needs {_count(m, 'vowel')} and {_count(m, 'consonant')}"
    if f == 0 and v < m <= c:
        have = "only " + _count(v, "vowel") if v else _count(v, "vowel")
    elif f == 0 and c < m <= v:
        have = "only " + _count(c, "consonant") if c else _count(c, "consonant")
    else:
        flex = _count(f, "Y or joker")
        have = f"{_count(v, 'vowel')}, {_count(c, 'consonant')} and {flex}"
    return f"{have}: {need}"


def sort_reliquat(tiles: str) -> str:
    """Reliquat order: alphabetical, joker last (the announcement order of §1.6)."""
    return canonical(tiles)


def format_rack(reliquat: str, new: str, *, after_rejection: bool = False) -> str:
    """N5 notation: ``RELIQUAT+NEW``, no ``+`` without a reliquat, ``-`` after a rejection."""
    text = f"{sort_reliquat(reliquat)}+{new}" if reliquat else new
    return "-" + text if after_rejection else text


_TYPED = re.compile(r"^[A-Z?]*(\+[A-Z?]*)?$")


def parse_typed_rack(text: str, *, reliquat: str, joker: str, needed: int) -> str:
    """The new letters a typed rack adds to ``reliquat``, in the order typed.

    Accepted forms: ``RELIQUAT+NEW`` (the reliquat must match), the full rack without ``+``,
    or only the new letters. ``joker`` is the joker the joker game adds by itself (``"?"`` or
    ``""``): it may be typed or left out. A leading ``-`` and spaces are ignored; accents fold.
    Raises ``EngineError`` (``rack.*``) for anything else.
    """
    raw = re.sub(r"\s+", "", fold_text(text or "")).upper().lstrip("-")
    if not _TYPED.match(raw):
        bad = next((ch for ch in raw if ch not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?+"), "a second +")
        raise EngineError(
            "rack.character",
            f"'{text}': a rack is written with letters A–Z, '?' for a joker and one '+' after "
            f"the reliquat, not {bad if bad.startswith('a ') else repr(bad)}.",
            text=text,
            character=None if bad.startswith("a ") else bad,
        )
    if "+" in raw:
        left, new = raw.split("+")
        if canonical(left) != canonical(reliquat):
            have = sort_reliquat(reliquat) or "empty"
            raise EngineError(
                "rack.reliquat",
                f"'{text}': the reliquat is {have}, not {left or 'empty'}.",
                text=text,
                reliquat=sort_reliquat(reliquat),
                typed=left,
            )
    else:
        new = raw
    if joker and JOKER in new:  # the joker game's own joker: announced, may be typed
        new = _without(new, JOKER)
    full = "+" not in raw and reliquat and len(new) == len(reliquat) + needed
    if full and not Counter(reliquat) - Counter(new):  # the full rack, reliquat included
        new = _without(new, reliquat)
    if len(new) != needed:
        keep = f" besides the reliquat {sort_reliquat(reliquat)}" if reliquat else ""
        raise EngineError(
            "rack.count",
            f"'{text}': {needed} new letter{'s' if needed != 1 else ''} must be drawn{keep}, "
            f"not {len(new)}.",
            text=text,
            needed=needed,
            count=len(new),
        )
    return new


def _without(tiles: str, remove: str) -> str:
    """``tiles`` minus one occurrence of each tile of ``remove``, order kept."""
    left = Counter(remove)
    out = []
    for t in tiles:
        if left[t]:
            left[t] -= 1
        else:
            out.append(t)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class DrawContext:
    """What a source needs to propose new letters for one attempt of a round.

    ``attempt`` counts from 0 within the round; ``reliquat`` is empty after a rejection;
    ``joker`` is ``"?"`` when the joker game adds a joker by itself; ``needed`` new letters
    must come from ``bag`` (a copy: sources never change the game's bag).
    """

    round_index: int
    round_number: int
    attempt: int
    reliquat: str
    joker: str
    needed: int
    bag: Bag


class RackSource:
    """Where new letters come from. ``kind`` is stored in records."""

    kind = "abstract"

    def new_letters(self, ctx: DrawContext) -> str:
        raise NotImplementedError

    def check(self, ctx: DrawContext, accepted: bool) -> None:
        """Called before an attempt is committed; a pre-drawn source refuses a mismatch."""

    def to_json(self) -> dict:
        return {"kind": self.kind}


class SeededSource(RackSource):
    """Random draws from a seed (see :mod:`engine.bag` for the procedure)."""

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = Xoshiro256(seed)

    def new_letters(self, ctx: DrawContext) -> str:
        return ctx.bag.copy().draw(self.rng, ctx.needed)

    def to_json(self) -> dict:
        return {"kind": self.kind, "seed": self.seed}


class ManualSource(RackSource):
    """The arbiter draws from a real bag and types each rack (``Game.offer_rack``)."""

    kind = "manual"

    def new_letters(self, ctx: DrawContext) -> str:
        raise EngineError(
            "draw.manual",
            "In this game the arbiter draws from a real bag: type the rack that was drawn.",
        )


class PredrawnSource(RackSource):
    """A fixed sequence of racks, one entry per round in play order.

    Each round is a rack text, or a list of rack texts: the racks the original game
    rejected, then the one it kept. Racks use the typed forms of :func:`parse_typed_rack`.
    """

    kind = "predrawn"

    def __init__(self, rounds: Sequence[str | Sequence[str]]) -> None:
        self.rounds = [(r,) if isinstance(r, str) else tuple(r) for r in rounds]
        for i, racks in enumerate(self.rounds, start=1):
            if not racks:
                raise EngineError(
                    "predrawn.empty", f"Entry {i} of the pre-drawn game is empty.", entry=i
                )

    @classmethod
    def from_text(cls, text: str) -> PredrawnSource:
        """One round a line: its racks separated by spaces, the kept one last; ``#`` comments."""
        rounds = []
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                rounds.append(line.split())
        return cls(rounds)

    def _racks(self, ctx: DrawContext) -> tuple[str, ...]:
        if ctx.round_index >= len(self.rounds):
            raise EngineError(
                "predrawn.exhausted",
                f"The pre-drawn game has {len(self.rounds)} racks; round {ctx.round_number} "
                "needs one more.",
                count=len(self.rounds),
                round=ctx.round_number,
            )
        return self.rounds[ctx.round_index]

    def new_letters(self, ctx: DrawContext) -> str:
        racks = self._racks(ctx)
        if ctx.attempt >= len(racks):
            raise EngineError(
                "predrawn.rejected",
                f"Round {ctx.round_number}: the pre-drawn rack {racks[-1]} is not valid here "
                "and the pre-drawn game gives no other rack.",
                round=ctx.round_number,
                rack=racks[-1],
            )
        return parse_typed_rack(
            racks[ctx.attempt], reliquat=ctx.reliquat, joker=ctx.joker, needed=ctx.needed
        )

    def check(self, ctx: DrawContext, accepted: bool) -> None:
        racks = self._racks(ctx)
        if accepted and ctx.attempt < len(racks) - 1:
            raise EngineError(
                "predrawn.accepted",
                f"Round {ctx.round_number}: the pre-drawn game rejected {racks[ctx.attempt]}, "
                "but it is valid here.",
                round=ctx.round_number,
                rack=racks[ctx.attempt],
            )
