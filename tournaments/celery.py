"""The Celery application, configured from Django settings (``CELERY_*`` names).

Start a worker with ``celery -A tournaments worker``. Without ``REDIS_URL`` the settings make
every task eager, so nothing here needs a broker in the embedded profile.
"""

import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

app = Celery("tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _recover_pending_tops(sender: object = None, **_: object) -> None:
    """A starting worker picks up the tops whose messages were lost (see the task)."""
    from tournaments.tasks import ingest_sweep, release_sweep, requeue_pending_tops

    requeue_pending_tops.delay()
    ingest_sweep.delay()  # queued moves whose message was lost (or whose batch was killed)
    release_sweep.delay()  # sealed rounds due, and the release messages of the others


@after_setup_logger.connect
@after_setup_task_logger.connect
def _stamp_with_zone(logger: object = None, **_: object) -> None:
    """The worker's log lines carry their UTC offset, like Django's (tournaments/logs.py)."""
    from tournaments.logs import zoned_time

    for handler in getattr(logger, "handlers", ()):
        if handler.formatter is not None:
            handler.formatter.formatTime = zoned_time
