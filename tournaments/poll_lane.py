"""The polls' "nothing changed" answered before Django (issue 16, item 4).

5,000 tablets polling once a second make the ``304 Not Modified`` of their state poll the
event's dominant load. The views already answer it from the live versions without the
database (``tournaments.live_versions``), but through Django's whole request (middleware,
URL resolving, the view): about 2.5 ms of CPU each. ``tournaments.wsgi`` wraps Django's
handler in :class:`PollLane`, which recognises the hot polls first:

* a tablet's ``GET /tablette/<token>/etat/``,
* the projector's ``GET /projecteur/<slug>/etat/`` (``?langue=`` honoured),
* a centre's projector's ``GET /projecteur/<slug>/centre/<id>/etat/`` (the same),
* the console game screen's ``GET /arbitre/partie/<id>/etat/`` (an arbiter's session),

each with an ``If-None-Match`` naming versions of ours. It checks them with the same
functions the views use (``live_versions``: one round trip to Redis, which also counts the
tablet's request against its rate limit), and when they are current answers the ``304``
with exactly the headers Django's answer carries (the view's ``ETag``, ``Cache-Control``
and ``Vary``, then what the middleware adds: frame and content-security policies, length,
language, HSTS and the other security headers; ``tests/site/test_poll_lane.py`` compares
the two byte for byte). Anything else goes to Django unchanged: another path or method, no
or a stale ``If-None-Match``, a host Django would refuse, a plain-HTTP request Django would
redirect, a tablet over its rate limit, the cache down or a bump not yet written. The
lane never touches the database, never looks a token up, never reads a session's row.

The lane turns itself off when the middleware list holds something it does not know (a
header it would not add) or ``TIRAGE_POLL_LANE`` is false. Its answers are counted in
``tirage_polls_fast_total{page}`` and in django-prometheus's request and status totals
(``tournaments.metrics.fast_poll``): its latency histograms do not see them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest

from tournaments import lanes, live_versions, metrics, throttle
from tournaments.tablet import live

TABLET = re.compile(r"/tablette/([A-Za-z0-9_-]{1,200})/etat/")
PROJECTOR = re.compile(r"/projecteur/([-a-zA-Z0-9_]+)/etat/")
CENTRE_PROJECTOR = re.compile(r"/projecteur/([-a-zA-Z0-9_]+)/centre/([0-9]{1,12})/etat/")
CONSOLE = re.compile(r"/arbitre/partie/([0-9]{1,12})/etat/")


def enabled() -> bool:
    """Whether the lane may answer (the setting, and only middleware it knows)."""
    if not getattr(settings, "TIRAGE_POLL_LANE", True):
        return False
    return lanes.middleware_known()


class PollLane(lanes.Lane):
    """A WSGI application: the hot polls' 304 when the versions are current, else ``app``."""

    name = "poll"

    def enabled(self) -> bool:
        return enabled()

    def wants(self, environ: dict[str, Any]) -> bool:
        return (
            environ.get("REQUEST_METHOD") == "GET"
            and "HTTP_IF_NONE_MATCH" in environ
            and environ.get("PATH_INFO", "").endswith("/etat/")
        )

    def answer(self, environ: dict[str, Any]) -> lanes.Answer | None:
        found = not_modified(environ)
        if found is None:
            return None
        page, headers = found
        return "304 Not Modified", headers, [], lambda: metrics.fast_poll(page)


def not_modified(environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]]] | None:
    """``(page, headers)`` of the 304 Django would give this poll, or None: ask Django."""
    path = environ.get("PATH_INFO", "")
    held = environ["HTTP_IF_NONE_MATCH"]
    match = TABLET.fullmatch(path)
    if match is not None:
        request = lanes.request_of(environ)
        if request is None:
            return None
        known, count = live_versions.tablet_poll(match[1], held)
        if count is not None:
            environ[throttle.COUNTED] = count  # Django must not count it again
            if not throttle.verdict(count)[0]:
                return None  # Django answers the 429
        if known is None or not live.etag_matches(held, known.etag):
            return None
        return "tablet", lanes.headers_of(request, live.not_modified(known.etag))
    match = PROJECTOR.fullmatch(path)
    if match is not None:
        slug = match[1]
        return _projector(
            environ,
            "projector",
            held,
            lambda language: live_versions.projector_versions(slug, language, held),
        )
    match = CENTRE_PROJECTOR.fullmatch(path)
    if match is not None:
        slug, centre = match[1], int(match[2])
        return _projector(environ, "centre-projector", held,
                          lambda language: live_versions.centre_projector_versions(
                              slug, centre, language, held))  # fmt: skip
    match = CONSOLE.fullmatch(path)
    if match is not None:
        return _console(environ, int(match[1]), held)
    return None


def _projector(
    environ: dict[str, Any], page: str, held: str, versions: Callable[[str], Any]
) -> tuple[str, list[tuple[str, str]]] | None:
    """The 304 of a projector's poll (the event's or a centre's): ``versions`` reads its
    current versions for the language the address asks for."""
    request = lanes.request_of(environ)
    if request is None:
        return None
    known = versions(_asked_language(request))
    if known is None or not live.etag_matches(held, known.etag):
        return None
    return page, lanes.headers_of(request, live.not_modified(known.etag))


def _console(environ: dict[str, Any], game_id: int, held: str) -> Any:
    from tournaments import celery_app  # the embedded profile releases sealed rounds inline
    from tournaments.console import screen

    if celery_app.conf.task_always_eager:
        return None  # the game screen's poll runs ``release.sweep_if_due`` there: Django
    request = lanes.request_of(environ)
    if request is None:
        return None
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    known = live_versions.console_versions(session, game_id, held)
    if known is None or not live.etag_matches(held, known.etag):
        return None
    return "console", lanes.headers_of(request, screen.status_not_modified(known.etag))


def _asked_language(request: WSGIRequest) -> str:
    """As ``projector.views._asked_language``: ``?langue=`` when the site has it."""
    wanted = request.GET.get("langue", "")
    return wanted if wanted in {code for code, _name in settings.LANGUAGES} else ""


def wrap(app: lanes.WsgiApp) -> PollLane:
    """``app`` (Django's WSGI handler) behind the lane."""
    return PollLane(app)
