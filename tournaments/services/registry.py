"""Tournaments, their arbiters and players: creation, registration, late arrivals and the
players' tablet tokens.

A tournament's creator becomes its head arbiter (``services.arbiters`` adds the others).
Tables are unique per tournament (a database constraint); a registration without a table
takes the smallest free one, decided under the tournament's row lock so two registrations
never pick the same table.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from engine.duplicate.variants import STANDARD
from tournaments import adapter, selectors
from tournaments.access import HEAD, Actor, is_system, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    ArbiterMembership,
    Player,
    Registration,
    Tournament,
)
from tournaments.services.audit import audit_record
from tournaments.services.centre_state import registration_centre
from tournaments.services.standings import standings_update

TIE_BREAKS = ("shared", "last_game_then_last_moves")


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament under a row lock, or ``tournament.unknown``."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
    return tournament


def tournament_touch(*, tournament_id: int, actor: Actor) -> Tournament | None:
    """Stamp ``last_computed_at`` under the row's lock (the ``tournament_touch`` task, the
    skeleton of the workers' computations); None when the tournament no longer exists.
    Stamping twice is harmless, so a redelivered message is no error. A bookkeeping stamp,
    not a change of the tournament: no audit row (it would also expire the rankings' cache,
    keyed by the last audit id)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return None
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        tournament.last_computed_at = timezone.now()
        tournament.save(update_fields=["last_computed_at"])
        return tournament


def tournament_create(
    *,
    name: str,
    slug: str,
    description: str = "",
    lexicon_id: int | None = None,
    variant_code: str = STANDARD.code,
    seconds_per_move: int | None = None,
    warning_before_end: int | None = None,
    warning_penalty_from: int | None = None,
    solo_value: int = 10,
    solo_min_players: int = 16,
    score_required: bool = True,
    tie_break: str = "shared",
    public_rankings: bool = False,
    actor: Actor,
) -> Tournament:
    """A new tournament with its settings and its lexicon (required); ``actor`` (if a user)
    becomes its head arbiter. Later changes go through ``tournament_update``.

    Only the system (``access.SYSTEM``), a superuser or a user with the ``add_tournament``
    permission may create one."""
    user = user_of(actor)
    if not is_system(actor) and not (
        user is not None and (user.is_superuser or user.has_perm("tournaments.add_tournament"))
    ):
        raise ServiceError("access.create", "You may not create tournaments.")
    if not name.strip() or not slug.strip():
        raise ServiceError("tournament.name", "A tournament needs a name and an identifier.")
    variant_code = adapter.variant(variant_code).code  # an old code is stored as today's
    if tie_break not in TIE_BREAKS:
        raise ServiceError(
            "tournament.tie_break", f"'{tie_break}' is not a tie-break.", tie_break=tie_break
        )
    if seconds_per_move is not None and seconds_per_move <= 0:
        raise ServiceError("tournament.seconds", "The time per move must be positive.")
    if lexicon_id is None:  # without one the first draw would fail (issue 15)
        raise ServiceError("tournament.lexicon_required", "A tournament needs a lexicon.")
    if lexicon_id not in {lex.pk for lex in selectors.lexicons_offered(None)}:
        raise ServiceError("lexicon.unknown", f"There is no lexicon {lexicon_id} to choose.")
    with transaction.atomic():
        if Tournament.objects.filter(slug=slug).exists():
            raise ServiceError(
                "tournament.slug_taken", f"The identifier '{slug}' is taken.", slug=slug
            )
        tournament = Tournament.objects.create(
            name=name.strip(), slug=slug, description=description, lexicon_id=lexicon_id,
            variant_code=variant_code, seconds_per_move=seconds_per_move,
            warning_before_end=warning_before_end, warning_penalty_from=warning_penalty_from,
            solo_value=solo_value, solo_min_players=solo_min_players,
            score_required=score_required, tie_break=tie_break,
            public_rankings=bool(public_rankings),
        )  # fmt: skip
        if user is not None:
            ArbiterMembership.objects.create(user=user, tournament=tournament, role=HEAD)
        audit_record(actor=actor, action="tournament.create", obj=tournament, slug=slug)
        return tournament


def arbiter_account_create(*, username: str, password: str, actor: Actor) -> Any:
    """The site's operator account (a Django superuser: head arbiter everywhere), made by
    ``manage.py tirage_setup`` (``access.SYSTEM``) or by another superuser. The caller
    validated the user name and the password."""
    user = user_of(actor)
    if not is_system(actor) and not (user is not None and user.is_superuser):
        raise ServiceError("access.operator", "Only the operator creates operator accounts.")
    user_model = get_user_model()
    with transaction.atomic():
        account = user_model._default_manager.create_superuser(
            **{user_model.USERNAME_FIELD: username}, email="", password=password
        )
        audit_record(actor=actor, action="account.create", obj=account, superuser=True)
        return account


def free_table(tournament: Tournament, taken: set[int] | None = None) -> int:
    """The smallest table number not used in the tournament (nor in ``taken``)."""
    used = set(tournament.registrations.values_list("table_number", flat=True)) | (taken or set())
    table = 1
    while table in used:
        table += 1
    return table


