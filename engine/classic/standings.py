"""Results and standings of a classic tournament (docs/classic.md, "Standings").

A classic tournament ranks its players by wins (a tie counts ½), then by spread (points for
minus points against), then by the tie-breaks the tournament chose, as tsh and the FISF
classic ranking do. Byes and forfeits score what the settings say. Wins are kept in
half-points (``halves``) so that no float ever decides a rank.

Pure values: the site turns its rows into :class:`Result`\\ s (``tournaments/adapter.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.errors import EngineError

#: The tie-breaks a tournament may choose, applied in its order after wins and spread:
#: ``buchholz`` — the sum of the opponents' wins (a harder schedule ranks higher);
#: ``points`` — the points scored; ``head_to_head`` — the wins between the tied players,
#: only when every tied player met every other one.
TIE_BREAKS = ("buchholz", "points", "head_to_head")


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """``bye_halves``: what a bye counts, in half-wins (2: a win, 1: a draw, 0: nothing);
    ``bye_spread``: its spread (tsh and NASPA: +50); ``forfeit_spread``: the spread of a
    forfeit, won by the player present (+) and lost by the absent one (−);
    ``tie_breaks``: after wins and spread, in order."""

    bye_halves: int = 2
    bye_spread: int = 50
    forfeit_spread: int = 50
    tie_breaks: tuple[str, ...] = ("buchholz", "points")

    def __post_init__(self) -> None:
        if self.bye_halves not in (0, 1, 2):
            raise EngineError("settings.bye_halves", "A bye counts a win, a draw or nothing.")
        for name in ("bye_spread", "forfeit_spread"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 1000:
                raise EngineError(f"settings.{name}", "A spread is a whole number, 0 to 1000.")
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise EngineError(
                "settings.tie_breaks",
                f"The tie-breaks are taken among {', '.join(TIE_BREAKS)}, each once.",
            )


@dataclass(frozen=True, slots=True)
class Result:
    """One table of one round. ``second`` is None for a bye. ``first`` started the game.
    ``forfeit`` names the absent player (the other wins by forfeit); otherwise both scores
    are given once the game is over, and None while it is being played."""

    round: int
    first: int
    second: int | None
    score_first: int | None = None
    score_second: int | None = None
    forfeit: int | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def done(self) -> bool:
        return (
            self.second is None
            or self.forfeit is not None
            or (self.score_first is not None and self.score_second is not None)
        )

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first

    def outcome(self, player: int, settings: TournamentSettings) -> tuple[int, int, int]:
        """``(halves, spread, points)`` of ``player`` at this table, once it is done."""
        if self.second is None:
            return settings.bye_halves, settings.bye_spread, 0
        if self.forfeit is not None:
            won = self.forfeit != player
            spread = settings.forfeit_spread
            return (2, spread, 0) if won else (0, -spread, 0)
        mine, theirs = self.score_first, self.score_second
        if player != self.first:
            mine, theirs = theirs, mine
        assert mine is not None and theirs is not None
        halves = 2 if mine > theirs else 1 if mine == theirs else 0
        return halves, mine - theirs, mine


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings. ``halves``: wins counted in halves (3 = 1½ wins)."""

    player: int
    rank: int
    halves: int
    losses_halves: int
    spread: int
    points: int
    games: int
    byes: int
    buchholz: int
    firsts: int

    @property
    def wins(self) -> float:
        return self.halves / 2

    def wins_text(self) -> str:
        """``3``, ``2½``: how score sheets write wins."""
        whole, half = divmod(self.halves, 2)
        if not half:
            return str(whole)
        return f"{whole}½" if whole else "½"


def check_results(players: Sequence[int], results: Iterable[Result]) -> None:
    """A player at two tables of a round, or a result naming an unknown player, is refused."""
    known = set(players)
    seen: set[tuple[int, int]] = set()
    for r in results:
        for p in r.players:
            if p not in known:
                raise EngineError("pairing.unknown_player", f"Player {p} is not in the list.")
            if (r.round, p) in seen:
                raise EngineError(
                    "pairing.twice", f"Player {p} is at two tables in round {r.round}."
                )
            seen.add((r.round, p))
        if r.second is not None and r.forfeit not in (None, r.first, r.second):
            raise EngineError("result.forfeit", "The absent player must be at the table.")


def standings(
    players: Sequence[int],
    results: Iterable[Result],
    settings: TournamentSettings | None = None,
    *,
    through_round: int | None = None,
) -> tuple[Row, ...]:
    """The standings after the games done (up to ``through_round``), best first.

    ``players`` is the seeding order: it only orders the lines of players who are equal on
    every criterion, who share a rank (ex æquo)."""
    settings = settings or TournamentSettings()
    results = [r for r in results if through_round is None or r.round <= through_round]
    check_results(players, results)
    done = [r for r in results if r.done]
    halves = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    spread = dict.fromkeys(players, 0)
    points = dict.fromkeys(players, 0)
    games = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    firsts = dict.fromkeys(players, 0)
    for r in results:
        if r.second is not None:
            firsts[r.first] += 1
    for r in done:
        for p in r.players:
            h, s, pts = r.outcome(p, settings)
            halves[p] += h
            losses[p] += 2 - h if r.second is not None else 0
            spread[p] += s
            points[p] += pts
            games[p] += 1
            byes[p] += r.second is None
    buchholz = dict.fromkeys(players, 0)
    for r in done:
        if r.second is not None:
            buchholz[r.first] += halves[r.second]
            buchholz[r.second] += halves[r.first]

    def key(p: int) -> tuple[int, ...]:
        out = [-halves[p], -spread[p]]
        for t in settings.tie_breaks:
            if t == "buchholz":
                out.append(-buchholz[p])
            elif t == "points":
                out.append(-points[p])
        return tuple(out)

    if "head_to_head" in settings.tie_breaks:
        h2h = _head_to_head(players, key, done, settings)
        base = key

        def key(p: int) -> tuple[int, ...]:
            return (*base(p), -h2h[p])

    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (key(p), seed[p]))
    rows: list[Row] = []
    for i, p in enumerate(order):
        tied = i > 0 and key(order[i - 1]) == key(p)
        rank = rows[-1].rank if tied else i + 1
        rows.append(
            Row(p, rank, halves[p], losses[p], spread[p], points[p], games[p], byes[p],
                buchholz[p], firsts[p])
        )  # fmt: skip
    return tuple(rows)


def _head_to_head(
    players: Sequence[int],
    key: Callable[[int], tuple[int, ...]],
    done: Sequence[Result],
    settings: TournamentSettings,
) -> dict[int, int]:
    """Each player's half-wins against the players equal to them on every earlier
    criterion, when all of those met each other (0 for everyone of the group otherwise:
    head-to-head then decides nothing)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for p in players:
        groups.setdefault(key(p), []).append(p)
    out = dict.fromkeys(players, 0)
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        met: set[frozenset[int]] = set()
        score = dict.fromkeys(group, 0)
        for r in done:
            if r.second is not None and r.first in members and r.second in members:
                met.add(frozenset(r.players))
                for p in r.players:
                    score[p] += r.outcome(p, settings)[0]
        if len(met) == len(group) * (len(group) - 1) // 2:
            out.update(score)
    return out
