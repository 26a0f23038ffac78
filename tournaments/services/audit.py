"""The audit log: every service that changes state writes one row in the same transaction.

Each row also tells ``live_versions`` what changed, so the tablets' and the projector's
polls learn it after the commit (issue 16): one call here covers every service."""

from __future__ import annotations

from typing import Any

from django.db import models as dj

from tournaments import live_versions
from tournaments.access import Actor, actor_kind, user_of
from tournaments.models import AuditLog


def audit_row(*, actor: Actor, action: str, object_type: str, object_id: int,
              payload: dict[str, Any]) -> AuditLog:  # fmt: skip
    """An unsaved row (for ``bulk_create``): the user, if any, and the kind of actor
    (``access.SYSTEM`` is recorded as ``system``, a tablet as ``player``)."""
    return AuditLog(
        actor=user_of(actor),
        actor_kind=actor_kind(actor),
        action=action,
        object_type=object_type,
        object_id=object_id,
        payload=payload,
    )


def audit_record(*, actor: Actor, action: str, obj: dj.Model, **payload: Any) -> AuditLog:
    """Append one row. ``actor`` is required: a user, a player or ``access.SYSTEM``."""
    row = audit_row(actor=actor, action=action, object_type=obj._meta.model_name or "",
                    object_id=obj.pk, payload=payload)  # fmt: skip
    row.save()
    live_versions.audited(obj, action)
    return row
