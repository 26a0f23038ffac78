"""Who may open a card table, and the tables' life outside play (issue 18).

A table is opened by an arbiter of the tournament or by **one of its players**, through
their tablet link (``access.PlayerActor``): clubs play the card game at leisure evenings,
where members sit down and start a game without waiting for an arbiter. A player's table
is bounded so that a tablet link cannot flood the site with tables (each table replays its
events and may run engine opponents):

* the arbiters may forbid it (:func:`card_settings_set`; allowed by default);
* a withdrawn player opens nothing;
* at most :data:`PLAYER_OPEN_MAX` tables **in play** opened by one player, at most
  :data:`TOURNAMENT_OPEN_MAX` tables in play opened by players in one tournament, and at
  most :data:`PLAYER_OPENED_PER_HOUR` tables opened by one player in the last hour (a game
  ends at once when every seat passes, so the cap on tables in play alone is no limit);
* an arbiter closes any table, the player who opened one closes it
  (:func:`card_table_close`); a closed table takes no more action.

Every write is audited with its actor: the arbiter (a user) or the player (``player``).
docs/cards.md ("Who opens a table") gives the reasons.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.access import Actor, PlayerActor, is_system, registration_of, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import CardSettings, CardTable, CardTableState, Registration, Tournament
from tournaments.selectors.cards import card_players_may_open
from tournaments.services.audit import audit_record

#: Tables in play that one player may have opened at once.
PLAYER_OPEN_MAX = 2
#: Tables in play opened by players in one tournament (the arbiters' are not counted).
TOURNAMENT_OPEN_MAX = 30
#: Tables one player may open in an hour, whatever became of them.
PLAYER_OPENED_PER_HOUR = 6


def opener_checked(*, actor: Actor, tournament: Tournament) -> Registration | None:
    """May ``actor`` open a table in ``tournament`` now? An arbiter (or the system): yes,
    ``None``; a player: their registration when the rules above allow it, else a coded
    refusal. Called under the tournament's row lock, so two tablets cannot both pass the
    caps."""
    if not isinstance(actor, PlayerActor):
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        return None
    registration = Registration.objects.filter(
        pk=actor.registration_id, tournament_id=tournament.pk
    ).first()
    if registration is None:
        raise ServiceError("access.card_open", "This tablet is not a player of this tournament.")
    if registration.withdrawn:
        raise ServiceError(
            "registration.withdrawn",
            "This player has withdrawn.",
            game=registration.withdrawn_game,
            round=registration.withdrawn_round,
        )
    if not card_players_may_open(tournament.pk):
        raise ServiceError(
            "access.card_players", "The arbiters have not allowed players to open card tables."
        )
    playing = CardTable.objects.filter(tournament=tournament, state=CardTableState.PLAYING)
    mine = playing.filter(opened_by=registration).count()
    if mine >= PLAYER_OPEN_MAX:
        raise ServiceError(
            "cards.player_tables",
            f"A player has at most {PLAYER_OPEN_MAX} tables in play.",
            limit=PLAYER_OPEN_MAX,
        )
    if playing.filter(opened_by__isnull=False).count() >= TOURNAMENT_OPEN_MAX:
        raise ServiceError(
            "cards.tournament_tables",
            f"The tournament has {TOURNAMENT_OPEN_MAX} tables opened by players in play.",
            limit=TOURNAMENT_OPEN_MAX,
        )
    since = timezone.now() - timedelta(hours=1)
    recent = CardTable.objects.filter(opened_by=registration, created_at__gte=since).count()
    if recent >= PLAYER_OPENED_PER_HOUR:
        raise ServiceError(
            "cards.player_rate",
            f"A player opens at most {PLAYER_OPENED_PER_HOUR} tables an hour.",
            limit=PLAYER_OPENED_PER_HOUR,
        )
    return registration


def card_settings_set(*, tournament_id: int, actor: Actor, players_may_open: bool) -> CardSettings:
    """An arbiter allows or forbids the players to open card tables (audited)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        row, _ = CardSettings.objects.get_or_create(tournament=tournament)
        if row.players_may_open != players_may_open:
            row.players_may_open = players_may_open
            row.save(update_fields=["players_may_open"])
            audit_record(
                actor=actor,
                action="cards.settings",
                obj=tournament,
                players_may_open=players_may_open,
            )
        return row


def card_table_close(*, table_id: int, actor: Actor) -> CardTable:
    """Close a table in play: an arbiter of its tournament, or the player who opened it.
    Its events stay (the game so far is still read and printed); nothing more is played."""
    with transaction.atomic():
        table = CardTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ServiceError("card_table.unknown", f"There is no card table {table_id}.")
        opener = isinstance(actor, PlayerActor) and (
            table.opened_by_id is not None and actor.registration_id == table.opened_by_id
        )
        if not opener and not is_system(actor):
            if isinstance(actor, PlayerActor):
                raise ServiceError(
                    "access.card_close", "Only the player who opened a table may close it."
                )
            require_arbiter(actor=actor, tournament_id=table.tournament_id)
        if table.state != CardTableState.PLAYING:
            raise ServiceError("card_table.state", "The table is no longer in play.")
        table.state = CardTableState.CLOSED
        table.finished_at = timezone.now()
        table.save(update_fields=["state", "finished_at"])  # the pages' ETag holds the state
        audit_record(actor=actor, action="cards.table_close", obj=table,
                     registration=registration_of(actor))  # fmt: skip
        return table
