"""The queued ingestion path (issue 16, item 3; ``services.arrivals``).

A tablet's move is stored as an arrival (202), then a worker's batch (called directly here:
a test's transaction never commits, so nothing is queued) or the close turns it into a
version. Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py):
H4 is a double letter, H8 the star (double word), so (4×2 + 1 + 1 + 1 + 1 + 1) × 2 = 26.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.scenario import scenario_of
from tests.site.test_api import player_client
from tests.site.test_centres import event  # noqa: F401  (a pytest fixture)
from tests.site.test_late_proposals import _tokens
from tournaments import adapter
from tournaments.access import SYSTEM
from tournaments.models import AuditLog, ProposalArrival, ProposalVersion, Round
from tournaments.services import arrivals_ingest, arrivals_sweep, round_close, round_reopen

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def queued(settings) -> None:
    settings.TIRAGE_QUEUED_PROPOSALS = True
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0


@pytest.fixture
def rnd(tournament_setup: dict[str, Any]) -> Round:
    """Round 1 of seed 7, open, with its top computed (the queued path judges from it)."""
    from tournaments.services import game_create

    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=SYSTEM)
    return scenario_of(game, tournament_setup["arbiter"]).open_round(top=True)


def send(token: str, word: str, ref: str = "H4", key: str = "", **extra: Any) -> Any:
    body = {"word": word, "reference": ref, "client_key": key, **extra}
    return player_client(token).post("/api/player/proposals/", body, format="json")


def versions(rnd: Round, player: Any) -> list[tuple[int, str, bool, bool, int, str]]:
    rows = ProposalVersion.objects.filter(round=rnd, player=player).order_by("version")
    return [(v.version, v.word, v.late, v.is_current, v.outcome_score, v.outcome_code)
            for v in rows]  # fmt: skip


def test_a_queued_move_is_received_then_stored_with_the_synchronous_outcome(
    tournament_setup, rnd, settings
) -> None:
    anne, bruno, _ = tournament_setup["players"]
    tokens = _tokens(tournament_setup)
    answer = send(tokens[0], "HAINES", key="a-1")
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert (body["word"], body["reference"], body["client_key"]) == ("HAINES", "H4", "a-1")
    assert body["pending"] is True and body["replayed"] is False and body["received_at"]
    assert "outcome" not in body and "version" not in body  # nothing judged is told
    # Received, not yet a version: the player's round shows it as pending.
    seen = player_client(tokens[0]).get("/api/player/round/").json()["proposal"]
    assert (seen["word"], seen["pending"], seen["version"]) == ("HAINES", True, None)
    assert versions(rnd, anne) == []
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 1
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]
    seen = player_client(tokens[0]).get("/api/player/round/").json()["proposal"]
    assert (seen["word"], seen["pending"], seen["version"]) == ("HAINES", False, 1)
    # The same moves through the synchronous path give the same outcomes.
    settings.TIRAGE_QUEUED_PROPOSALS = False
    assert send(tokens[1], "HAINES", key="b-1").status_code == 201
    # A word not in the lexicon, letters not on the rack: judged (zero with its reason,
    # told after the close), not refused, on both paths.
    odd = [("HAINSE", "H4"), ("ZZZZ", "H4")]
    for n, (word, ref) in enumerate(odd):
        answer = send(tokens[1], word, ref, key=f"b-odd-{n}")
        assert answer.status_code == 201, answer.content
    settings.TIRAGE_QUEUED_PROPOSALS = True
    for n, (word, ref) in enumerate(odd):
        assert send(tokens[0], word, ref, key=f"a-odd-{n}").status_code == 202
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 2
    fields = ("outcome_kind", "outcome_score", "outcome_code", "outcome_raw_score")
    mine = ProposalVersion.objects.filter(round=rnd, player=anne).order_by("version")
    his = ProposalVersion.objects.filter(round=rnd, player=bruno).order_by("version")
    assert [[getattr(v, f) for f in fields] for v in mine] == [
        [getattr(v, f) for f in fields] for v in his
    ]
    assert [v.is_current for v in mine] == [False, False, True]
    assert [v.outcome_score for v in mine] == [26, 0, 0]
    # One audit row per version, as the player, and the arrival points at its version.
    rows = AuditLog.objects.filter(action="proposal.submit", object_id__in=[v.pk for v in mine])
    assert rows.count() == 3 and {r.actor_kind for r in rows} == {"player"}
    assert set(ProposalArrival.objects.filter(round=rnd).values_list("version", flat=True)) == {
        v.pk for v in mine
    }


def test_a_replay_is_stored_once_and_ingesting_twice_doubles_nothing(tournament_setup, rnd) -> None:
    anne = tournament_setup["players"][0]
    token = _tokens(tournament_setup)[0]
    first = send(token, "HAINES", key="k-1").json()
    again = send(token, "HAINES", key="k-1").json()
    assert again["replayed"] is True and again["id"] == first["id"]
    assert ProposalArrival.objects.filter(round=rnd).count() == 1
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 1
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 0
    assert arrivals_sweep(actor=SYSTEM) == 0
    after = send(token, "HAINES", key="k-1").json()
    assert after["replayed"] is True and after["pending"] is False
    reused = send(token, "HAINSE", key="k-1")
    assert reused.status_code == 409 and reused.json()["code"] == "proposal.key_reused"
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]
    assert AuditLog.objects.filter(action="proposal.submit").count() == 1


@pytest.mark.parametrize(
    ("word", "ref", "status", "code"),
    [
        ("H" * 31, "H4", 400, None),  # the request serializer refuses it
        ("HAINES", "H4" * 6, 400, None),
        ("=HYPERLINK(1)", "H4", 400, None),
    ],
)
def test_bad_input_is_refused_before_anything_is_stored(
    tournament_setup, rnd, word, ref, status, code
) -> None:
    answer = send(_tokens(tournament_setup)[0], word, ref, key="bad")
    assert answer.status_code == status, answer.content
    if code:
        assert answer.json()["code"] == code
    assert not ProposalArrival.objects.exists()


def test_the_close_ingests_every_pending_move_and_a_later_one_is_late(
    tournament_setup, rnd
) -> None:
    anne, bruno, _ = tournament_setup["players"]
    tokens = _tokens(tournament_setup)
    assert send(tokens[0], "HAINES", key="a").status_code == 202
    assert send(tokens[1], "HAINES", key="b").status_code == 202
    closed = round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    # Nothing waits for the worker: both are versions, on time, when the close commits.
    assert not ProposalArrival.objects.filter(ingested_at__isnull=True).exists()
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]
    assert versions(rnd, bruno) == [(1, "HAINES", False, True, 26, "ok")]
    # A move that reached the server after the close (a web process whose snapshot still
    # said open) is late, beside the on-time version that keeps counting.
    ProposalArrival.objects.create(
        round=rnd, player=anne, reference="H4", word="HAINSE", client_key="late",
        received_at=closed.closed_at + timedelta(milliseconds=5),
    )  # fmt: skip
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 1
    assert versions(rnd, anne) == [
        (1, "HAINES", False, True, 26, "ok"),
        (2, "HAINSE", True, False, 0, "zero.late"),
    ]


def test_a_move_received_before_the_close_but_stored_after_it_is_on_time(
    tournament_setup, rnd
) -> None:
    anne = tournament_setup["players"][0]
    closed = round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    ProposalArrival.objects.create(
        round=rnd, player=anne, reference="H4", word="HAINES", client_key="slow",
        received_at=closed.closed_at - timedelta(milliseconds=5),
    )  # fmt: skip
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 1
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]


def test_after_the_deadline_a_queued_move_never_replaces_the_on_time_one(
    tournament_setup, rnd
) -> None:
    anne = tournament_setup["players"][0]
    token = _tokens(tournament_setup)[0]
    assert send(token, "HAINES", key="1").status_code == 202
    arrivals_ingest(round_id=rnd.pk, actor=SYSTEM)
    scenario_of(rnd.game, SYSTEM).past_deadline(rnd)
    assert send(token, "HAINSE", key="2").status_code == 202  # the round is still open
    arrivals_ingest(round_id=rnd.pk, actor=SYSTEM)
    assert versions(rnd, anne) == [
        (1, "HAINES", False, True, 26, "ok"),
        (2, "HAINSE", True, False, 0, "zero.late"),
    ]


def test_reopening_ingests_what_came_while_closed_as_late(tournament_setup, rnd) -> None:
    anne = tournament_setup["players"][0]
    arbiter = tournament_setup["arbiter"]
    closed = round_close(round_id=rnd.pk, actor=arbiter, confirm=True)
    ProposalArrival.objects.create(
        round=rnd, player=anne, reference="H4", word="HAINES", client_key="while-closed",
        received_at=closed.closed_at + timedelta(seconds=1),
    )  # fmt: skip
    round_reopen(round_id=rnd.pk, actor=arbiter, seconds=60)
    assert versions(rnd, anne) == [(1, "HAINES", True, True, 0, "zero.late")]


def test_the_tablet_page_takes_the_queued_path_and_shows_the_move(
    client: Client, tournament_setup, rnd, settings
) -> None:
    anne = tournament_setup["players"][0]
    token = _tokens(tournament_setup)[0]
    url = f"/tablette/{token}/envoi/"
    payload = {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "t1"}
    sent = client.post(url, json.dumps(payload), content_type="application/json")
    assert sent.status_code == 202, sent.content
    assert (sent.json()["pending"], sent.json()["counts"], sent.json()["version"]) == (
        True, True, None)  # fmt: skip
    state = client.get(f"/tablette/{token}/etat/").json()
    assert (state["proposal"]["word"], state["proposal"]["pending"]) == ("HAINES", True)
    arrivals_ingest(round_id=rnd.pk, actor=SYSTEM)
    state = client.get(f"/tablette/{token}/etat/").json()
    assert (state["proposal"]["word"], state["proposal"]["version"]) == ("HAINES", 1)
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]
    # The embedded default: synchronous, 201, as before.
    settings.TIRAGE_QUEUED_PROPOSALS = False
    payload = {**payload, "client_key": "t2", "word": "HAINSE"}
    sent = client.post(url, json.dumps(payload), content_type="application/json")
    assert sent.status_code == 201 and sent.json()["version"] == 2


def test_a_batch_numbers_two_moves_of_one_player_and_keeps_one_current(
    tournament_setup, rnd
) -> None:
    anne = tournament_setup["players"][0]
    token = _tokens(tournament_setup)[0]
    for key, word in (("1", "HAINES"), ("2", "HAINSE"), ("3", "HAINES")):
        assert send(token, word, key=key).status_code == 202
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM, limit=2) == 3  # two batches
    assert [v[:4] for v in versions(rnd, anne)] == [
        (1, "HAINES", False, False), (2, "HAINSE", False, False), (3, "HAINES", False, True),
    ]  # fmt: skip
    current = ProposalVersion.objects.get(round=rnd, player=anne, is_current=True)
    assert adapter.outcome(current).score == 26


def test_a_withdrawn_player_or_a_cancelled_round_refuses_the_pending_move(
    tournament_setup, rnd
) -> None:
    anne = tournament_setup["players"][0]
    ProposalArrival.objects.create(round=rnd, player=anne, reference="H4", word="HAINES",
                                   client_key="x", received_at=timezone.now())  # fmt: skip
    Round.objects.filter(pk=rnd.pk).update(state="cancelled")
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 1
    arrival = ProposalArrival.objects.get()
    assert (arrival.refusal, arrival.version, arrival.ingested_at is not None) == (
        "round.not_open", None, True)  # fmt: skip
    assert not ProposalVersion.objects.exists()


def test_a_centre_close_ingests_the_queued_moves_and_lateness_follows_it(event) -> None:  # noqa: F811
    anne, bruno, _chloe, _denis = event["players"]
    play, a = event["play"], event["a"]
    rnd = play.compute_top(play.open_round())
    ProposalArrival.objects.create(round=rnd, player=anne, reference="H4", word="HAINES",
                                   client_key="a-before")  # fmt: skip
    play.close_centre(rnd, a, actor=event["arb_a"])
    # Stored by the centre's close itself, on time.
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26, "ok")]
    # After centre A's close, Anne's next move is late; Bruno's centre still plays.
    for player, key in ((anne, "a-after"), (bruno, "b-after")):
        ProposalArrival.objects.create(round=rnd, player=player, reference="H4",
                                       word="HAINES", client_key=key)  # fmt: skip
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 2
    assert versions(rnd, anne)[1] == (2, "HAINES", True, False, 0, "zero.late")
    assert versions(rnd, bruno) == [(1, "HAINES", False, True, 26, "ok")]


def test_the_round_snapshot_follows_the_close(tournament_setup, rnd) -> None:
    """The web process's snapshot of the playing round is dropped when the round changes
    (the tournament's live version): after the close a move takes the synchronous path,
    stored at once as late, as before."""
    token = _tokens(tournament_setup)[0]
    assert send(token, "HAINES", key="open").status_code == 202
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    late = send(token, "HAINSE", key="closed")
    assert late.status_code == 201 and late.json()["late"] is True
    assert versions(rnd, tournament_setup["players"][0]) == [
        (1, "HAINES", False, True, 26, "ok"),
        (2, "HAINSE", True, False, 0, "zero.late"),
    ]
