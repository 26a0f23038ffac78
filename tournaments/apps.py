"""App configuration for the ``tournaments`` app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Registers the app under its French verbose name for the admin."""

    name = "tournaments"
    verbose_name = _("Tournois")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from tournaments import live_versions, metrics

        metrics.connect()
        user_logged_out.connect(live_versions.logged_out, dispatch_uid="tirage-live-logout")
        from tournaments import (
            checks,  # noqa: F401 - registers the system checks
            tasks,  # noqa: F401 - registers the tasks services queue by name
        )
