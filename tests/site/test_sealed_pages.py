"""A sealed game in the console and the API (docs/simultaneous.md): creating it sealed,
setting its schedule, the countdown without the rack, the refusals with their sentences,
and the embedded profile's game screen releasing a due round. Racks and hand-computed
tops: tests/site/test_sealed_release.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.scenario import new_predrawn_game
from tests.site.test_sealed_release import TEXT
from tournaments.models import ArbiterMembership, Game, Round, SealedRound
from tournaments.services.release import Schedule, release_schedule_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def head(client, tournament_setup) -> Any:
    client.force_login(tournament_setup["arbiter"])
    return client


def test_the_console_creates_a_sealed_game_and_sets_its_schedule(head, tournament_setup) -> None:
    url = reverse("console:game_create", args=["open-test"])
    response = head.post(url, {"kind": "predrawn", "predrawn": TEXT, "sealed": "on"})
    game = Game.objects.get(tournament=tournament_setup["tournament"])
    assert response.status_code == 302 and game.predrawn == ""
    screen = head.get(reverse("console:game", args=[game.pk])).content.decode()
    assert "Partie scellée : ses coups sont dévoilés à l'heure prévue." in screen
    assert reverse("console:draw", args=[game.pk]) not in screen  # no "Tirage" button
    page_url = reverse("console:release", args=[game.pk])
    page = head.get(page_url).content.decode()
    assert page.count("<td>scellé</td>") == 3 and "Enregistrer les horaires" in page
    start = timezone.localtime() + timedelta(hours=2)
    response = head.post(page_url, {"action": "schedule",
                                    "starts_at": start.strftime("%Y-%m-%dT%H:%M:%S"),
                                    "interval": "300"})  # fmt: skip
    assert response.status_code == 302
    times = list(SealedRound.objects.filter(sealed_id=game.pk).order_by("number")
                 .values_list("release_at", flat=True))  # fmt: skip
    first = start.replace(microsecond=0)
    assert times == [first, first + timedelta(seconds=300), first + timedelta(seconds=600)]
    page = head.get(page_url).content.decode()
    assert f"Prochain dévoilement : coup 1 à {first:%H:%M:%S}, dans" in page
    assert 'data-release-seconds="' in page and "WHISKYE" not in page
    # Releasing now, before the time: refused with its sentence, nothing drawn.
    response = head.post(page_url, {"action": "release"})
    assert response.status_code == 409
    assert f"Le coup 1 sera dévoilé le {first:%d/%m/%Y} à {first:%H:%M:%S}, pas avant." in (
        response.content.decode()
    )
    # Drawing by hand: refused.
    response = head.post(reverse("console:draw", args=[game.pk]), {})
    assert response.status_code == 409
    assert "ils ne se tirent pas à la main" in response.content.decode()
    assert not Round.objects.exists()
    # Per-round times: one a line, the next day after midnight.
    response = head.post(page_url, {"action": "schedule", "times": "23:58\n23:59:30\n00:03",
                                    "starts_at": start.strftime("%Y-%m-%dT%H:%M:%S")})  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    got = [timezone.localtime(t) for t in SealedRound.objects.filter(sealed_id=game.pk)
           .order_by("number").values_list("release_at", flat=True)]  # fmt: skip
    assert [f"{t:%H:%M:%S}" for t in got] == ["23:58:00", "23:59:30", "00:03:00"]
    assert got[2].date() == got[0].date() + timedelta(days=1)


def test_the_embedded_game_screen_releases_a_due_round(head, tournament_setup, eager_celery):
    play = new_predrawn_game(tournament_setup, TEXT, sealed=True)
    release_schedule_set(game_id=play.game.pk, actor=tournament_setup["arbiter"],
                         schedule=Schedule(starts_at=timezone.now() - timedelta(seconds=2),
                                           interval=3600))  # fmt: skip
    page = head.get(reverse("console:game", args=[play.game.pk])).content.decode()
    rnd = Round.objects.get(game=play.game)
    assert (rnd.number, rnd.rack, rnd.top_score) == (1, "WHISKYE", 92)
    assert "Prochain" not in page and "Coup 2 à" in page


def test_the_api_seals_schedules_and_refuses(tournament_setup, django_user_model) -> None:
    api = APIClient()
    api.force_authenticate(tournament_setup["arbiter"])
    response = api.post(
        "/api/tournaments/open-test/games/",
        {"kind": "predrawn", "predrawn": TEXT, "sealed": True},
        format="json",
    )
    assert response.status_code == 201 and response.json()["sealed"] is True
    game_id = response.json()["id"]
    url = f"/api/games/{game_id}/release"
    assert api.get(url).json()["rounds"][0] == {"number": 1, "release_at": None,
                                                 "released": False, "drawn": False}  # fmt: skip
    start = timezone.now() + timedelta(minutes=30)
    body = {"starts_at": start.isoformat(), "interval": 240, "auto_open": True}
    schedule = api.put(url, body, format="json").json()
    assert (schedule["interval"], schedule["auto_open"], schedule["next_round"]) == (240, True, 1)
    assert 1790 <= schedule["seconds_left"] <= 1800
    early = api.post(f"{url}/1")
    assert early.status_code == 409 and early.json()["code"] == "release.early"
    assert early.json()["params"]["round"] == 1
    draw = api.post(f"/api/games/{game_id}/rounds/draw", {}, format="json")
    assert draw.status_code == 409 and draw.json()["code"] == "release.hand_draw"
    assert api.put(url, {"interval": 60}, format="json").status_code == 400
    # An arbiter who is not the head arbiter reads the schedule but does not change it.
    other = django_user_model.objects.create_user("arbitre-2", password="x")
    ArbiterMembership.objects.create(user=other, tournament=tournament_setup["tournament"],
                                     role="arbiter")  # fmt: skip
    api.force_authenticate(other)
    assert api.get(url).status_code == 200
    assert api.put(url, body, format="json").status_code == 403
    seeded = api.get("/api/tournaments/open-test/games/").json()
    assert [g["sealed"] for g in seeded] == [True]


def test_a_schedule_past_the_last_date_is_refused_not_a_500(head, tournament_setup) -> None:
    """A start on 31/12/9999 with a later line « 00:01 » (the next day) lies past the last
    date a datetime holds: a refusal with its sentence, nothing saved."""
    game = new_predrawn_game(tournament_setup, TEXT, sealed=True).game
    page_url = reverse("console:release", args=[game.pk])
    response = head.post(page_url, {"action": "schedule", "times": "23:58\n00:01\n00:02",
                                    "starts_at": "9999-12-31T23:58"})  # fmt: skip
    assert 400 <= response.status_code < 500
    assert not SealedRound.objects.filter(sealed_id=game.pk, release_at__isnull=False).exists()
