"""Pairings of a classic tournament round (docs/classic.md, "Pairing systems").

Players are ids (ints) given in *seeding order* (rating, or the arbiter's list): round robin
and Initial Fontes number them in that order, and it breaks the last ties of the
standings. The history is the :class:`~engine.classic.standings.Result`\\ s of the earlier
rounds. :func:`pair_round` returns the tables of one round, table 1 for the best-placed
players, the bye (if any) last, and who starts at each table.

Systems (``SYSTEMS``):

- ``round_robin``: Berger tables; with an odd count, the player drawn against the phantom
  has the bye. Past the last round the cycle starts again.
- ``swiss``: score groups by wins, each folded (top half against bottom half), a player
  left over floating down to the next group; no pair meets twice while that can be
  avoided. It is a complete search (backtracking), not a greedy pass: when the
  preferred opponent leads to a dead end further down, the next one is tried, so a
  repeat-free round is always found when one exists. Only when none exists are pairs
  that met once allowed, then twice, and so on.
- ``king_of_the_hill``: 1 against 2, 3 against 4 in the standings, repeats allowed.
- ``initial_fontes`` (tsh's InitFontes, Woogles' Initial Fontes): for the first
  ``fontes_rounds`` rounds (odd), the seeding list is cut into ``fontes_rounds + 1`` bands
  and each group takes one player of every band, so that every group mixes strong and weak
  players; each group plays a round robin. Later rounds are Swiss.
- ``random``: a seeded shuffle, avoiding repeats like Swiss.
- ``manual``: the arbiter's tables, checked (everyone once, at most one bye).

Byes: with an odd count, the bye goes to the player with the fewest byes, lowest in the
standings (Swiss, King of the Hill) or first drawn (random). Who starts (first-player
balancing): the player who started fewer games so far, then the one who did not start
their last game, then the system's own choice (Berger colour, or the better placed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from engine.classic.standings import Result, TournamentSettings, check_results, standings
from engine.errors import EngineError

SYSTEMS = ("round_robin", "swiss", "king_of_the_hill", "initial_fontes", "random", "manual")
#: Search steps allowed per attempt; far above what real fields need (8 rounds of 40
#: players take a few hundred), it only bounds a hopeless search before repeats are allowed.
SEARCH_BUDGET = 200_000

Pair = tuple[int, int | None]


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: ``first`` starts; ``second`` is None for the bye."""

    number: int
    first: int
    second: int | None


def berger(count: int, round_number: int) -> list[tuple[int, int]]:
    """The pairs of Berger table round ``round_number`` (1-based) for ``count`` (even)
    numbers 0..count-1, the first of each pair playing "white" (the system's own choice
    of who starts). Number ``count - 1`` is the pivot; the others turn by count/2."""
    if count < 2 or count % 2:
        raise ValueError("Berger tables need an even number of players")
    n, half = count, count // 2
    r = (round_number - 1) % (n - 1)
    a0 = (r * half) % (n - 1)
    pairs = [(a0, n - 1) if r % 2 == 0 else (n - 1, a0)]
    for k in range(1, half):
        pairs.append(((a0 + k) % (n - 1), (a0 - k) % (n - 1)))
    return pairs


def round_robin_pairs(players: Sequence[int], round_number: int) -> list[Pair]:
    """Berger round ``round_number`` over ``players`` in seeding order (phantom → bye)."""
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)
    out: list[Pair] = []
    for a, b in berger(len(ids), round_number):
        pa, pb = ids[a], ids[b]
        if pa is None or pb is None:
            out.append((pb if pa is None else pa, None))  # type: ignore[arg-type]
        else:
            out.append((pa, pb))
    return out


def fontes_groups(players: Sequence[int], rounds: int) -> list[list[int | None]]:
    """The Initial Fontes groups over ``players`` in seeding order (None: the phantom of an
    odd count, at the bottom). Group g takes the g-th player of each band of
    ``len/(rounds+1)``; the players left over when the count is not a multiple of
    ``rounds + 1`` are taken evenly along the list into the last group, which then plays
    only ``rounds`` rounds of its longer round robin."""
    if rounds < 1 or rounds % 2 == 0:
        raise EngineError("pairing.fontes_rounds", "Initial Fontes pairs an odd number of rounds.")
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)
    size = rounds + 1
    groups = len(ids) // size
    if groups == 0:
        raise EngineError(
            "pairing.fontes_players",
            f"Initial Fontes over {rounds} rounds needs at least {size} players.",
        )
    extra = len(ids) - groups * size
    spread = {round((j + 1) * len(ids) / (extra + 1)) for j in range(extra)}
    out: list[list[int | None]] = [[] for _ in range(groups)]
    dealt = 0
    for i, p in enumerate(ids):
        if i in spread:
            out[-1].append(p)
        else:
            out[dealt % groups].append(p)
            dealt += 1
    return out


