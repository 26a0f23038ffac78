"""A game's figures (round scores, solos, warnings, totals) and standings, computed by
``engine.duplicate.totals`` from the current proposal versions and the arbiters' decisions,
so nothing derived is ever stored and left stale.

The figures are cached per process, **per game**, with the game's revision
(:func:`~tournaments.selectors.games.game_revision`, the newest audit row about that game):
every change that can alter them writes an audit row, so a rankings page, the tablets
after a close and the projector share one computation per change, and a slip typed in one
game leaves every other game's figures cached."""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.duplicate.totals import GameResult, Standing, TotalsSettings, game_result
from engine.duplicate.totals import game_standings as engine_game_standings
from engine.duplicate.totals import tournament_standings as engine_tournament_standings
from tournaments import adapter
from tournaments.models import AuditLog, Decision, Game, ProposalVersion, Registration, Tournament
from tournaments.selectors.games import counted_rounds, game_revision
from tournaments.selectors.tournament import tournament_games


@dataclass(frozen=True, slots=True)
class _Cached:
    """A game's figures with the revision they were computed at and the newest audit id
    (anywhere) seen since: while that one has not moved, nothing at all changed."""

    seen: int
    revision: int
    result: GameResult


_OUTCOMES: OrderedDict[tuple, _Cached] = OrderedDict()
_OUTCOMES_LOCK = threading.Lock()
_OUTCOMES_KEPT = 64


def forget_game_outcomes() -> None:
    """Empty the cache (tests that reset the database under a running process)."""
    with _OUTCOMES_LOCK:
        _OUTCOMES.clear()


def last_audit_id() -> int:
    """The newest audit-log id (0 when the log is empty): one index probe."""
    return AuditLog.objects.order_by("-id").values_list("id", flat=True).first() or 0


def game_outcomes(game: Game) -> GameResult:
    """Per-player figures of one game (round scores, solos, warnings, total), under the
    game's own formula (a blitz game of a standard tournament penalises from the 6th
    warning), as its printed record is.

    Cached per game: when no audit row at all was written since the last look (one index
    probe), the figures stand; otherwise only a change of this game's revision (one query)
    recomputes them."""
    settings = adapter.totals_settings(game.tournament, adapter.variant(game.variant_code))
    key = (game.pk, game.created_at, settings)
    seen = last_audit_id()  # read first: the figures below are at least this recent
    with _OUTCOMES_LOCK:
        cached = _OUTCOMES.get(key)
        if cached is not None:
            _OUTCOMES.move_to_end(key)
    if cached is not None and cached.seen == seen:
        return cached.result
    revision = game_revision(game)
    if cached is not None and cached.revision == revision:
        result = cached.result  # other games changed, not this one
    else:
        result = _compute_game_outcomes(game, settings)
    with _OUTCOMES_LOCK:
        _OUTCOMES[key] = _Cached(seen, revision, result)
        while len(_OUTCOMES) > _OUTCOMES_KEPT:
            _OUTCOMES.popitem(last=False)
    return result


def _compute_game_outcomes(game: Game, settings: TotalsSettings) -> GameResult:
    rounds = counted_rounds(game)
    registrations = list(Registration.objects.filter(tournament_id=game.tournament_id))
    versions = ProposalVersion.objects.filter(round__in=rounds, is_current=True)
    current = {(v.round_id, v.player_id): v for v in versions}
    warnings: dict[int, list[int]] = defaultdict(list)
    decisions: dict[tuple[int, int], list[Decision]] = defaultdict(list)
    numbers = {r.pk: r.number for r in rounds}
    for d in Decision.objects.filter(round__in=rounds).order_by("created_at", "id"):
        if d.kind == "warning" and d.disciplinary:
            warnings[d.player_id].append(numbers[d.round_id])
        else:
            decisions[(d.round_id, d.player_id)].append(d)
    scores = adapter.game_scores(
        game=game, rounds=rounds, registrations=registrations, current=current,
        warnings=warnings, decisions=decisions,
    )  # fmt: skip
    return game_result(scores, settings)


def game_standings(game: Game) -> tuple[Standing, ...]:
    """The ranking of one game; ``player_id`` is the ``Player`` primary key."""
    return engine_game_standings(game_outcomes(game))


def tournament_results(tournament: Tournament) -> list[tuple[Game, GameResult]]:
    """Every game of the tournament in order, with its figures."""
    return [(g, game_outcomes(g)) for g in tournament_games(tournament)]


def tournament_standings(
    tournament: Tournament, results: Sequence[GameResult] | None = None
) -> tuple[Standing, ...]:
    """The ranking over every game of the tournament, with its tie-break.

    ``results`` are the games' figures in game order when the caller already computed them
    (a rankings page shows each game too): each game is then computed once per request.
    """
    if results is None:
        results = [r for _g, r in tournament_results(tournament)]
    return engine_tournament_standings(list(results), adapter.totals_settings(tournament))
