"""Times in a centre arbiter's own time zone (issue 16): every console page about a
tournament in which the signed-in arbiter is bound to a centre shows its times (the round's
end, a centre's close, the release schedule, the slip log) in that centre's time zone
(``Centre.time_zone``); the organiser and the arbiters of the whole event keep the
tournament's, the server's ``TIME_ZONE`` (Europe/Paris). docs/simultaneous.md.

Django formats an aware time in the *current* time zone (templates' ``date`` and ``time``
filters, ``timezone.localtime``): the middleware activates the centre's zone for the
request and deactivates it after, so nothing else changes. The zone in use is in
``request.tirage_time_zone`` (the page header names it). What the server stores and the
API answers (ISO 8601 with its offset) does not depend on it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournaments.selectors.centres import arbiter_time_zone

log = logging.getLogger(__name__)


class CentreTimeZoneMiddleware:
    """Activates the centre arbiter's time zone for the console's pages (after
    authentication; ``process_view`` knows the route's arguments)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # a worker thread's next request starts from TIME_ZONE

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        user = getattr(request, "user", None)
        if match is None or match.app_name != "console" or not getattr(
            user, "is_authenticated", False
        ) or getattr(user, "is_superuser", False):  # fmt: skip
            return None
        name = arbiter_time_zone(user.pk, kwargs)  # type: ignore[union-attr]
        if not name:
            return None
        try:
            timezone.activate(ZoneInfo(name))
        except (ZoneInfoNotFoundError, ValueError):  # checked when saved; never fail a page
            log.warning("centre time zone %r unknown, server time kept", name)
            return None
        request.tirage_time_zone = name  # type: ignore[attr-defined]
        return None
