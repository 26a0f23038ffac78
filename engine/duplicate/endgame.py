"""End of game (rules §1.4) and the "can another rack still be drawn?" question (E2, E4).

Everything here works on the *unplayed* tiles ``R`` = reliquat ∪ bag (∪ the joker game's
set-aside jokers), checked before each draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from engine.bag import TILE_ORDER, canonical
from engine.duplicate.racks import classes, meets_minimum
from engine.duplicate.values import END_REASONS
from engine.duplicate.values import EndOfGame as EndOfGame
from engine.tiles import CONSONANTS, FLEXIBLE, VOWELS

#: Sentences for each way a game ends (kept importable here).
REASONS = END_REASONS


def end_before_draw(remaining: str) -> EndOfGame | None:
    """E1 (nothing left) or E3 (one tile left, or no vowel+consonant pair possible).

    E3 as the rules' implementable reading: ``|R| <= 1`` or R misses the 1+1 minimum with
    Y and jokers counted as either class, so {Y, B} and {?, ?} go on, {B, C} and {?} end.
    """
    if not remaining:
        return EndOfGame("E1", "")
    if len(remaining) <= 1 or not meets_minimum(remaining, 1):
        return EndOfGame("E3", canonical(remaining))
    return None


def other_rack_exists(
    pool: str, size: int, minimum: int, excluded: Collection[str], fixed: str = ""
) -> bool:
    """Can a rack of ``fixed`` + ``size`` tiles of ``pool`` meet ``minimum`` and not be excluded?

    ``excluded`` holds racks in canonical order (a cancelled rack, racks without a legal
    move). A depth-first search over multisets in canonical order that stops at the first
    answer; it prunes branches that can no longer reach the minimum.
    """
    size = min(size, len(pool))
    have = Counter(pool)
    types = [t for t in TILE_ORDER if have[t]]
    excluded = set(excluded)
    chosen: list[str] = []
    # Tiles of each class still available from type i on, to prune hopeless branches.
    suffix = [(0, 0, 0, 0)] * (len(types) + 1)
    for i in range(len(types) - 1, -1, -1):
        v, c, f, n = suffix[i + 1]
        t, k = types[i], have[types[i]]
        suffix[i] = (
            v + k * (t in VOWELS),
            c + k * (t in CONSONANTS),
            f + k * (t in FLEXIBLE),
            n + k,
        )

    def feasible(i: int, v: int, c: int, f: int, slots: int) -> bool:
        sv, sc, sf, sn = suffix[i]
        dv, dc = max(0, minimum - v), max(0, minimum - c)
        return sn >= slots and dv + dc <= f + slots and max(0, dv - sv) + max(0, dc - sc) <= f + sf

    def search(i: int, slots: int, v: int, c: int, f: int) -> bool:
        if slots == 0:
            rack = canonical(fixed + "".join(chosen))
            return meets_minimum(rack, minimum) and rack not in excluded
        if i == len(types) or not feasible(i, v, c, f, slots):
            return False
        tile = types[i]
        for n in range(min(slots, have[tile]), -1, -1):
            chosen.extend(tile * n)
            dv, dc, df = (n * (tile in VOWELS), n * (tile in CONSONANTS), n * (tile in FLEXIBLE))
            found = search(i + 1, slots - n, v + dv, c + dc, f + df)
            del chosen[len(chosen) - n :]
            if found:
                return True
        return False

    v0, c0, f0 = classes(fixed)
    return search(0, size, v0, c0, f0)
