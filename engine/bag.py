"""The bag of tiles and the seeded random generator that draws from it (rules §1.1).

Shared by every game family (duplicate, classic, cards): one generator, one draw order.

Reproducibility is the point: a seed and the same choices must give the same game on any
machine and any Python version. Python's ``random`` does not promise that for its derived
methods (``randrange``, ``shuffle``…), so the generator and the draw are spelled out here
and pinned by tests against values computed from the published reference code.

Specification (also in docs/rules-choices.md):

* Generator: **xoshiro256\\*\\*** (Blackman & Vigna, 2018) on 64-bit words. Its 256-bit
  state is seeded with the first four outputs of **splitmix64** started at the seed, as the
  authors recommend. A seed is an integer 0 ≤ seed < 2**64.
* Bounded integer ``below(n)``: draw a 64-bit output ``x``; reject it while
  ``x < 2**64 mod n``; return ``x mod n``. Every value 0..n-1 is then exactly equally likely.
* The bag is a multiset kept in **canonical order**: A…Z then the joker ``?``, identical
  tiles side by side. Drawing one tile = ``i = below(tiles in bag)``, take the i-th tile of
  that order, remove it. Tiles put back simply return to their place in the order, so the bag
  never depends on the history of how it got its content.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.errors import EngineError
from engine.tiles import COUNTS, JOKER, LETTERS

MASK64 = (1 << 64) - 1
TILE_ORDER = LETTERS + JOKER
_RANK = {tile: i for i, tile in enumerate(TILE_ORDER)}


def splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64: ``(new_state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256:
    """xoshiro256** with its state exposed, so a game in progress can be saved and resumed."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
            raise EngineError(
                "seed.range",
                f"A seed is a whole number from 0 to {MASK64}, not {seed!r}.",
                max=MASK64,
            )
        state, words = seed, []
        for _ in range(4):
            state, out = splitmix64(state)
            words.append(out)
        self._s = words

    @classmethod
    def from_state(cls, state: Iterable[int]) -> Xoshiro256:
        rng = cls(0)
        words = [int(w) & MASK64 for w in state]
        if len(words) != 4 or not any(words):
            raise EngineError("seed.state", "A generator state is four 64-bit words, not all 0.")
        rng._s = words
        return rng

    @property
    def state(self) -> tuple[int, int, int, int]:
        s = self._s
        return (s[0], s[1], s[2], s[3])

    def next64(self) -> int:
        s = self._s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        threshold = (1 << 64) % n
        while True:
            x = self.next64()
            if x >= threshold:
                return x % n


def canonical(tiles: Iterable[str]) -> str:
    """Tiles in bag order (A…Z then ``?``): the key that says two racks are the same."""
    return "".join(sorted(tiles, key=_RANK.__getitem__))


class Bag:
    """A multiset of tiles in canonical order. Mutable: only a `Game` holds one."""

    __slots__ = ("_counts",)

    def __init__(self, tiles: Iterable[str] = ()) -> None:
        self._counts: Counter[str] = Counter()
        self.add(tiles)

    @classmethod
    def full(cls, *, jokers: bool = True) -> Bag:
        """The 102 French tiles (100 without the jokers, for the joker game)."""
        return cls("".join(t * n for t, n in COUNTS.items() if jokers or t != JOKER))

    def copy(self) -> Bag:
        return Bag(self.tiles())

    def __len__(self) -> int:
        return sum(self._counts.values())

    def count(self, tile: str) -> int:
        return self._counts[tile]

    def counts(self) -> Counter[str]:
        return Counter(self._counts)

    def tiles(self) -> str:
        """The content in canonical order."""
        return "".join(t * self._counts[t] for t in TILE_ORDER if self._counts[t])

    def __str__(self) -> str:
        return self.tiles()

    def missing(self, tiles: str) -> str:
        """The part of ``tiles`` the bag does not hold (empty when it holds them all)."""
        short = Counter(tiles) - self._counts
        return canonical(short.elements())

    def add(self, tiles: Iterable[str]) -> None:
        for tile in tiles:
            if tile not in _RANK:
                raise ValueError(f"not a tile: {tile!r}")  # caller bug
            self._counts[tile] += 1

    def remove(self, tiles: str) -> None:
        if self.missing(tiles):
            raise ValueError(f"the bag does not hold {tiles}")  # callers check first
        self._counts.subtract(tiles)
        self._counts = +self._counts

    def draw(self, rng: Xoshiro256, n: int) -> str:
        """Draw up to ``n`` tiles one by one (fewer if the bag runs out), in draw order."""
        out = []
        for _ in range(min(n, len(self))):
            index = rng.below(len(self))
            for tile in TILE_ORDER:
                index -= self._counts[tile]
                if index < 0:
                    break
            self._counts[tile] -= 1
            out.append(tile)
        self._counts = +self._counts
        return "".join(out)
