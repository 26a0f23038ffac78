"""A registered player's life after registration: editing the details or the table,
withdrawal (« abandon ») and its undoing, and every missing tablet link in one action.

Rights (docs/console.md, "Joueurs"): any arbiter of the tournament corrects a player's
details (a typo seen while entering slips should not wait for the head arbiter), issues
tablet links and records a late arrival; moving a player to another table, withdrawing
and reinstating a player change who sits where and who plays, which is the head
arbiter's call (FISF: the juge-arbitre directs the room).

A withdrawal keeps the past: it is refused from a round the player already handed a slip
for, so no result recorded so far changes (docs/rules-choices.md, « Abandon »).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from tournaments import selectors
from tournaments.access import Actor, centre_scope, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import Player, Registration
from tournaments.services.audit import audit_record
from tournaments.services.registry import _locked_registration, locked_tournament
from tournaments.services.standings import standings_update

#: The player's details an arbiter may correct (``Player`` columns).
PLAYER_FIELDS = ("name", "licence", "club", "federation", "series", "category", "birth_year")
#: The longest withdrawal reason kept (``Registration.withdrawn_reason``).
MAX_REASON = 500


def _player_changes(player: Player, values: dict[str, Any]) -> dict[str, list[Any]]:
    """``{field: [before, after]}`` for the details that change."""
    return {
        name: [getattr(player, name), value]
        for name, value in values.items()
        if getattr(player, name) != value
    }


def _require_every_tournament(actor: Actor, player: Player, here: int) -> None:
    """The details are the person's, printed in every tournament they played: an arbiter
    of this tournament changes them only if they arbitrate the others too
    (``access.player_elsewhere``), so no one rewrites another event's results sheet."""
    others = (
        Registration.objects.filter(player=player)
        .exclude(tournament_id=here)
        .values_list("tournament_id", flat=True)
    )
    for tournament_id in others:
        try:
            require_arbiter(actor=actor, tournament_id=tournament_id)
        except ServiceError as error:
            raise ServiceError(
                "access.player_elsewhere",
                "The player is registered in a tournament you do not arbitrate.",
            ) from error


def registration_update(
    *,
    registration_id: int,
    name: str,
    licence: str = "",
    club: str = "",
    federation: str = "",
    series: str = "",
    category: str = "",
    birth_year: int | None = None,
    table: int | None = None,
    actor: Actor,
) -> Registration:
    """Correct a registered player's details and, with ``table``, move them to that table.

    The details are the person's (``Player``): a corrected name shows in every document
    and on the tablet at once, as they read the row. A licence another player holds is
    refused (``player.licence_taken``), a table someone sits at too
    (``registration.table_taken``; the ``reg_table`` constraint keeps one registration per
    table in any case). A player also registered in a tournament the actor does not
    arbitrate keeps their details (``access.player_elsewhere``). Nothing changed: nothing
    written. One audit row lists what changed, before and after."""
    name = name.strip()
    if not name:
        raise ServiceError("player.name", "A player needs a name.")
    if table is not None and table < 1:
        raise ServiceError("registration.table", "A table number starts at 1.")
    values: dict[str, Any] = dict(name=name, licence=licence.strip(), club=club.strip(),
                  federation=federation.strip(), series=series.strip(),
                  category=category.strip(), birth_year=birth_year)  # fmt: skip
    tournament_id = selectors.registration_by_id(registration_id).tournament_id
    with transaction.atomic():
        locked_tournament(tournament_id)  # first, as a registration picking a table does
        reg = _locked_registration(registration_id)
        moving = table is not None and table != reg.table_number
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, head=moving,
                        player_id=reg.player_id)  # fmt: skip
        player = Player.objects.select_for_update().get(pk=reg.player_id)
        changes = _player_changes(player, values)
        if changes:
            _require_every_tournament(actor, player, reg.tournament_id)
        new_licence = str(values["licence"])
        if (
            "licence" in changes
            and new_licence
            and (Player.objects.filter(licence=new_licence).exclude(pk=player.pk).exists())
        ):
            raise ServiceError("player.licence_taken",
                               f"Licence {new_licence} belongs to another player.",
                               licence=new_licence)  # fmt: skip
        if table is not None and moving:
            if Registration.objects.filter(
                tournament_id=reg.tournament_id, table_number=table
            ).exists():
                raise ServiceError(
                    "registration.table_taken", f"Table {table} is taken.", table=table
                )
            changes["table"] = [reg.table_number, table]
        if not changes:
            return reg
        for field in PLAYER_FIELDS:
            setattr(player, field, values[field])
        player.save(update_fields=list(PLAYER_FIELDS))
        if table is not None and moving:
            reg.table_number = table
            reg.save(update_fields=["table_number"])
        audit_record(actor=actor, action="registration.update", obj=reg, changes=changes)
        return reg


