"""Upgrade drill (docs/deploy.md, "Upgrades"): the previous release's code migrates a fresh
database and fills it (the demo tournament: 20 players, four rounds played, the fifth
drawn), the database is copied the documented way (deploy/tirage-backup, then
deploy/tirage-restore into another database), and the current code migrates the copy:
every row is still there and the ranking the old code showed is the one the new code shows.

The previous release is the newest tag, or commit 08dbdbc (the last landed release) while
there is none; its tree comes from ``git archive`` and its engine core is compiled in place.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
from io import BytesIO
from pathlib import Path

from tests.ci import unavailable
from tests.production.backup import (
    BACKUP,
    RESTORE,
    database_url,
    fingerprint,
    psql,
    run,
    script_env,
)
from tests.production.stack import ROOT

LAST_RELEASE = "08dbdbc"

RANKING = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from tournaments.services.demo import DEMO_SLUG
client = Client()
client.force_login(get_user_model().objects.get(username="arbitre"))
r = client.get(f"/api/tournaments/{DEMO_SLUG}/games/1/rankings/", HTTP_HOST="127.0.0.1")
assert r.status_code == 200, r.content
body = r.json()
print(json.dumps({"top_total": body["top_total"],
                  "standings": sorted((s["name"], s["total"]) for s in body["standings"])}))
"""


def previous_release() -> str:
    tags = subprocess.run(["git", "tag", "--sort=-creatordate"], cwd=ROOT, capture_output=True,
                          text=True).stdout.split()  # fmt: skip
    rev = tags[0] if tags else LAST_RELEASE
    known = subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], cwd=ROOT,
                           capture_output=True)  # fmt: skip
    if known.returncode:
        unavailable("upgrade", f"the previous release {rev} is not in this clone's history")
    return rev


def checkout(rev: str, target: Path) -> Path:
    """The release's tree (git archive) with its engine core compiled in place."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT,
                             capture_output=True, check=True).stdout  # fmt: skip
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    # What setup.py's Extension does, with gcc directly (this venv's setuptools may be
    # older than the one the release's pyproject.toml asks pip to build with).
    output = target / "engine" / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    built = subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O2", "-std=c11", f"-I{sysconfig.get_paths()['include']}",
         "engine/core/_core.c", "-o", str(output)],
        cwd=target, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    return target


def manage(code: Path, database: str, stack, *args: str, var: Path) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TIRAGE_", "DATABASE", "REDIS", "SECRET", "DJANGO", "ALLOWED"))
    }
    env.update(PYTHONPATH=str(code), DJANGO_SETTINGS_MODULE="tournaments.settings",
               DATABASE_URL=database_url(stack, database), TIRAGE_VAR_DIR=str(var),
               TIRAGE_LEXICON=str(stack.directory / "conformance.lex"))  # fmt: skip
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=code, env=env,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, f"{code.name}: manage.py {args[0]}\n{result.stderr[-3000:]}"
    return result.stdout


def test_upgrade_from_the_previous_release(healthy_stack, tmp_path) -> None:
    stack = healthy_stack
    old = checkout(previous_release(), tmp_path / "previous")
    for name in ("tirage_previous", "tirage_upgraded"):
        psql(stack, "postgres", f"DROP DATABASE IF EXISTS {name}")
        psql(stack, "postgres", f"CREATE DATABASE {name}")

    # The previous release in production: its migrations, its data, its ranking.
    manage(old, "tirage_previous", stack, "migrate", "--noinput", var=tmp_path / "var-old")
    manage(old, "tirage_previous", stack, "tirage_setup", "--demo", var=tmp_path / "var-old")
    ranking = manage(old, "tirage_previous", stack, "shell", "-c", RANKING,
                     var=tmp_path / "var-old").splitlines()[-1]  # fmt: skip
    assert json.loads(ranking)["standings"]
    before = fingerprint(stack, "tirage_previous")

    # A copy, made the way the upgrade procedure makes one: a backup set restored elsewhere.
    backups = tmp_path / "backups"
    done = run(BACKUP, env=script_env(stack, backups, database="tirage_previous"))
    assert done.returncode == 0, done.stderr
    (backup_set,) = backups.glob("tirage-*")
    restored = run(RESTORE, "--no-lexicons", str(backup_set),
                   env=script_env(stack, backups, database="tirage_upgraded"))  # fmt: skip
    assert restored.returncode == 0, restored.stderr
    assert fingerprint(stack, "tirage_upgraded") == before

    # The current code on the copy.
    manage(ROOT, "tirage_upgraded", stack, "migrate", "--noinput", var=tmp_path / "var-new")
    manage(ROOT, "tirage_upgraded", stack, "migrate", "--check", var=tmp_path / "var-new")
    after = fingerprint(stack, "tirage_upgraded")
    # No row is lost. Django's own catalogues grow with the models a release adds (each new
    # model brings its content type and four permissions); every other table keeps its rows.
    grows = {"django_migrations", "django_content_type", "auth_permission"}
    for table, (rows, _) in before.items():
        if table in grows:
            assert after[table][0] >= rows, table
        else:
            assert after[table][0] == rows, table
    again = manage(ROOT, "tirage_upgraded", stack, "shell", "-c", RANKING,
                   var=tmp_path / "var-new").splitlines()[-1]  # fmt: skip
    assert json.loads(again) == json.loads(ranking)
    # The original is untouched by the trial.
    assert fingerprint(stack, "tirage_previous") == before
