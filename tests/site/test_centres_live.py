"""Issue 16: a centre's close of a round reaches that centre's tablets and projector only.

The event of tests/site/test_centres.py: centre A (Anne, Chloé, Denis) and centre B
(Bruno); seed 7, round 1 (rack ESIUHAN, top H4 HAINES 26). When centre A closes the round
while B still plays, A's tablets say the round is over for them and take no more move on
time (their moves are stored late: 0, ../shared/rules/duplicate.md, a slip handed in after
"terminé"), B's tablets keep playing, and only A's readers get a new ETag. A centre's
projector shows its centre's state and its players' lines of the overall ranking.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client, RequestFactory, TestCase

from tests.site.test_api import player_client
from tests.site.test_centres import event  # noqa: F401  (a pytest fixture)
from tests.site.test_poll_lane import call, etag_of, refuse
from tests.site.test_tablet import issue_token
from tournaments import live_versions, poll_lane, proposal_lane, round_snapshots
from tournaments.models import ProposalArrival, ProposalVersion, Registration
from tournaments.services import round_reopen, tournament_update
from tournaments.tablet import views as tablet_views

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memories() -> Iterator[None]:
    proposal_lane.forget()
    round_snapshots.forget()
    yield
    proposal_lane.forget()
    round_snapshots.forget()


class Readers:
    """The event's tablets (by first name) and projectors, each keeping its last ETag."""

    def __init__(self, client: Client, event: dict[str, Any]) -> None:  # noqa: F811
        self.client = client
        t = event["tournament"]
        regs = {r.player.name: r for r in Registration.objects.filter(tournament=t)}
        self.tokens = {name: issue_token(reg) for name, reg in regs.items()}
        self.urls = {name: f"/tablette/{token}/etat/" for name, token in self.tokens.items()}
        self.urls["projector"] = f"/projecteur/{t.slug}/etat/"
        for key in ("a", "b"):
            self.urls[f"centre {key}"] = f"/projecteur/{t.slug}/centre/{event[key].pk}/etat/"
        self.etags: dict[str, str] = {}

    def poll(self, who: str) -> Any:
        held = self.etags.get(who)
        answer = self.client.get(self.urls[who], headers={"If-None-Match": held} if held else {})
        if answer.status_code == 200:
            self.etags[who] = answer["ETag"]
        return answer

    def statuses(self) -> dict[str, int]:
        return {who: self.poll(who).status_code for who in self.urls}

    def settle(self) -> None:
        self.statuses()
        assert self.statuses() == {who: 304 for who in self.urls}


@pytest.fixture
def readers(client: Client, event: dict[str, Any]) -> Readers:  # noqa: F811
    return Readers(client, event)


def test_a_centres_close_shows_on_its_own_tablets_only(event, readers) -> None:  # noqa: F811
    play = event["play"]
    rnd = play.open_round()
    before = readers.poll("Anne").json()
    assert before["centre"] is None and before["round"]["state"] == "open"
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    anne, bruno = readers.poll("Anne").json(), readers.poll("Bruno").json()
    assert anne["round"]["state"] == "open"  # the event's round still runs (centre B)
    assert anne["centre"]["closed"] is True and anne["centre"]["closed_at"]
    assert anne["round"]["top"] is None and anne["results"] is None  # no top before the end
    assert bruno["centre"] is None and bruno["round"]["state"] == "open"
    # The tablet's sentence, in French and in English.
    assert _sentences(readers, "Anne")["centre_closed"] == "Ramassé dans votre centre"
    tournament_update(actor=event["head"], tournament_id=event["tournament"].pk, language="en")
    tablet_views._LANGUAGES.clear()  # the language kept per token for 10 s
    assert _sentences(readers, "Anne")["centre_closed"] == "Collected in your centre"


def _sentences(readers: Readers, who: str) -> dict[str, str]:
    """The sentences the tablet page hands to tablet.js (its JSON config)."""
    page = readers.client.get(f"/tablette/{readers.tokens[who]}/").content.decode()
    start = page.index('type="application/json">') + len('type="application/json">')
    return json.loads(page[start : page.index("</script>", start)])["i18n"]


