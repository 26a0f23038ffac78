"""The production storage of static files (``settings.STORAGES``).

WhiteNoise's compressed manifest storage names every file after its content hash, and
nginx serves ``/static/`` as immutable for a year (deploy/nginx-locations.conf). The pages'
scripts are ES modules that import each other (``import { poll } from "./poll.js";``):
Django rewrites those imports to the hashed names too when
``support_js_module_import_aggregation`` is on, so a new ``poll.js`` is never hidden behind
a year-old cached copy of the unhashed name."""

from __future__ import annotations

import logging

from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed, and with the ES module imports between our scripts rewritten."""

    support_js_module_import_aggregation = True

    def url(self, name: str | None, force: bool = False) -> str:
        """The hashed address; a file missing from the manifest (collectstatic not run yet,
        as in a test of the production settings) keeps its plain name rather than turning
        a page, an error page first of all, into a 500. It is logged."""
        try:
            return super().url(name, force)
        except ValueError:
            logger.warning("static file %s is not in the manifest: run collectstatic", name)
            return FileSystemStorage.url(self, name)
