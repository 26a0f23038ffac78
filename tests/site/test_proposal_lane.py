"""The submissions' WSGI lane (tournaments/proposal_lane.py, issue 16, item 3).

The same ``POST /api/player/proposals/`` goes through Django's handler alone and through
the lane in front of it: the lane's 202 must be Django's to the byte (status line, header
list in order, body) and store the same row, with one query (the INSERT) once the
registration is known. Whatever the lane does not answer reaches Django untouched (its
body given back), and Django answers it as before. Seed 7, round 1: rack ESIUHAN, top H4
HAINES 26 (tests/site/test_arrivals.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from tests.scenario import scenario_of
from tests.site.test_late_proposals import _tokens
from tests.site.test_poll_lane import PRODUCTION_LIKE, Answer, call, refuse
from tournaments import poll_lane, proposal_lane, throttle
from tournaments.access import SYSTEM
from tournaments.api import serializers as s
from tournaments.models import ProposalArrival, Round
from tournaments.services import (
    arrivals,
    arrivals_ingest,
    game_create,
    registration_token_revoke,
    registration_withdraw,
    round_close,
)

pytestmark = pytest.mark.django_db
PATH = "/api/player/proposals/"
NOW = datetime(2026, 12, 4, 18, 30, 15, 123456, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _queued(settings: Any) -> Iterator[None]:
    settings.TIRAGE_QUEUED_PROPOSALS = True
    proposal_lane.forget()
    request_started.disconnect(close_old_connections)  # the test's transaction holds the rows
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
    proposal_lane.forget()


@pytest.fixture
def rnd(tournament_setup: dict[str, Any]) -> Round:
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=SYSTEM)
    return scenario_of(game, tournament_setup["arbiter"]).open_round(top=True)


@pytest.fixture
def tokens(tournament_setup: dict[str, Any], rnd: Round) -> list[str]:
    return _tokens(tournament_setup)


class Site:
    """Django's handler, the lane in front of it (what reached Django recorded), and the
    lane in front of nothing (``strict``: it must answer alone)."""

    def __init__(self) -> None:
        self.django = WSGIHandler()
        self.asked = 0

        def recorded(environ: dict[str, Any], start_response: Any) -> Any:
            self.asked += 1
            return self.django(environ, start_response)

        self.lane = proposal_lane.wrap(recorded)
        self.strict = proposal_lane.wrap(refuse)

    def post(self, token: str, body: Any, *, via: str = "lane", **meta: Any) -> Answer:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        meta.setdefault("content_type", "application/json")
        if token:
            meta.setdefault("HTTP_AUTHORIZATION", f"Player {token}")
        environ = RequestFactory().post(PATH, raw, **meta).environ
        app = {"lane": self.lane, "django": self.django, "strict": self.strict}[via]
        return call(app, environ)


def _stored(answer: Answer) -> dict[str, Any]:
    row = ProposalArrival.objects.filter(pk=json.loads(answer.body)["id"]).values().get()
    row.pop("id")
    return row


def _next_id(value: int) -> None:
    """The next arrival gets id ``value`` (so two answers can be the same to the byte)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)",
            [ProposalArrival._meta.db_table, value],
        )