def test_only_the_closed_centres_readers_get_a_new_etag_after_the_commit(
    event,  # noqa: F811
    readers: Readers,
    settings: Any,
) -> None:
    play = event["play"]
    rnd = play.open_round()
    readers.settle()
    settings.TIRAGE_LIVE_BUMP_AT_ONCE = False  # the real order: the bump waits for the commit
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        play.close_centre(rnd, event["a"], actor=event["arb_a"])
        assert readers.poll("Anne").status_code == 304  # not committed yet
    assert any(live_versions.is_bump(c) for c in callbacks)
    assert readers.statuses() == {
        "Anne": 200, "Chloé": 200, "Denis": 200, "centre a": 200,  # centre A's readers
        "Bruno": 304, "projector": 304, "centre b": 304,  # the others: nothing changed
    }  # fmt: skip
    readers.settle()
    # The last centre's close closes the round: every reader changes.
    with TestCase.captureOnCommitCallbacks(execute=True):
        play.close_centre(rnd, event["b"], actor=event["arb_b"])
    assert readers.statuses() == {who: 200 for who in readers.urls}


def test_a_reopened_round_is_played_again_in_every_centre(event, readers) -> None:  # noqa: F811
    play = event["play"]
    rnd = play.open_round()
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    play.close_centre(rnd, event["b"], actor=event["arb_b"])
    readers.settle()
    round_reopen(round_id=rnd.pk, actor=event["head"])
    assert readers.statuses() == {who: 200 for who in readers.urls}
    anne = readers.client.get(readers.urls["Anne"]).json()
    assert anne["round"]["state"] == "open" and anne["centre"] is None
    assert readers.client.get(readers.urls["centre a"]).json()["centre"]["closed"] is False


def test_the_fast_lane_answers_the_other_centres_tablets_only(event, readers) -> None:  # noqa: F811
    """The WSGI lane reads the centre's version named in the ETag: after centre A's close
    Anne's held ETag is stale (Django answers), Bruno's still earns the lane's 304."""
    play = event["play"]
    rnd = play.open_round()
    readers.settle()
    play.close_centre(rnd, event["a"], actor=event["arb_a"])

    def lane(who: str) -> Any:
        environ = (
            RequestFactory().get(readers.urls[who], HTTP_IF_NONE_MATCH=readers.etags[who]).environ
        )
        return poll_lane.not_modified(environ)

    assert lane("Anne") is None and lane("Chloé") is None
    assert lane("Bruno") is not None
    assert call(poll_lane.wrap(refuse), RequestFactory().get(
        readers.urls["Bruno"], HTTP_IF_NONE_MATCH=readers.etags["Bruno"]).environ
    ).status == "304 Not Modified"  # fmt: skip
    assert readers.poll("Anne").status_code == 200
    # Anne's new ETag names her centre: the lane answers it again.
    assert lane("Anne") is not None


def test_a_centre_players_304_from_the_lane_is_djangos_byte_for_byte(
    event,  # noqa: F811
    readers: Readers,
) -> None:
    from tests.site.test_poll_lane import Site, _the_304_is_djangos

    play = event["play"]
    rnd = play.open_round()
    request_started.disconnect(close_old_connections)  # the test's transaction holds the rows
    request_finished.disconnect(close_old_connections)
    try:
        _the_304_is_djangos(Site(), readers.urls["Bruno"])
        play.close_centre(rnd, event["a"], actor=event["arb_a"])
        _the_304_is_djangos(Site(), readers.urls["Anne"])  # its centre closed: a new ETag
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_a_centres_projector_poll_gets_the_lanes_304_until_its_centre_closes(
    event,  # noqa: F811
    readers: Readers,
) -> None:
    """The centre projector's poll is in the WSGI lane too: its 304 is Django's to the byte
    and costs no query; centre A's close sends A's projector to Django (a new state,
    « Ramassé dans ce centre »), B's keeps the lane's 304."""
    from tests.site.test_poll_lane import Site, _the_304_is_djangos

    play = event["play"]
    rnd = play.open_round()
    request_started.disconnect(close_old_connections)  # the test's transaction holds the rows
    request_finished.disconnect(close_old_connections)
    try:
        site = Site()
        held = {key: _the_304_is_djangos(site, readers.urls[f"centre {key}"]) for key in "ab"}
        _the_304_is_djangos(site, readers.urls["centre a"] + "?langue=en")
        play.close_centre(rnd, event["a"], actor=event["arb_a"])
        b = site.get(readers.urls["centre b"], held["b"], via="strict")
        assert b.status == "304 Not Modified"
        a = site.get(readers.urls["centre a"], held["a"])
        assert a.status.startswith("200")
        assert json.loads(a.body)["centre"]["closed"] is True
        assert site.asked == [readers.urls["centre a"]]
        # A centre id the ETag does not name is never answered by the lane.
        other = site.get(readers.urls["centre b"], etag_of(a))
        assert other.status.startswith("200") and site.asked[-1] == readers.urls["centre b"]
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_with_the_cache_down_the_tablets_etag_still_follows_its_centre(
    event,  # noqa: F811
    readers: Readers,
    settings: Any,
) -> None:
    from tests.site.test_live_versions import BROKEN_REDIS

    play = event["play"]
    rnd = play.open_round()
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0
    settings.CACHES = BROKEN_REDIS
    tablets = ("Anne", "Bruno")
    assert {who: readers.poll(who).status_code for who in tablets} == {"Anne": 200, "Bruno": 200}
    assert not readers.etags["Anne"].startswith('"L')  # the database path
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    assert {who: readers.poll(who).status_code for who in tablets} == {"Anne": 200, "Bruno": 304}
    assert readers.poll("Anne").status_code == 304


