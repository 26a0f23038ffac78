"""The WSGI application of the production tests' gunicorn: the real one, plus a brake.

``tests/production/stack.py`` starts gunicorn with ``GUNICORN_WSGI_APP`` pointing here. It is
``tournaments.wsgi.application`` unchanged, except that while the file
``$TIRAGE_PROBE_DIR/submit-hold`` exists, a tablet's proposal (``POST
/api/player/proposals/``) is held before Django sees it, and the worker writes
``serving-<pid>`` beside it: a test then knows which worker has a request in flight and can
kill that very process (``test_faults.py``). Removing the file releases the held requests.
A request is held at most ``HOLD_LIMIT`` seconds, well under the test client's timeout.
Without the file nothing changes. Never used in production.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tournaments.wsgi import application

HOLD_LIMIT = 8.0
PROPOSALS = "/api/player/proposals/"


def _hold_file() -> Path | None:
    value = os.environ.get("TIRAGE_PROBE_DIR", "")
    return Path(value) / "submit-hold" if value else None


def web_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    hold = _hold_file()
    if (
        hold is not None
        and environ.get("REQUEST_METHOD") == "POST"
        and environ.get("PATH_INFO") == PROPOSALS
        and hold.exists()
    ):
        (hold.parent / f"serving-{os.getpid()}").write_text(str(time.time()))
        deadline = time.monotonic() + HOLD_LIMIT
        while hold.exists() and time.monotonic() < deadline:
            time.sleep(0.02)  # the brake itself: hold the request while the file is there
    return application(environ, start_response)
