"""The one place that decides whether a missing tool may skip a test.

``CI`` set to ``1``, ``true`` or ``yes`` (any case) means a continuous-integration run: there
nothing may skip, so a missing tool or service is a failure. Elsewhere the test skips with a
reason that starts with its group (``browser: ...``), and the summary at the end of the run
names each skipped group and why (``tests/conftest.py``). ``make test`` installs what the
groups need (``deploy/ensure-system-packages``), so a skip there means a tool is broken.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

CI_VALUES = frozenset({"1", "true", "yes"})


def in_ci() -> bool:
    """True when the ``CI`` variable says this is a CI run (1, true or yes)."""
    return os.environ.get("CI", "").strip().lower() in CI_VALUES


def unavailable(group: str, reason: str, install: str = "") -> NoReturn:
    """Skip locally, fail under CI: ``group`` names the tests concerned, ``reason`` why.

    ``install`` says what would make the tests run (e.g. the Debian package to install).
    """
    message = f"{group}: {reason}" + (f" ({install})" if install else "")
    if in_ci():
        pytest.fail(f"{message} [CI: nothing may skip]", pytrace=False)
    pytest.skip(message)
