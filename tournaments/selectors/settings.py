"""Reads of the settings and arbiters pages: which settings are frozen and why, the
lexicons a tournament may choose, an uploaded word list's progress, the arbiters' presence
and the page an arbiter is on, the language a tablet or the projector speaks."""

from __future__ import annotations

from typing import Any

from tournaments.models import (
    ArbiterMembership,
    Game,
    JobState,
    Lexicon,
    LexiconBuild,
    Registration,
    Round,
    RoundState,
    Tournament,
)
from tournaments.selectors.games import current_round

#: Settings the racks and tops were drawn with: fixed once a round of any game is drawn.
DRAW_SETTINGS = ("lexicon_id", "variant_code", "simultaneous")
#: Settings the scores and rankings of a closed round used: fixed once a round is closed.
SCORE_SETTINGS = (
    "solo_value",
    "solo_min_players",
    "score_required",
    "warning_penalty_from",
    "tie_break",
)


def tournament_settings_locks(tournament_id: int) -> dict[str, tuple[str, dict[str, int]]]:
    """The settings that can no longer change, each with the refusal code and the round that
    fixed it (``{"lexicon_id": ("tournament.frozen_started", {"game": 1, "round": 1})}``).

    Changing them would alter games already played: the lexicon and the formula made the
    racks and tops of every drawn round; solos, warnings, score required and tie-break made
    the scores and ranks of every closed one. The rule is here so the settings page (which
    shows them read-only with the reason) and ``tournament_update`` (which refuses them)
    never disagree."""
    rounds = Round.objects.filter(game__tournament_id=tournament_id)
    rounds = rounds.exclude(state=RoundState.CANCELLED)
    locks: dict[str, tuple[str, dict[str, int]]] = {}
    for fields, code, subset in (
        (DRAW_SETTINGS, "tournament.frozen_started", rounds),
        (SCORE_SETTINGS, "tournament.frozen_closed", rounds.filter(state=RoundState.CLOSED)),
    ):
        first = subset.order_by("game__number", "number").values("game__number", "number")
        first = first.first()
        if first is not None:
            where = {"game": first["game__number"], "round": first["number"]}
            locks.update({name: (code, where) for name in fields})
    return locks


def default_lexicon() -> Lexicon | None:
    """The registered lexicon built from the site's default file (``TIRAGE_LEXICON``), the
    one a new tournament starts with; None until that file is registered."""
    from django.conf import settings

    return Lexicon.objects.filter(path=str(settings.TIRAGE_LEXICON)).order_by("id").first()


def lexicons_offered(tournament_id: int | None) -> list[Lexicon]:
    """The lexicons a tournament may choose: every registered one but the word lists other
    tournaments uploaded (a club's licensed ODS is not handed to another club on the same
    site), unless this tournament uploaded the same words too or already uses it. A new
    tournament (``None``) is offered none of the uploaded lists."""
    done = LexiconBuild.objects.filter(state=JobState.DONE)
    uploaded = done.values_list("tournament_id", "lexicon_id")
    mine: set[int] = set()
    private: set[int] = set()
    for owner, lexicon_id in uploaded:
        (mine if owner == tournament_id else private).add(lexicon_id)
    if tournament_id is not None:
        current = Tournament.objects.filter(pk=tournament_id).values_list("lexicon_id", flat=True)
        mine |= {pk for pk in current if pk is not None}
    return list(Lexicon.objects.exclude(pk__in=private - mine).order_by("name", "id"))


def lexicon_builds(tournament_id: int, limit: int = 5) -> list[LexiconBuild]:
    """The tournament's last uploaded word lists, newest first, with the lexicon each became."""
    rows = LexiconBuild.objects.filter(tournament_id=tournament_id).select_related("lexicon")
    return list(rows[:limit])


def lexicon_build_by_id(build_id: int) -> LexiconBuild | None:
    """One uploaded word list (None: unknown), for its tournament's access check."""
    return LexiconBuild.objects.filter(pk=build_id).first()


def lexicon_build_progress(build_id: int) -> dict | None:
    """What the settings page polls for an uploaded word list: ``{"id", "state",
    "progress", "lexicon", "rejected", "error_code"}``, or None."""
    row = LexiconBuild.objects.filter(pk=build_id).values(
        "id", "state", "progress", "lexicon_id", "rejected", "error_code"
    )
    row = row.first()
    if row is None:
        return None
    row["lexicon"] = row.pop("lexicon_id")
    return row


def arbiters_presence(tournament_id: int) -> list[ArbiterMembership]:
    """The tournament's arbiters, head first, each with ``last_seen_at`` and the round they
    last looked at (``last_seen_round`` with its game) for "actif il y a N min, coup N"."""
    return list(
        ArbiterMembership.objects.filter(tournament_id=tournament_id)
        .select_related("user", "last_seen_round__game", "centre")
        .order_by("-role", "user__username")
    )


def console_page_place(name: str, value: Any) -> tuple[int | None, int | None]:
    """(tournament id, round id) a console route's argument designates (``round_id``,
    ``game_id`` or ``slug``), for the arbiters' presence: a game's page is about its
    current round, cancelled ones left out. ``(None, None)`` when nothing matches."""
    if name == "round_id":
        row = Round.objects.filter(pk=value).values("game__tournament_id").first()
        return (row["game__tournament_id"], value) if row else (None, None)
    if name == "game_id":
        game = Game.objects.filter(pk=value).only("pk", "tournament_id").first()
        if game is None:
            return None, None
        rnd = current_round(game, cancelled=False)
        return game.tournament_id, rnd.pk if rnd is not None else None
    tid = Tournament.objects.filter(slug=value).values_list("pk", flat=True).first()
    return tid, None


def language_by_slug(slug: str) -> str | None:
    """The language of the tournament ``slug`` names (the projector's), None if unknown."""
    return Tournament.objects.filter(slug=slug).values_list("language", flat=True).first()


def language_by_token(token: str) -> str | None:
    """The language of the tournament of the tablet token (None: unknown or revoked)."""
    rows = Registration.objects.filter(access_token=token)
    return rows.values_list("tournament__language", flat=True).first()
