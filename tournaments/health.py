"""``/healthz`` and ``/metrics``: answered before anything else in the middleware chain.

Both are for machines (compose's healthcheck, systemd, a load balancer, Prometheus) that
reach gunicorn directly on its private address: they answer before the host check
(``ALLOWED_HOSTS``) and the HTTPS redirect, which such callers cannot satisfy, and they
touch no session, no template, no translation.

* ``/healthz``: ``SELECT 1`` on the database and ``PING`` to Redis (when configured), each
  with a short timeout. 200 ``{"status": "ok", ...}`` or 503 with the failing part named;
  never an address, a password or an exception text (those go to the log).
* ``/metrics``: Prometheus's text format (tournaments.metrics), only for a caller whose
  address is in ``TIRAGE_METRICS_ALLOWED_IPS`` (loopback by default) and whose request did
  not come through the reverse proxy (no ``X-Forwarded-For``); anyone else gets a 404.
  deploy/nginx-locations.conf refuses ``/metrics`` as well.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse

from tournaments import metrics

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"


def _json(status: int, body: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


def check_database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # noqa: BLE001 - reported as "error", details in the log only
        logger.warning("healthz: the database did not answer", exc_info=True)
        connection.close_if_unusable_or_obsolete()
        return False


def check_redis() -> bool | None:
    """True/False, or None when the site runs without Redis (eager tasks)."""
    client = metrics.redis_client()
    if client is None:
        return None
    try:
        return bool(client.ping())
    except Exception:  # noqa: BLE001
        logger.warning("healthz: Redis did not answer", exc_info=True)
        return False


def healthz(request: HttpRequest) -> HttpResponse:
    if request.method not in {"GET", "HEAD"}:
        return _json(405, {"code": "method", "detail": "Seules GET et HEAD sont permises."})
    database, redis = check_database(), check_redis()
    checks = {
        "database": "ok" if database else "error",
        "redis": {None: "absent", True: "ok", False: "error"}[redis],
    }
    healthy = database and redis is not False
    return _json(200 if healthy else 503, {"status": "ok" if healthy else "error", **checks})


def metrics_allowed(request: HttpRequest) -> bool:
    if "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_X_REAL_IP" in request.META:
        return False
    allowed = getattr(settings, "TIRAGE_METRICS_ALLOWED_IPS", ["127.0.0.1", "::1"])
    return request.META.get("REMOTE_ADDR", "") in allowed


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return _json(404, {"code": "not_found", "detail": "Cette page n'existe pas."})
    body, content_type = metrics.render()
    response = HttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response


class HealthMiddleware:
    """First in MIDDLEWARE: ``/healthz`` and ``/metrics`` never reach the rest."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH:
            return healthz(request)
        if request.path_info == METRICS_PATH:
            return metrics_view(request)
        return self.get_response(request)
