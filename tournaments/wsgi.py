"""WSGI entry point (``tournaments.wsgi:application``) for production servers and
``runserver`` (``WSGI_APPLICATION``).

The polls' "nothing changed" is answered in front of Django's handler when the live
versions say so (``tournaments.poll_lane``), and a tablet's move of the queued path is
received in front of both (``tournaments.proposal_lane``); everything else goes to Django.

In production the site refuses to start while an account that can act still has a
development password (``tournaments.checks``, ``tirage.E001``): the server's log then says
which account and how to fix it.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

application = get_wsgi_application()

from tournaments import poll_lane, proposal_lane  # noqa: E402 - needs the apps loaded

application = proposal_lane.wrap(poll_lane.wrap(application))


def _refuse_development_passwords() -> None:
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    from tournaments.checks import dev_passwords_check

    if not settings.PRODUCTION:
        return
    from django.db import connections

    try:
        errors = dev_passwords_check()
    finally:
        # gunicorn preloads the application in its master, then forks the workers: a
        # database connection opened here would be shared by every worker (answers read
        # by the wrong process). Close it; each worker opens its own.
        connections.close_all()
    if errors:
        raise ImproperlyConfigured(f"{errors[0].msg} {errors[0].hint} ({errors[0].id})")


_refuse_development_passwords()
