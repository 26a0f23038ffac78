"""Reads of the tournament aggregate: a tournament by its slug, the tournaments an arbiter
sees, its games, **the current game**, whether its rankings are public, its printed header.

A look-up by name or id raises ``ServiceError("….unknown")`` (a 404 everywhere: the API
answers it, the console turns it into its 404 page) rather than returning ``None``, so every
audience words an unknown object the same way."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, Exists, OuterRef, Q, QuerySet, When

from tournaments.errors import ServiceError
from tournaments.models import Game, Round, Tournament
from tournaments.models.choices import GameState
from tournaments.selectors.values import TournamentInfo

#: A larger id would overflow PostgreSQL's bigint: no row has it, and asking would fail.
MAX_ID = 2**63 - 1
#: Game numbers are PostgreSQL integers.
MAX_NUMBER = 2**31 - 1


def tournament_by_slug(slug: str) -> Tournament:
    """The tournament named ``slug``; ``tournament.unknown`` when there is none."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament '{slug}'.")
    return tournament


def tournaments_all() -> QuerySet[Tournament]:
    """Every tournament (the API's public list)."""
    return Tournament.objects.all()


def arbiter_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` arbitrates (every one for a superuser), newest first."""
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(arbiters__user=user)
    return qs.order_by("-created_at", "name")


def tournament_games(tournament: Tournament | int) -> list[Game]:
    """The tournament's games in play order."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return list(
        Game.objects.select_related("tournament")
        .filter(tournament_id=tournament_id)
        .order_by("number")
    )


def game_by_number(tournament: Tournament, number: int) -> Game:
    """Game ``number`` of the tournament; ``game.unknown`` when it has no such game."""
    games = Game.objects.select_related("tournament").filter(tournament=tournament)
    game = games.filter(number=number).first() if 0 < number <= MAX_NUMBER else None
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {number} in '{tournament.slug}'.")
    return game


def current_game_order(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` in the order that picks **the current game** first: the highest-numbered
    game being played that has a round drawn, else the highest-numbered game being played
    (created, nothing drawn yet), else the highest-numbered one. A game created ahead (the
    next game of an event, prepared while this one is played) does not take the room's
    tablets away from the game being played."""
    started = Exists(Round.objects.filter(game_id=OuterRef("pk")))
    rank = Case(
        When(started & Q(state=GameState.PLAYING), then=0),
        When(state=GameState.PLAYING, then=1),
        default=2,
    )
    return games.order_by(rank, "-number")


def current_game(tournament_id: int) -> Game | None:
    """**The current game** of a tournament, for everyone who follows what is being
    played (tablets, projector, the player API): see :func:`current_game_order`."""
    games = Game.objects.select_related("tournament").filter(tournament_id=tournament_id)
    return current_game_order(games).first()


def rankings_public(tournament: Tournament) -> bool:
    """Whether anyone (anonymous, a player token) may read the tournament's rankings: its
    ``public_rankings`` setting. Its arbiters always may."""
    return bool(tournament.public_rankings)


def tournament_info(tournament: Tournament) -> TournamentInfo:
    """What every printed header shows of the tournament."""
    lexicon = tournament.lexicon.label if tournament.lexicon_id else ""
    day = tournament.created_at.date() if tournament.created_at else None
    return TournamentInfo(tournament.name, tournament.slug, day, lexicon)
