"""Reads: standings of a game and of a tournament, computed by ``engine.duplicate.totals``
from the current proposal versions, so nothing derived is ever stored and left stale."""

from __future__ import annotations

from collections import defaultdict

from engine.duplicate.totals import GameResult, Standing, game_result
from engine.duplicate.totals import game_standings as engine_game_standings
from engine.duplicate.totals import tournament_standings as engine_tournament_standings
from tournaments import adapter
from tournaments.models import Decision, Game, ProposalVersion, Registration, Tournament


def game_counted_rounds(game: Game) -> list:
    """Rounds that count: closed, not cancelled, with their top known."""
    return list(game.rounds.filter(state="closed", top_score__isnull=False).order_by("number"))


def game_outcomes(game: Game) -> GameResult:
    """Per-player figures of one game (round scores, solos, warnings, total)."""
    rounds = game_counted_rounds(game)
    registrations = list(Registration.objects.filter(tournament_id=game.tournament_id))
    versions = ProposalVersion.objects.filter(round__in=rounds, is_current=True)
    current = {(v.round_id, v.player_id): v for v in versions}
    warnings: dict[int, list[int]] = defaultdict(list)
    numbers = {r.pk: r.number for r in rounds}
    for d in Decision.objects.filter(round__in=rounds, kind="warning"):
        warnings[d.player_id].append(numbers[d.round_id])
    scores = adapter.game_scores(
        game=game, rounds=rounds, registrations=registrations, current=current, warnings=warnings
    )
    return game_result(scores, adapter.totals_settings(game.tournament))


def game_standings(game: Game) -> tuple[Standing, ...]:
    """The ranking of one game; ``player_id`` is the ``Player`` primary key."""
    return engine_game_standings(game_outcomes(game))


def tournament_standings(tournament: Tournament) -> tuple[Standing, ...]:
    """The ranking over every game of the tournament, with its tie-break."""
    results = [game_outcomes(g) for g in tournament.games.order_by("number")]
    return engine_tournament_standings(results, adapter.totals_settings(tournament))
