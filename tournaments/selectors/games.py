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

from django.db.models import Max, OuterRef, Subquery

from tournaments.errors import ServiceError
from tournaments.models import (
    AuditLog,
    Decision,
    Game,
    ProposalVersion,
    Registration,
    Round,
    SlipConflict,
    Tournament,
)
from tournaments.selectors.tournament import MAX_ID


def game_by_id(game_id: int) -> Game:
    """The game ``game_id`` with its tournament; ``game.unknown`` when there is none."""
    game = None
    if 0 < game_id <= MAX_ID:
        game = Game.objects.select_related("tournament").filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    return game


def round_by_id(round_id: int, *, tournament_id: int | None = None) -> Round:
    """The round ``round_id`` with its game and tournament; ``round.unknown`` when there is
    none, or (``tournament_id`` given) when it belongs to another tournament."""
    rnd = None
    if 0 < round_id <= MAX_ID:
        rounds = Round.objects.select_related("game__tournament").filter(pk=round_id)
        if tournament_id is not None:
            rounds = rounds.filter(game__tournament_id=tournament_id)
        rnd = rounds.first()
    if rnd is None:
        raise ServiceError("round.unknown", f"There is no round {round_id}.")
    return rnd


def game_rounds(game: Game, *, cancelled: bool = True) -> list[Round]:
    """The game's rounds in play order (number, then id); ``cancelled=False`` leaves the
    cancelled ones out."""
    rounds = Round.objects.filter(game_id=game.pk)
    if not cancelled:
        rounds = rounds.exclude(state="cancelled")
    return list(rounds.order_by("number", "id"))


def current_round(game: Game | None, *, cancelled: bool = True) -> Round | None:
    """**The current round** of ``game`` (see the module docstring): its last round, a
    cancelled one included unless ``cancelled=False``. ``None`` before the first draw."""
    if game is None:
        return None
    rounds = Round.objects.filter(game_id=game.pk)
    if not cancelled:
        rounds = rounds.exclude(state="cancelled")
    return rounds.order_by("-number", "-id").first()


def round_by_number(game: Game, number: int) -> Round | None:
    """The game's standing (not cancelled) round ``number``, or ``None``."""
    return Round.objects.filter(game_id=game.pk, number=number).exclude(state="cancelled").first()


def counted_rounds(game: Game) -> list[Round]:
    """Rounds that count: closed, not cancelled, with their top known, in order."""
    return list(
        Round.objects.filter(game_id=game.pk, state="closed", top_score__isnull=False).order_by(
            "number"
        )
    )


def previous_placed_round(rnd: Round) -> Round | None:
    """The last round before ``rnd`` whose top was placed (its squares are the ones the
    room sees highlighted)."""
    return (
        Round.objects.filter(game_id=rnd.game_id, number__lt=rnd.number, state="closed")
        .exclude(top_placed_at=None)
        .order_by("-number", "-id")
        .first()
    )


def _newest(model: type, object_type: str, **rows: object) -> Subquery:
    """The newest audit id written about one of ``model``'s rows matching ``rows``."""
    ids = model.objects.filter(**rows).values("pk")
    audit = AuditLog.objects.filter(object_type=object_type, object_id__in=ids)
    return Subquery(audit.order_by().values("object_type").annotate(m=Max("id")).values("m"))


def game_revision(game: Game) -> int:
    """The newest audit-log id about anything that can change the game's figures: the game,
    its rounds, proposals, decisions and slip conflicts, the tournament and its
    registrations (0 when nothing was logged). Every such change writes an audit row, so
    this number keys the game's caches: a change in one game leaves the others' alone."""
    game_id, tournament_id = game.pk, game.tournament_id
    newest = (
        AuditLog.objects.filter(object_type="game", object_id=OuterRef("pk"))
        .order_by()
        .values("object_type")
        .annotate(m=Max("id"))
        .values("m")
    )
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(
            n_game=Subquery(newest),
            n_rounds=_newest(Round, "round", game_id=game_id),
            n_proposals=_newest(ProposalVersion, "proposalversion", round__game_id=game_id),
            n_decisions=_newest(Decision, "decision", round__game_id=game_id),
            n_conflicts=_newest(SlipConflict, "slipconflict", round__game_id=game_id),
            n_registrations=_newest(Registration, "registration", tournament_id=tournament_id),
            n_tournament=_newest(Tournament, "tournament", pk=tournament_id),
        )
        .values_list(
            "n_game",
            "n_rounds",
            "n_proposals",
            "n_decisions",
            "n_conflicts",
            "n_registrations",
            "n_tournament",
        )  # fmt: skip
        .first()
    )
    return max((n for n in row or () if n is not None), default=0)