def register(
    tournament: Tournament,
    fields: dict[str, Any],
    table: int | None,
    actor: Actor,
    centre_id: int | None = None,
) -> Registration:
    """Register one player (the caller holds the tournament's lock and checked access).

    A licence already known reuses its ``Player`` row; a player registered twice, or a
    table taken, is refused."""
    licence = (fields.get("licence") or "").strip()
    player = Player.objects.filter(licence=licence).first() if licence else None
    if player is None:
        player = Player.objects.create(**{**fields, "licence": licence})
    elif tournament.registrations.filter(player=player).exists():
        raise ServiceError(
            "registration.duplicate",
            f"Licence {licence} is already registered here.",
            licence=licence,
        )
    if table is None:
        table = free_table(tournament)
    elif table < 1:
        raise ServiceError("registration.table", "A table number starts at 1.")
    elif tournament.registrations.filter(table_number=table).exists():
        raise ServiceError("registration.table_taken", f"Table {table} is taken.", table=table)
    registration = Registration.objects.create(
        tournament=tournament, player=player, table_number=table, centre_id=centre_id
    )
    standings_update(actor=actor, tournament_id=tournament.pk, player_ids=[player.pk])
    audit_record(actor=actor, action="registration.create", obj=registration,
                 player=player.pk, table=table)  # fmt: skip
    return registration


def player_register(
    *,
    tournament_id: int,
    name: str,
    licence: str = "",
    club: str = "",
    federation: str = "",
    series: str = "",
    category: str = "",
    birth_year: int | None = None,
    table: int | None = None,
    centre_id: int | None = None,
    actor: Actor,
) -> Registration:
    """Register a player at ``table`` (the next free table when ``None``), in the centre
    ``centre_id`` of a simultaneous event (a centre arbiter registers in their own)."""
    if not name.strip():
        raise ServiceError("player.name", "A player needs a name.")
    fields = dict(name=name.strip(), licence=licence, club=club, federation=federation,
                  series=series, category=category, birth_year=birth_year)  # fmt: skip
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        centre = registration_centre(tournament_id=tournament.pk, actor=actor, centre_id=centre_id)
        return register(tournament, fields, table, actor, centre)


def _locked_registration(registration_id: int) -> Registration:
    reg = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .filter(pk=registration_id)
        .first()
    )
    if reg is None:
        raise ServiceError("registration.unknown", f"There is no registration {registration_id}.")
    return reg


def registration_arrive(
    *, registration_id: int, game_number: int, round_number: int, actor: Actor
) -> Registration:
    """A late arrival: the player plays from round ``round_number`` of game
    ``game_number``; earlier rounds of that game count 0 (``zero.late_arrival``), earlier
    games count 0 too (absent)."""
    if game_number < 1 or round_number < 1:
        raise ServiceError("registration.arrival", "Games and rounds are numbered from 1.")
    with transaction.atomic():
        reg = _locked_registration(registration_id)
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, player_id=reg.player_id)
        if (reg.arrival_game, reg.arrival_round) == (game_number, round_number):
            return reg
        if reg.withdrawn and (game_number, round_number) > (
            reg.withdrawn_game,
            reg.withdrawn_round or 1,
        ):
            raise ServiceError(
                "registration.arrival_after_withdrawal",
                "The arrival cannot come after the player's withdrawal.",
                game=reg.withdrawn_game, round=reg.withdrawn_round,
            )  # fmt: skip
        previous = [reg.arrival_game, reg.arrival_round]
        reg.arrival_game, reg.arrival_round = game_number, round_number
        reg.save(update_fields=["arrival_game", "arrival_round"])
        standings_update(actor=actor, tournament_id=reg.tournament_id, player_ids=[reg.player_id])
        audit_record(actor=actor, action="registration.arrive", obj=reg, previous=previous,
                     game=game_number, round=round_number)  # fmt: skip
        return reg


def registration_token_issue(*, registration_id: int, actor: Actor) -> str:
    """A new tablet token for the player (43 URL-safe characters); the old one stops working.
    Only the token's existence is audited, never its value."""
    with transaction.atomic():
        reg = _locked_registration(registration_id)
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, player_id=reg.player_id)
        reissued = reg.access_token is not None
        reg.access_token = secrets.token_urlsafe(32)
        reg.save(update_fields=["access_token"])
        audit_record(actor=actor, action="registration.token_issue", obj=reg, reissued=reissued)
        return reg.access_token


def registration_token_revoke(*, registration_id: int, actor: Actor) -> Registration:
    """The player's tablet token stops working (no-op without one)."""
    with transaction.atomic():
        reg = _locked_registration(registration_id)
        require_arbiter(actor=actor, tournament_id=reg.tournament_id, player_id=reg.player_id)
        if reg.access_token is None:
            return reg
        reg.access_token = None
        reg.save(update_fields=["access_token"])
        audit_record(actor=actor, action="registration.token_revoke", obj=reg)
        return reg
