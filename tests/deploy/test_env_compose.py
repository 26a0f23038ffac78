"""deploy/env.example and deploy/compose.yaml as an operator uses them: the env file read
the way docs/deploy.md reads it (``set -a; . FILE``), its values accepted by
``manage.py check --deploy``, its queues routed to workers that read them; the compose file
parsed, with a healthcheck that can pass and bounded logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

from tests.production.stack import ROOT

DEPLOY = ROOT / "deploy"
ENV_EXAMPLE = DEPLOY / "env.example"


def sourced(path: Path) -> dict[str, str]:
    """The variables `set -a; . FILE` exports (docs/deploy.md's way), in a clean shell."""
    script = f'set -a; . "{path}"; set +a; exec "{sys.executable}" -c ' + (
        "'import json, os; print(json.dumps(dict(os.environ)))'"
    )
    result = subprocess.run(["sh", "-c", script], env={"PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=30)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def systemd_style(path: Path) -> dict[str, str]:
    """The assignments systemd's EnvironmentFile= reads (NAME=value, # comments)."""
    pairs = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def test_env_example_reads_the_same_in_sh_and_systemd() -> None:
    values = systemd_style(ENV_EXAMPLE)
    shell = sourced(ENV_EXAMPLE)
    for name, value in values.items():
        assert shell[name] == value, name
        assert not value.startswith(('"', "'")), f"{name}: quotes are taken literally"


def test_env_example_names_what_compose_and_the_workers_need() -> None:
    values = systemd_style(ENV_EXAMPLE)
    assert values["POSTGRES_PASSWORD"]
    assert values["TIRAGE_TOPS_QUEUE"] == "tops"
    assert values["TIRAGE_BATCH_QUEUE"] == "batch"
    # The lexicon is found where docs/deploy.md builds it and where the image has it.
    assert "TIRAGE_LEXICON" not in values
    assert "ENV TIRAGE_LEXICON" not in (DEPLOY / "Dockerfile").read_text()  # ENV block below
    assert "TIRAGE_LEXICON=/opt/tirage/lexicons/fr-libre.lex" in (DEPLOY / "Dockerfile").read_text()


def test_env_example_passes_check_deploy_and_routes_queues(tmp_path: Path) -> None:
    env = {**systemd_style(ENV_EXAMPLE), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    env.update(TIRAGE_VAR_DIR=str(tmp_path / "var"), DJANGO_SETTINGS_MODULE="tournaments.settings",
               SECRET_KEY="Zx8-q" * 12)  # fmt: skip
    check = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level",
                            "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    probe = (
        "import json; from django.conf import settings as s; "
        "print(json.dumps([s.CELERY_TASK_DEFAULT_QUEUE, s.CELERY_TASK_ROUTES]))"
    )
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", probe], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    default, routes = json.loads(out.stdout.splitlines()[-1])
    assert routes["tournaments.compute_top"]["queue"] == "tops"
    assert routes["tournaments.prepare_game"]["queue"] == "batch"
    # deploy/celery.sh: the tops worker reads tops and the default queue, batch reads batch.
    celery = (DEPLOY / "celery.sh").read_text()
    assert 'queues="$tops,$default_queue"' in celery and 'queues="$batch"' in celery
    assert default == "tirage"


def test_compose_file() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    web = services["web"]
    assert web["healthcheck"]["test"] == [
        "CMD", "python", "deploy/healthcheck.py", "http://127.0.0.1:8000/healthz"
    ]  # fmt: skip
    assert services["nginx"]["ports"] == ["127.0.0.1:8080:80"]
    for name, service in services.items():
        options = service["logging"]["options"]
        assert options["max-size"] and options["max-file"], name
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (DEPLOY / source).exists(), f"{name}: {source}"
    worker = services["worker"]
    assert worker["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert "deploy/healthcheck.py --wait 300 --migrations" in worker["command"]
    # No silent default password: compose refuses to start without POSTGRES_PASSWORD.
    text = (DEPLOY / "compose.yaml").read_text()
    assert "${POSTGRES_PASSWORD:-" not in text and "${POSTGRES_PASSWORD:?" in text
    assert (
        worker["environment"]["PROMETHEUS_MULTIPROC_DIR"]
        == web["environment"]["PROMETHEUS_MULTIPROC_DIR"]
    )


def test_healthcheck_script_usage() -> None:
    result = subprocess.run([sys.executable, str(DEPLOY / "healthcheck.py")],
                            capture_output=True, text=True, timeout=30)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "healthcheck:" in result.stderr
    down = subprocess.run([sys.executable, str(DEPLOY / "healthcheck.py"),
                           "http://127.0.0.1:9/healthz"], capture_output=True, text=True,
                          timeout=30)  # fmt: skip
    assert down.returncode == 1 and "did not answer" in down.stderr
