"""Reads of the game-and-round aggregate: a game or round by id, a game's rounds, **the
current round**, the rounds that count, and the game's revision (what keys every cache of
its figures).

The current round is defined here once. A game's rounds are ordered by number, then by id
(a cancelled round keeps its number and its replacement is drawn with the same one). The
current round is the last of them; the room (tablets, projector, the player API) sees a
cancelled round as current until its replacement is drawn, so a player reads "coup
annulé" and cannot hand a move in for it, while the arbiter's screens pass over it
(``cancelled=False``): they continue from the last round that stands."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import Model, Subquery

from tournaments.errors import ServiceError
from tournaments.models import (
    AuditLog,
    Decision,
    Game,
    ProposalVersion,
    Registration,
    Round,
    SlipConflict,
)
from tournaments.models.choices import RoundState
from tournaments.selectors.tournament import MAX_ID, current_game_order


def game_by_id(game_id: int) -> Game:
    """The game ``game_id`` with its tournament; ``game.unknown`` when there is none."""
    game = None
    if 0 < game_id <= MAX_ID:
        game = Game.objects.select_related("tournament").filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    return game


def round_by_id(round_id: int, *, tournament_id: int | None = None) -> Round:
    """The round ``round_id`` with its game, tournament and the tournament's lexicon;
    ``round.unknown`` when there is none, or (``tournament_id`` given) when it belongs to
    another tournament."""
    rnd = None
    if 0 < round_id <= MAX_ID:
        rounds = Round.objects.select_related("game__tournament__lexicon").filter(pk=round_id)
        if tournament_id is not None:
            rounds = rounds.filter(game__tournament_id=tournament_id)
        rnd = rounds.order_by("pk").first()  # one row: no sort by the tournament's columns
    if rnd is None:
        raise ServiceError("round.unknown", f"There is no round {round_id}.")
    return rnd


def game_rounds(game: Game, *, cancelled: bool = True) -> list[Round]:
    """The game's rounds in play order (number, then id); ``cancelled=False`` leaves the
    cancelled ones out."""
    rounds = Round.objects.filter(game_id=game.pk)
    if not cancelled:
        rounds = rounds.exclude(state=RoundState.CANCELLED)
    return list(rounds.order_by("number", "id"))


def current_round(game: Game | None, *, cancelled: bool = True) -> Round | None:
    """**The current round** of ``game`` (see the module docstring): its last round, a
    cancelled one included unless ``cancelled=False``. ``None`` before the first draw."""
    if game is None:
        return None
    rounds = Round.objects.filter(game_id=game.pk)
    if not cancelled:
        rounds = rounds.exclude(state=RoundState.CANCELLED)
    return rounds.order_by("-number", "-id").first()


def playing_round(tournament_id: int) -> Round | None:
    """``current_round(current_game(tournament_id))`` in one query, with the round's game
    and tournament: a tablet's submission asks it on every proposal (issue 16, item 3).
    The current game is chosen in a subquery (``tournament.current_game_order``), so a
    current game without a round yet gives ``None``."""
    game = current_game_order(Game.objects.filter(tournament_id=tournament_id)).values("pk")[:1]
    rounds = Round.objects.select_related("game__tournament").filter(game_id=Subquery(game))
    return rounds.order_by("-number", "-id").first()


def round_by_number(game: Game, number: int) -> Round | None:
    """The game's standing (not cancelled) round ``number``, or ``None``."""
    return (
        Round.objects.filter(game_id=game.pk, number=number)
        .exclude(state=RoundState.CANCELLED)
        .first()
    )


def counted_rounds(game: Game) -> list[Round]:
    """Rounds that count: closed, not cancelled, with their top known, in order."""
    return list(
        Round.objects.filter(
            game_id=game.pk, state=RoundState.CLOSED, top_score__isnull=False
        ).order_by("number")
    )


def previous_placed_round(rnd: Round) -> Round | None:
    """The last round before ``rnd`` whose top was placed (its squares are the ones the
    room sees highlighted)."""
    return (
        Round.objects.filter(game_id=rnd.game_id, number__lt=rnd.number, state=RoundState.CLOSED)
        .exclude(top_placed_at=None)
        .order_by("-number", "-id")
        .first()
    )


@cache
def _revision_sql() -> str:
    """The query behind :func:`game_revision`, built once: seven indexed sub-queries, one
    per kind of row that can change a game's figures (written in SQL because the ORM took
    about 4.5 ms to compile them on every call, against 1 ms to run them)."""
    q = connection.ops.quote_name
    audit = q(AuditLog._meta.db_table)
    rounds, regs = q(Round._meta.db_table), q(Registration._meta.db_table)

    def newest(object_type: str, join: str = "", where: str = "a.object_id = %s") -> str:
        return (
            f"(SELECT MAX(a.id) FROM {audit} a {join} "
            f"WHERE a.object_type = '{object_type}' AND {where})"
        )

    def via_round(model: type[Model]) -> str:
        table = q(model._meta.db_table)
        join = f"JOIN {table} x ON a.object_id = x.id JOIN {rounds} r ON x.round_id = r.id"
        return newest(model._meta.model_name, join, "r.game_id = %s")

    parts = [
        newest("game"),
        newest("round", f"JOIN {rounds} r ON a.object_id = r.id", "r.game_id = %s"),
        via_round(ProposalVersion),
        via_round(Decision),
        via_round(SlipConflict),
        newest("registration", f"JOIN {regs} g ON a.object_id = g.id", "g.tournament_id = %s"),
        newest("tournament"),
    ]
    return "SELECT " + ", ".join(parts)


def game_revision(game: Game) -> int:
    """The newest audit-log id about anything that can change the game's figures: the game,
    its rounds, proposals, decisions and slip conflicts, the tournament and its
    registrations (0 when nothing was logged). Every such change writes an audit row, so
    this number keys the game's caches: a change in one game leaves the others' alone."""
    params = [game.pk] * 5 + [game.tournament_id] * 2
    with connection.cursor() as cursor:
        cursor.execute(_revision_sql(), params)
        row = cursor.fetchone()
    return max((n for n in row or () if n is not None), default=0)
