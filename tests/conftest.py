"""Fixtures shared by the site and integration tests.

Settings are read once per process, so profile tests run Django in subprocesses with an
environment built here from scratch (no DATABASE_URL/REDIS_URL leaking in from CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Variables that select a profile or a service; stripped so each test states what it wants.
CONFIG_VARS = (
    "TIRAGE_ENV",
    "TIRAGE_VAR_DIR",
    "TIRAGE_LEXICON",
    "TIRAGE_CELERY_QUEUE",
    "TIRAGE_ARBITER_PASSWORD",
    "TIRAGE_BEHIND_PROXY",
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "DJANGO_SETTINGS_MODULE",
)

_PROBE = """
import json, sys
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
try:
    values = {name: getattr(settings, name, None) for name in sys.argv[1:]}
except ImproperlyConfigured as exc:
    print(json.dumps({"error": str(exc)}))
else:
    print(json.dumps({"settings": values}, default=str))
"""


@pytest.fixture
def clean_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a subprocess: embedded profile, state under a temporary var dir."""
    env = {key: value for key, value in os.environ.items() if key not in CONFIG_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "tournaments.settings"
    env["TIRAGE_VAR_DIR"] = str(tmp_path / "var")
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.fixture
def run_cli(clean_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python ARGS...`` from the project root with ``clean_env`` plus overrides."""

    def run(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env={**clean_env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run


@pytest.fixture
def load_settings(
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
) -> Callable[..., dict[str, Any]]:
    """Load the settings in a fresh interpreter with ``env`` and return the named values.

    Returns ``{"settings": {...}}`` or ``{"error": "<ImproperlyConfigured message>"}``.
    """

    def load(*names: str, env: Mapping[str, str] | None = None) -> dict[str, Any]:
        result = run_cli("-c", _PROBE, *names, env=env)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout.strip().splitlines()[-1])

    return load
