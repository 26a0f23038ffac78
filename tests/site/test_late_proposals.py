"""Late is never better than on time, and never worse (issue 13, docs/live-updates.md).

A proposal handed in after the deadline or the close is kept for the audit log, checked like
an on-time one, but never replaces the player's on-time proposal; without one it counts zero.
Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.scenario import scenario_of
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import AuditLog, ProposalVersion, Registration, Round
from tournaments.selectors import game_standings
from tournaments.services import (
    game_create,
    round_close,
    round_place_top,
)

pytestmark = pytest.mark.django_db
SEED = 7


@pytest.fixture(autouse=True)
def no_live_cache(settings) -> None:
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0


@pytest.fixture
def rnd(tournament_setup: dict[str, Any]) -> Round:
    """Round 1 of a game the system created, drawn and opened by the head arbiter."""
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=SEED, actor=SYSTEM)
    return scenario_of(game, tournament_setup["arbiter"]).open_round()


def submit(rnd: Round, player: Any, word: str, ref: str = "H4", **extra: Any) -> Any:
    """A tablet proposal by default (as the system, the player's token being the caller's
    check); ``actor=`` an arbiter for a slip."""
    extra.setdefault("actor", SYSTEM)
    return scenario_of(rnd.game, SYSTEM).propose(rnd, player, word, ref, **extra)


def past_deadline(rnd: Round) -> None:
    scenario_of(rnd.game, SYSTEM).past_deadline(rnd)


def versions(rnd: Round, player: Any) -> list[tuple[int, str, bool, bool, int]]:
    rows = ProposalVersion.objects.filter(round=rnd, player=player).order_by("version")
    return [(v.version, v.word, v.late, v.is_current, v.outcome_score) for v in rows]


@pytest.mark.parametrize("when", ["after the deadline", "after the close"])
def test_a_late_send_never_replaces_the_on_time_proposal(tournament_setup, rnd, when) -> None:
    anne = tournament_setup["players"][0]
    arbiter = tournament_setup["arbiter"]
    on_time = submit(rnd, anne, "HAINES")
    assert on_time.outcome.score == 26 and on_time.standing is None
    if when == "after the deadline":
        past_deadline(rnd)
    else:
        round_close(round_id=rnd.pk, actor=arbiter)
    late = submit(rnd, anne, "HAIES", client_key="late-1")
    # Stored as late, for the audit log, beside the on-time version which still counts.
    assert late.version.late and not late.version.is_current
    assert late.outcome.code == "zero.late"
    assert late.standing.pk == on_time.version.pk and late.counted.pk == on_time.version.pk
    assert versions(rnd, anne) == [(1, "HAINES", False, True, 26), (2, "HAIES", True, False, 0)]
    # Resending the late one (same key) adds nothing and still points at the on-time one.
    again = submit(rnd, anne, "HAIES", client_key="late-1")
    assert again.replayed and again.version.pk == late.version.pk
    assert ProposalVersion.objects.filter(round=rnd, player=anne).count() == 2
    if when == "after the deadline":
        round_close(round_id=rnd.pk, actor=arbiter)
    round_place_top(round_id=rnd.pk, actor=arbiter)
    standings = {s.player_id: s for s in game_standings(rnd.game)}
    # The top found on time, and a solo (+10: nobody else handed anything in, 3 players).
    assert (standings[anne.pk].total, standings[anne.pk].solos) == (36, 1)
    entry = AuditLog.objects.filter(action="proposal.submit").order_by("-id").first()
    assert entry.payload["late"] is True and entry.payload["standing"] == on_time.version.pk


def test_without_an_on_time_proposal_the_late_one_scores_zero(tournament_setup, rnd) -> None:
    bruno = tournament_setup["players"][1]
    past_deadline(rnd)
    first = submit(rnd, bruno, "HAINES")
    assert (first.version.is_current, first.outcome.code, first.standing) == (
        True, "zero.late", None)  # fmt: skip
    second = submit(rnd, bruno, "HAIES")  # late again: still zero, one current version
    assert second.version.is_current and second.standing is None
    assert versions(rnd, bruno) == [(1, "HAINES", True, False, 0), (2, "HAIES", True, True, 0)]
    scenario_of(rnd.game, tournament_setup["arbiter"]).finish(rnd)
    assert {s.player_id: s.total for s in game_standings(rnd.game)}[bruno.pk] == 0


def test_a_late_arbiter_slip_stays_beside_the_on_time_tablet_version(tournament_setup, rnd) -> None:
    anne = tournament_setup["players"][0]
    arbiter = tournament_setup["arbiter"]
    submit(rnd, anne, "HAINES")
    slip = submit(rnd, anne, "HAIES", source="arbiter", actor=arbiter, late=True)
    assert slip.version.late and not slip.version.is_current and slip.conflict is None
    assert ProposalVersion.objects.get(round=rnd, player=anne, is_current=True).word == "HAINES"


HOSTILE = ['=HYPERLINK("http://x.example","clic")', "AB\u0001CD", "HAI<b>NES"]


@pytest.mark.parametrize("word", HOSTILE)
@pytest.mark.parametrize("late", [False, True])
def test_late_or_not_a_bad_word_is_refused_and_nothing_is_stored(
    tournament_setup, rnd, word, late
) -> None:
    anne = tournament_setup["players"][0]
    if late:
        round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"])
    with pytest.raises(ServiceError) as info:
        submit(rnd, anne, word)
    assert info.value.code in {"word.character", "proposal.too_long"}
    assert not ProposalVersion.objects.exists()


@pytest.mark.parametrize("late", [False, True])
def test_late_or_not_too_long_is_refused(tournament_setup, rnd, late) -> None:
    anne = tournament_setup["players"][0]
    if late:
        past_deadline(rnd)
    for word, ref, field in (("A" * 31, "H4", "word"), ("HAINES", "H4" + " " * 9, "reference")):
        with pytest.raises(ServiceError) as info:
            submit(rnd, anne, word, ref)
        assert (info.value.code, info.value.details["field"]) == ("proposal.too_long", field)
    assert not ProposalVersion.objects.exists()


# --- Through the API and the tablet ------------------------------------------------------


def _tokens(setup: dict[str, Any]) -> list[str]:
    from tests.site.test_tablet import issue_token

    regs = Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
    return [issue_token(r) for r in regs]


def test_api_late_send_keeps_the_on_time_version(tournament_setup, rnd) -> None:
    token = _tokens(tournament_setup)[1]
    bruno = APIClient()
    bruno.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    url = "/api/player/proposals/"
    sent = bruno.post(url, {"word": "HAINES", "reference": "H4", "client_key": "b1"},
                      format="json")  # fmt: skip
    assert sent.status_code == 201 and sent.json()["counts"] is True
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"])
    late = bruno.post(url, {"word": "HAIES", "reference": "H4", "client_key": "b2",
                            "round": rnd.pk}, format="json")  # fmt: skip
    body = late.json()
    assert late.status_code == 201 and body["late"] is True and body["counts"] is False
    assert body["standing"]["word"] == "HAINES" and body["standing"]["late"] is False
    replay = bruno.post(url, {"word": "HAIES", "reference": "H4", "client_key": "b2",
                              "round": rnd.pk}, format="json")  # fmt: skip
    assert replay.status_code == 200 and replay.json()["standing"]["word"] == "HAINES"
    own = bruno.get("/api/player/round/").json()["proposal"]
    assert (own["word"], own["late"]) == ("HAINES", False)
    bad = bruno.post(url, {"word": "AB\u0001CD", "reference": "H4", "round": rnd.pk},
                     format="json")  # fmt: skip
    # Refused by the API's field check (letters only), like an on-time send.
    assert bad.status_code == 400 and bad.json()["code"] == "invalid", bad.json()
    assert "word" in bad.json()["fields"]


def _post(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(data), content_type="application/json")


def test_tablet_late_send_is_shown_beside_the_proposal_that_counts(
    client: Client, tournament_setup, rnd
) -> None:
    token = _tokens(tournament_setup)[0]
    url = f"/tablette/{token}/envoi/"
    first = _post(client, url, {"round": rnd.pk, "reference": "H4", "word": "HAINES",
                                "client_key": "a1"})  # fmt: skip
    assert first.status_code == 201 and first.json()["counts"] is True
    etag = client.get(f"/tablette/{token}/etat/")["ETag"]
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"])
    late = _post(client, url, {"round": rnd.pk, "reference": "H4", "word": "HAIES",
                               "client_key": "a2"})  # fmt: skip
    body = late.json()
    assert late.status_code == 201 and body["late"] is True and body["counts"] is False
    assert body["standing"]["word"] == "HAINES" and "outcome" not in body
    state = client.get(f"/tablette/{token}/etat/", HTTP_IF_NONE_MATCH=etag)
    assert state.status_code == 200
    data = state.json()
    assert (data["proposal"]["word"], data["proposal"]["late"]) == ("HAINES", False)
    assert (data["late_attempt"]["word"], data["late_attempt"]["late"]) == ("HAIES", True)
    assert data["results"]["score"] == 26 and data["results"]["code"] == "ok"
    bad = _post(client, url, {"round": rnd.pk, "reference": "H4", "word": "=HYPERLINK(1)",
                              "client_key": "a3"})  # fmt: skip
    assert bad.status_code == 400 and bad.json()["code"] == "word.character"
    assert ProposalVersion.objects.filter(round=rnd).count() == 2


def test_tablet_late_send_without_on_time_one_says_zero(
    client: Client, tournament_setup, rnd
) -> None:
    token = _tokens(tournament_setup)[1]
    past_deadline(rnd)
    payload = {"round": rnd.pk, "reference": "H4", "word": "HAINES", "client_key": "b"}
    late = _post(client, f"/tablette/{token}/envoi/", payload)
    body = late.json()
    assert body["late"] is True and body["counts"] is True
    assert body["outcome"]["code"] == "zero.late" and body["outcome"]["score"] == 0


def test_arbitrage_page_shows_late_attempts_beside_the_slip(
    client: Client, tournament_setup, rnd
) -> None:
    anne, bruno, _ = tournament_setup["players"]
    arbiter = tournament_setup["arbiter"]
    submit(rnd, anne, "HAINES")
    round_close(round_id=rnd.pk, actor=arbiter)
    late = submit(rnd, anne, "HAIES", ref="H5")
    submit(rnd, bruno, "HAINES")  # late, nothing on time: this one is the slip, zero
    client.force_login(arbiter)
    page = client.get(f"/arbitre/tour/{rnd.pk}/arbitrage/").content.decode()
    anne_row = page.split('data-table="1"')[1].split("</tr>")[0]
    bruno_row = page.split('data-table="2"')[1].split("</tr>")[0]
    assert "H4 HAINES" in anne_row and "H5 HAIES" in anne_row
    assert "non retenu" in anne_row
    assert timezone.localtime(late.version.created_at).strftime("%H:%M:%S") in anne_row
    assert "H4 HAINES" in bruno_row and "hors délai" in bruno_row
    assert "non retenu" not in bruno_row
