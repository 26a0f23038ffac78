"""Queue a Celery task by its name once the current transaction commits, without ever
failing the request.

Services queue tasks **by name** (``queue_after_commit("tournaments.compute_top", round_id)``)
and never import ``tournaments.tasks``: the tasks call the services, so importing them back
would close a circle. The name is resolved in the Celery app's registry (every process
imports the tasks at start-up, ``TournamentsConfig.ready``) and sent through the task's own
``apply_async``, so the embedded profile still runs it eagerly, in-process. An unknown name
is a bug and raises at once, before anything is committed.

The database is the record: a round drawn or a job created is committed whether or not the
broker answers. If Redis is down at that moment the message is lost, the error is logged,
and the work is recovered later: ``requeue_pending_tops`` runs when a worker starts, and the
first proposal or the arbiter's "place" computes a missing top in-process
(``services.rounds.ensure_top``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction

from tournaments.celery import app

logger = logging.getLogger(__name__)


def queued_task(name: str) -> Any:
    """The registered task called ``name``; ``LookupError`` (a bug) for an unknown one."""
    try:
        return app.tasks[name]
    except KeyError:
        raise LookupError(f"no Celery task is registered as {name!r}") from None


def queue_after_commit(
    name: str, *args: Any, eta: datetime | None = None, countdown: float | None = None
) -> None:
    """Send task ``name`` with ``args`` after commit; a broker failure is logged, never
    raised (a rolled-back transaction queues nothing).

    With ``eta`` the worker runs it at that time (a sealed round's release). The embedded
    profile has no worker to wait: an eager task would run at once, early, so nothing is
    sent there and the page that needs the work runs its sweep when it is due (the caller
    documents which). ``countdown``: seconds the message waits (an eager task runs at once)."""
    task = queued_task(name)
    if eta is not None and app.conf.task_always_eager:
        return

    def send() -> None:
        try:
            options: dict[str, Any] = {"eta": eta} if eta is not None else {}
            if countdown is not None and not app.conf.task_always_eager:
                options["countdown"] = countdown
            task.apply_async(args, **options)
        except Exception:  # noqa: BLE001 - see the module docstring
            logger.exception("could not queue %s%r: the broker is unreachable", name, args)

    transaction.on_commit(send)
