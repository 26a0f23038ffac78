"""The Celery application, configured from Django settings (``CELERY_*`` names).

Start a worker with ``celery -A tournaments worker``. Without ``REDIS_URL`` the settings make
every task eager, so nothing here needs a broker in the embedded profile.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

app = Celery("tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