def registration_withdraw(
    *, registration_id: int, game_number: int, round_number: int, reason: str, actor: Actor
) -> Registration:
    """The player leaves the tournament from round ``round_number`` of game
    ``game_number`` on: no slip is expected from them, the tablet refuses their moves
    (``registration.withdrawn``), those rounds count as absent, and the rankings keep
    them with their score so far, marked « abandon ». The head arbiter decides, and says
    why. Refused from a round the player already handed a move for
    (``registration.played_after``: the past stays as recorded) or before the arrival."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("registration.withdraw_reason", "A withdrawal states why.")
    if len(reason) > MAX_REASON:
        raise ServiceError("registration.withdraw_reason_long", "The reason is too long.",
                           limit=MAX_REASON)  # fmt: skip
    if game_number < 1 or round_number < 1:
        raise ServiceError("registration.withdrawal", "Games and rounds are numbered from 1.")
    with transaction.atomic():
        reg = _locked_registration(registration_id)
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, head=True)
        if reg.withdrawn:
            raise ServiceError(
                "registration.withdrawn",
                "The player has already withdrawn.",
                game=reg.withdrawn_game, round=reg.withdrawn_round,
            )  # fmt: skip
        if (game_number, round_number) < (reg.arrival_game, reg.arrival_round):
            raise ServiceError(
                "registration.withdraw_before_arrival",
                "A withdrawal cannot come before the player's arrival.",
                game=reg.arrival_game, round=reg.arrival_round,
            )  # fmt: skip
        played = selectors.last_move_from(reg, game_number, round_number)
        if played is not None:
            raise ServiceError(
                "registration.played_after",
                "The player handed in a move in that round or later.",
                game=played[0], round=played[1],
            )  # fmt: skip
        reg.withdrawn_game, reg.withdrawn_round = game_number, round_number
        reg.withdrawn_reason = reason
        reg.save(update_fields=["withdrawn_game", "withdrawn_round", "withdrawn_reason"])
        standings_update(actor=actor, tournament_id=reg.tournament_id, player_ids=[reg.player_id])
        audit_record(actor=actor, action="registration.withdraw", obj=reg,
                     game=game_number, round=round_number, reason=reason)  # fmt: skip
        return reg


def registration_reinstate(*, registration_id: int, actor: Actor) -> Registration:
    """Undo a withdrawal (« Réintégrer »): the player plays again from the next round;
    the rounds missed meanwhile have no slip, zero like any missing slip. Head arbiter."""
    with transaction.atomic():
        reg = _locked_registration(registration_id)
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, head=True)
        if not reg.withdrawn:
            raise ServiceError("registration.not_withdrawn", "The player has not withdrawn.")
        previous = [reg.withdrawn_game, reg.withdrawn_round, reg.withdrawn_reason]
        reg.withdrawn_game = reg.withdrawn_round = None
        reg.withdrawn_reason = ""
        reg.save(update_fields=["withdrawn_game", "withdrawn_round", "withdrawn_reason"])
        standings_update(actor=actor, tournament_id=reg.tournament_id, player_ids=[reg.player_id])
        audit_record(actor=actor, action="registration.reinstate", obj=reg, previous=previous)
        return reg


def registration_tokens_issue(*, tournament_id: int, actor: Actor) -> int:
    """A tablet link for every registration of the tournament that has none (« Créer
    tous les liens tablette »), how many were made; links already handed out stay as
    they are, so running it twice changes nothing the second time. One audit row for
    the lot (the count and tables, never a token). Any arbiter of the tournament."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        rows = Registration.objects.select_for_update().filter(
            tournament_id=tournament.pk, access_token__isnull=True
        )
        centre = centre_scope(actor=actor, tournament_id=tournament.pk).centre_id
        if centre is not None:  # a centre arbiter: their centre's players only
            rows = rows.filter(centre_id=centre)
        missing = list(rows.order_by("table_number"))
        if not missing:
            return 0
        for reg in missing:
            reg.access_token = secrets.token_urlsafe(32)
        Registration.objects.bulk_update(missing, ["access_token"])
        audit_record(actor=actor, action="registration.tokens_issue", obj=tournament,
                     count=len(missing), tables=[r.table_number for r in missing])  # fmt: skip
        return len(missing)
