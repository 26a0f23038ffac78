"""Checks of the shipped deploy files with the real programs (nginx, systemd-analyze,
gunicorn, pip): no stack needed. A missing program skips locally and fails in CI (.ci/run
installs them)."""

from __future__ import annotations

import os

import pytest


def require(reason: str) -> None:
    """Skip (locally) or fail (CI) when ``reason`` says a program is missing."""
    if not reason:
        return
    if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
        pytest.fail(f"deploy: {reason} (CI=true: required)", pytrace=False)
    pytest.skip(f"deploy: {reason}")
