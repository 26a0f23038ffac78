"""The production tests run against ``deploy/stack``: gunicorn, a Celery worker, a private
PostgreSQL cluster and a private Redis, all on loopback, started once per session.

Locally a missing tool (initdb, redis-server) skips them with a one-line reason; under CI
(``tests/ci.py``: CI=1, true or yes) it is a failure. Every test here carries the
``production`` marker (``pytest -m production``, or ``-m 'not production'`` to leave them out).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ci import unavailable
from tests.conftest import summary_line
from tests.production.nginx import Nginx, render
from tests.production.nginx import missing as nginx_missing
from tests.production.stack import Stack, make_stack_dir, missing_tools

HERE = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "production: runs against deploy/stack (gunicorn, Celery, private PostgreSQL and "
        "Redis); skipped locally when initdb or redis-server is missing, fatal in CI",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.production)


@pytest.fixture(scope="session")
def stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    """The running stack, with the conformance lexicon and an arbiter account."""
    reason = missing_tools()
    if reason:
        unavailable("production", reason, "deploy/ensure-system-packages installs them")
    directory = make_stack_dir()
    stack = Stack(directory)
    try:
        stack.start()
        stack.setup_site()
        summary_line(
            request.config,
            f"production: deploy/stack in {directory} (PostgreSQL :{stack.pg_port}, "
            f"Redis :{stack.redis_port}, gunicorn :{stack.web_port}, worker pid "
            f"{stack.pid('celery')})",
        )
        yield stack
    finally:
        try:
            stack.stop()
        finally:
            shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def healthy_stack(stack: Stack) -> Stack:
    """The stack with every component up (a fault test may have left one down)."""
    stack.start()
    (stack.probe / "top-delay").unlink(missing_ok=True)
    return stack


@pytest.fixture(scope="session")
def nginx_front(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    """Debian's nginx with deploy/nginx.conf in front of the stack (tests/production/nginx.py)."""
    reason = nginx_missing()
    if reason:
        unavailable("production", reason, "deploy/ensure-system-packages installs nginx")
    prefix = tmp_path_factory.mktemp("nginx")
    prefix.chmod(0o755)  # nginx's workers (www-data) read the certificate paths' parents
    static = stack.directory / "var" / "static"
    rendered = render(prefix, web_port=stack.web_port, static_dir=static, slow=True)
    result = rendered.test()
    assert result.returncode == 0, result.stderr
    server = Nginx(rendered)
    server.start()
    try:
        yield server
    finally:
        server.stop()
