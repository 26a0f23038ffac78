"""Facts about a request that several audiences record (proposals keep where they came from)."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str | None:
    """The client's address: with ``TIRAGE_BEHIND_PROXY``, the last X-Forwarded-For entry.

    Only the entry our own proxy appended is trusted (``$proxy_add_x_forwarded_for`` puts
    the address it saw last); anything before it was sent by the client.
    """
    meta = request.META
    if getattr(settings, "TIRAGE_BEHIND_PROXY", False):
        forwarded = [part.strip() for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1][:45]
    return meta.get("REMOTE_ADDR") or None
