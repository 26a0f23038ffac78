"""The polls' "nothing changed" answered before Django (issue 16, item 4).

5,000 tablets polling once a second make the ``304 Not Modified`` of their state poll the
event's dominant load. The views already answer it from the live versions without the
database (``tournaments.live_versions``), but through Django's whole request (middleware,
URL resolving, the view): about 2.5 ms of CPU each. ``tournaments.wsgi`` wraps Django's
handler in :class:`PollLane`, which recognises the hot polls first:

* a tablet's ``GET /tablette/<token>/etat/``,
* the projector's ``GET /projecteur/<slug>/etat/`` (``?langue=`` honoured),
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

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse
from django.utils.translation import get_language_from_request

from tournaments import live_versions, metrics, throttle
from tournaments.tablet import live

logger = logging.getLogger(__name__)

TABLET = re.compile(r"/tablette/([A-Za-z0-9_-]{1,200})/etat/")
PROJECTOR = re.compile(r"/projecteur/([-a-zA-Z0-9_]+)/etat/")
CONSOLE = re.compile(r"/arbitre/partie/([0-9]{1,12})/etat/")


#: The middleware whose effect on a 304 the lane reproduces (``_middleware_headers``); any
#: other one turns the lane off.
KNOWN_MIDDLEWARE = frozenset(
    {
        "tournaments.health.HealthMiddleware",
        "django_prometheus.middleware.PrometheusBeforeMiddleware",
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "django.middleware.common.CommonMiddleware",
        "tournaments.headers.ContentSecurityPolicyMiddleware",
        "tournaments.login_guard.LoginThrottleMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "tournaments.console.presence.ConsolePresenceMiddleware",
        # Only the time zone a console page's times are shown in: no header, and a 304
        # shows no time.
        "tournaments.console.time_zone.CentreTimeZoneMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "django_prometheus.middleware.PrometheusAfterMiddleware",
    }
)

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def enabled() -> bool:
    """Whether the lane may answer (the setting, and only middleware it knows)."""
    if not getattr(settings, "TIRAGE_POLL_LANE", True):
        return False
    unknown = set(settings.MIDDLEWARE) - KNOWN_MIDDLEWARE
    if unknown:
        logger.warning("poll lane off: unknown middleware %s", ", ".join(sorted(unknown)))
        return False
    return True


class PollLane:
    """A WSGI application: the hot polls' 304 when the versions are current, else ``app``."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app
        self.on = enabled()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if (
            self.on
            and environ.get("REQUEST_METHOD") == "GET"
            and "HTTP_IF_NONE_MATCH" in environ
            and environ.get("PATH_INFO", "").endswith("/etat/")
        ):
            try:
                answer = not_modified(environ)
            except Exception:  # noqa: BLE001 - the lane is a shortcut: Django stays right
                logger.warning("poll lane: left to Django after an error", exc_info=True)
                answer = None
            if answer is not None:
                page, headers = answer
                start_response("304 Not Modified", headers)
                metrics.fast_poll(page)
                return []
        return self.app(environ, start_response)


def not_modified(environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]]] | None:
    """``(page, headers)`` of the 304 Django would give this poll, or None: ask Django."""
    path = environ.get("PATH_INFO", "")
    held = environ["HTTP_IF_NONE_MATCH"]
    match = TABLET.fullmatch(path)
    if match is not None:
        request = _request(environ)
        if request is None:
            return None
        known, count = live_versions.tablet_poll(match[1], held)
        if count is not None:
            environ[throttle.COUNTED] = count  # Django must not count it again
            if not throttle.verdict(count)[0]:
                return None  # Django answers the 429
        if known is None or not live.etag_matches(held, known.etag):
            return None
        return "tablet", _headers(request, live.not_modified(known.etag))
    match = PROJECTOR.fullmatch(path)
    if match is not None:
        request = _request(environ)
        if request is None:
            return None
        known = live_versions.projector_versions(match[1], _asked_language(request), held)
        if known is None or not live.etag_matches(held, known.etag):
            return None
        return "projector", _headers(request, live.not_modified(known.etag))
    match = CONSOLE.fullmatch(path)
    if match is not None:
        return _console(environ, int(match[1]), held)
    return None


def _console(environ: dict[str, Any], game_id: int, held: str) -> Any:
    from tournaments import celery_app  # the embedded profile releases sealed rounds inline
    from tournaments.console import screen

    if celery_app.conf.task_always_eager:
        return None  # the game screen's poll runs ``release.sweep_if_due`` there: Django
    request = _request(environ)
    if request is None:
        return None
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    known = live_versions.console_versions(session, game_id, held)
    if known is None or not live.etag_matches(held, known.etag):
        return None
    return "console", _headers(request, screen.status_not_modified(known.etag))


def _request(environ: dict[str, Any]) -> WSGIRequest | None:
    """Django's request over ``environ`` (nothing read yet), or None when Django's
    middleware would not let it reach the view: a host not allowed (400), plain HTTP to
    redirect, a refused user agent, a ``www.`` to prepend."""
    request = WSGIRequest(environ)
    try:
        host = request.get_host()
    except Exception:  # noqa: BLE001 - DisallowedHost: Django answers it
        return None
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return None
    if settings.DISALLOWED_USER_AGENTS or (settings.PREPEND_WWW and not host.startswith("www.")):
        return None
    return request


def _asked_language(request: WSGIRequest) -> str:
    """As ``projector.views._asked_language``: ``?langue=`` when the site has it."""
    wanted = request.GET.get("langue", "")
    return wanted if wanted in {code for code, _name in settings.LANGUAGES} else ""


def _headers(request: WSGIRequest, response: HttpResponse) -> list[tuple[str, str]]:
    """The WSGI headers of ``response`` (the view's 304) once Django's middleware has
    passed over it, in the order it adds them (``settings.MIDDLEWARE`` read backwards)."""
    if "django.middleware.clickjacking.XFrameOptionsMiddleware" in settings.MIDDLEWARE:
        response.headers["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
    policy = getattr(settings, "TIRAGE_CSP", "")
    if policy and "tournaments.headers.ContentSecurityPolicyMiddleware" in settings.MIDDLEWARE:
        response.headers["Content-Security-Policy"] = policy
    if "django.middleware.common.CommonMiddleware" in settings.MIDDLEWARE:
        response.headers["Content-Length"] = str(len(response.content))
    if "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE:
        response.headers.setdefault("Content-Language", get_language_from_request(request))
    if "django.middleware.security.SecurityMiddleware" in settings.MIDDLEWARE:
        _security(request, response)
    return list(response.items())


def _security(request: WSGIRequest, response: HttpResponse) -> None:
    """What ``SecurityMiddleware.process_response`` adds."""
    if settings.SECURE_HSTS_SECONDS and request.is_secure():
        sts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            sts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            sts += "; preload"
        response.headers["Strict-Transport-Security"] = sts
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
    policy = settings.SECURE_REFERRER_POLICY
    if policy:
        parts = policy.split(",") if isinstance(policy, str) else policy
        response.headers.setdefault("Referrer-Policy", ",".join(v.strip() for v in parts))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        response.headers.setdefault(
            "Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
        )


def wrap(app: WsgiApp) -> PollLane:
    """``app`` (Django's WSGI handler) behind the lane."""
    return PollLane(app)
