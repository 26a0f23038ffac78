"""Login throttling for the arbiter console, the admin and the API token (docs/security.md).

Failed sign-ins are counted in the shared cache (Redis in production, so every web process
and every server sees the same count) twice: per client address and per user name. Past
:func:`limits` within the window, the sign-in is answered 429 with the wait, in French,
*before* the password is even checked, so a guesser learns nothing more, not even whether
a guess was right. A successful sign-in clears the user name's count (not the address's:
one address guessing across many names stays slowed down).

The address limit is higher than the name limit because a whole club hall may share one
NAT address. nginx limits the same paths by address in front (``deploy/nginx.conf``,
docs/security.md). When the cache is unreachable the sign-in is let through and a warning
logged: a Redis restart must not lock every arbiter out during a tournament.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import wording
from tournaments.errors import ServiceError, error_body
from tournaments.http import client_ip

logger = logging.getLogger(__name__)


def limits() -> tuple[int, int, int]:
    """(failures per user name, failures per address, window in seconds)."""
    return (
        int(getattr(settings, "TIRAGE_LOGIN_FAILURES_PER_USER", 5)),
        int(getattr(settings, "TIRAGE_LOGIN_FAILURES_PER_ADDRESS", 20)),
        int(getattr(settings, "TIRAGE_LOGIN_WINDOW_SECONDS", 900)),
    )


def guarded_paths() -> dict[str, str]:
    """The sign-in paths and how each answers: ``form`` (302 on success) or ``api``."""
    paths = {reverse("console:login"): "form", reverse("api-token"): "api"}
    with contextlib.suppress(NoReverseMatch):  # the admin is off (TIRAGE_ADMIN=false)
        paths[reverse("admin:login")] = "form"
    return paths


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:32]
    prefix = getattr(settings, "TIRAGE_LOGIN_KEY_PREFIX", "tirage:login")
    return f"{prefix}:{kind}:{digest}"


def _user_name(request: HttpRequest, style: str) -> str:
    name = request.POST.get("username", "")
    if not name and style == "api" and request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            body = {}
        name = body.get("username", "") if isinstance(body, dict) else ""
    return str(name).strip().lower()[:150]


def _keys(request: HttpRequest, style: str) -> list[tuple[str, int]]:
    per_user, per_address, _window = limits()
    keys = [(_key("ip", client_ip(request) or "unknown"), per_address)]
    if name := _user_name(request, style):
        keys.append((_key("user", name), per_user))
    return keys


def wait_seconds(request: HttpRequest, style: str) -> int:
    """Seconds until this address or name may try again (0: now)."""
    now = time.time()
    wait = 0
    for key, limit in _keys(request, style):
        count = cache.get(key) or 0
        if count >= limit:
            until = cache.get(f"{key}:until") or now
            wait = max(wait, int(until - now) + 1)
    return wait


def record_failure(request: HttpRequest, style: str) -> None:
    """Count one failed sign-in for the address and the user name."""
    window = limits()[2]
    for key, _limit in _keys(request, style):
        if cache.add(key, 0, timeout=window):
            cache.set(f"{key}:until", time.time() + window, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)


def record_success(request: HttpRequest, style: str) -> None:
    """A right password clears the user name's count."""
    if name := _user_name(request, style):
        cache.delete_many([_key("user", name), f"{_key('user', name)}:until"])


def wait_text(seconds: int) -> str:
    """``14 minutes`` / ``40 secondes``, in the active language."""
    minutes = (seconds + 59) // 60
    if seconds >= 60:
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    return ngettext("%(n)d seconde", "%(n)d secondes", seconds) % {"n": seconds}


def refusal(request: HttpRequest, style: str, wait: int) -> HttpResponse:
    error = ServiceError(
        "login.throttled", f"Too many failed sign-ins; wait {wait} s.", wait=wait_text(wait)
    )
    sentence = wording.error_text(error)
    headers = {"Retry-After": str(wait)}
    if style == "api":
        body = error_body(error.code, str(sentence), params={"retry_after": wait})
        return JsonResponse(body, status=429, headers=headers)
    html = render_to_string(
        "console/login_throttled.html",
        {"message": sentence, "title": _("Connexion suspendue")},
        request=request,
    )
    return HttpResponse(html, status=429, headers=headers)


class LoginThrottleMiddleware:
    """Counts failed sign-ins on :func:`guarded_paths` and refuses past the limits."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return self.get_response(request)
        style = guarded_paths().get(request.path_info)
        if style is None:
            return self.get_response(request)
        try:
            wait = wait_seconds(request, style)
        except Exception:  # noqa: BLE001 - fail open, see the module docstring
            logger.warning("login throttling skipped: the cache is unreachable", exc_info=True)
            return self.get_response(request)
        if wait:
            logger.warning("sign-in refused for %s s (too many failures)", wait)
            return refusal(request, style, wait)
        response = self.get_response(request)
        succeeded = response.status_code == (302 if style == "form" else 200)
        try:
            if succeeded:
                record_success(request, style)
            elif response.status_code in (200, 400, 401, 403):
                record_failure(request, style)
        except Exception:  # noqa: BLE001 - fail open
            logger.warning("login throttling skipped: the cache is unreachable", exc_info=True)
        return response
