"""The production storage of static files (``settings.STORAGES``).

WhiteNoise's compressed manifest storage names every file after its content hash, and
nginx serves ``/static/`` as immutable for a year (deploy/nginx-locations.conf). The pages'
scripts are ES modules that import each other (``import { poll } from "./poll.js";``):
Django rewrites those imports to the hashed names too when
``support_js_module_import_aggregation`` is on, so a new ``poll.js`` is never hidden behind
a year-old cached copy of the unhashed name."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed, and with the ES module imports between our scripts rewritten."""

    support_js_module_import_aggregation = True
