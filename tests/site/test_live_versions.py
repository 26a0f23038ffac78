"""The polls' "nothing changed" answered from the shared cache (issue 16, item 4).

A tablet or the projector holding the current version gets its 304 without a single query;
every kind of change makes the next poll a full answer (never a stale 304), only once the
change is committed; with the cache down the polls take the database path and stay right.
Polls go through Django's test client (every middleware); the changes through the services.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from tests.scenario import GameScenario, new_game, tablet_token
from tournaments import live_versions
from tournaments.access import SYSTEM
from tournaments.models import Registration
from tournaments.services import (
    decision_penalty,
    decision_warning,
    decision_zero,
    game_create,
    game_stop,
    proposal_correct,
    registration_arrive,
    registration_token_revoke,
    registration_update,
    registration_withdraw,
    round_cancel,
    round_extend,
    round_pause,
    round_reopen,
    round_resume,
    tournament_update,
)

pytestmark = pytest.mark.django_db

# Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_tablet.py).
BROKEN_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing listens on it
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


class Room:
    """Anne's and Bruno's tablets and the projector, each remembering its last ETag."""

    def __init__(self, client: Client, setup: dict[str, Any], play: GameScenario) -> None:
        self.client, self.setup, self.play = client, setup, play
        regs = Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
        self.anne, self.bruno = list(regs)[:2]
        self.urls = {
            "anne": f"/tablette/{tablet_token(self.anne, actor=SYSTEM)}/etat/",
            "bruno": f"/tablette/{tablet_token(self.bruno, actor=SYSTEM)}/etat/",
            "projector": f"/projecteur/{setup['tournament'].slug}/etat/",
        }
        self.etags: dict[str, str] = {}

    def poll(self, who: str) -> Any:
        held = self.etags.get(who)
        headers = {"If-None-Match": held} if held else {}
        response = self.client.get(self.urls[who], headers=headers)
        if response.status_code == 200:
            self.etags[who] = response["ETag"]
        return response

    def statuses(self) -> dict[str, int]:
        return {who: self.poll(who).status_code for who in self.urls}

    def settle(self) -> None:
        """Every reader holds the current version."""
        self.statuses()
        assert self.statuses() == {who: 304 for who in self.urls}


@pytest.fixture
def room(client: Client, tournament_setup: dict[str, Any]) -> Room:
    return Room(client, tournament_setup, new_game(tournament_setup))


def test_a_poll_holding_the_current_version_makes_no_query(room: Room) -> None:
    rnd = room.play.open_round()
    room.play.propose(rnd, room.anne.player, "HAINES", "H4")
    for who in ("anne", "projector"):
        assert room.poll(who).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            answer = room.poll(who)
        assert answer.status_code == 304 and answer["ETag"] == room.etags[who]
        assert len(queries) == 0, [q["sql"] for q in queries]
        # nginx's gzip makes the ETag weak; the tablet sends it back so: still no query.
        held = room.etags[who]
        with CaptureQueriesContext(connection) as queries:
            weak = room.client.get(room.urls[who], headers={"If-None-Match": f"W/{held}"})
        assert weak.status_code == 304 and len(queries) == 0


def test_a_full_answer_carries_the_cache_version_read_before_the_rows(room: Room) -> None:
    room.play.open_round()
    answer = room.poll("anne")
    assert answer.status_code == 200 and answer["ETag"].startswith('"L')
    assert answer.json()["version"] == answer["ETag"]


def _slip(room: Room, rnd: Any, who: str, word: str, ref: str, **extra: Any) -> None:
    player = room.anne.player if who == "anne" else room.bruno.player
    room.play.propose(rnd, player, word, ref, **extra)


def _closed(room: Room) -> Any:
    rnd = room.play.open_round()
    _slip(room, rnd, "anne", "HAINES", "H4")
    return room.play.close(rnd)


ALL = {"anne": 200, "bruno": 200, "projector": 200}

#: (what, prepare → state, the change, which readers see it). Expected: every reader whose
#: screen shows the change gets a full answer; a move handed in while the round is open is
#: the player's own business (rules: nobody learns another's move before the close).
CHANGES: list[tuple[str, Callable[[Room], Any], Callable[[Room, Any], Any], dict[str, int]]] = [
    ("draw", lambda r: None, lambda r, _: r.play.draw(), ALL),
    ("open", lambda r: r.play.draw(), lambda r, rnd: r.play.open(rnd), ALL),
    (
        "own move while open",  # the top computed first, as the worker does after the open
        lambda r: r.play.open_round(top=True),
        lambda r, rnd: _slip(r, rnd, "anne", "HAINES", "H4"),
        {"anne": 200, "bruno": 304, "projector": 304},
    ),
    (
        "late attempt beside an on-time move",
        lambda r: (rnd := r.play.open_round(), _slip(r, rnd, "anne", "HAINES", "H4"))[0],
        lambda r, rnd: _slip(r, rnd, "anne", "HUE", "H8", late=True, source="arbiter"),
        {"anne": 200, "bruno": 304, "projector": 304},
    ),
    (
        "pause",
        lambda r: r.play.open_round(),
        lambda r, rnd: round_pause(round_id=rnd.pk, actor=r.play.actor),
        ALL,
    ),
    (
        "resume",
        lambda r: round_pause(round_id=r.play.open_round().pk, actor=r.play.actor),
        lambda r, rnd: round_resume(round_id=rnd.pk, actor=r.play.actor),
        ALL,
    ),
    (
        "extend",
        lambda r: r.play.open_round(),
        lambda r, rnd: round_extend(round_id=rnd.pk, seconds=30, actor=r.play.actor),
        ALL,
    ),
    ("top computed", lambda r: r.play.open_round(), lambda r, rnd: r.play.compute_top(rnd), ALL),
    ("close", lambda r: r.play.open_round(), lambda r, rnd: r.play.close(rnd), ALL),
    ("place the top", _closed, lambda r, rnd: r.play.place(rnd), ALL),
    (
        "reopen",
        _closed,
        lambda r, rnd: round_reopen(round_id=rnd.pk, seconds=30, actor=r.play.actor),
        ALL,
    ),
    (
        "cancel",
        lambda r: r.play.open_round(),
        lambda r, rnd: round_cancel(round_id=rnd.pk, reason="Sac", actor=r.play.actor),
        ALL,
    ),
    (
        "slip entered after the close",
        _closed,
        lambda r, rnd: _slip(r, rnd, "bruno", "HUE", "H8", source="arbiter", late=True),
        ALL,
    ),
    (
        "correction",
        _closed,
        lambda r, rnd: proposal_correct(
            round_id=rnd.pk,
            player_id=r.anne.player_id,
            word="HAIES",
            reference="8H",
            reason="Mal lu",
            actor=r.play.actor,
        ),  # fmt: skip
        ALL,
    ),
    *[
        (
            f"decision {decide.__name__}",
            _closed,
            lambda r, rnd, decide=decide: decide(
                round_id=rnd.pk, player_id=r.anne.player_id, reason="Bruit", actor=r.play.actor
            ),
            ALL,
        )
        for decide in (decision_warning, decision_penalty, decision_zero)
    ],
    (
        "registration edited",
        lambda r: r.play.open_round(),
        lambda r, _: registration_update(
            registration_id=r.anne.pk, name="Anne-Marie", table=9, actor=r.play.actor
        ),
        ALL,
    ),
    (
        "late arrival",
        lambda r: r.play.open_round(),
        lambda r, _: registration_arrive(
            registration_id=r.bruno.pk, game_number=1, round_number=2, actor=r.play.actor
        ),
        ALL,
    ),
    (
        "withdrawal",
        lambda r: r.play.open_round(),
        lambda r, _: registration_withdraw(
            registration_id=r.bruno.pk,
            game_number=1,
            round_number=1,
            reason="Malade",
            actor=r.play.actor,
        ),  # fmt: skip
        ALL,
    ),
    (
        "token revoked",
        lambda r: r.play.open_round(),
        lambda r, _: registration_token_revoke(registration_id=r.anne.pk, actor=r.play.actor),
        {"anne": 404, "bruno": 200, "projector": 200},
    ),
    (
        "language",
        lambda r: r.play.open_round(),
        lambda r, _: tournament_update(
            tournament_id=r.setup["tournament"].pk, language="en", actor=r.play.actor
        ),
        ALL,
    ),
    (
        "game stopped",
        lambda r: r.play.open_round(),
        lambda r, _: game_stop(game_id=r.play.game.pk, reason="Fin", actor=r.play.actor),
        ALL,
    ),
    (
        "next game",
        lambda r: game_stop(game_id=r.play.game.pk, reason="Fin", actor=r.play.actor),
        lambda r, _: game_create(tournament_id=r.setup["tournament"].pk, seed=8, actor=SYSTEM),
        ALL,
    ),
]


@pytest.mark.parametrize(
    ("prepare", "change", "seen"),
    [pytest.param(p, c, s, id=name) for name, p, c, s in CHANGES],
)
def test_every_change_makes_the_next_poll_a_full_answer_after_the_commit(
    room: Room, settings: Any, prepare, change, seen
) -> None:
    state = prepare(room)
    room.settle()
    settings.TIRAGE_LIVE_BUMP_AT_ONCE = False  # the real order: the bump waits for the commit
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        change(room, state)
        # Not committed yet: for every other connection nothing changed, and the cache
        # still says so (the test's own connection sees the rows already).
        if seen.get("bruno") == 304:
            assert room.poll("bruno").status_code == 304
    assert any(live_versions.is_bump(c) for c in callbacks), "a bump waits for the commit"
    assert room.statuses() == seen
    room.statuses()  # the full answer's version is current: 304 from now on
    assert {who: room.poll(who).status_code for who in seen if seen[who] != 404} == {
        who: 304 for who in seen if seen[who] != 404
    }


def test_the_tablet_learns_no_top_before_the_close_through_a_bump(room: Room) -> None:
    rnd = room.play.open_round(top=True)  # the top is known to the server, the round open
    _slip(room, rnd, "anne", "HUE", "H8")
    data = room.poll("anne").json()
    text = str(data)
    assert data["round"]["top"] is None and data["results"] is None
    assert "HAINES" not in text and "top_score" not in text and "valid" not in text


def test_with_the_cache_down_polls_use_the_database_and_stay_right(
    room: Room, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = room.play.open_round()
    room.settle()
    before_outage = dict(room.etags)
    monkeypatch.setattr(live_versions, "RETRY_SECONDS", 0.05)
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0  # the database path's 0.5 s snapshot, off here
    working = settings.CACHES
    settings.CACHES = BROKEN_REDIS
    # Redis unreachable: the answers come from the rows, under the rows' own version.
    assert room.statuses() == ALL
    assert not room.etags["anne"].startswith('"L')
    assert room.statuses() == {who: 304 for who in room.urls}
    # A change while Redis is down: its bump cannot be written, the polls still see it.
    _slip(room, rnd, "anne", "HAINES", "H4")
    room.play.close(rnd)
    assert room.statuses() == ALL
    assert room.client.get(room.urls["anne"]).json()["round"]["state"] == "closed"
    # Redis back (it kept its file: the versions from before the outage): the bump kept in
    # memory is written before any 304, so a tablet asleep through the outage, holding a
    # version from before it, gets the new state.
    settings.CACHES = working
    monkeypatch.setattr(live_versions, "_down_until", 0.0)  # the retry delay is over
    room.etags = before_outage
    assert room.statuses() == ALL
    assert room.client.get(room.urls["anne"]).json()["round"]["state"] == "closed"
    assert room.statuses() == {who: 304 for who in room.urls}


def test_an_etag_made_up_or_of_another_tablet_earns_no_304(room: Room) -> None:
    """The ETag names the versions' ids; its digest binds them to the token, so Bruno's
    ETag sent with Anne's token, or a made-up one, gets Anne's full state."""
    room.play.open_round()
    room.settle()
    for held in (room.etags["bruno"], '"L1.1.0123456789abcdef0123"', '"L99999999999.1.x"',
                 '"L².1.x"'):  # fmt: skip
        answer = room.client.get(room.urls["anne"], headers={"If-None-Match": held})
        assert answer.status_code == 200 and answer.json()["player"]["name"] == "Anne"
        assert answer["ETag"] == room.etags["anne"]
    for held in ('"L1.x"', '"L².x"'):  # "²" is a digit to isdigit(), not to int()
        projector = room.client.get(room.urls["projector"], headers={"If-None-Match": held})
        assert projector.status_code == 200 and projector["ETag"] == room.etags["projector"]


def test_the_results_follow_a_decision_made_after_the_close(room: Room) -> None:
    """The standings kept per process under the tournament's version are recomputed when a
    decision changes it. Anne's H4 HAINES is the top, 26 (seed 7, round 1), and she alone
    found it: a solo, +10 (the setup's tournament counts solos, solo_value 10) = 36; a zero
    decision makes her round count 0 (rules: « zéro » replaces the round's score)."""
    rnd = _closed(room)
    assert room.poll("anne").json()["results"]["total"] == 36
    decision_zero(
        round_id=rnd.pk, player_id=room.anne.player_id, reason="Bruit", actor=room.play.actor
    )
    assert room.poll("anne").json()["results"]["total"] == 0
