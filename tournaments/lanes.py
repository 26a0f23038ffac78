"""What the WSGI fast lanes in front of Django share (``tournaments.poll_lane``: the polls'
304; ``tournaments.proposal_lane``: a tablet's move answered 202; both in
``tournaments.wsgi``).

A lane is a WSGI application wrapping the next one (:class:`Lane`): it answers a request
only when it is sure Django would give that very answer, and hands anything else on
unchanged. Its answers carry exactly the headers Django's middleware would add
(:func:`headers_of`), which it can only know for the middleware listed here
(:data:`KNOWN_MIDDLEWARE`, in ``settings.MIDDLEWARE``'s order: ``tests/site/test_lanes.py``
compares the two); any other middleware turns the lanes off (:func:`middleware_known`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse
from django.utils.translation import get_language_from_request

logger = logging.getLogger(__name__)

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
#: A lane's answer: status line, headers, body, and what counts it once sent.
Answer = tuple[str, list[tuple[str, str]], list[bytes], Callable[[], None]]

#: The middleware whose effect on an answer the lanes reproduce (:func:`headers_of`), in
#: ``settings.MIDDLEWARE``'s order; any other one turns the lanes off.
KNOWN_MIDDLEWARE = (
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
    # Only the time zone a console page's times are shown in: no header, and a lane's
    # answer shows no time.
    "tournaments.console.time_zone.CentreTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
)


def middleware_known() -> bool:
    """Whether every middleware in ``settings.MIDDLEWARE`` is one the lanes know."""
    unknown = set(settings.MIDDLEWARE) - set(KNOWN_MIDDLEWARE)
    if unknown:
        logger.warning("fast lanes off: unknown middleware %s", ", ".join(sorted(unknown)))
        return False
    return True


class Lane:
    """A WSGI application in front of ``app``: :meth:`answer` for the requests
    :meth:`wants`, ``app`` for everything else, and for whatever :meth:`answer` leaves
    (None) or raises (logged: the lane is a shortcut, Django stays right)."""

    #: In the log line of an error.
    name = "fast"

    def __init__(self, app: WsgiApp) -> None:
        self.app = app
        self.on = self.enabled()

    def enabled(self) -> bool:
        """Whether the lane may answer (read once, when the application is built)."""
        return middleware_known()

    def wants(self, environ: dict[str, Any]) -> bool:
        """Whether the request is one the lane may answer (cheap: every request asks)."""
        raise NotImplementedError

    def answer(self, environ: dict[str, Any]) -> Answer | None:
        """Django's answer to ``environ`` when the lane is sure of it, else None."""
        raise NotImplementedError

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if self.on and self.wants(environ):
            try:
                answer = self.answer(environ)
            except Exception:  # noqa: BLE001 - the lane is a shortcut: Django stays right
                logger.warning("%s lane: left to Django after an error", self.name, exc_info=True)
                answer = None
            if answer is not None:
                status, headers, body, count = answer
                start_response(status, headers)
                count()
                return body
        return self.app(environ, start_response)


def request_of(environ: dict[str, Any]) -> WSGIRequest | None:
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


def headers_of(request: WSGIRequest, response: HttpResponse) -> list[tuple[str, str]]:
    """The WSGI headers of ``response`` (the view's) once Django's middleware has passed
    over it, in the order it adds them (``settings.MIDDLEWARE`` read backwards)."""
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