@pytest.mark.parametrize(
    ("profile", "meta"),
    [
        ("development", {}),
        ("development", {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.8", "HTTP_ACCEPT": "*/*"}),
        (
            "production",
            {
                "HTTP_X_FORWARDED_PROTO": "https",
                "HTTP_HOST": "tirage.example.org",
                "HTTP_ACCEPT": "application/json",
                "HTTP_USER_AGENT": "Tablette 3",
            },
        ),
    ],
)
def test_the_lanes_202_is_djangos_byte_for_byte_and_stores_the_same_row(
    tokens: list[str], settings: Any, monkeypatch: Any, profile: str, meta: dict[str, str]
) -> None:
    if profile == "production":
        for name, value in PRODUCTION_LIKE.items():
            setattr(settings, name, value)
        settings.ALLOWED_HOSTS = ["tirage.example.org"]
    monkeypatch.setattr("tournaments.services.arrivals.timezone.now", lambda: NOW)
    site = Site()
    for body in (
        {"word": "HAINES", "reference": "H4", "client_key": "k-1"},
        {"word": "HAiNES", "reference": "H4", "client_key": "k-2", "score": 12, "round": None},
        {"word": "CHIENS", "reference": "8H", "client_key": ""},  # a key made up: differs
    ):
        if body.get("round", 0) is None:
            body["round"] = Round.objects.get(state="open").pk
        djangos = site.post(tokens[0], body, via="django", **meta)
        assert djangos.status == "202 Accepted", djangos
        row = _stored(djangos)
        ProposalArrival.objects.filter(pk=json.loads(djangos.body)["id"]).delete()
        _next_id(json.loads(djangos.body)["id"])
        lanes = site.post(tokens[0], body, via="strict", **meta)
        if body["client_key"]:
            assert lanes == djangos
        else:
            assert (lanes.status, lanes.headers) == (djangos.status, djangos.headers)
            row.pop("client_key")
        assert _stored(lanes) | ({} if body["client_key"] else {"client_key": ""}) == (
            row | ({} if body["client_key"] else {"client_key": ""})
        )
    headers = dict(lanes.headers)
    assert headers["Content-Language"] == ("en" if "HTTP_ACCEPT_LANGUAGE" in meta else "fr")
    assert headers["Vary"] == "Accept, Accept-Language, Cookie"
    # Once the registration is known: one query, the INSERT.
    with CaptureQueriesContext(connection) as queries:
        again = site.post(tokens[0], {"word": "HAINES", "client_key": "k-9"}, via="strict", **meta)
    assert again.status == "202 Accepted"
    assert [q["sql"].split()[0] for q in queries] == ["INSERT"]
    assert site.asked == 0


def test_what_the_lane_receives_the_worker_stores_as_django_would(
    tournament_setup: dict[str, Any], tokens: list[str], rnd: Round
) -> None:
    site = Site()
    anne, bruno, _ = tournament_setup["players"]
    for token, word in ((tokens[0], "HAINES"), (tokens[1], "HAINE"), (tokens[0], "HIES")):
        assert site.post(token, {"word": word, "reference": "H4"}, via="strict").status[:3] == "202"
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 3
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    stored = {
        (a.player_id, a.word): (a.version.version, a.version.is_current, a.version.outcome_score)
        for a in ProposalArrival.objects.select_related("version")
    }
    # Anne's second move replaces her first; HAINE (rack ESIUHAN, H4 down) is worth
    # (4×2 + 1 + 1 + 1 + 1) × 2 = 24.
    assert stored == {
        (anne.pk, "HAINES"): (1, False, 26),
        (bruno.pk, "HAINE"): (1, True, 24),
        (anne.pk, "HIES"): (2, True, stored[(anne.pk, "HIES")][2]),
    }


def test_a_revoked_token_is_never_accepted_by_the_lane(
    tournament_setup: dict[str, Any], tokens: list[str]
) -> None:
    site = Site()
    anne = tournament_setup["players"][0]
    for key in ("a", "b"):  # the second keeps the registration in the lane's memory
        body = {"word": "HAINES", "reference": "H4", "client_key": key}
        assert site.post(tokens[0], body, via="strict").status[:3] == "202"
    assert tokens[0] in proposal_lane._registrations
    reg = anne.registrations.get()
    registration_token_revoke(registration_id=reg.pk, actor=SYSTEM)
    refused = site.post(tokens[0], {"word": "HAINES", "reference": "H4"})
    assert refused.status.startswith("401") and site.asked == 1
    assert ProposalArrival.objects.count() == 2


def test_a_withdrawal_reaches_the_lane_at_once(
    tournament_setup: dict[str, Any], tokens: list[str]
) -> None:
    site = Site()
    reg = tournament_setup["players"][1].registrations.get()
    assert site.post(tokens[1], {"word": "HAINES", "reference": "H4"}).status[:3] == "202"
    registration_withdraw(registration_id=reg.pk, game_number=1, round_number=2,
                          reason="Malade", actor=tournament_setup["arbiter"])  # fmt: skip
    assert site.asked == 0
    # From round 2 on: round 1 still takes the move, and through the lane.
    assert site.post(tokens[1], {"word": "HAINE", "reference": "H4"}).status[:3] == "202"
    assert site.asked == 0
    # Carole withdrawn from round 1 (before any move): the service's refusal, by Django.
    carole = tournament_setup["players"][2].registrations.get()
    assert site.post(tokens[2], {"word": "HAINES", "reference": "H4"}).status[:3] == "202"
    ProposalArrival.objects.filter(player=carole.player_id).delete()
    registration_withdraw(registration_id=carole.pk, game_number=1, round_number=1,
                          reason="Partie", actor=tournament_setup["arbiter"])  # fmt: skip
    refused = site.post(tokens[2], {"word": "HAINES", "reference": "H4"})
    assert site.asked == 1 and refused.status[:3] == "409", refused
    assert b"registration.withdrawn" in refused.body


def test_the_rate_limit_is_counted_once_and_django_refuses_past_it(
    tokens: list[str], settings: Any
) -> None:
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 3
    site = Site()
    for n in range(3):
        answer = site.post(tokens[0], {"word": "HAINES", "reference": "H4", "client_key": f"{n}"})
        assert answer.status[:3] == "202"
    assert site.asked == 0
    refused = site.post(tokens[0], {"word": "HAINES", "reference": "H4", "client_key": "3"})
    assert refused.status.startswith("429") and site.asked == 1
    assert ProposalArrival.objects.count() == 3
    # Left to Django for another reason (an odd body): counted by the lane only.
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 6
    key = throttle.player_rate_key(tokens[0])
    odd = site.post(tokens[0], {"word": "HAINES ", "reference": "H4", "client_key": "4"})
    assert odd.status[:3] == "202" and site.asked == 2
    assert throttle.count(key) == 6  # 4 before, the odd one once, this one


def test_a_replayed_client_key_gets_djangos_receipt(tokens: list[str]) -> None:
    site = Site()
    body = {"word": "HAINES", "reference": "H4", "client_key": "same"}
    first = site.post(tokens[0], body, via="strict")
    again = site.post(tokens[0], body)
    assert site.asked == 1 and again.status[:3] == "202"
    first_body, again_body = json.loads(first.body), json.loads(again.body)
    assert again_body["id"] == first_body["id"] and again_body["replayed"] is True
    reused = site.post(tokens[0], {**body, "word": "HAINE"})
    assert reused.status[:3] == "409" and b"proposal.key_reused" in reused.body
    assert ProposalArrival.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "meta", "status"),
    [
        ({"word": "HAINES", "reference": "H4", "colour": "bleu"}, {}, "202"),  # unknown field
        ({"word": "HAINES ", "reference": "H4"}, {}, "202"),  # trimmed by the serializer
        ({"word": "HAINES", "reference": " H4"}, {}, "202"),
        ({"word": "HAINES", "reference": "H4", "score": True}, {}, "400"),
        ({"word": "HAINES", "reference": "H4", "score": "26"}, {}, "400"),
        ({"word": "HAINES", "reference": None}, {}, "400"),
        ({"word": "HAIN3S", "reference": "H4"}, {}, "400"),
        ({"word": "H" * 31, "reference": "H4"}, {}, "400"),
        ({"reference": "H4"}, {}, "400"),
        ([1, 2], {}, "400"),
        (b'{"word": NaN}', {}, "400"),
        (b"{", {}, "400"),
        ({"word": "HAINES", "reference": "H4", "round": 999_999}, {}, "202"),  # synchronous 404
        ({"word": "HAINES", "reference": "H4"}, {"content_type": "text/plain"}, "415"),
        ({"word": "HAINES", "reference": "H4"}, {"HTTP_ACCEPT": "text/html"}, "202"),
        ({"word": "HAINES", "reference": "H4"}, {"HTTP_COOKIE": "sessionid=x"}, "202"),
        ({"word": "HAINES", "reference": "H4"}, {"HTTP_AUTHORIZATION": "Player a b"}, "401"),
        ({"word": "HAINES", "reference": "H4"}, {"HTTP_AUTHORIZATION": "Player nope"}, "401"),
        ({"word": "HAINES", "reference": "H4"}, {"HTTP_HOST": "evil.example"}, "400"),
    ],
)
def test_anything_unusual_goes_to_django(
    tokens: list[str], body: Any, meta: dict[str, str], status: str
) -> None:
    site = Site()
    answer = site.post(tokens[0], body, **meta)
    assert site.asked == 1
    if status == "202" and "round" in body:
        status = "404"  # another round: the synchronous path's refusal
    assert answer.status.startswith(status), answer


def test_a_closed_round_or_no_round_goes_to_django(
    tournament_setup: dict[str, Any], tokens: list[str], rnd: Round
) -> None:
    site = Site()
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"], confirm=True)
    answer = site.post(tokens[0], {"word": "HAINES", "reference": "H4"})
    assert site.asked == 1 and not answer.status.startswith("202")


def test_with_the_lane_off_or_the_queue_off_everything_goes_to_django(
    tokens: list[str], settings: Any
) -> None:
    settings.TIRAGE_QUEUED_PROPOSALS = False
    site = Site()
    assert site.post(tokens[0], {"word": "HAINES", "reference": "H4"}).status[:3] == "201"
    assert site.asked == 1
    settings.TIRAGE_PROPOSAL_LANE = False
    assert not proposal_lane.ProposalLane(refuse).on


@pytest.mark.parametrize(
    "data",
    [
        {"word": "HAINES"},
        {"word": "HAiNES", "reference": "8H", "score": 0, "client_key": "x-1", "round": 3},
        {"word": "", "reference": ""},
        {"word": "HAINES", "score": 9999},
        {"word": "HAINES", "score": 10000},
        {"word": "HAINES", "score": -1},
        {"word": "HAINES", "round": 0},
        {"word": "HAINES", "client_key": "k" * 65},
        {"word": "HAINES", "client_key": "clé"},
        {"word": "HAINES", "reference": "H4\x00"},
        {"word": "É"},
        {"word": "HAINES", "score": 1.0},
        {"word": "HA INES"},
    ],
)
def test_parse_keeps_only_what_the_serializer_gives_unchanged(data: dict[str, Any]) -> None:
    parsed = proposal_lane.parse(json.dumps(data).encode())
    serializer = s.PlayerProposalSerializer(data=data)
    if parsed is not None:
        assert serializer.is_valid(), serializer.errors
        assert parsed == dict(serializer.validated_data)


def test_the_wsgi_entry_point_has_both_lanes_in_front_of_django() -> None:
    from tournaments import wsgi

    assert isinstance(wsgi.application, proposal_lane.ProposalLane)
    assert isinstance(wsgi.application.app, poll_lane.PollLane)


@pytest.mark.parametrize("zone", ["Europe/Paris", "UTC", "America/Cayenne"])
@pytest.mark.parametrize(
    "values",
    [
        {"word": "HAINES", "reference": "H4", "claimed_score": 26, "client_key": "k-1"},
        {"word": "HAiNES", "reference": "", "claimed_score": None, "client_key": "srv-0a"},
    ],
)
def test_the_receipt_is_the_serializers(settings: Any, zone: str, values: dict[str, Any]) -> None:
    settings.TIME_ZONE = zone
    arrival = ProposalArrival(pk=41, round_id=7, player_id=3, received_at=NOW, **values)
    assert proposal_lane.receipt_data(arrival) == dict(
        s.PlayerProposalReceiptSerializer(arrivals.Receipt(arrival)).data
    )
    assert list(proposal_lane.receipt_data(arrival)) == list(
        s.PlayerProposalReceiptSerializer.__dict__["_declared_fields"]
    )


def test_a_tokens_first_move_costs_one_select_without_join_and_the_insert(
    tokens: list[str],
) -> None:
    site = Site()
    first = site.post(tokens[0], {"word": "HAINES", "reference": "H4"}, via="strict")
    assert first.status == "202 Accepted"  # the round snapshot read: kept by the process
    with CaptureQueriesContext(connection) as queries:
        answer = site.post(tokens[1], {"word": "HAINES", "reference": "H4"}, via="strict")
    assert answer.status == "202 Accepted"
    assert [q["sql"].split()[0] for q in queries] == ["SELECT", "INSERT"]
    assert "JOIN" not in queries[0]["sql"]


def test_the_headers_kept_follow_the_language_the_security_and_the_length(
    tokens: list[str], settings: Any
) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 60
    site = Site()
    seen = []
    for n, meta in enumerate(
        [
            {"HTTP_ACCEPT_LANGUAGE": "en"},
            {},
            {"HTTP_ACCEPT_LANGUAGE": "en", "HTTP_X_FORWARDED_PROTO": "https"},
            {"HTTP_ACCEPT_LANGUAGE": "en"},
        ]
    ):
        body = {"word": "HAINES", "reference": "H4", "client_key": "k" * (n + 1)}
        answer = site.post(tokens[0], body, via="strict", **meta)
        headers = dict(answer.headers)
        assert headers["Content-Length"] == str(len(answer.body))
        seen.append((headers["Content-Language"], "Strict-Transport-Security" in headers))
    assert seen == [("en", False), ("fr", False), ("en", True), ("en", False)]
