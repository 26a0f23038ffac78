"""Tirage's Django package: both the project (settings, URLs, Celery app) and the main app.

The Celery app is imported here so that ``@shared_task`` binds to it as soon as Django starts.
"""

from tournaments.celery import app as celery_app

__all__ = ("celery_app",)
