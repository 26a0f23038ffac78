"""A tournament's settings after its creation: ``tournament_update``, the one way the console
(and later the API) changes them, so every change is checked, audited and never alters a
game already played.

What may still change is decided by ``selectors.tournament_settings_locks``: the lexicon and
the formula drew the racks and tops of every round, so they are fixed from the first drawn
round, and so is whether the event is simultaneous (its centres close the rounds); solos,
warnings, "score required" and the tie-break made the scores and ranks, so they are fixed
from the first closed round. The name, dates, timer, public rankings and the language
change at any time (the timer only counts for rounds opened afterwards). The same ranges
are database constraints (``Tournament.Meta``). A new formula also applies to the
tournament's games that have no round yet and were following the old one.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Final

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments import adapter, selectors
from tournaments.access import require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import GameKind, Lexicon, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.games import simultaneous_kind
from tournaments.services.registry import TIE_BREAKS, locked_tournament
from tournaments.services.standings import standings_update


class _Unchanged:
    """The default of every setting of ``tournament_update``: leave it as it is."""

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Final = _Unchanged()

#: The name of each setting as refusals and the settings page show it.
LABELS: Mapping[str, Any] = {
    "name": _("Nom"),
    "description": _("Description"),
    "starts_on": _("Date de début"),
    "ends_on": _("Date de fin"),
    "lexicon_id": _("Lexique"),
    "variant_code": _("Formule"),
    "seconds_per_move": _("Secondes par coup"),
    "warning_before_end": _("Annonce avant la fin (secondes)"),
    "warning_penalty_from": _("Avertissement pénalisé à partir du"),
    "solo_value": _("Valeur du solo"),
    "solo_min_players": _("Joueurs minimum pour un solo"),
    "score_required": _("Score obligatoire"),
    "tie_break": _("Départage"),
    "public_rankings": _("Classement public"),
    "language": _("Langue"),
    "simultaneous": _("Tournoi simultané (plusieurs centres)"),
}

#: Whole-number settings: (lowest, highest, may be empty to mean the formula's own value).
RANGES: Mapping[str, tuple[int, int, bool]] = {
    "seconds_per_move": (1, 3600, True),
    "warning_before_end": (0, 3600, True),
    "warning_penalty_from": (1, 100, True),
    "solo_value": (0, 100, False),
    "solo_min_players": (1, 10_000, False),
}
MAX_NAME = 200
MAX_DESCRIPTION = 5_000


def _range_error(field: str) -> ServiceError:
    low, high, _empty = RANGES[field]
    return ServiceError(
        "tournament.range",
        f"{field} goes from {low} to {high}.",
        setting=str(LABELS[field]),
        low=low,
        high=high,
    )


def _checked(field: str, value: Any) -> Any:
    """``value`` as stored, or the refusal of a value outside what the setting accepts."""
    if field in RANGES:
        low, high, empty = RANGES[field]
        if value is None and empty:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _range_error(field)
        return value
    if field == "name":
        text = str(value or "").strip()
        if not text or len(text) > MAX_NAME:
            raise ServiceError("tournament.name", "A tournament needs a name.")
        return text
    if field == "description":
        text = str(value or "")
        if len(text) > MAX_DESCRIPTION:
            raise ServiceError("tournament.description", "The description is too long.",
                               max=MAX_DESCRIPTION)  # fmt: skip
        return text
    if field in {"starts_on", "ends_on"}:
        if value is not None and not isinstance(value, datetime.date):
            raise ServiceError("tournament.dates", "A date is a day of the calendar.")
        return value
    if field == "lexicon_id":
        if value is None:
            raise ServiceError("tournament.lexicon_required", "A tournament needs a lexicon.")
        if not Lexicon.objects.filter(pk=value).exists():
            raise ServiceError("lexicon.unknown", f"There is no lexicon {value}.")
        return value  # offered to this tournament? checked with its row (tournament_update)
    if field == "variant_code":
        return adapter.variant(str(value)).code  # the engine's refusal for an unknown code
    if field == "tie_break":
        if value not in TIE_BREAKS:
            raise ServiceError("tournament.tie_break", f"'{value}' is not a tie-break.",
                               tie_break=value)  # fmt: skip
        return value
    if field == "language":
        if value not in {code for code, _name in settings.LANGUAGES}:
            raise ServiceError("tournament.language", f"'{value}' is not a language of the site.",
                               language=value)  # fmt: skip
        return value
    return bool(value)  # score_required, public_rankings, simultaneous


def _as_json(value: Any) -> Any:
    """A setting's value as the audit row keeps it."""
    return value.isoformat() if isinstance(value, datetime.date) else value


