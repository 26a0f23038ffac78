"""ASGI entry point (``tournaments.asgi:application``) for async-capable servers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

application = get_asgi_application()
