"""The audit log: every service that changes state writes one row in the same transaction."""

from __future__ import annotations

from typing import Any

from django.db import models as dj

from tournaments.models import AuditLog


def audit_record(*, actor: Any, action: str, obj: dj.Model, **payload: Any) -> AuditLog:
    """Append one row; ``actor`` is a user or ``None`` for the system (a task, a replay)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditLog.objects.create(
        actor=user,
        action=action,
        object_type=obj._meta.model_name or "",  # always set on a concrete model
        object_id=obj.pk,
        payload=payload,
    )
