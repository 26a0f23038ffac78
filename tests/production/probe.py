"""The Celery app of the production tests' worker: the real one, plus a brake.

``deploy/stack`` starts its worker with ``celery -A $TIRAGE_CELERY_APP``; the production
tests set it to this module. It is ``tournaments.celery.app`` unchanged, except that in each
pool process ``tournaments.services.rounds.best_moves`` (the top search) first sleeps when
the file ``$TIRAGE_PROBE_DIR/top-delay`` exists (its content: seconds) and writes
``computing-<pid>`` beside it, so a test can kill the very process that is in the middle
of a top computation. Without that file nothing changes. Never used in production.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from celery.signals import worker_process_init

from tournaments.celery import app

__all__ = ["app"]


def _probe_dir() -> Path | None:
    value = os.environ.get("TIRAGE_PROBE_DIR", "")
    return Path(value) if value else None


@worker_process_init.connect
def _install_brake(**_: object) -> None:
    from tournaments.services import rounds

    search = rounds.best_moves

    def braked_best_moves(*args: object, **kwargs: object) -> object:
        directory = _probe_dir()
        delay = directory / "top-delay" if directory else None
        if delay is not None and delay.exists():
            (directory / f"computing-{os.getpid()}").write_text(str(time.time()))
            time.sleep(float(delay.read_text() or "0"))
        return search(*args, **kwargs)

    rounds.best_moves = braked_best_moves
