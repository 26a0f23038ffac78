"""The projector in a full room: 200 players, the ranking pages through all of them at a
readable size; the board and the header are never cut at 1920 × 1080 nor at 1280 × 720, in
French or English; the language is the tournament's, whatever the browser's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_tablet_devices import box, shots
from tests.browser.test_tablet_game import WAIT, browser
from tournaments.access import SYSTEM

__all__ = ["browser", "shots"]  # fixtures used below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 200


@pytest.fixture
def full_room(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    """200 players (the 3 of tournament_setup and 197 more), round 1 closed and placed:
    Anne found the top (26), the others handed nothing in."""
    from tests.scenario import new_game
    from tournaments.models import Player, Registration

    tournament = tournament_setup["tournament"]
    more = Player.objects.bulk_create(
        [Player(name=f"Joueur {n:03d}") for n in range(4, PLAYERS + 1)]
    )
    Registration.objects.bulk_create(
        [
            Registration(tournament=tournament, player=p, table_number=n)
            for n, p in enumerate(more, start=4)
        ]
    )
    anne = tournament_setup["players"][0]
    new_game(tournament_setup, seed=7, actor=SYSTEM).play({anne: ("HAINES", "H4", None)})
    names = {r.player.name for r in Registration.objects.filter(tournament=tournament)}
    assert len(names) == PLAYERS
    return {"tournament": tournament, "names": names}


def not_cut(page: Any) -> None:
    """The whole board, the title and the round line lie inside the viewport."""
    size = page.viewport_size
    for selector in ("#p-board", "#p-board .sq >> nth=-1", ".pbar h1", "#p-round"):
        b = box(page, selector)
        assert b["x"] >= 0 and b["y"] >= 0, (selector, b)
        assert b["x"] + b["width"] <= size["width"] + 0.5, (selector, b, size)
        assert b["y"] + b["height"] <= size["height"] + 0.5, (selector, b, size)
    # One line of header: the round line is no taller than its own line height allows.
    line = page.evaluate(
        "() => { const e = document.getElementById('p-round');"
        " return [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)"
        " || parseFloat(getComputedStyle(e).fontSize) * 1.3]; }"
    )
    assert line[0] <= line[1] * 1.5, line


def visible_names(page: Any) -> tuple[int, list[str]]:
    """The page number shown and the names on it, read at the same instant."""
    number, names = page.evaluate(
        """() => [+document.getElementById('p-pager').dataset.page,
             [...document.querySelectorAll('#p-ranking-body tr')]
             .filter(tr => tr.offsetParent !== null)
             .map(tr => { const r = tr.getBoundingClientRect();
                          if (r.bottom > window.innerHeight + 0.5) throw new Error('row cut');
                          return tr.cells[1].textContent; })]"""
    )
    return number, names


@pytest.mark.parametrize(
    "size,query,browser_locale,title",
    [
        ({"width": 1920, "height": 1080}, "", "en-US", "Classement"),
        ({"width": 1280, "height": 720}, "", "en-US", "Classement"),
        ({"width": 1280, "height": 720}, "&langue=en", "fr-FR", "Rankings"),
        ({"width": 1920, "height": 1080}, "&langue=en", "fr-FR", "Rankings"),
    ],
)
def test_ranking_pages_through_200_players(
    full_room: dict[str, Any],
    live_server: Any,
    browser: Any,
    shots: Path,
    size: dict[str, int],
    query: str,
    browser_locale: str,
    title: str,
) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=size, locale=browser_locale).new_page()
    slug = full_room["tournament"].slug
    page.goto(f"{live_server.url}/projecteur/{slug}/?page=1{query}")
    expect(page.locator("#p-ranking h2")).to_contain_text(title, timeout=WAIT)
    expect(page.locator("#p-top-word")).to_have_text("HAINES")
    pager = page.locator("#p-pager")
    expect(pager).to_contain_text(f"{PLAYERS}")
    pages = int(pager.get_attribute("data-pages"))
    not_cut(page)
    font = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('#p-ranking-body td')).fontSize)"
    )
    assert font >= 20  # readable from the back of the room
    seen: dict[int, list[str]] = {}
    while len(seen) < pages:  # one full turn: every page, read as it shows
        number, names = visible_names(page)
        # A page is as full as the screen allows: the 200 players in at most 20 pages.
        assert len(names) >= PLAYERS // 20 or number == pages, (number, len(names))
        seen[number] = names
        expect(pager).not_to_have_attribute("data-page", str(number), timeout=WAIT)
    assert {name for names in seen.values() for name in names} == full_room["names"]
    name = f"projector-{size['width']}x{size['height']}{'-en' if query else ''}.png"
    page.screenshot(path=str(shots / name))
