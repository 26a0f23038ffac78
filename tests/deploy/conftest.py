"""Checks of the shipped deploy files with the real programs (nginx, systemd-analyze,
gunicorn, pip): no stack needed. A missing program skips locally and fails in CI (.ci/run
installs them)."""

from __future__ import annotations

from tests.ci import unavailable


def require(reason: str) -> None:
    """Skip (locally) or fail (CI) when ``reason`` says a program is missing."""
    if reason:
        unavailable("deploy", reason, "deploy/ensure-system-packages installs it")
