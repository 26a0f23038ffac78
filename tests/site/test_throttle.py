"""The player-side rate limit: per registration, 429 past the limit, open when the cache fails."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import override_settings

from tests.scenario import SYSTEM, tablet_token
from tournaments.models import Registration
from tournaments.throttle import player_allowed

pytestmark = pytest.mark.django_db


@pytest.fixture
def tokens(tournament_setup, settings) -> tuple[str, str]:
    """Two fresh tokens: their counts start at zero, since the count is keyed on the token
    (no cache.clear(): on Redis that is a FLUSHDB, which would empty the Celery queues and
    the other xdist worker's keys in the same database)."""
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 5
    regs = Registration.objects.filter(tournament=tournament_setup["tournament"])
    first, second = regs.order_by("table_number")[:2]
    return tablet_token(first, actor=SYSTEM), tablet_token(second, actor=SYSTEM)


def test_tablet_is_refused_past_the_limit_and_others_are_not(client, tokens) -> None:
    anne, bruno = tokens
    codes = [client.get(f"/tablette/{anne}/etat/").status_code for _ in range(7)]
    # Five requests a minute are allowed: the sixth and seventh are refused.
    assert all(code in (200, 304) for code in codes[:5])
    assert codes[5:] == [429, 429]
    refused = client.get(f"/tablette/{anne}/etat/")
    assert refused["Retry-After"].isdigit()
    assert "Trop de requêtes" in refused.json()["message"]
    # The limit is per player, not per address: Bruno, from the same client, still passes.
    assert client.get(f"/tablette/{bruno}/etat/").status_code == 200


def test_player_api_is_refused_past_the_limit(client, tokens) -> None:
    anne, _ = tokens
    codes = [
        client.get("/api/player/round/", HTTP_AUTHORIZATION=f"Player {anne}").status_code
        for _ in range(6)
    ]
    assert codes[:5] == [200] * 5
    assert codes[5] == 429


def test_an_unreachable_cache_lets_players_through(tokens) -> None:
    anne, _ = tokens
    down = ConnectionError("down")
    with (
        mock.patch("tournaments.throttle.cache.incr", side_effect=down),
        mock.patch("tournaments.throttle.redis_client", return_value=None),
    ):
        assert all(player_allowed(anne)[0] for _ in range(20))
    # Redis itself unreachable (the discard port): its kept client fails as well.
    broken = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
    with override_settings(CACHES={"default": broken}):
        assert all(player_allowed(anne)[0] for _ in range(3))
