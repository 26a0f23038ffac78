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
    results = twice_at_once(
        lambda: round_close(round_id=rnd.pk, actor=setup["arbiter"], confirm=True)
    )
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


# --- Submissions under the shared round lock (issue 16, item 3) ------------------------------


def _waiting_for_a_lock(count: int = 1, seconds: float = 30) -> None:
    """Wait until ``count`` other backends of this database wait for a lock (server state,
    read through a connection of its own: this one may hold the lock they wait for)."""
    from django.db import connections as conns

    other = conns.create_connection("default")
    try:
        deadline = time.monotonic() + seconds
        while True:
            with other.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database()"
                )
                if cursor.fetchone()[0] >= count:
                    return
            assert time.monotonic() < deadline, f"no {count} backend(s) waiting for a lock"
            time.sleep(0.02)
    finally:
        other.close()


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as exc:
            out.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _haines(rnd: Round, player: Any, key: str) -> Callable[[], Any]:
    return lambda: proposal_submit(
        round_id=rnd.pk, player_id=player.pk, word="HAINES", reference="H4",
        claimed_score=26, client_key=key, actor=SYSTEM,
    )  # fmt: skip


@pytest.fixture
def open_round_with_top(postgresql: str, tournament_setup: dict) -> tuple[Round, dict]:
    """An open round whose top is computed: submissions take the shared lock."""
    assert connection.vendor == "postgresql"
    return new_game(tournament_setup, seed=7, actor=SYSTEM).open_round(top=True), tournament_setup


@pytest.mark.django_db(transaction=True)
def test_a_move_that_arrived_before_the_close_is_on_time_though_it_waits_for_it(
    open_round_with_top,
) -> None:
    from tournaments.services import round_close

    rnd, setup = open_round_with_top
    anne = setup["players"][0]
    with transaction.atomic():
        Round.objects.select_for_update().get(pk=rnd.pk)  # a close has begun: the lock
        thread, out = _in_thread(_haines(rnd, anne, "before"))  # arrives now, waits
        _waiting_for_a_lock()
        closed = round_close(round_id=rnd.pk, actor=setup["arbiter"], confirm=True)
    thread.join(timeout=60)
    assert not thread.is_alive() and len(out) == 1, out
    result = out[0]
    assert not isinstance(result, Exception), result
    # It reached the server before the close's time was taken, so it counts: on time,
    # current, though it was stored after the close committed.
    assert result.version.created_at < closed.closed_at
    version = ProposalVersion.objects.get(pk=result.version.pk)
    assert (version.late, version.is_current) == (False, True)


@pytest.mark.django_db(transaction=True)
def test_a_move_that_arrived_after_the_close_is_late_though_the_close_had_not_committed(
    open_round_with_top,
) -> None:
    from tournaments.services import round_close

    rnd, setup = open_round_with_top
    anne = setup["players"][0]
    with transaction.atomic():
        closed = round_close(round_id=rnd.pk, actor=setup["arbiter"], confirm=True)
        thread, out = _in_thread(_haines(rnd, anne, "after"))  # sees the round still open
        _waiting_for_a_lock()
    thread.join(timeout=60)
    assert not thread.is_alive() and len(out) == 1, out
    result = out[0]
    assert not isinstance(result, Exception), result
    assert result.version.created_at > closed.closed_at
    version = ProposalVersion.objects.get(pk=result.version.pk)
    # Late, and with nothing on time it is the player's current (zero) version.
    assert (version.late, version.is_current) == (True, True)


@pytest.mark.django_db(transaction=True)
def test_submissions_racing_a_close_are_all_kept_once_with_their_lateness(
    postgresql: str, tournament_setup: dict
) -> None:
    from tournaments.models import Player, Registration
    from tournaments.services import round_close

    tournament = tournament_setup["tournament"]
    players = list(tournament_setup["players"])
    for i in range(5):  # 8 players in all, registered before the game
        player = Player.objects.create(name=f"Joueur {i}")
        Registration.objects.create(tournament=tournament, player=player, table_number=10 + i)
        players.append(player)
    rnd = new_game(tournament_setup, seed=7, actor=SYSTEM).open_round(top=True)
    # Each player sends 4 proposals from 2 threads at once (so two of the same player race
    # for a version number), all 16 threads together, while the main thread closes the
    # round once some have landed (every move is the top, HAINES H4 26: what is checked
    # is that every call is answered and stored once, with the right lateness).
    barrier = threading.Barrier(len(players) * 2 + 1)
    answers: list[Any] = []
    lock = threading.Lock()

    def tablet(player: Any, side: int) -> None:
        try:
            barrier.wait(timeout=30)
            for n in range(2):
                try:
                    result = _haines(rnd, player, f"{player.pk}-{side}-{n}")()
                except Exception as exc:
                    result = exc
                with lock:
                    answers.append(result)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(p, s)) for p in players for s in (0, 1)]
    for thread in threads:
        thread.start()
    barrier.wait(timeout=30)
    deadline = time.monotonic() + 60
    while ProposalVersion.objects.filter(round=rnd).count() < len(players):
        assert time.monotonic() < deadline, "no proposal stored within 60 s"
        time.sleep(0.01)
    closed = round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    errors = [a for a in answers if isinstance(a, Exception)]
    assert errors == [] and len(answers) == len(players) * 4, errors
    versions = list(ProposalVersion.objects.filter(round=rnd).order_by("player", "version"))
    # None lost, none counted twice: one stored version per answer, numbered 1..4 for each
    # player, one audit row each, exactly one current version per player.
    assert sorted(a.version.pk for a in answers) == sorted(v.pk for v in versions)
    for player in players:
        mine = [v for v in versions if v.player_id == player.pk]
        assert [v.version for v in mine] == [1, 2, 3, 4]
        assert sum(v.is_current for v in mine) == 1
        current = next(v for v in mine if v.is_current)
        # Late never replaces on time: the current version is on time when one is.
        if any(not v.late for v in mine):
            assert not current.late
    ids = [v.pk for v in versions]
    assert AuditLog.objects.filter(action="proposal.submit", object_id__in=ids).count() == len(ids)
    # Lateness on both sides of the close: late exactly when it reached the server at or
    # after the stored close time (the deadline is minutes away).
    closed.refresh_from_db()
    assert [v.late for v in versions] == [v.created_at >= closed.closed_at for v in versions]
