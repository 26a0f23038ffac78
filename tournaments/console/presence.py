"""Who is connected on which round: each console page an arbiter opens stamps their
membership of that tournament with the time and the round the page is about, so the
arbiters page can say "actif il y a 3 min, coup 5".

Kept cheap: a middleware looks at the console route's arguments (``round_id``, ``game_id``
or ``slug``) and writes at most once a minute per arbiter and page subject (a cache key
added with a 60-second lifetime gates the one ``UPDATE``). Presence is a hint, not a
record: it writes no audit row, and a failure to write it never fails the page."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import selectors
from tournaments.models import ArbiterMembership

log = logging.getLogger(__name__)

#: Seconds between two writes for one arbiter and one page subject.
EVERY = 60


def _subject(kwargs: dict[str, Any]) -> tuple[str, Any] | None:
    for name in ("round_id", "game_id", "slug"):
        if name in kwargs:
            return name, kwargs[name]
    return None


def note_presence(user: Any, kwargs: dict[str, Any]) -> None:
    """Stamp ``user``'s membership of the tournament the route names (once a minute)."""
    subject = _subject(kwargs)
    if subject is None:
        return
    if not cache.add(f"tirage-seen:{user.pk}:{subject[0]}:{subject[1]}", 1, EVERY):
        return
    tournament_id, round_id = selectors.console_page_place(*subject)
    if tournament_id is None:
        return
    fields: dict[str, Any] = {"last_seen_at": timezone.now()}
    if round_id is not None:
        fields["last_seen_round_id"] = round_id
    ArbiterMembership.objects.filter(user=user, tournament_id=tournament_id).update(**fields)


class ConsolePresenceMiddleware:
    """Calls :func:`note_presence` for the console's pages (after authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        user = getattr(request, "user", None)
        if (
            match is None
            or match.app_name != "console"
            or not getattr(user, "is_authenticated", False)
        ):
            return None
        try:
            note_presence(user, kwargs)
        except Exception:  # a hint only: never fail the page for it
            log.warning("presence not recorded for user %s", user.pk, exc_info=True)
        return None


def presence_text(membership: ArbiterMembership, now: Any = None) -> str:
    """ "actif il y a 3 min, coup 5", "actif à l'instant, partie 2, coup 1", "jamais vu"."""
    if membership.last_seen_at is None:
        return _("jamais connecté")
    minutes = int(((now or timezone.now()) - membership.last_seen_at).total_seconds() // 60)
    if minutes < 1:
        text = _("actif à l'instant")
    else:
        text = ngettext("actif il y a %(n)s min", "actif il y a %(n)s min", minutes) % {
            "n": minutes
        }
    rnd = membership.last_seen_round
    if rnd is None:
        return text
    if rnd.game.number > 1:
        return _("%(text)s, partie %(game)s, coup %(round)s") % {
            "text": text, "game": rnd.game.number, "round": rnd.number
        }  # fmt: skip
    return _("%(text)s, coup %(round)s") % {"text": text, "round": rnd.number}


def presence_lines(tournament_id: int) -> list[dict[str, Any]]:
    """The tournament's arbiters, head first, each as ``{"m": membership, "presence": text}``
    (the arbiters page and the dashboard show them)."""
    now = timezone.now()
    return [
        {"m": m, "presence": presence_text(m, now)}
        for m in selectors.arbiters_presence(tournament_id)
    ]