# --- Moves after the centre's close ------------------------------------------------------


@pytest.fixture
def queued(settings: Any) -> Iterator[None]:
    settings.TIRAGE_QUEUED_PROPOSALS = True
    request_started.disconnect(close_old_connections)  # the test's transaction holds the rows
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _lane_post(token: str, body: dict[str, Any]) -> Any:
    environ = RequestFactory().post(
        "/api/player/proposals/", json.dumps(body).encode(), content_type="application/json",
        HTTP_AUTHORIZATION=f"Player {token}",
    ).environ  # fmt: skip
    return proposal_lane.accepted(environ)


def _versions(rnd: Any, player: Any) -> list[tuple[str, bool, bool, int, str]]:
    rows = ProposalVersion.objects.filter(round=rnd, player=player).order_by("version")
    return [(v.word, v.late, v.is_current, v.outcome_score, v.outcome_code) for v in rows]


def test_the_submissions_lane_leaves_a_closed_centres_move_to_django_which_stores_it_late(
    event,  # noqa: F811
    readers: Readers,
    queued: None,
) -> None:
    anne, bruno, _chloe, _denis = event["players"]
    play = event["play"]
    rnd = play.open_round(top=True)
    # Before the close, the lane takes Anne's move (Django never asked).
    assert _lane_post(readers.tokens["Anne"], {"word": "HAINE", "reference": "H4",
                                               "client_key": "a-1"}) is not None  # fmt: skip
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    assert _versions(rnd, anne) == [("HAINE", False, True, 24, "ok")]  # ingested by the close
    # After it: the lane leaves Anne's move to Django; Bruno's centre still plays.
    body = {"word": "HAINES", "reference": "H4", "client_key": "a-2"}
    assert _lane_post(readers.tokens["Anne"], body) is None
    assert _lane_post(readers.tokens["Bruno"], {**body, "client_key": "b-1"}) is not None
    assert ProposalArrival.objects.filter(player=anne).count() == 1  # nothing queued for Anne
    # Django judges it at once: late, kept beside the on-time version, which still counts.
    answer = player_client(readers.tokens["Anne"]).post(
        "/api/player/proposals/", body, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert answer.json()["late"] is True and answer.json()["counts"] is False
    assert _versions(rnd, anne) == [
        ("HAINE", False, True, 24, "ok"),
        ("HAINES", True, False, 0, "zero.late"),
    ]


def test_a_tablets_send_after_its_centres_close_is_late_and_says_so(
    event,  # noqa: F811
    readers: Readers,
    queued: None,
    client: Client,
) -> None:
    anne, bruno, chloe, _denis = event["players"]
    play = event["play"]
    rnd = play.open_round(top=True)
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    url = f"/tablette/{readers.tokens['Chloé']}/envoi/"
    answer = client.post(url, {"round": rnd.pk, "reference": "H4", "word": "HAINES",
                               "client_key": "c-1"}, content_type="application/json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert answer.json()["late"] is True and answer.json()["outcome"]["score"] == 0
    assert _versions(rnd, chloe) == [("HAINES", True, True, 0, "zero.late")]
    # Bruno (centre B) still sends on time: queued (202).
    url = f"/tablette/{readers.tokens['Bruno']}/envoi/"
    answer = client.post(url, {"round": rnd.pk, "reference": "H4", "word": "HAINES",
                               "client_key": "b-1"}, content_type="application/json")  # fmt: skip
    assert answer.status_code == 202, answer.content


# --- A centre's projector ------------------------------------------------------------------


def test_a_centres_projector_shows_its_close_and_its_players_lines(
    event,  # noqa: F811
    readers: Readers,
    client: Client,
) -> None:
    anne, bruno, chloe, denis = event["players"]
    play, t = event["play"], event["tournament"]
    rnd = play.open_round()
    page = client.get(f"/projecteur/{t.slug}/centre/{event['a'].pk}/")
    assert page.status_code == 200 and "Centre A" in page.content.decode()
    play.propose(rnd, anne, "HAINES", "H4")  # 26
    play.propose(rnd, bruno, "HAINE", "H4")  # 24
    play.propose(rnd, chloe, "HAINES", "H4")  # 26
    play.close_centre(rnd, event["a"], actor=event["arb_a"])
    a, b = readers.poll("centre a").json(), readers.poll("centre b").json()
    assert a["centre"]["name"] == "Centre A" and a["centre"]["closed"] is True
    assert b["centre"] == {"name": "Centre B", "closed": False, "closed_at": None}
    assert a["round"]["top"] is None and a["best_moves"] == []  # the event still plays
    play.close_centre(rnd, event["b"], actor=event["arb_b"])
    a, b = readers.poll("centre a").json(), readers.poll("centre b").json()
    assert a["round"]["state"] == "closed" and a["round"]["top"]["score"] == 26
    assert a["centre"]["closed"] is False  # the round's own close speaks now
    # Game 1's ranks: Anne and Chloé 26 (1st ex aequo), Bruno 24 (3rd), Denis 0 (4th).
    assert [(line["name"], line["rank"], line["total"]) for line in a["ranking"]] == [
        ("Anne", 1, 26), ("Chloé", 1, 26), ("Denis", 4, 0)]  # fmt: skip
    assert [(line["name"], line["rank"], line["total"]) for line in b["ranking"]] == [
        ("Bruno", 3, 24)]  # fmt: skip
    assert (a["ranking_count"], b["ranking_count"]) == (3, 1)


def test_a_centres_projector_ranks_the_current_game_as_the_events_projector_does(
    event,  # noqa: F811
    readers: Readers,
    tournament_setup,
) -> None:
    """Game 2 (the same seed: round 1 ESIUHAN, top HAINES 26): Denis alone finds the top
    (26 and the solo's 10: 4 players, solos paid from 4), Anne 24, the others nothing.
    The walls show game 2's ranks (Denis 1st, Anne 2nd, Bruno and Chloé 3rd ex aequo),
    not the overall ones (Anne 50, Denis 36, Chloé 26, Bruno 24)."""
    from tests.scenario import simultaneous_seeded_game

    anne, bruno, chloe, denis = event["players"]
    first = event["play"]
    rnd = first.open_round()
    for player, word in ((anne, "HAINES"), (bruno, "HAINE"), (chloe, "HAINES")):
        first.propose(rnd, player, word, "H4")
    first.close(rnd)
    second = simultaneous_seeded_game(tournament_setup, seed=7)
    rnd = second.open_round()
    second.propose(rnd, denis, "HAINES", "H4")  # 26 + 10 (solo)
    second.propose(rnd, anne, "HAINE", "H4")  # 24
    second.close(rnd)
    a, b = readers.poll("centre a").json(), readers.poll("centre b").json()
    event_wall = readers.poll("projector").json()
    assert a["game"]["number"] == 2 == event_wall["game"]["number"]
    assert [(line["name"], line["rank"], line["total"]) for line in a["ranking"]] == [
        ("Denis", 1, 36), ("Anne", 2, 24), ("Chloé", 3, 0)]  # fmt: skip
    assert [(line["name"], line["rank"], line["total"]) for line in b["ranking"]] == [
        ("Bruno", 3, 0)]  # fmt: skip
    # The same ranks as the event's wall, line for line.
    ranks = {line["name"]: line["rank"] for line in event_wall["ranking"]}
    assert all(ranks[line["name"]] == line["rank"] for line in a["ranking"] + b["ranking"])


def test_an_unknown_centres_projector_is_a_404(
    event,  # noqa: F811
    client: Client,
    tournament_setup: dict[str, Any],
) -> None:
    t = event["tournament"]
    for centre_id in (999_999, 0):
        assert client.get(f"/projecteur/{t.slug}/centre/{centre_id}/").status_code == 404
        assert client.get(f"/projecteur/{t.slug}/centre/{centre_id}/etat/").status_code == 404
    assert client.get(f"/projecteur/nope/centre/{event['a'].pk}/etat/").status_code == 404
