"""Game and tournament bookkeeping over judged proposals (rules §4.3, §4.5, §4.6, §5).

Pure functions over immutable values: :class:`GameScores` holds a game's tops and, per
player, one :class:`~engine.duplicate.proposals.Outcome` per round; :func:`game_result`
adds solos and warning penalties; :func:`game_standings` and :func:`tournament_standings`
rank. Nothing here reads a clock or a database, so a record replays to the same figures.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType
from typing import Any

from engine.duplicate.decisions import apply_moyenne as apply_moyenne  # its home; kept here
from engine.duplicate.proposals import Outcome
from engine.errors import EngineError

TIE_BREAKS = ("shared", "last_game_then_last_moves")
PlayerId = Hashable


@dataclass(frozen=True, slots=True)
class TotalsSettings:
    """Game-level rules that events set differently.

    ``warning_penalty_from``: the first warning of a game that costs ``warning_penalty``
    points (4th in standard and semi-rapide games, 6th in blitz and original formulas,
    §4.3). A solo earns ``solo_value`` when the competition has ``solo_min_players``
    players (§4.6): the players registered for the game (``GameResult.entrants``), or
    ``solo_players`` for a whole multi-centre competition (the engine's and the command
    line's business; the site has no such setting). ``tie_break`` orders equal tournament
    totals (§5 K5).
    """

    warning_penalty_from: int = 4
    warning_penalty: int = 5
    solo_value: int = 10
    solo_min_players: int = 16
    solo_players: int | None = None
    tie_break: str = "shared"

    def __post_init__(self) -> None:
        if self.tie_break not in TIE_BREAKS:
            raise EngineError(
                "totals.tie_break",
                f"'{self.tie_break}' is not a tie-break; choose {' or '.join(TIE_BREAKS)}.",
                tie_break=self.tie_break,
            )
        if self.warning_penalty_from < 1:
            raise EngineError("totals.warning_penalty_from", "Warnings are counted from 1.")

    @classmethod
    def from_variant(cls, variant: Any, **overrides: Any) -> TotalsSettings:
        """Settings for a game formula (any object with ``warning_penalty_from``)."""
        return cls(**{"warning_penalty_from": variant.warning_penalty_from, **overrides})


def _frozen(mapping: Mapping | None) -> Mapping:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, slots=True)
class GameScores:
    """One game as judged: ``tops[i]`` is the top of round i + 1; ``players`` maps each
    player registered in the game to one outcome per round, ``None`` when the player was
    not in the room for that round (absent: 0 points, not counted for solos).

    ``arrivals`` gives the first round a late player was present: every earlier round
    counts 0 whatever was recorded (§4.2, FISF23 §6.2). ``disciplinary`` lists the rounds
    with a disciplinary warning, the only warning that stacks on another (§4.3).
    """

    tops: tuple[int, ...]
    players: Mapping[PlayerId, tuple[Outcome | None, ...]]
    arrivals: Mapping[PlayerId, int] = field(default_factory=dict, hash=False)
    disciplinary: Mapping[PlayerId, tuple[int, ...]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in ("players", "arrivals", "disciplinary"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        for player, rounds in self.players.items():
            if len(rounds) != len(self.tops):
                raise ValueError(f"{player!r} has {len(rounds)} rounds, the game {len(self.tops)}")

    def outcome(self, player: PlayerId, index: int) -> Outcome | None:
        """The outcome that counts for round ``index + 1``: late arrival overrides it."""
        if index + 1 < self.arrivals.get(player, 1):
            return LATE_ARRIVAL
        return self.players[player][index]


#: A round played before the player arrived (FISF23 §6.2).
LATE_ARRIVAL = Outcome(
    "zero", 0, 0, "zero.late_arrival", "The round was played before the player arrived: 0."
)


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One player's game: per-round credited scores, solos (round numbers), warnings,
    5-point penalties (floored ones included) and the total (K1)."""

    player_id: PlayerId
    rounds: tuple[int, ...]
    solo_rounds: tuple[int, ...]
    solo_bonus: int
    warnings: int
    warning_penalty: int
    penalties: int
    total: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game's figures; ``counted[i]`` is how many players competed for round i + 1's solo
    (present on that round); ``entrants`` how many players the game has (registered for it:
    present on at least one round, or arriving late), which the 16-player threshold counts."""

    tops: tuple[int, ...]
    players: tuple[PlayerGame, ...]
    counted: tuple[int, ...]
    entrants: int = 0

    @property
    def top_total(self) -> int:
        return sum(self.tops)

    def player(self, player_id: PlayerId) -> PlayerGame | None:
        return next((p for p in self.players if p.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a results sheet (P6). ``negatif`` = total − top total (≤ 0 unless solos
    lift a player above the top); ``negatif_text`` shows its sign, e.g. "-25", "0"."""

    player_id: PlayerId
    rank: int
    total: int
    negatif: int
    percent: Decimal
    solos: int
    warnings: int
    penalties: int

    @property
    def negatif_text(self) -> str:
        return format_negatif(self.negatif)


def format_negatif(value: int) -> str:
    """The négatif as printed: "-25", "0", "+10" (K3)."""
    return f"{value:+d}" if value else "0"


def percent_of_top(total: int, top_total: int) -> Decimal:
    """total / top total × 100 to two decimals, half rounded up (790/800 → 98.75, K3).
    A game with no top (no round played) gives 0.00."""
    if top_total <= 0:
        return Decimal("0.00")
    return (Decimal(total) * 100 / Decimal(top_total)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def solo_winner(raw_scores: Mapping[PlayerId, int]) -> PlayerId | None:
    """§4.6: the player whose move scores strictly more than every other counted player's,
    compared before 5-point penalties. Needs two players and a best score above 0, so a
    single non-zero score among zeros is a solo and {50, 50, 20} has none."""
    if len(raw_scores) < 2:
        return None
    best = max(raw_scores.values())
    leaders = [p for p, score in raw_scores.items() if score == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def solo_paid(entrants: int, settings: TotalsSettings) -> bool:
    """Whether solos earn their bonus: the competition (the game's entrants, or
    ``solo_players`` for a multi-centre one) has at least ``solo_min_players`` (§4.6)."""
    return (settings.solo_players or entrants) >= settings.solo_min_players


def player_game(
    player: PlayerId,
    outcomes: Sequence[Outcome | None],
    *,
    solo_rounds: Sequence[int],
    disciplinary: int,
    paid: bool,
    settings: TotalsSettings,
) -> PlayerGame:
    """One player's game from the outcomes that count for each round (``None``: absent),
    the rounds whose solo they won, their disciplinary warnings and whether solos are paid.
    Warnings are counted through the game; the ``from``-th and each later one costs the
    penalty, taken at the end of the game (§4.3). The site's stored figures
    (``tournaments.services.standings``) call this too, so both apply one rule."""
    marks = [_round_marks(o) for o in outcomes]
    return _player_game(
        player,
        tuple(m[0] for m in marks),
        tuple(solo_rounds),
        sum(m[1] for m in marks) + disciplinary,
        sum(m[2] for m in marks),
        paid=paid,
        settings=settings,
    )


def player_game_next(
    previous: PlayerGame,
    outcome: Outcome | None,
    *,
    solo: int | None,
    disciplinary: int,
    paid: bool,
    settings: TotalsSettings,
) -> PlayerGame:
    """``previous`` with one more round at the end: its outcome (``None``: absent), its
    position when the player won its solo, its disciplinary warnings. The same figures as
    :func:`player_game` over every round (a close then updates each player's game from
    the stored one instead of reading every round again)."""
    score, warned, penalised = _round_marks(outcome)
    return _player_game(
        previous.player_id,
        (*previous.rounds, score),
        (*previous.solo_rounds, solo) if solo is not None else previous.solo_rounds,
        previous.warnings + warned + disciplinary,
        previous.penalties + penalised,
        paid=paid,
        settings=settings,
    )


def _round_marks(outcome: Outcome | None) -> tuple[int, int, int]:
    """What one round's outcome adds to a player's game: (score, warning, penalty)."""
    if outcome is None:
        return 0, 0, 0
    penalised = outcome.kind == "penalty" or outcome.code == "zero.penalty_small"
    return outcome.score, int(outcome.kind == "warning"), int(penalised)


def _player_game(
    player: PlayerId,
    rounds: tuple[int, ...],
    solo_rounds: tuple[int, ...],
    warnings: int,
    penalties: int,
    *,
    paid: bool,
    settings: TotalsSettings,
) -> PlayerGame:
    charged = max(0, warnings - settings.warning_penalty_from + 1)
    bonus = settings.solo_value * len(solo_rounds) if paid else 0
    penalty = charged * settings.warning_penalty
    total = sum(rounds) + bonus - penalty
    return PlayerGame(player, rounds, solo_rounds, bonus, warnings, penalty, penalties, total)


def game_result(scores: GameScores, settings: TotalsSettings | None = None) -> GameResult:
    """Round scores, solos and warning penalties for every player of one game.

    Competing for a round's solo: every player of the game present for that round (an
    outcome, even "no proposal", and arrived); absent and not-yet-arrived players are
    not. The bonus threshold counts the game's entrants instead, so one late arrival
    does not cost round 1's solo bonus in a 16-player game (§4.6). Warnings are numbered
    through the game in round order; the ``from``-th and each later one costs the
    penalty, taken at the end of the game (§4.3).
    """
    settings = settings or TotalsSettings()
    players = list(scores.players)
    solos: dict[PlayerId, list[int]] = {p: [] for p in players}
    counted = []
    for index in range(len(scores.tops)):
        present = {p: scores.outcome(p, index) for p in players}
        raw = {
            p: o.raw_score for p, o in present.items() if o is not None and o is not LATE_ARRIVAL
        }
        counted.append(len(raw))
        winner = solo_winner(raw)
        if winner is not None:
            solos[winner].append(index + 1)
    entrants = sum(
        1 for p in players if p in scores.arrivals or any(o is not None for o in scores.players[p])
    )
    paid = solo_paid(entrants, settings)
    entries = [
        player_game(
            player,
            [scores.outcome(player, i) for i in range(len(scores.tops))],
            solo_rounds=solos[player],
            disciplinary=len(scores.disciplinary.get(player, ())),
            paid=paid,
            settings=settings,
        )
        for player in players
    ]
    return GameResult(tuple(scores.tops), tuple(entries), tuple(counted), entrants)


def shared_ranks(keys: Sequence[Any]) -> list[tuple[int, int]]:
    """``(index in keys, rank)`` best first: ordered by key, highest first (stable: input
    order among equals); equal keys share the rank and the next rank skips (1, 2, 2, 4).
    The one ranking rule of every standing (the site's paged rankings call it on the
    stored totals alone)."""
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    out: list[tuple[int, int]] = []
    for i, index in enumerate(order):
        same = i and keys[order[i - 1]] == keys[index]
        out.append((index, out[-1][1] if same else i + 1))
    return out


def _ranked(lines: list[tuple[tuple, Standing]]) -> tuple[Standing, ...]:
    """Order by key, best first, equal keys sharing the rank (:func:`shared_ranks`)."""
    ranks = shared_ranks([key for key, _s in lines])
    return tuple(_with_rank(lines[index][1], rank) for index, rank in ranks)


def _with_rank(s: Standing, rank: int) -> Standing:
    return Standing(
        s.player_id, rank, s.total, s.negatif, s.percent, s.solos, s.warnings, s.penalties
    )


def _standing(player_id: PlayerId, games: Sequence[PlayerGame | None], top: int) -> Standing:
    played = [g for g in games if g is not None]
    total = sum(g.total for g in played)
    return Standing(
        player_id,
        0,
        total,
        total - top,
        percent_of_top(total, top),
        sum(len(g.solo_rounds) for g in played),
        sum(g.warnings for g in played),
        sum(g.penalties for g in played),
    )


def game_standings(result: GameResult) -> tuple[Standing, ...]:
    """The ranking of one game by total, ex aequo shared: FISF23 breaks no tie in a game."""
    return _ranked(
        [((p.total,), _standing(p.player_id, [p], result.top_total)) for p in result.players]
    )


def tournament_standings(
    results: Sequence[GameResult], settings: TotalsSettings | None = None
) -> tuple[Standing, ...]:
    """The ranking over several games: sum of game totals against the sum of tops (K4).

    A player missing from a game scores 0 in it. ``tie_break="shared"`` leaves equal
    totals ex aequo; ``"last_game_then_last_moves"`` compares the last game's total, then
    its rounds from the last backwards (Québec rules, K5); players still equal share.
    """
    settings = settings or TotalsSettings()
    players: dict[PlayerId, None] = {}  # first seen first, each once
    for result in results:
        players.update((p.player_id, None) for p in result.players)
    top = sum(r.top_total for r in results)
    indexes = [{p.player_id: p for p in r.players} for r in results]
    lines = []
    for player in players:
        games = [index.get(player) for index in indexes]
        standing = _standing(player, games, top)
        key: tuple = (standing.total,)
        if settings.tie_break == "last_game_then_last_moves" and results:
            last = games[-1]
            rounds = last.rounds if last else (0,) * len(results[-1].tops)
            key += (last.total if last else 0, *reversed(rounds))
        lines.append((key, standing))
    return _ranked(lines)
