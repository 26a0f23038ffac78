"""The queued ingestion path on PostgreSQL with a real Celery worker (issue 16, item 3):
moves received and committed become versions on the worker; a batch killed before its
commit leaves its arrivals pending, and the sweep stores each exactly once; moves racing a
close are all kept once with their lateness. Seed 7, round 1: H4 HAINES 26."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, transaction

from tests.integration.conftest import ROOT, worker_database_url
from tests.scenario import new_game
from tournaments.access import SYSTEM, PlayerActor
from tournaments.models import AuditLog, ProposalArrival, ProposalVersion, Registration, Round
from tournaments.services import (
    arrival_receive,
    arrivals_sweep,
    registration_token_issue,
    round_close,
)

pytestmark = pytest.mark.integration


def _wait(check: Any, seconds: float = 60, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.1)


def _receive(rnd: Round, player: Any, key: str, word: str = "HAINES") -> Any:
    reg = Registration.objects.get(tournament_id=rnd.game.tournament_id, player=player)
    rnd = Round.objects.select_related("game__tournament__lexicon").get(pk=rnd.pk)
    with transaction.atomic():  # the request's transaction: the task is sent on commit
        return arrival_receive(actor=PlayerActor.of(reg), rnd=rnd, registration=reg,
                               word=word, reference="H4", client_key=key)  # fmt: skip


@pytest.fixture
def open_round(postgresql: str, tournament_setup: dict) -> tuple[Round, dict]:
    assert connection.vendor == "postgresql"
    return new_game(tournament_setup, seed=7, actor=SYSTEM).open_round(top=True), tournament_setup


@pytest.mark.django_db(transaction=True)
def test_received_moves_become_versions_on_the_worker(celery_worker, open_round) -> None:
    rnd, setup = open_round
    with transaction.atomic():  # one commit: one message, all three moves visible to it
        for n, player in enumerate(setup["players"]):
            _receive(rnd, player, f"w-{n}")
    _wait(lambda: ProposalVersion.objects.filter(round=rnd).count() == 3, what="3 versions")
    rows = ProposalVersion.objects.filter(round=rnd)
    assert {(v.word, v.outcome_score, v.late, v.is_current) for v in rows} == {
        ("HAINES", 26, False, True)
    }
    assert not ProposalArrival.objects.filter(ingested_at__isnull=True).exists()
    assert AuditLog.objects.filter(action="proposal.submit").count() == 3


@pytest.mark.django_db(transaction=True)
def test_moves_received_by_the_wsgi_lane_all_become_versions_on_the_worker(
    celery_worker, open_round, settings
) -> None:
    """The submissions' lane (tournaments/proposal_lane.py) answers alone (nothing behind
    it), commits each arrival at once and debounces the worker's message in Redis: every
    acknowledged move is a version, once."""
    from django.test import RequestFactory

    from tests.site.test_poll_lane import call, refuse
    from tournaments import proposal_lane

    settings.TIRAGE_QUEUED_PROPOSALS = True
    rnd, setup = open_round
    lane = proposal_lane.wrap(refuse)
    tokens = [registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
              for reg in Registration.objects.filter(tournament=setup["tournament"])]  # fmt: skip
    sent = 0
    for turn in range(4):  # each tablet changes its mind: the last move is the current one
        for token in tokens:
            body = f'{{"word": "HAINES", "reference": "H4", "client_key": "t{turn}"}}'.encode()
            environ = RequestFactory().post(
                "/api/player/proposals/", body, content_type="application/json",
                HTTP_AUTHORIZATION=f"Player {token}",
            ).environ  # fmt: skip
            assert call(lane, environ).status == "202 Accepted"
            sent += 1
    _wait(lambda: ProposalVersion.objects.filter(round=rnd).count() == sent, what="every move")
    assert not ProposalArrival.objects.filter(ingested_at__isnull=True).exists()
    current = ProposalVersion.objects.filter(round=rnd, is_current=True)
    assert sorted(v.version for v in current) == [4] * len(tokens)
    assert {a.client_key for a in ProposalArrival.objects.filter(version__is_current=True)} == {
        "t3"
    }


_KILLED_BATCH = """
import os, sys, time
import django
django.setup()
from tournaments.access import SYSTEM
from tournaments.services import arrivals, arrivals_ingest

