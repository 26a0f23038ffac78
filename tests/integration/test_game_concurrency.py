"""Services under concurrency on PostgreSQL (row locks), and compute_top on a real worker."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.models import AuditLog, ProposalVersion, Round
from tournaments.services import game_create, proposal_submit, round_draw

pytestmark = pytest.mark.integration


def twice_at_once(call: Callable[[], Any]) -> list[Any]:
    """Run ``call`` in two threads released together; return both results (or exceptions)."""
    barrier, results = threading.Barrier(2), []

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except Exception as exc:  # reported to the test, not lost in the thread
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a call is still running after 60 s"
    assert len(results) == 2, results  # each thread reported once: a result or its exception
    return results


@pytest.fixture
def open_round(postgresql: str, tournament_setup: dict) -> tuple[Round, dict]:
    assert connection.vendor == "postgresql"
    return new_game(tournament_setup, seed=7, actor=SYSTEM).open_round(), tournament_setup


@pytest.mark.django_db(transaction=True)
def test_two_arbiters_closing_the_same_round_apply_once(open_round) -> None:
    from tournaments.services import round_close

    rnd, setup = open_round
    results = twice_at_once(lambda: round_close(round_id=rnd.pk, actor=setup["arbiter"]))
    assert len(results) == 2, results
    assert all(isinstance(r, Round) and r.state == "closed" for r in results), results
    assert AuditLog.objects.filter(action="round.close", object_id=rnd.pk).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_replayed_submission_is_stored_once(open_round) -> None:
    rnd, setup = open_round
    anne = setup["players"][0]
    results = twice_at_once(
        lambda: proposal_submit(
            round_id=rnd.pk,
            player_id=anne.pk,
            word="HAINES",
            reference="H4",
            claimed_score=26,
            client_key="k-1",
            actor=SYSTEM,
        )  # fmt: skip
    )
    assert sorted(r.replayed for r in results) == [False, True], results
    assert {r.version.pk for r in results} == {results[0].version.pk}
    assert ProposalVersion.objects.filter(round=rnd, player=anne).count() == 1


@pytest.mark.django_db(transaction=True)
def test_compute_top_runs_on_the_worker_after_commit(celery_worker, tournament_setup) -> None:
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=SYSTEM)
    with transaction.atomic():
        rnd = round_draw(game_id=game.pk, actor=SYSTEM)  # compute_top is sent when this commits
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        rnd.refresh_from_db()
        if rnd.top is not None:
            break
        time.sleep(0.2)
    assert rnd.top_score == 26 and rnd.top["chosen"]["word"] == "HAINES"
    assert AuditLog.objects.filter(action="round.top_computed", object_id=rnd.pk).count() == 1
