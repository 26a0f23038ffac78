"""A table's score sheet filled on two tablet viewports in headless Chromium: Anne opens it,
the players type their turns in turn (a move, a bare score, a move through the first word),
the end lines are typed and the totals shown are page 004's arithmetic. Every wait is on
what the page shows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_devices import shots
from tests.browser.test_tablet_game import WAIT, browser

__all__ = ["browser", "shots"]  # fixtures used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seated(tournament_setup: dict[str, Any]) -> dict[str, str]:
    """Anne, Bruno, Chloé and David in a classic Swiss, round 1 paired (Anne starts against
    Chloé at table 1); Anne's and Chloé's tablet tokens."""
    from tournaments import selectors
    from tournaments.access import SYSTEM
    from tournaments.services import classic as svc
    from tournaments.services import player_register, registration_token_issue

    t = tournament_setup["tournament"]
    player_register(tournament_id=t.pk, name="David", actor=SYSTEM)
    svc.classic_event_create(tournament_id=t.pk, rounds_planned=3, actor=SYSTEM)
    division = t.divisions.get()
    svc.division_entries_add(division_id=division.pk, actor=SYSTEM)
    rnd = svc.classic_round_pair(division_id=division.pk, actor=SYSTEM)
    table = selectors.classic_tables(rnd)[0].table
    return {
        "anne": registration_token_issue(registration_id=table.first.registration_id, actor=SYSTEM),
        "chloe": registration_token_issue(
            registration_id=table.second.registration_id, actor=SYSTEM
        ),
    }


def _type(page: Any, line: str, expect_text: str) -> None:
    from playwright.sync_api import expect

    page.reload()
    page.fill("#sheet-line", line)
    page.keyboard.press("Enter")
    expect(page.locator("#sheet-lines")).to_contain_text(expect_text, timeout=WAIT)


def test_two_tablets_fill_a_short_sheet(
    seated: dict[str, str], live_server: Any, browser: Any, shots: Any
) -> None:
    from playwright.sync_api import expect

    tablet = {"viewport": {"width": 800, "height": 1000}, "locale": "fr-FR", "has_touch": True}
    anne = browser.new_context(**tablet).new_page()
    chloe = browser.new_context(**tablet).new_page()
    base = live_server.url
    anne.goto(f"{base}/tablette/{seated['anne']}/classique/")
    anne.click("#sheet-link")
    expect(anne.locator("#sheet-state")).to_contain_text("pas encore ouverte", timeout=WAIT)
    anne.click("#sheet-open")
    expect(anne.locator("#sheet-line")).to_be_visible(timeout=WAIT)
    chloe.goto(f"{base}/tablette/{seated['chloe']}/classique/feuille/")
    # Anne: H8 CHAT = (3 + 4 + 1 + 1) x 2 on the star = 18.
    _type(anne, "H8 CHAT", "H8 CHAT")
    expect(anne.locator("#sheet-finals")).to_contain_text("18", timeout=WAIT)
    # Chloé: 9H HARPe = H 4 + A 1 x 2 (I9) + R 1 + P 3 + joker 0 = 10.
    _type(chloe, "9H HARPe", "9H HARPe")
    expect(chloe.locator("#sheet-lines tr[data-number='2']")).to_contain_text("10")
    # 102 tiles, 8 on the board: 94 off it.
    expect(chloe.locator("#unseen-count")).to_have_text("94")
    # A move that does not fit: refused, the line kept in the field.
    chloe.fill("#sheet-line", "A1 ZOO")
    chloe.keyboard.press("Enter")
    expect(chloe.locator("[role=alert]")).to_contain_text("ne touche aucune lettre", timeout=WAIT)
    expect(chloe.locator("#sheet-line")).to_have_value("A1 ZOO")
    _type(anne, "25", "score seul")  # Anne keeps only the points of turn 3: 18 + 25 = 43
    _type(chloe, "passe", "passe")
    # End lines (blocked): Anne keeps 9 points of tiles, Chloé Q E (8 + 1 = 9 as well, typed
    # as letters): 43 - 9 = 34 and 10 - 9 = 1; nobody adds after a blocked game.
    chloe.reload()
    chloe.fill("#left-0", "9")
    chloe.fill("#left-1", "QE")
    chloe.check("input[name=went_out][value=blocage]")
    chloe.click("#end-send")
    expect(chloe.locator("#sheet-left")).to_contain_text("−9", timeout=WAIT)
    finals = chloe.locator("#sheet-finals td")
    expect(finals.nth(0)).to_contain_text("34")
    expect(finals.nth(1)).to_contain_text("1")
    anne.reload()
    expect(anne.locator("#sheet-finals td").nth(0)).to_contain_text("34", timeout=WAIT)
    anne.locator("#sheet-board summary").click()
    expect(anne.locator("#sheet-board table.board")).to_be_visible()
    anne.screenshot(path=str(shots / "score-sheet-tablet.png"), full_page=True)
