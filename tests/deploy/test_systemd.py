"""The systemd units: ``systemd-analyze verify`` on each one, installed as docs/deploy.md
says but with /opt/tirage pointing at this checkout (verify checks that every command
exists), the target tying them together, and ``systemd-analyze security`` well below the
7.9 "exposed" the first units scored."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.conftest import require
from tests.production.stack import ROOT

UNITS = ROOT / "deploy" / "systemd"
SERVICES = sorted(p.name for p in UNITS.glob("*.service"))
ALL = sorted(p.name for p in UNITS.iterdir() if p.suffix in {".service", ".timer", ".target"})
MAX_EXPOSURE = 2.0  # "OK" on systemd's scale; the first units scored 7.9


def analyze() -> str:
    path = shutil.which("systemd-analyze")
    require("" if path else "systemd-analyze is not installed (apt-get install systemd)")
    return path


def installed(tmp_path: Path) -> Path:
    """deploy/systemd/* copied as into /etc/systemd/system, /opt/tirage -> this checkout."""
    target = tmp_path / "system"
    target.mkdir()
    for name in ALL:
        text = (UNITS / name).read_text().replace("/opt/tirage", str(ROOT))
        (target / name).write_text(text)
    return target


def test_verify_every_unit(tmp_path: Path) -> None:
    tool = analyze()
    if not (ROOT / ".venv" / "bin" / "gunicorn").exists():
        pytest.skip("no .venv in this checkout (make install)")
    target = installed(tmp_path)
    names = [*ALL, "tirage-worker@tops.service", "tirage-worker@batch.service"]
    names.remove("tirage-worker@.service")
    result = subprocess.run(
        [tool, "verify", "--man=no", *[str(target / n) for n in names]],
        capture_output=True, text=True, timeout=120,
        env={"SYSTEMD_UNIT_PATH": f"{target}:", "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"},
    )  # fmt: skip
    # Only our own units may be blamed; the machine's (no systemd running here) are noise.
    ours = [line for line in result.stderr.splitlines() if "tirage" in line]
    assert result.returncode == 0 and not ours, result.stderr


@pytest.mark.parametrize("name", SERVICES)
def test_security_exposure(name: str) -> None:
    tool = analyze()
    result = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(UNITS / name)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout[-2000:] + result.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE, result.stdout[-3000:]


@pytest.mark.parametrize("name", [n for n in ALL if n != "tirage.target"])
def test_part_of_the_target(name: str) -> None:
    """`systemctl stop tirage.target` stops every unit; starting it starts them."""
    text = (UNITS / name).read_text()
    assert re.search(r"^PartOf=tirage\.target$", text, re.MULTILINE), name
    target = (UNITS / "tirage.target").read_text()
    wanted = " ".join(re.findall(r"^Wants=(.*)$", target, re.MULTILINE)).split()
    if name.endswith(".timer") or name == "tirage-web.service":
        assert name in wanted
    elif name == "tirage-worker@.service":
        assert {"tirage-worker@tops.service", "tirage-worker@batch.service"} <= set(wanted)
    else:  # the oneshot services are started by their timers
        assert name.replace(".service", ".timer") in wanted


def test_web_is_started_once_healthy_and_workers_wait_for_migrations() -> None:
    web = (UNITS / "tirage-web.service").read_text()
    assert "deploy/healthcheck.py --wait 60 http://127.0.0.1:8000/healthz" in web
    worker = (UNITS / "tirage-worker@.service").read_text()
    assert "deploy/healthcheck.py --wait 300 --migrations" in worker
    for text in (web, worker):
        assert "PROMETHEUS_MULTIPROC_DIR=/run/tirage/metrics" in text
