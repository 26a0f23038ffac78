"""Fixtures shared by the site and integration tests.

Settings are read once per process, so profile tests run Django in subprocesses with an
environment built here from scratch (no DATABASE_URL/REDIS_URL leaking in from CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
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


# --- Games through the services (tests/site, tests/integration) ----------------------------


@pytest.fixture(scope="session")
def conformance_lexicon_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The conformance word list compiled once per session (about 1.5 s)."""
    from engine.lexicon.automaton import build_lexicon_file
    from tests.engine.conftest import WORDS_FILE, conformance_words

    path = tmp_path_factory.mktemp("site-lexicon") / "conformance.lex"
    build_lexicon_file(
        conformance_words(), path, name="conformance", source=str(WORDS_FILE), version="1"
    )
    return path


@pytest.fixture
def tournament_setup(conformance_lexicon_file: Path, django_user_model: Any) -> dict[str, Any]:
    """A tournament on the conformance lexicon, three players at tables 1–3, its head arbiter.

    Solos count from 3 players so a 3-player game can show one (10 points)."""
    from tournaments.models import ArbiterMembership, Player, Registration, Tournament
    from tournaments.services import lexicon_register

    lexicon = lexicon_register(path=conformance_lexicon_file)
    tournament = Tournament.objects.create(
        name="Open de test", slug="open-test", lexicon=lexicon, solo_min_players=3
    )
    players = [Player.objects.create(name=name) for name in ("Anne", "Bruno", "Chloé")]
    for table, player in enumerate(players, start=1):
        Registration.objects.create(tournament=tournament, player=player, table_number=table)
    arbiter = django_user_model.objects.create_user("arbitre-test", password="x")
    ArbiterMembership.objects.get_or_create(
        user=arbiter, tournament=tournament, defaults={"role": "head"}
    )
    return {"tournament": tournament, "players": players, "arbiter": arbiter, "lexicon": lexicon}


@pytest.fixture(autouse=True)
def _fresh_outcomes_cache() -> None:
    """Each test gets a new database: the per-process cache of game figures starts empty."""
    from tournaments.selectors import forget_game_outcomes

    forget_game_outcomes()


@pytest.fixture(autouse=True)
def _fresh_login_counts() -> None:
    """Each test counts failed sign-ins under its own cache keys (the cache outlives tests),
    so one test's failures never throttle the next one's sign-in."""
    import uuid

    from django.conf import settings

    settings.TIRAGE_LOGIN_KEY_PREFIX = f"test-login:{uuid.uuid4().hex}"


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run tasks in-process in every profile (with REDIS_URL set they would go to Redis)."""
    from tournaments import celery_app

    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous
