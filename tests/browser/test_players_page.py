"""The players page at 1280 px with every tablet link created (issue 15's left-over): the
full addresses wrap inside their column, so the page never scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_game import browser, in_thread, prepared
from tests.scenario import add_players, tablet_tokens
from tournaments.access import SYSTEM

__all__ = ["browser", "prepared"]  # fixtures used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_players_page_fits_1280_px_with_every_tablet_link(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    tournament = prepared["tournament"]

    def twelve_players_with_links() -> None:
        # Long names beside the links: 12 players in all, every one with a link.
        names = [f"Marie-Christine Delacroix-Beaumont {n}" for n in range(9)]
        add_players(tournament, names, first_table=4)
        tablet_tokens(tournament, actor=SYSTEM)

    in_thread(twelve_players_with_links)
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(f"{live_server.url}/arbitre/connexion/")
    page.fill("input[name=username]", "ja")
    page.fill("input[name=password]", "ja-secret-42")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    page.goto(f"{live_server.url}/arbitre/tournoi/{tournament.slug}/joueurs/")
    expect(page.locator("a.tablet-link")).to_have_count(12)
    link = page.locator("a.tablet-link").first.inner_text()
    assert link.startswith(live_server.url + "/tablette/")  # the full address is shown
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280, f"the page is {width} px wide at a 1280 px window"
