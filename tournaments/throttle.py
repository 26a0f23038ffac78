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

from django.conf import settings
from django.core.cache import cache

from tournaments.shared_cache import cache_key, redis_client

logger = logging.getLogger(__name__)
WINDOW = 60


def player_limit() -> int:
    """Requests a player may make per minute (a tablet polls once a second)."""
    return int(getattr(settings, "TIRAGE_PLAYER_RATE_PER_MINUTE", 180))


def _count(key: str) -> int:
    """Count one request in ``key``'s window: one round trip to Redis (its client kept,
    ``shared_cache``), else the cache API."""
    client = redis_client()
    if client is not None:
        stored = cache_key(key)
        pipe = client.pipeline(transaction=False)
        pipe.incr(stored)
        pipe.expire(stored, WINDOW + 5)
        return int(pipe.execute()[0])
    try:
        return int(cache.incr(key))
    except ValueError:  # the window's first request
        return 1 if cache.add(key, 1, timeout=WINDOW + 5) else int(cache.incr(key))


def player_allowed(token: str) -> tuple[bool, int]:
    """Count one request for ``token``: (allowed, seconds until the window resets)."""
    window = int(time.time() // WINDOW)
    digest = hashlib.sha256(token.encode()).hexdigest()[:32]
    key = f"tirage:rate:player:{digest}:{window}"
    retry = WINDOW - int(time.time() % WINDOW)
    try:
        count = _count(key)
    except Exception:  # noqa: BLE001 - fail open, see the module docstring
        logger.warning("player rate limit skipped: the cache is unreachable", exc_info=True)
        return True, 0
    return count <= player_limit(), retry
