"""A game's figures (round scores, solos, warnings, totals) and standings, read from the
stored figures (``tournaments.models.standings``, written by
``tournaments.services.standings`` with every change that alters them, issue 16).
:func:`computed_game_outcomes` is the reference: it recomputes the figures with
``engine.duplicate.totals`` from the current proposal versions and the arbiters' decisions,
and ``manage.py tirage_standings_check`` compares the two.

The figures are cached per process, **per game**, with the game's revision
(:func:`~tournaments.selectors.games.game_revision`, the newest audit row about that game):
every change that can alter them writes an audit row, so a rankings page, the tablets
after a close and the projector share one computation per change, and a slip typed in one
game leaves every other game's figures cached."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.duplicate.totals import (
    GameResult,
    PlayerGame,
    Standing,
    TotalsSettings,
    game_result,
)
from engine.duplicate.totals import game_standings as engine_game_standings
from engine.duplicate.totals import tournament_standings as engine_tournament_standings
from tournaments import adapter
from tournaments.models import (
    AuditLog,
    Decision,
    Game,
    GameFigure,
    PlayerGameFigure,
    ProposalVersion,
    Registration,
    RoundFigure,
    Tournament,
)
from tournaments.selectors.games import counted_rounds, game_revision
from tournaments.selectors.tournament import tournament_games

log = logging.getLogger(__name__)


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
        result = stored_game_outcomes(game, settings)
        registered = Registration.objects.filter(tournament_id=game.tournament_id).count()
        if result is None or len(result.players) != registered:
            # Not stored yet (a database older than the stored figures), or players
            # registered outside the services (Django's admin): recomputed, and said.
            log.warning("game %s: stored figures missing or incomplete, recomputed "
                        "(manage.py tirage_standings_check --repair)", game.pk)  # fmt: skip
            result = computed_game_outcomes(game, settings)
    with _OUTCOMES_LOCK:
        _OUTCOMES[key] = _Cached(seen, revision, result)
        while len(_OUTCOMES) > _OUTCOMES_KEPT:
            _OUTCOMES.popitem(last=False)
    return result


def figures_key(settings: TotalsSettings) -> str:
    """The settings the stored figures were computed under (``GameFigure.settings_key``)."""
    return (
        f"{settings.warning_penalty_from}/{settings.warning_penalty}/{settings.solo_value}/"
        f"{settings.solo_min_players}/{settings.solo_players or 0}"
    )


def stored_game_outcomes(game: Game, settings: TotalsSettings) -> GameResult | None:
    """The game's figures as stored: three queries, no proposal row read. None when the
    game has no stored figures, or figures stored under other settings."""
    figure = GameFigure.objects.filter(game=game).first()
    if figure is None or figure.settings_key != figures_key(settings):
        return None
    rounds = list(
        RoundFigure.objects.filter(game=game)
        .order_by("position")
        .values_list("top_score", "competitors")
    )
    rows = (
        PlayerGameFigure.objects.filter(game=game)
        .order_by("registration_id")
        .values_list(
            "player_id", "rounds", "solo_rounds", "solo_bonus", "warnings", "warning_penalty",
            "penalties", "total",
        )
    )  # fmt: skip
    players = tuple(
        PlayerGame(p, tuple(r), tuple(s), bonus, w, wp, pens, total)
        for p, r, s, bonus, w, wp, pens, total in rows
    )
    return GameResult(
        tuple(t for t, _c in rounds), players, tuple(c for _t, c in rounds), figure.entrants
    )


def computed_game_outcomes(game: Game, settings: TotalsSettings | None = None) -> GameResult:
    """The game's figures recomputed from the proposal rows (the reference the checker
    compares the stored figures with; every ranking read them this way before issue 16)."""
    if settings is None:
        settings = adapter.totals_settings(game.tournament, adapter.variant(game.variant_code))
    rounds = counted_rounds(game)
    registrations = list(
        Registration.objects.filter(tournament_id=game.tournament_id).order_by("pk")
    )
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
