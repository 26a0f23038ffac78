"""Rate limit for the player side (tablet pages and the player API), per registration.

Keyed on the player's token rather than the address: a whole club hall reaches the site
through one NAT address. A fixed one-minute window counted in the shared cache (Redis in
production, so every web process sees the same count). When the cache is unreachable the
request is let through: a Redis restart must never stop players from handing in their moves
(the database is the record; nginx still limits by address in front).
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from tournaments.shared_cache import cache_key, redis_client

logger = logging.getLogger(__name__)
WINDOW = 60
#: Set in the WSGI environ when the polls' fast lane (``tournaments.poll_lane``) counted a
#: tablet's request and then left it to Django: the count, not to be made twice.
COUNTED = "tirage.player_counted"


def player_limit() -> int:
    """Requests a player may make per minute (a tablet polls once a second)."""
    return int(getattr(settings, "TIRAGE_PLAYER_RATE_PER_MINUTE", 180))


def _count(key: str) -> int:
    """Count one request in ``key``'s window: one round trip to Redis (its client kept,
    ``shared_cache``), else the cache API."""
    client = redis_client()
    if client is not None:
        pipe = client.pipeline(transaction=False)
        queue_count(pipe, key)
        return int(pipe.execute()[0])
    try:
        return int(cache.incr(key))
    except ValueError:  # the window's first request
        return 1 if cache.add(key, 1, timeout=WINDOW + 5) else int(cache.incr(key))


def player_rate_key(token: str) -> str:
    """The cache key counting ``token``'s requests in the current window."""
    window = int(time.time() // WINDOW)
    digest = hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"tirage:rate:player:{digest}:{window}"


def queue_count(pipe: Any, key: str) -> None:
    """Add the count of one request in ``key`` to a Redis pipeline (one INCR and its
    expiry): the WSGI fast lane sends it with the versions' ``MGET`` (``live_versions``)."""
    stored = cache_key(key)
    pipe.incr(stored)
    pipe.expire(stored, WINDOW + 5)


def count(key: str) -> int:
    """Count one request in ``key``'s window (raises when the cache is unreachable)."""
    return _count(key)


def verdict(counted: int) -> tuple[bool, int]:
    """(allowed, seconds until the window resets) for a request counted ``counted``."""
    return counted <= player_limit(), WINDOW - int(time.time() % WINDOW)


def player_allowed(token: str, *, counted: int | None = None) -> tuple[bool, int]:
    """Count one request for ``token``: (allowed, seconds until the window resets).
    ``counted``: the request was already counted (by the WSGI fast lane, ``COUNTED``)."""
    if counted is not None:
        return verdict(counted)
    try:
        number = _count(player_rate_key(token))
    except Exception:  # noqa: BLE001 - fail open, see the module docstring
        logger.warning("player rate limit skipped: the cache is unreachable", exc_info=True)
        return True, 0
    return verdict(number)