#: The settings the stored figures depend on (``services.standings``).
FIGURES = {"variant_code", "warning_penalty_from", "solo_value", "solo_min_players"}


def tournament_update(
    *,
    actor: Any,
    tournament_id: int,
    name: str | _Unchanged = UNCHANGED,
    description: str | _Unchanged = UNCHANGED,
    starts_on: datetime.date | None | _Unchanged = UNCHANGED,
    ends_on: datetime.date | None | _Unchanged = UNCHANGED,
    lexicon_id: int | _Unchanged = UNCHANGED,
    variant_code: str | _Unchanged = UNCHANGED,
    seconds_per_move: int | None | _Unchanged = UNCHANGED,
    warning_before_end: int | None | _Unchanged = UNCHANGED,
    warning_penalty_from: int | None | _Unchanged = UNCHANGED,
    solo_value: int | _Unchanged = UNCHANGED,
    solo_min_players: int | _Unchanged = UNCHANGED,
    score_required: bool | _Unchanged = UNCHANGED,
    tie_break: str | _Unchanged = UNCHANGED,
    public_rankings: bool | _Unchanged = UNCHANGED,
    language: str | _Unchanged = UNCHANGED,
    simultaneous: bool | _Unchanged = UNCHANGED,
) -> Tournament:
    """Change the given settings of a tournament (head arbiter only) and audit each change
    as ``[old, new]``; a setting given with its current value is no change.

    Refused, and nothing written: a value outside its range (``tournament.range``, …), an
    end before the start (``tournament.dates``), and a change of a setting games already
    played depend on (``tournament.frozen_started``, ``tournament.frozen_closed``)."""
    given = {
        "name": name, "description": description, "starts_on": starts_on, "ends_on": ends_on,
        "lexicon_id": lexicon_id, "variant_code": variant_code,
        "seconds_per_move": seconds_per_move, "warning_before_end": warning_before_end,
        "warning_penalty_from": warning_penalty_from, "solo_value": solo_value,
        "solo_min_players": solo_min_players, "score_required": score_required,
        "tie_break": tie_break, "public_rankings": public_rankings, "language": language,
        "simultaneous": simultaneous,
    }  # fmt: skip
    wanted = {f: _checked(f, v) for f, v in given.items() if v is not UNCHANGED}
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        changes = {
            f: (getattr(tournament, f), v) for f, v in wanted.items() if getattr(tournament, f) != v
        }
        if not changes:
            return tournament
        start = changes.get("starts_on", (None, tournament.starts_on))[1]
        end = changes.get("ends_on", (None, tournament.ends_on))[1]
        if start is not None and end is not None and end < start:
            raise ServiceError("tournament.dates", "The tournament ends before it starts.")
        if "lexicon_id" in changes:
            offered = {lex.pk for lex in selectors.lexicons_offered(tournament.pk)}
            if changes["lexicon_id"][1] not in offered:  # another club's uploaded list
                raise ServiceError("lexicon.unknown", "This lexicon is not offered here.")
        locks = selectors.tournament_settings_locks(tournament.pk)
        for field in changes:
            if field in locks:
                code, where = locks[field]
                raise ServiceError(
                    code,
                    f"{field} can no longer change: game {where['game']} round "
                    f"{where['round']} depends on it.",
                    setting=str(LABELS[field]),
                    **where,
                )
        if changes.get("simultaneous", (False, False))[1]:
            # its centres could not all play the same sealed racks
            other = tournament.games.exclude(kind=GameKind.PREDRAWN).order_by("number").first()
            if other is not None:
                raise simultaneous_kind(other.kind)
        for field, (_old, new) in changes.items():
            setattr(tournament, field, new)
        tournament.save(update_fields=list(changes))
        followers = _games_following(tournament, changes.get("variant_code"))
        if FIGURES & set(changes):  # stored figures depend on them (docs/architecture.md)
            standings_update(actor=actor, tournament_id=tournament.pk)
        audit_record(
            actor=actor,
            action="tournament.update",
            obj=tournament,
            changes={f: [_as_json(old), _as_json(new)] for f, (old, new) in changes.items()},
            **({"games": followers} if followers else {}),
        )
        return tournament


def _games_following(tournament: Tournament, change: tuple[str, str] | None) -> list[int]:
    """A new formula also applies to the games created with the old one that have no round
    yet (a game keeps its own formula, ``Game.variant_code``); a game created with another
    formula on purpose (a pre-drawn 7-sur-8 batch) keeps it. Their numbers, for the audit."""
    if change is None:
        return []
    old, new = change
    games = tournament.games.filter(variant_code=old, rounds__isnull=True)
    numbers = sorted(games.values_list("number", flat=True))
    tournament.games.filter(number__in=numbers).update(variant_code=new)
    return numbers
