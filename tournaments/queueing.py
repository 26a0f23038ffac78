"""Queue a Celery task once the current transaction commits, without ever failing the request.

The database is the record: a round drawn or a job created is committed whether or not the
broker answers. If Redis is down at that moment the message is lost, the error is logged,
and the work is recovered later: ``requeue_pending_tops`` runs when a worker starts, and the
first proposal or the arbiter's "place" computes a missing top in-process
(``services.rounds.ensure_top``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


def queue_after_commit(task: Any, *args: Any) -> None:
    """``task.delay(*args)`` after commit; a broker failure is logged, never raised."""

    def send() -> None:
        try:
            task.delay(*args)
        except Exception:  # noqa: BLE001 - see the module docstring
            logger.exception("could not queue %s%r: the broker is unreachable", task.name, args)

    transaction.on_commit(send)
