"""Restore drill: a tournament in the middle of a round is backed up with
deploy/tirage-backup, the database is dropped and the lexicon file lost, deploy/tirage-restore
puts both back (docs/deploy.md, "Backups and restore"), every table's rows and the ranking
are the same, and the round goes on."""

from __future__ import annotations

import hashlib
import re

from tests.production.backup import BACKUP, RESTORE, fingerprint, psql, run, script_env
from tests.production.play import create_tournament, move_for

PLAYERS = 6


def test_restore_drill(healthy_stack, tmp_path) -> None:
    stack = healthy_stack
    t = create_tournament(stack, PLAYERS)
    game = t.new_game(seed=777)
    first = t.wait_top(t.draw(game["id"])["id"])
    t.open(first["id"])
    for i in range(PLAYERS):
        assert t.submit(i, move_for(first, i), key=f"bk1-{i}").status == 201
    t.close(first["id"])
    t.place(first["id"])
    second = t.wait_top(t.draw(game["id"])["id"])
    t.open(second["id"])
    for i in range(PLAYERS // 2):  # mid-round: half the players have answered
        assert t.submit(i, move_for(second, i), key=f"bk2-{i}").status == 201
    ranking = t.arbiter.ok("GET", f"/api/tournaments/{t.slug}/games/1/rankings/")

    # The metrics saw it: proposals counted in the web, tops timed in the worker.
    metrics = stack.client().get("/metrics").raw.decode()
    tablet = re.search(r'^tirage_proposals_total\{source="tablet"\} (\S+)$', metrics, re.M)
    assert tablet and float(tablet.group(1)) >= PLAYERS + PLAYERS // 2
    tops = re.search(r"^tirage_top_computation_seconds_count (\S+)$", metrics, re.M)
    assert tops and float(tops.group(1)) >= 2

    backups = tmp_path / "backups"
    env = script_env(stack, backups)
    done = run(BACKUP, env=env)
    assert done.returncode == 0, done.stderr
    before = fingerprint(stack)
    (backup_set,) = sorted(backups.glob("tirage-*"))
    assert {p.name for p in backup_set.iterdir()} == {"database.dump", "lexicons.tar", "SHA256SUMS"}
    assert oct(backup_set.joinpath("database.dump").stat().st_mode & 0o777) == "0o600"
    assert before["tournaments_proposalversion"][0] >= PLAYERS + PLAYERS // 2

    # Disaster: the site stopped, the database dropped, the lexicon file gone.
    lexicon = stack.directory / "conformance.lex"
    lexicon_digest = hashlib.sha256(lexicon.read_bytes()).hexdigest()
    stack.stop("worker", "web")
    psql(stack, "postgres", "DROP DATABASE tirage")
    psql(stack, "postgres", "CREATE DATABASE tirage")
    lexicon.unlink()

    restored = run(RESTORE, str(backup_set), env=env)
    assert restored.returncode == 0, restored.stderr
    assert fingerprint(stack) == before
    assert hashlib.sha256(lexicon.read_bytes()).hexdigest() == lexicon_digest

    stack.start("web", "worker")
    arbiter = stack.arbiter()
    assert arbiter.ok("GET", f"/api/tournaments/{t.slug}/games/1/rankings/") == ranking
    t.arbiter = arbiter
    for i in range(PLAYERS // 2, PLAYERS):  # the round goes on: new rows, new ids
        assert t.submit(i, move_for(second, i), key=f"bk2-{i}").status == 201
    t.close(second["id"])
    t.place(second["id"])
    assert len(t.proposals(second["id"])) == PLAYERS


def test_backup_rotation_and_refusals(healthy_stack, tmp_path) -> None:
    stack = healthy_stack
    backups = tmp_path / "backups"
    for old in ("tirage-20240101T000000Z", "tirage-20240102T000000Z", "tirage-20240103T000000Z"):
        (backups / old).mkdir(parents=True)
    done = run(BACKUP, env=script_env(stack, backups, TIRAGE_BACKUP_KEEP="2"))
    assert done.returncode == 0, done.stderr
    kept = sorted(p.name for p in backups.iterdir())
    assert len(kept) == 2 and kept[0] == "tirage-20240103T000000Z", kept
    assert not any(name.startswith(".") for name in kept)  # no partial set left

    wrong = run(BACKUP, env={**script_env(stack, backups), "DATABASE_URL": "sqlite:///x"})
    assert wrong.returncode == 2
    assert wrong.stderr.count("\n") == 1 and "PostgreSQL" in wrong.stderr

    damaged = sorted(backups.glob("tirage-2*"))[-1]
    with (damaged / "database.dump").open("ab") as handle:
        handle.write(b"x")
    refused = run(RESTORE, str(damaged), env=script_env(stack, backups))
    assert refused.returncode == 1 and "damaged" in refused.stderr