def fontes_pairs(players: Sequence[int], round_number: int, rounds: int) -> list[Pair]:
    out: list[Pair] = []
    for group in fontes_groups(players, rounds):
        for a, b in berger(len(group), round_number):
            pa, pb = group[a], group[b]
            if pa is None or pb is None:
                out.append((pb if pa is None else pa, None))  # type: ignore[arg-type]
            else:
                out.append((pa, pb))
    return out


def _meetings(results: Sequence[Result]) -> dict[frozenset[int], int]:
    met: dict[frozenset[int], int] = {}
    for r in results:
        if r.second is not None:
            key = frozenset((r.first, r.second))
            met[key] = met.get(key, 0) + 1
    return met


Candidates = Callable[[int, list[int]], list[int]]


def _search(
    order: list[int], candidates: Candidates, met: dict[frozenset[int], int], limit: int
) -> list[tuple[int, int]] | None:
    """A perfect matching of ``order`` (even) where no pair met more than ``limit`` times,
    built top-down: the first player still free takes the first acceptable candidate, and
    a choice that leaves the rest unmatchable is undone (failures are remembered by the
    set of players left, so no dead end is explored twice). None when none exists (or the
    budget ran out)."""
    index = {p: i for i, p in enumerate(order)}
    failed: set[int] = set()
    steps = 0

    def go(free: list[int], mask: int) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not free:
            return []
        if mask in failed:
            return None
        steps += 1
        if steps > SEARCH_BUDGET:
            return None
        p, rest = free[0], free[1:]
        for q in candidates(p, rest):
            if met.get(frozenset((p, q)), 0) > limit:
                continue
            left = [x for x in rest if x != q]
            tail = go(left, mask & ~(1 << index[p]) & ~(1 << index[q]))
            if tail is not None:
                return [(p, q), *tail]
        failed.add(mask)
        return None

    return go(list(order), (1 << len(order)) - 1)


def _best_matching(
    order: list[int],
    candidates: Candidates,
    met: dict[frozenset[int], int],
    bye_order: list[int] | None,
) -> list[Pair]:
    """The matching with the fewest repeats: no pair meeting again if possible, else pairs
    that met at most once, and so on. With an odd count, ``bye_order`` lists who may take
    the bye, best choice first (the first one that leaves a matchable field wins)."""
    most = max(met.values(), default=0)
    byes: list[int | None] = list(bye_order) if bye_order else [None]
    for limit in range(most + 1):
        for bye in byes:
            field = [p for p in order if p != bye]
            found = _search(field, candidates, met, limit)
            if found is not None:
                pairs: list[Pair] = list(found)
                return pairs + ([(bye, None)] if bye is not None else [])
    raise AssertionError("any field can be paired once repeats are allowed")  # pragma: no cover


def _swiss_candidates(halves: dict[int, int]) -> Candidates:
    def candidates(p: int, rest: list[int]) -> list[int]:
        same = [q for q in rest if halves[q] == halves[p]]
        fold = (len(same) + 1) // 2 - 1  # the top of the lower half of p's group
        lower = [q for q in rest if halves[q] != halves[p]]
        return same[fold:] + same[:fold][::-1] + lower

    return candidates


def _in_order(p: int, rest: list[int]) -> list[int]:
    return rest


def check_manual(players: Sequence[int], pairs: Sequence[Pair]) -> list[Pair]:
    """The arbiter's tables: every player exactly once, at most one bye (odd count)."""
    seen: list[int] = []
    for a, b in pairs:
        seen.extend([a] if b is None else [a, b])
    if sorted(seen) != sorted(players) or len(set(seen)) != len(seen):
        raise EngineError("pairing.manual", "Every player must be at exactly one table.")
    if sum(b is None for _, b in pairs) > len(players) % 2:
        raise EngineError("pairing.manual_bye", "Only an odd field has a bye, and only one.")
    if any(a == b for a, b in pairs):
        raise EngineError("pairing.manual", "A player cannot play against themselves.")
    return list(pairs)


