"""A sealed game's countdown in headless Chromium (docs/simultaneous.md): the game screen
counts down to round 1's release, reloads when it is over and then shows the released rack
(embedded profile: the game screen runs the sweep of a due round). The page shows no rack
before. Every wait is on what the page shows, never on a delay."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from tests.browser.test_round_control import signed_in
from tests.browser.test_tablet_game import WAIT, browser

__all__ = ["browser"]  # fixture used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sealed(tournament_setup: dict[str, Any], django_user_model: Any) -> Any:
    """A sealed game whose round 1 is released in 30 s, made before the browser starts
    (the ORM inside Playwright's context would leave a connection open)."""
    from django.utils import timezone

    from tests.scenario import new_predrawn_game
    from tests.site.test_sealed_release import TEXT
    from tournaments.services.release import Schedule, release_schedule_set

    django_user_model.objects.create_superuser("ja", password="ja-secret-42")
    game = new_predrawn_game(tournament_setup, TEXT, sealed=True).game
    start = timezone.now() + timedelta(seconds=30)
    release_schedule_set(game_id=game.pk, actor=tournament_setup["arbiter"],
                         schedule=Schedule(starts_at=start, interval=3600))  # fmt: skip
    return game


def test_the_game_screen_counts_down_then_shows_the_released_rack(
    sealed: Any, eager_celery: None, live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/arbitre/partie/{sealed.pk}/")
    countdown = page.locator("#release-next [data-release-seconds]")
    expect(countdown).to_have_text(re.compile(r"^0:[0-3]\d$"), timeout=WAIT)  # counting down
    assert "WHISKYE" not in page.content()
    # At 0 the page reloads; the game screen releases the due round and shows its rack.
    expect(page.locator("body")).to_contain_text("WHISKYE", timeout=WAIT + 40_000)
    expect(page.locator("#release-next")).to_contain_text("Coup 2 à")
