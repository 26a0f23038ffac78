"""The Redis client behind Django's cache, kept once per process, for the polls' hot path.

Django's Redis cache builds a new ``redis.Redis`` object on every call (its response
callbacks included: about 0.3 ms of Python with redis-py 8, more than the round trip on
loopback), and its ``incr`` is two round trips. A poll answered 304 (issue 16) makes only
cache calls, so the player rate limit and the live versions take this client instead and
send their commands together. Keys are Django's (``make_and_validate_key``) and integers are
stored as Django stores them (not pickled), so the cache API reads and writes the same
keys. ``None`` when the cache is not Redis (the embedded profile's memory cache).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

_local = threading.local()  # .held: (the cache backend, its client), per thread like caches


def redis_client() -> Any | None:
    """The default cache's Redis client (one per thread and cache configuration)."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    held = getattr(_local, "held", None)
    if held is None or held[0] is not backend:
        held = _local.held = (backend, backend._cache.get_client(write=True))
    return held[1]


def cache_key(key: str) -> str:
    """The key as Django's cache stores it (prefix and version)."""
    return str(caches["default"].make_and_validate_key(key))