def _who_starts(
    pairs: Sequence[Pair], results: Sequence[Result], rank: dict[int, int], keep: bool
) -> list[Pair]:
    """Orders each pair so that its first player starts: fewer games started so far, then
    not having started the last game, then the system's order (``keep``) or the better
    placed."""
    firsts: dict[int, int] = {}
    last: dict[int, bool] = {}
    for r in sorted(results, key=lambda r: r.round):
        if r.second is None:
            continue
        firsts[r.first] = firsts.get(r.first, 0) + 1
        last[r.first], last[r.second] = True, False
    out: list[Pair] = []
    for a, b in pairs:
        if b is None:
            out.append((a, None))
            continue
        ka = (firsts.get(a, 0), last.get(a, False), 0 if keep else rank[a])
        kb = (firsts.get(b, 0), last.get(b, False), 1 if keep else rank[b])
        out.append((a, b) if ka <= kb else (b, a))
    return out


def pair_round(
    system: str,
    players: Sequence[int],
    results: Sequence[Result] = (),
    *,
    round_number: int,
    settings: TournamentSettings | None = None,
    fontes_rounds: int = 3,
    seed: int = 0,
    manual: Sequence[Pair] | None = None,
) -> tuple[Table, ...]:
    """The tables of round ``round_number`` for the ``players`` still in (seeding order);
    ``results`` holds the earlier rounds (players who left may appear in them)."""
    if system not in SYSTEMS:
        raise EngineError("pairing.system", f"The pairing system is one of {', '.join(SYSTEMS)}.")
    if round_number < 1:
        raise EngineError("pairing.round", "Rounds are numbered from 1.")
    if len(set(players)) != len(players) or len(players) < 2:
        raise EngineError("pairing.players", "A round needs at least 2 distinct players.")
    earlier = [r for r in results if r.round < round_number]
    everyone = list(players) + sorted({p for r in earlier for p in r.players} - set(players))
    check_results(everyone, earlier)
    rows = standings(everyone, earlier, settings)
    active = set(players)
    order = [row.player for row in rows if row.player in active]
    rank = {p: i for i, p in enumerate(order)}
    halves = {row.player: row.halves for row in rows}
    byes = {row.player: row.byes for row in rows}
    met = _meetings(earlier)
    odd = len(order) % 2 == 1
    keep = False
    if system == "round_robin":
        pairs, keep = round_robin_pairs(players, round_number), True
    elif system == "initial_fontes" and round_number <= fontes_rounds:
        pairs, keep = fontes_pairs(players, round_number, fontes_rounds), True
    elif system in ("swiss", "initial_fontes"):
        bye_order = sorted(order, key=lambda p: (byes[p], -rank[p])) if odd else None
        pairs = _best_matching(order, _swiss_candidates(halves), met, bye_order)
    elif system == "king_of_the_hill":
        bye = min(order, key=lambda p: (byes[p], -rank[p])) if odd else None
        field = [p for p in order if p != bye]
        pairs = [(field[i], field[i + 1]) for i in range(0, len(field), 2)]
        pairs += [(bye, None)] if bye is not None else []
    elif system == "random":
        shuffled = list(order)
        Random(seed * 1009 + round_number).shuffle(shuffled)
        bye_order = sorted(shuffled, key=lambda p: byes[p]) if odd else None
        pairs = _best_matching(shuffled, _in_order, met, bye_order)
    else:
        if manual is None:
            raise EngineError("pairing.manual", "Manual pairing needs the arbiter's tables.")
        pairs, keep = check_manual(players, manual), True
    ordered = _who_starts(pairs, earlier, rank, keep)
    games = sorted(
        (p for p in ordered if p[1] is not None),
        key=lambda p: min(rank[p[0]], rank[p[1]]),  # type: ignore[index]
    )
    tables = [Table(i, a, b) for i, (a, b) in enumerate(games, start=1)]
    tables += [Table(len(tables) + 1, a, None) for a, b in ordered if b is None]
    return tuple(tables)
