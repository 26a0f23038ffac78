"""Who plays first (FISF page on formulas, seed page 003).

Each player in turn draws one tile; the letter nearest to A plays first. A joker is laid on
the table and its drawer draws again; players tied on the best letter lay theirs on the
table and draw again, only among themselves. Every tile drawn goes back into the bag once
the first player is known, so the racks are drawn from the full 102 tiles. Play then goes
round the table from the first player, in seating order (page 002: "la personne placée à
gauche du premier joueur").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bag import Bag, Xoshiro256
from engine.tiles import JOKER


@dataclass(frozen=True, slots=True)
class OpeningDraw:
    """The draws for first player, round by round as ``(player, tile)``, and the result."""

    rounds: tuple[tuple[tuple[int, str], ...], ...]
    first: int

    def order(self, players: int) -> tuple[int, ...]:
        """Seats in playing order: the first player, then round the table."""
        return tuple((self.first + i) % players for i in range(players))

    def to_json(self) -> dict:
        return {
            "rounds": [[{"player": p, "tile": t} for p, t in rnd] for rnd in self.rounds],
            "first": self.first,
        }


def draw_first_player(players: int, bag: Bag, rng: Xoshiro256) -> OpeningDraw:
    """Draw for first player from ``bag`` (left as it was found) with the game's generator."""
    contenders = list(range(players))
    rounds: list[tuple[tuple[int, str], ...]] = []
    table: list[str] = []
    while True:
        drawn: list[tuple[int, str]] = []
        letters: dict[int, str] = {}
        for player in contenders:
            tile = JOKER
            while tile == JOKER:
                tile = bag.draw(rng, 1)
                if not tile:  # 100 letters cannot all tie: a bug, not a rule
                    raise RuntimeError("the bag ran out while drawing for first player")
                drawn.append((player, tile))
                table.append(tile)
            letters[player] = tile
        rounds.append(tuple(drawn))
        best = min(letters.values())
        contenders = [p for p in contenders if letters[p] == best]
        if len(contenders) == 1:
            bag.add(table)
            return OpeningDraw(tuple(rounds), contenders[0])