def stall(*args, **kwargs):  # the versions are written, the arrivals not yet marked
    open(sys.argv[2], "w").write(str(os.getpid()))
    time.sleep(600)

arrivals._complete = stall
arrivals_ingest(round_id=int(sys.argv[1]), actor=SYSTEM)
"""


@pytest.mark.django_db(transaction=True)
def test_a_batch_killed_before_its_commit_is_made_good_by_the_sweep(
    open_round, tmp_path: Path
) -> None:
    rnd, setup = open_round
    for n, player in enumerate(setup["players"]):
        ProposalArrival.objects.create(round=rnd, player=player, reference="H4",
                                       word="HAINES", client_key=f"k-{n}")  # fmt: skip
    marker = tmp_path / "stalled"
    env = {**os.environ, "DATABASE_URL": worker_database_url(connection.settings_dict),
           "DJANGO_SETTINGS_MODULE": "tournaments.settings", "PYTHONPATH": str(ROOT)}  # fmt: skip
    env.pop("REDIS_URL", None)  # the batch needs no broker
    process = subprocess.Popen(
        [sys.executable, "-c", _KILLED_BATCH, str(rnd.pk), str(marker)], cwd=ROOT, env=env,
        start_new_session=True,
    )  # fmt: skip
    try:
        _wait(marker.exists, 120, "the batch to reach its last write")
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the worker dies mid-batch
        process.wait(timeout=30)
    # Its transaction died with it: no version, every arrival still pending.
    assert not ProposalVersion.objects.filter(round=rnd).exists()
    assert ProposalArrival.objects.filter(ingested_at__isnull=True).count() == 3
    assert arrivals_sweep(actor=SYSTEM) == 3  # what a starting worker runs
    assert arrivals_sweep(actor=SYSTEM) == 0
    rows = list(ProposalVersion.objects.filter(round=rnd))
    assert len(rows) == 3 and {(v.version, v.outcome_score) for v in rows} == {(1, 26)}


@pytest.mark.django_db(transaction=True)
def test_moves_racing_a_close_are_all_kept_once_with_their_lateness(open_round) -> None:
    rnd, setup = open_round
    players = setup["players"]
    answers: list[Any] = []
    lock = threading.Lock()
    start = threading.Barrier(len(players) + 1)

    def tablet(player: Any) -> None:
        try:
            start.wait(timeout=30)
            for n in range(6):
                try:
                    receipt = _receive(rnd, player, f"{player.pk}-{n}")
                except Exception as exc:  # reported below
                    receipt = exc
                with lock:
                    answers.append(receipt)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    start.wait(timeout=30)
    _wait(lambda: ProposalArrival.objects.filter(round=rnd).count() >= 3, what="3 arrivals")
    closed = round_close(round_id=rnd.pk, actor=setup["arbiter"], confirm=True)
    for thread in threads:
        thread.join(timeout=60)
    errors = [a for a in answers if isinstance(a, Exception)]
    assert errors == [] and len(answers) == len(players) * 6
    arrivals_sweep(actor=SYSTEM)  # the worker's part, for the moves received after the close
    arrivals = list(ProposalArrival.objects.filter(round=rnd).select_related("version"))
    assert len(arrivals) == len(answers) and all(a.ingested_at for a in arrivals)
    versions = list(ProposalVersion.objects.filter(round=rnd))
    # None lost, none doubled: one version per acknowledged move, each from its arrival.
    assert sorted(a.version_id for a in arrivals) == sorted(v.pk for v in versions)
    for arrival in arrivals:
        # Lateness from the moment the move reached the server, against the stored close.
        assert arrival.version.late == (arrival.received_at >= closed.closed_at)
    for player in players:
        mine = sorted((v for v in versions if v.player_id == player.pk), key=lambda v: v.version)
        assert [v.version for v in mine] == list(range(1, 7))
        assert sum(v.is_current for v in mine) == 1
        current = next(v for v in mine if v.is_current)
        if any(not v.late for v in mine):
            assert not current.late  # late never replaces on time
