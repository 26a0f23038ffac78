"""deploy/gunicorn.conf.py through gunicorn itself: ``--check-config``, and what the
printed configuration says about reloads and the control socket."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.production.stack import ROOT

GUNICORN = Path(sys.executable).parent / "gunicorn"
CONF = ROOT / "deploy" / "gunicorn.conf.py"


def gunicorn(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GUNICORN_", "RUNTIME"))}
    return subprocess.run(
        [str(GUNICORN), "-c", str(CONF), *args], cwd=ROOT, env={**base, **env},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def printed(**env: str) -> dict[str, str]:
    result = gunicorn("--print-config", **env)
    assert result.returncode == 0, result.stderr
    pairs = (line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def test_check_config() -> None:
    result = gunicorn("--check-config", DJANGO_SETTINGS_MODULE="tournaments.settings")
    assert result.returncode == 0, result.stdout + result.stderr


def test_reload_serves_the_new_code() -> None:
    """HUP (systemctl reload) forks workers that import the code on disk only when the
    master has not preloaded the old code."""
    assert printed()["preload_app"] == "False"


def test_control_socket_per_instance(tmp_path: Path) -> None:
    """Two instances of one user never share (and remove) one control socket."""
    run = tmp_path / "run"
    one = printed(RUNTIME_DIRECTORY=f"{run}:{run}/metrics", GUNICORN_BIND="127.0.0.1:8000")
    two = printed(RUNTIME_DIRECTORY=f"{run}:{run}/metrics", GUNICORN_BIND="127.0.0.1:8001")
    assert one["control_socket"] == f"{run}/gunicorn-8000.ctl"
    assert two["control_socket"] == f"{run}/gunicorn-8001.ctl"
    stack = printed(GUNICORN_PIDFILE=f"{run}/gunicorn.pid", GUNICORN_BIND="127.0.0.1:8100")
    assert stack["control_socket"] == f"{run}/gunicorn-8100.ctl"
    # No directory of its own (a bare `gunicorn -c` in a shell): none, not ~/.gunicorn.
    bare = printed()
    assert bare["control_socket_disable"] == "True"
