"""Entry points that web code calls to schedule background work."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from tournaments.tasks import tournament_touch


def request_touch(tournament_id: int) -> None:
    """Queue ``tournament_touch`` once the current transaction commits.

    Queuing on commit guarantees the worker (another process, another connection) sees the
    row it is asked to reload; a rolled-back transaction queues nothing.
    """
    transaction.on_commit(partial(tournament_touch.delay, tournament_id))
