"""What the two WSGI fast lanes share (tournaments/lanes.py) and the rule both ways in of a
queued move share (round_snapshots.queueable): the middleware the lanes reproduce is the
site's, in its order; a lane answers only what it wants and is sure of, and anything it
leaves or fails on reaches Django; the registration a received move reads is the one
Django's authentication finds."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.site.test_late_proposals import _tokens
from tournaments import lanes, round_snapshots, selectors
from tournaments.access import SYSTEM
from tournaments.models import Round, RoundState
from tournaments.services import registration_token_revoke, registration_withdraw


def test_the_lanes_know_the_sites_middleware_in_its_order() -> None:
    # headers_of adds the middleware's headers in the order Django would: a middleware
    # added, removed or moved in settings.MIDDLEWARE must be looked at in the lanes too.
    assert list(django_settings.MIDDLEWARE) == list(lanes.KNOWN_MIDDLEWARE)
    assert lanes.middleware_known()


def test_an_unknown_middleware_turns_the_lanes_off(settings: Any) -> None:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "example.HeaderMiddleware"]
    assert not lanes.middleware_known()
    assert not Echo(behind).on


def behind(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("X-From", "django")])
    return [b"django"]


class Echo(lanes.Lane):
    """Wants paths under /lane/; answers /lane/ok, leaves /lane/pass, fails on /lane/boom."""

    name = "echo"

    def __init__(self, app: lanes.WsgiApp) -> None:
        self.counted = 0
        super().__init__(app)

    def wants(self, environ: dict[str, Any]) -> bool:
        return str(environ["PATH_INFO"]).startswith("/lane/")

    def answer(self, environ: dict[str, Any]) -> lanes.Answer | None:
        path = environ["PATH_INFO"]
        if path == "/lane/boom":
            raise RuntimeError("boom")
        if path != "/lane/ok":
            return None

        def count() -> None:
            self.counted += 1

        return "202 Accepted", [("X-From", "lane")], [b"lane"], count


def _call(app: Any, path: str) -> tuple[str, list[tuple[str, str]], bytes]:
    got: list[Any] = []
    body = b"".join(app({"PATH_INFO": path}, lambda status, headers: got.extend([status, headers])))
    return got[0], got[1], body


def test_a_lane_answers_what_it_is_sure_of_and_hands_on_the_rest(caplog: Any) -> None:
    lane = Echo(behind)
    assert lane.on
    assert _call(lane, "/lane/ok") == ("202 Accepted", [("X-From", "lane")], b"lane")
    assert lane.counted == 1
    for path in ("/elsewhere/", "/lane/pass"):
        assert _call(lane, path) == ("200 OK", [("X-From", "django")], b"django")
    with caplog.at_level(logging.WARNING, logger="tournaments.lanes"):
        assert _call(lane, "/lane/boom")[2] == b"django"
    assert "echo lane: left to Django after an error" in caplog.text
    assert lane.counted == 1  # only what the lane answered
    lane.on = False
    assert _call(lane, "/lane/ok")[2] == b"django"


def _round(pk: int, state: str, top_score: int | None) -> Round:
    return Round(pk=pk, state=state, top_score=top_score)


@pytest.mark.parametrize(
    ("rnd", "named", "queued"),
    [
        (_round(5, RoundState.OPEN, 26), None, True),
        (_round(5, RoundState.OPEN, 26), 5, True),
        (_round(5, RoundState.OPEN, 26), 6, False),  # another round: judged at once
        (_round(5, RoundState.OPEN, None), None, False),  # no top yet
        (_round(5, RoundState.CLOSED, 26), None, False),  # a late move
        (_round(5, RoundState.DRAWN, 26), None, False),
        (None, None, False),
    ],
)
def test_which_moves_take_the_queue(rnd: Round | None, named: int | None, queued: bool) -> None:
    assert round_snapshots.queueable(rnd, named) is (rnd if queued else None)


@pytest.mark.django_db
def test_a_moves_registration_is_the_one_djangos_authentication_finds(
    tournament_setup: dict[str, Any],
) -> None:
    tokens = _tokens(tournament_setup)
    full = selectors.registration_by_token(tokens[1])
    assert full is not None
    with CaptureQueriesContext(connection) as queries:
        brief = selectors.registration_for_move(tokens[1])
    assert brief is not None and len(queries) == 1 and "JOIN" not in queries[0]["sql"]
    fields = ("pk", "tournament_id", "player_id", "withdrawn_game", "withdrawn_round")
    assert [getattr(brief, f) for f in fields] == [getattr(full, f) for f in fields]
    assert not brief.gone_by(1, 1)
    assert brief.table_number == 2  # a field not read: loaded when touched (Bruno, table 2)
    registration_withdraw(registration_id=full.pk, game_number=1, round_number=3,
                          reason="Malade", actor=tournament_setup["arbiter"])  # fmt: skip
    brief = selectors.registration_for_move(tokens[1])
    assert brief is not None and (brief.withdrawn_game, brief.withdrawn_round) == (1, 3)
    assert brief.gone_by(1, 3) and not brief.gone_by(1, 2)
    registration_token_revoke(registration_id=full.pk, actor=SYSTEM)
    assert selectors.registration_for_move(tokens[1]) is None
    assert selectors.registration_for_move("") is None
    assert selectors.registration_for_move("x" * 201) is None
