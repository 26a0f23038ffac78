"""Round control (issue 15, item 4): a close with time left needs a confirmation, a close is
undone until the top is placed, the clock pauses, resumes and is extended, and the late-send
rule follows the effective deadline (docs/rules-choices.md, *Round control*).

Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments import wording
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError, http_status
from tournaments.models import AuditLog, ProposalVersion, Registration, Round
from tournaments.services import (
    round_close,
    round_extend,
    round_pause,
    round_place_top,
    round_reopen,
    round_resume,
)
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_live_cache(settings) -> None:
    settings.TIRAGE_LIVE_CACHE_SECONDS = 0


@pytest.fixture
def play(tournament_setup: dict[str, Any]) -> Any:
    return new_game(tournament_setup, seed=7)


def set_deadline(rnd: Round, seconds: float) -> None:
    """The round's deadline ``seconds`` from now (negative: already past)."""
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))


def fresh(rnd: Round) -> Round:
    return Round.objects.get(pk=rnd.pk)


def seconds_to(moment: Any) -> float:
    return (moment - timezone.now()).total_seconds()


def refused(code: str, call: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


# --- Closing with time left ------------------------------------------------------------------


def test_closing_with_time_left_needs_a_confirmation_and_says_how_much(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    set_deadline(rnd, 83.5)
    error = refused("round.time_left", round_close, round_id=rnd.pk, actor=head)
    assert http_status(error.code) == 409
    assert error.details["seconds"] == 84  # rounded up: 83.5 s are not yet over
    assert wording.error_text(error) == (
        "Il reste 1 min 24 s au coup 1 : confirmez pour le fermer quand même."
    )
    assert fresh(rnd).state == "open"  # nothing written
    closed = round_close(round_id=rnd.pk, actor=head, confirm=True)
    assert closed.state == "closed"
    audit = AuditLog.objects.filter(action="round.close", object_id=rnd.pk).get()
    assert audit.payload["time_left"] == 84


def test_with_no_time_left_the_close_is_at_once(play, tournament_setup):
    rnd = play.open_round()
    set_deadline(rnd, -1)
    assert round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"]).state == "closed"


def test_the_console_refuses_an_unconfirmed_close_and_shows_the_confirmation(
    play, tournament_setup, client: Client
):
    rnd = play.open_round()
    client.force_login(tournament_setup["arbiter"])
    url = reverse("console:round_close", args=[rnd.pk])
    page = client.post(url)
    text = page.content.decode()
    assert page.status_code == 409
    assert 'id="close-confirm"' in text and "Fermer quand même" in text
    assert 'id="close-confirm" class="confirm" role="alertdialog" aria-labelledby' in text
    assert "confirmez pour le fermer quand même" in text
    assert fresh(rnd).state == "open"
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert fresh(rnd).state == "closed"


def test_the_api_close_wants_confirm_true_while_time_is_left(play, tournament_setup):
    rnd = play.open_round()
    api = APIClient()
    api.force_authenticate(tournament_setup["arbiter"])
    answer = api.post(f"/api/rounds/{rnd.pk}/close", {}, format="json")
    body = answer.json()
    assert answer.status_code == 409 and body["code"] == "round.time_left"
    assert set(body) == {"code", "detail", "params", "fields"} and body["params"]["seconds"] > 0
    assert api.post(f"/api/rounds/{rnd.pk}/close", {"confirm": "yes"}).status_code == 400
    done = api.post(f"/api/rounds/{rnd.pk}/close", {"confirm": True}, format="json")
    assert done.status_code == 200 and done.json()["state"] == "closed"


# --- Undoing a close -------------------------------------------------------------------------


def test_a_reopened_round_gets_back_the_time_it_had_at_the_close(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    set_deadline(rnd, 100)
    round_close(round_id=rnd.pk, actor=head, confirm=True)
    reopened = round_reopen(round_id=rnd.pk, actor=head)
    assert reopened.state == "open" and reopened.closed_at is None
    assert 97 <= seconds_to(reopened.deadline) <= 100
    audit = AuditLog.objects.get(action="round.reopen", object_id=rnd.pk)
    assert audit.payload["had"] == 100 and audit.payload["given"] == 100
    assert audit.actor_id == head.pk
    # Or the time the arbiter gives.
    round_close(round_id=rnd.pk, actor=head, confirm=True)
    again = round_reopen(round_id=rnd.pk, actor=head, seconds=20)
    assert 17 <= seconds_to(again.deadline) <= 20


def test_a_close_after_the_time_ran_out_reopens_only_with_a_time(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    set_deadline(rnd, -5)
    round_close(round_id=rnd.pk, actor=head)
    error = refused("round.no_time_left", round_reopen, round_id=rnd.pk, actor=head)
    assert "indiquez combien de secondes" in wording.error_text(error)
    refused("round.seconds", round_reopen, round_id=rnd.pk, actor=head, seconds=0)
    assert round_reopen(round_id=rnd.pk, actor=head, seconds=30).state == "open"


def test_once_the_top_is_placed_the_close_stays(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    play.finish(rnd)
    error = refused("round.top_placed", round_reopen, round_id=rnd.pk, actor=head)
    assert http_status(error.code) == 409
    drawn = play.draw()
    refused("round.not_closed", round_reopen, round_id=drawn.pk, actor=head)


def test_moves_sent_while_closed_stay_late_and_an_on_time_send_after_the_reopen_counts(
    play, tournament_setup
):
    """docs/rules-choices.md: from the close on the top is shown in the room, so what came
    in while the round was closed stays late; the reopened round takes sends on time."""
    head = tournament_setup["arbiter"]
    anne, bruno, _chloe = tournament_setup["players"]
    rnd = play.open_round()
    play.propose(rnd, anne, "HAINES", "H4", 26)  # on time
    round_close(round_id=rnd.pk, actor=head, confirm=True)
    late_anne = play.propose(rnd, anne, "HAINES", "8D", 26)
    late_bruno = play.propose(rnd, bruno, "HAINES", "H4", 26)
    assert late_anne.version.late and late_bruno.version.late
    round_reopen(round_id=rnd.pk, actor=head)
    # Nothing was rewritten by the reopen.
    stored = ProposalVersion.objects.filter(round=rnd).order_by("id")
    assert [(v.player_id, v.late, v.is_current) for v in stored] == [
        (anne.pk, False, True), (anne.pk, True, False), (bruno.pk, True, True),
    ]  # fmt: skip
    assert fresh(rnd).proposals.get(player=bruno, is_current=True).outcome_score == 0
    # Bruno sends again on the reopened clock: on time, it is what counts.
    again = play.propose(rnd, bruno, "HAINES", "H4", 26)
    assert not again.version.late and again.version.is_current
    assert again.outcome.score == 26
    current = ProposalVersion.objects.filter(round=rnd, player=bruno, is_current=True)
    assert [v.pk for v in current] == [again.version.pk]


# --- Pause, resume, extend -------------------------------------------------------------------


def test_a_pause_keeps_the_time_left_and_a_move_sent_during_it_is_on_time(play, tournament_setup):
    head = tournament_setup["arbiter"]
    anne = tournament_setup["players"][0]
    rnd = play.open_round()
    set_deadline(rnd, 40)
    paused = round_pause(round_id=rnd.pk, actor=head)
    assert paused.paused_at is not None and 39 <= paused.paused_remaining <= 40
    assert round_pause(round_id=rnd.pk, actor=head).paused_at == paused.paused_at  # no-op
    # The stored deadline passes during the pause: no time passes for the players.
    set_deadline(rnd, -60)
    sent = play.propose(rnd, anne, "HAINES", "H4", 26)
    assert not sent.version.late and sent.outcome.score == 26
    resumed = round_resume(round_id=rnd.pk, actor=head)
    assert resumed.paused_at is None and resumed.paused_remaining is None
    assert paused.paused_remaining - 3 <= seconds_to(resumed.deadline) <= paused.paused_remaining
    actions = list(
        AuditLog.objects.filter(object_id=rnd.pk, action__in=["round.pause", "round.resume"])
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["round.pause", "round.resume"]


def test_a_late_send_after_the_resumed_deadline_is_late(play, tournament_setup):
    head = tournament_setup["arbiter"]
    anne = tournament_setup["players"][0]
    rnd = play.open_round()
    round_pause(round_id=rnd.pk, actor=head)
    round_resume(round_id=rnd.pk, actor=head)
    set_deadline(rnd, -1)
    assert play.propose(rnd, anne, "HAINES", "H4", 26).version.late


def test_extending_adds_seconds_running_or_paused(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    set_deadline(rnd, 10)
    extended = round_extend(round_id=rnd.pk, seconds=30, actor=head)
    assert 37 <= seconds_to(extended.deadline) <= 40
    round_pause(round_id=rnd.pk, actor=head)
    before = fresh(rnd).paused_remaining
    assert round_extend(round_id=rnd.pk, seconds=60, actor=head).paused_remaining == before + 60
    # A round whose time ran out gets the seconds from now.
    round_resume(round_id=rnd.pk, actor=head)
    set_deadline(rnd, -120)
    assert 17 <= seconds_to(round_extend(round_id=rnd.pk, seconds=20, actor=head).deadline) <= 20
    for bad in (0, 3601, True, "30"):
        refused("round.seconds", round_extend, round_id=rnd.pk, seconds=bad, actor=head)
    extensions = AuditLog.objects.filter(action="round.extend", object_id=rnd.pk)
    assert [a.payload["seconds"] for a in extensions.order_by("id")] == [30, 60, 20]


def test_the_clock_is_the_head_arbiters_and_only_an_open_rounds(play, tournament_setup):
    head = tournament_setup["arbiter"]
    drawn = play.draw()
    for call in (round_pause, round_resume):
        refused("round.not_open", call, round_id=drawn.pk, actor=head)
    refused("round.not_open", round_extend, round_id=drawn.pk, seconds=10, actor=head)
    rnd = play.open(drawn)
    with pytest.raises(ServiceError) as caught:
        round_pause(round_id=rnd.pk, actor=_outsider())
    assert http_status(caught.value.code) == 403
    set_deadline(rnd, -1)
    refused("round.time_over", round_pause, round_id=rnd.pk, actor=head)


def _outsider() -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("passant", password="x-secret-42")


def test_the_database_allows_a_pause_only_on_an_open_round_with_its_seconds(play):
    rnd = play.open_round()
    with transaction.atomic(), pytest.raises(IntegrityError):
        Round.objects.filter(pk=rnd.pk).update(paused_at=timezone.now())
    with transaction.atomic(), pytest.raises(IntegrityError):
        Round.objects.filter(pk=rnd.pk).update(
            state="closed", closed_at=timezone.now(), paused_at=timezone.now(),
            paused_remaining=10,
        )  # fmt: skip


def test_closing_a_paused_round_keeps_its_seconds_for_a_reopen(play, tournament_setup):
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    set_deadline(rnd, 50)
    round_pause(round_id=rnd.pk, actor=head)
    set_deadline(rnd, -500)  # the stored deadline no longer counts while paused
    refused("round.time_left", round_close, round_id=rnd.pk, actor=head)
    closed = round_close(round_id=rnd.pk, actor=head, confirm=True)
    assert closed.paused_at is None and closed.paused_remaining is None
    reopened = round_reopen(round_id=rnd.pk, actor=head)
    assert 46 <= seconds_to(reopened.deadline) <= 50


# --- What tablets, the projector and the console's status say --------------------------------


def test_tablet_and_projector_json_carry_the_pause_and_the_extended_deadline(
    play, tournament_setup, client: Client
):
    head = tournament_setup["arbiter"]
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    token = registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    slug = tournament_setup["tournament"].slug
    rnd = play.open_round()
    tablet = client.get(f"/tablette/{token}/etat/")
    first = tablet.json()["round"]
    assert first["paused"] is False and first["deadline"] is not None
    round_pause(round_id=rnd.pk, actor=head)
    again = client.get(f"/tablette/{token}/etat/", HTTP_IF_NONE_MATCH=tablet["ETag"])
    assert again.status_code == 200  # the pause changes the version
    paused = again.json()["round"]
    assert paused["paused"] is True and paused["deadline"] is None
    assert paused["paused_remaining"] == fresh(rnd).paused_remaining
    projector = client.get(f"/projecteur/{slug}/etat/").json()["round"]
    assert projector["paused"] is True and projector["deadline"] is None
    player_api = APIClient()
    player_api.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    own = player_api.get("/api/player/round/").json()["round"]
    assert (own["paused"], own["deadline"]) == (True, None) and own["paused_remaining"] > 0
    round_extend(round_id=rnd.pk, seconds=60, actor=head)
    round_resume(round_id=rnd.pk, actor=head)
    resumed = client.get(f"/tablette/{token}/etat/").json()["round"]
    assert resumed["paused"] is False
    assert resumed["deadline"] == fresh(rnd).deadline.isoformat(timespec="milliseconds")
    status = client.get(f"/projecteur/{slug}/etat/").json()["round"]
    assert status["deadline"] == resumed["deadline"]


def test_the_console_buttons_pause_extend_and_reopen(play, tournament_setup, client: Client):
    head = tournament_setup["arbiter"]
    client.force_login(head)
    rnd = play.open_round()
    game_url = reverse("console:game", args=[rnd.game_id])
    page = client.get(game_url).content.decode()
    assert 'data-key="z"' in page and 'data-key="+"' in page and 'data-key="r"' not in page
    assert client.post(reverse("console:round_pause", args=[rnd.pk])).status_code == 302
    page = client.get(game_url).content.decode()
    assert "Pause" in page and "Reprendre le chrono" in page
    bad = client.post(reverse("console:round_extend", args=[rnd.pk]), {"seconds": "٣٠"})
    assert bad.status_code == 400 and "Un temps va de 1 à 3600 secondes." in bad.content.decode()
    assert (
        client.post(reverse("console:round_extend", args=[rnd.pk]), {"seconds": "45"}).status_code
        == 302
    )
    assert client.post(reverse("console:round_resume", args=[rnd.pk])).status_code == 302
    client.post(reverse("console:round_close", args=[rnd.pk]), {"confirm": "1"})
    page = client.get(game_url).content.decode()
    assert 'data-key="r"' in page and "Rouvrir le coup" in page
    assert client.post(reverse("console:round_reopen", args=[rnd.pk])).status_code == 302
    assert fresh(rnd).state == "open"


def test_api_round_control_endpoints(play, tournament_setup):
    head = tournament_setup["arbiter"]
    api = APIClient()
    api.force_authenticate(head)
    rnd = play.open_round()
    paused = api.post(f"/api/rounds/{rnd.pk}/pause").json()
    assert paused["paused_at"] is not None and paused["paused_remaining"] > 0
    assert api.post(f"/api/rounds/{rnd.pk}/extend", {"seconds": "10"}).status_code == 400
    extended = api.post(f"/api/rounds/{rnd.pk}/extend", {"seconds": 10}).json()
    assert extended["paused_remaining"] == paused["paused_remaining"] + 10
    assert api.post(f"/api/rounds/{rnd.pk}/resume").json()["paused_at"] is None
    api.post(f"/api/rounds/{rnd.pk}/close", {"confirm": True})
    reopened = api.post(f"/api/rounds/{rnd.pk}/reopen", {})
    assert reopened.status_code == 200 and reopened.json()["state"] == "open"
    api.post(f"/api/rounds/{rnd.pk}/close", {"confirm": True})
    round_place_top(round_id=rnd.pk, actor=head)
    refusal = api.post(f"/api/rounds/{rnd.pk}/reopen", {"seconds": 30})
    assert refusal.status_code == 409 and refusal.json()["code"] == "round.top_placed"


def test_an_extension_sent_again_with_its_key_counts_once(play, tournament_setup, client):
    """Issue 15's left-over: a retried « Prolonger » (same client key) adds its seconds once;
    another key is another extension. Paused, so the seconds add up exactly."""
    head = tournament_setup["arbiter"]
    rnd = play.open_round()
    round_pause(round_id=rnd.pk, actor=head)
    before = fresh(rnd).paused_remaining
    for _ in range(2):  # the service: sent twice with one key
        round_extend(round_id=rnd.pk, seconds=30, actor=head, client_key="k-1")
    assert fresh(rnd).paused_remaining == before + 30
    round_extend(round_id=rnd.pk, seconds=30, actor=head, client_key="k-2")
    assert fresh(rnd).paused_remaining == before + 60

    # The console: each rendering of the game screen gives the form a key of its own.
    client.force_login(head)
    game_url = reverse("console:game", args=[rnd.game_id])
    keys = [
        client.get(game_url).content.decode().split('name="client_key" value="')[1][:32]
        for _ in range(2)
    ]
    assert keys[0] != keys[1]
    extend_url = reverse("console:round_extend", args=[rnd.pk])
    for _ in range(2):  # the form posted twice
        assert client.post(extend_url, {"seconds": "45", "client_key": keys[0]}).status_code == 302
    assert fresh(rnd).paused_remaining == before + 60 + 45

    # The API: the same body sent again extends once.
    api = APIClient()
    api.force_authenticate(head)
    body = {"seconds": 15, "client_key": "api-1"}
    first = api.post(f"/api/rounds/{rnd.pk}/extend", body).json()
    again = api.post(f"/api/rounds/{rnd.pk}/extend", body).json()
    assert first["paused_remaining"] == again["paused_remaining"] == before + 60 + 45 + 15
    extensions = AuditLog.objects.filter(action="round.extend", object_id=rnd.pk)
    assert [a.payload["seconds"] for a in extensions.order_by("id")] == [30, 30, 45, 15]
