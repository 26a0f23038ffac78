"""Fixtures shared by the site and integration tests.

Settings are read once per process, so profile tests run Django in subprocesses with an
environment built here from scratch (no DATABASE_URL/REDIS_URL leaking in from CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


# --- The test database and the run's summary -----------------------------------------------


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> None:
    """A test database name of its own for each run (``test_<name>_<pid>_<random>``).

    pytest-django would use ``test_<name>`` every time: two runs against one PostgreSQL
    server (two CI jobs, two developers) would drop each other's database. SQLite tests use
    an in-memory database and keep Django's default.
    """
    from django.conf import settings

    suffix = f"{os.getpid()}_{uuid.uuid4().hex[:8]}"
    for database in settings.DATABASES.values():
        if database["ENGINE"].endswith("sqlite3"):
            continue
        test = database.setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_' + database['NAME']}_{suffix}"


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing() -> Iterator[None]:
    """Passwords hashed with a cheap hasher in the test process (Django's advice for tests).

    PBKDF2 at Django's million iterations costs about 0.25 s of CPU per hash, and nearly
    every site and browser test hashes one or more (the setup's arbiter, each log-in): that
    was minutes of the suite's time. Nothing checks the algorithm; PBKDF2 stays listed so a
    hash made elsewhere still verifies. Subprocesses (``tirage_setup``, the settings
    profiles, the production stack) keep the site's real hashers.
    """
    from django.test.utils import override_settings

    fast = override_settings(
        PASSWORD_HASHERS=[
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        ]
    )
    fast.enable()
    yield
    fast.disable()


# --- Running on two workers (pytest-xdist, ``make test``) ----------------------------------

#: Lines the end of the run prints: which real services ran (integration, production).
SUMMARY_KEY = pytest.StashKey[list[str]]()

#: Tests that share something started once per worker session run on one worker, in order:
#: the production stack, the integration tests' Celery worker; the browser tests and the two
#: schemathesis runs (a live server each, the heaviest) run one at a time, as before.
GROUPS = {
    "tests/production/": "production",
    "tests/integration/": "integration",
    "tests/browser/": "browser",
    "tests/site/test_schemathesis.py": "schemathesis",
}


def xdist_group_of(nodeid: str) -> str | None:
    """The group of GROUPS the test ``nodeid`` belongs to (None: any worker may run it)."""
    return next((group for prefix, group in GROUPS.items() if nodeid.startswith(prefix)), None)


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` with the groups above, read from the test's path.

    pytest-xdist's own loadgroup reads ``xdist_group`` marks through a node id suffix that
    pytest 9 no longer lets it set; this scheduler names the groups itself. As in xdist,
    groups with the most tests are handed out first, then single tests as workers free up.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class PathGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group_of(nodeid) or super()._split_scope(nodeid)

    return PathGroups(config, log)


def summary_line(config: pytest.Config, line: str) -> None:
    """Print ``line`` at the end of the run (from a worker too: it is sent to the controller)."""
    config.stash.setdefault(SUMMARY_KEY, []).append(line)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On an xdist worker: hand the summary lines to the controller, which prints them."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["tirage_summary"] = session.config.stash.get(SUMMARY_KEY, [])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    lines = getattr(node, "workeroutput", {}).get("tirage_summary", [])
    node.config.stash.setdefault(SUMMARY_KEY, []).extend(lines)


@pytest.fixture(scope="session", autouse=True)
def _cache_per_worker() -> Iterator[None]:
    """Each xdist worker keys the shared Redis cache apart: the workers' databases number
    their rows alike, and keys such as the console's presence (per user id) would meet."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        yield
        return
    from django.conf import settings
    from django.test.utils import override_settings

    caches = {
        name: {**cache, "KEY_PREFIX": f"{cache.get('KEY_PREFIX', '')}-{worker}"}
        for name, cache in settings.CACHES.items()
    }
    apart = override_settings(CACHES=caches)
    apart.enable()
    yield
    apart.disable()


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Name each skipped group and why, so that no skip goes unnoticed.

    Skip reasons start with their group (``tests/ci.py``); any other skip is grouped under
    its test folder.
    """
    if config.option.collectonly:
        return
    for line in config.stash.get(SUMMARY_KEY, []):
        terminalreporter.write_line(line)
    groups: Counter[tuple[str, str]] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        reason = _skip_reason(report)
        group, sep, why = reason.partition(": ")
        if not sep or " " in group:
            group, why = report.nodeid.split("/")[1] if "/" in report.nodeid else "tests", reason
        groups[(group, why)] += 1
    if not groups:
        terminalreporter.write_line("skipped: none, every collected test ran")
        return
    terminalreporter.write_sep("-", "skipped groups (each one is a part of the suite not run)")
    for (group, why), count in sorted(groups.items()):
        tests = "test" if count == 1 else "tests"
        terminalreporter.write_line(f"{group}: {count} {tests} skipped: {why}", yellow=True)


def screenshots_dir() -> Path:
    """Where tests save screenshots: var/screenshots, never a tracked file.

    ``make screenshots`` sets ``TIRAGE_SCREENSHOT_DIR=docs/screenshots`` to refresh the
    pictures the docs show; a plain ``make test`` leaves ``git status`` clean.
    """
    return Path(os.environ.get("TIRAGE_SCREENSHOT_DIR") or ROOT / "var" / "screenshots")


@pytest.fixture
def screenshot_dir() -> Path:
    """:func:`screenshots_dir`, created."""
    directory = screenshots_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return directory


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

    Solos count from 3 players so a 3-player game can show one (10 points). Scores are not
    required (the club-training setting) so slips typed without one pay without a warning;
    tests/site/test_judging.py covers the default, score required."""
    from tournaments.access import SYSTEM
    from tournaments.models import ArbiterMembership, Player, Registration, Tournament
    from tournaments.services import lexicon_register

    lexicon = lexicon_register(path=conformance_lexicon_file, actor=SYSTEM)
    tournament = Tournament.objects.create(
        name="Open de test",
        slug="open-test",
        lexicon=lexicon,
        solo_min_players=3,
        score_required=False,
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
def _stored_figures_checked(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every game built through tests/scenario.py is checked at the end of its test:
    stored figures = recomputed (tests/scenario.py ``check_built_games``, issue 16)."""
    from tests import scenario

    scenario.BUILT.clear()
    scenario.TEST_ITEM = request.node
    yield
    scenario.TEST_ITEM = None


@pytest.fixture(autouse=True)
def _fresh_outcomes_cache() -> None:
    """Each test gets a new database: the per-process cache of game figures starts empty."""
    from tournaments.selectors import forget_game_outcomes

    forget_game_outcomes()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language (French). Django's test client runs requests
    in the test's thread and LocaleMiddleware leaves the last request's language active, so
    a page asked for in English would otherwise make the next test's documents English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_login_counts() -> None:
    """Each test counts failed sign-ins under its own cache keys (the cache outlives tests),
    so one test's failures never throttle the next one's sign-in."""
    import uuid

    from django.conf import settings

    settings.TIRAGE_LOGIN_KEY_PREFIX = f"test-login:{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _fresh_live_versions() -> None:
    """Each test keeps the polls' versions under its own cache keys (the cache and the
    database ids outlive tests), and bumps them at once as well as after the commit: a
    test's transaction never commits, its on_commit callbacks never run
    (``tournaments.live_versions``; tests/site/test_live_versions.py checks the commit)."""
    import uuid

    from django.conf import settings

    from tournaments import live_versions

    settings.TIRAGE_LIVE_KEY_PREFIX = f"test-live:{uuid.uuid4().hex}"
    settings.TIRAGE_LIVE_BUMP_AT_ONCE = True
    live_versions.forget()


@pytest.fixture
def django_capture_on_commit_callbacks() -> Any:
    """pytest-django's fixture, less the live versions' bumps (one per audited change,
    ``tournaments.live_versions``): the tests count the *tasks* a change queues on commit.
    The bumps still run with ``execute=True``; tests/site/test_live_versions.py counts them
    with Django's own ``TestCase.captureOnCommitCallbacks``."""
    from contextlib import contextmanager

    from django.db import DEFAULT_DB_ALIAS
    from django.test import TestCase

    from tournaments import live_versions

    @contextmanager
    def capture(*, using: str = DEFAULT_DB_ALIAS, execute: bool = False) -> Iterator[list]:
        callbacks: list = []
        with TestCase.captureOnCommitCallbacks(using=using, execute=execute) as captured:
            yield callbacks
        callbacks += [c for c in captured if not live_versions.is_bump(c)]

    return capture


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
