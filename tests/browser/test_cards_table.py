"""A card table in headless Chromium (issue 18): three seats, Anne and Bruno on two tablets
and a weak engine opponent, and the shared screen following.

Anne taps a card onto the table and drags another, Bruno challenges (the two letters are
no word: the cards go back, the turn counts 0), Bruno passes, the engine lays its move and
both tablets let it stand, then Anne exchanges two cards. Every step waits on what the pages show.
Screenshots go to var/screenshots (cards-tablet.png, cards-screen.png).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_game import SHOTS, WAIT, browser, in_thread  # noqa: F401
from tournaments.access import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seed_where_anne_opens_with_no_word(lexicon: Any) -> tuple[int, str]:
    """A seed whose first player is seat 0 and whose first two letter cards are no word
    (so Bruno's challenge succeeds), and those two letters."""
    from engine.cards import CardGame

    for seed in range(1, 500):
        game = CardGame(3, seed, lexicon=lexicon)
        letters = [c for c in game.hands[0] if c.isalpha()]
        if game.first == 0 and len(letters) >= 4 and not lexicon.contains("".join(letters[:2])):
            return seed, "".join(letters[:2])
    raise AssertionError("no such seed below 500")


@pytest.fixture
def card_table(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    """The table, opened before the browser starts (ORM work outside Playwright's loop)."""
    from tournaments import adapter
    from tournaments.models import CardSeat
    from tournaments.services import SeatSpec, card_table_open

    lexicon = adapter.engine_lexicon(tournament_setup["lexicon"])
    seed, letters = _seed_where_anne_opens_with_no_word(lexicon)
    table = card_table_open(
        tournament_id=tournament_setup["tournament"].pk,
        seats=[SeatSpec("human", "Anne"), SeatSpec("human", "Bruno"), SeatSpec("weak")],
        seed=seed,
        actor=SYSTEM,
    )
    tokens = {s.number: s.access_token for s in CardSeat.objects.filter(table=table)}
    return {"table": table, "tokens": tokens, "letters": letters}


def _tap_card(page: Any, letter: str) -> None:
    page.locator(f'#hand button.hcard[data-card="{letter}"]:not([disabled])').first.click()


def _square(page: Any, row: int, col: int) -> Any:
    return page.locator(f'#grid [data-row="{row}"][data-col="{col}"]')


def test_three_seats_two_tablets_and_an_engine(
    card_table: dict[str, Any],
    live_server: Any,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    table, tokens, letters = card_table["table"], card_table["tokens"], card_table["letters"]
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    anne = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR").new_page()
    bruno = browser.new_context(viewport={"width": 412, "height": 915}, locale="fr-FR").new_page()
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    anne.goto(f"{base}/cartes/{tokens[0]}/")
    bruno.goto(f"{base}/cartes/{tokens[1]}/")
    screen.goto(f"{base}/cartes/ecran/{table.pk}/")

    expect(anne.locator("#status")).to_have_text("À vous de jouer.", timeout=WAIT)
    expect(anne.locator("#hand button.hcard")).to_have_count(7)
    expect(bruno.locator("#status")).to_have_text("À Anne de jouer.", timeout=WAIT)
    expect(bruno.locator("#pass")).to_be_disabled()
    expect(screen.locator("#deck")).to_have_text("Pioche : 91 cartes", timeout=WAIT)

    # --- Anne taps a card onto the centre, drags a second beside it and lays them. -------
    _tap_card(anne, letters[0])
    _square(anne, 0, 0).click()
    # The second card is dragged onto its square.
    anne.locator(f'#hand button.hcard[data-card="{letters[1]}"]:not([disabled])').first.drag_to(
        _square(anne, 0, 1)
    )
    expect(_square(anne, 0, 1)).to_have_text(letters[1])
    expect(anne.locator("#hand button.used")).to_have_count(2)
    anne.click("#play")
    expect(anne.locator("#status")).to_have_text(
        "Votre coup attend la réponse des autres joueurs.", timeout=WAIT
    )
    expect(_square(screen, 0, 0)).to_have_text(letters[0], timeout=WAIT)
    anne.screenshot(path=str(SHOTS / "cards-tablet.png"))

    # --- Bruno challenges: no such word, the cards go back to Anne's hand. ----------------
    expect(bruno.locator("#challenge")).to_be_visible(timeout=WAIT)
    expect(bruno.locator("#status")).to_contain_text(f"Anne a posé {letters}")
    bruno.click("#challenge")
    refused = f"Anne pose {letters} : contesté par Bruno, mot refusé, le coup compte 0."
    expect(bruno.locator("#turns li").first).to_have_text(refused, timeout=WAIT)
    expect(anne.locator("#turns li").first).to_have_text(refused, timeout=WAIT)
    expect(anne.locator("#hand button.hcard:not([disabled])")).to_have_count(7)
    expect(_square(anne, 0, 0)).to_have_text("")

    # --- Bruno passes; the engine lays its move; both let it stand. -----------------------
    expect(bruno.locator("#status")).to_have_text("À vous de jouer.", timeout=WAIT)
    bruno.click("#pass")
    expect(screen.locator("#turns li").first).not_to_have_text(refused, timeout=WAIT)
    expect(screen.locator("#turns")).to_contain_text("Bruno passe.", timeout=WAIT)
    # Either the engine's move waits for an answer or it is already Anne's turn (a locator
    # wait: the page's CSP forbids the eval a wait_for_function string needs).
    answered = "#accept:not([hidden]), #status:text-is('À vous de jouer.')"
    anne.locator(answered).first.wait_for(timeout=WAIT)
    if anne.locator("#accept").is_visible():
        anne.click("#accept")
        expect(bruno.locator("#accept")).to_be_visible(timeout=WAIT)
        bruno.click("#accept")
    expect(anne.locator("#status")).to_have_text("À vous de jouer.", timeout=WAIT)
    expect(screen.locator("#grid .card").first).to_be_visible(timeout=WAIT)

    # --- Anne exchanges two cards. ----------------------------------------------------------
    anne.click("#exchange")
    expect(anne.locator("#message")).to_contain_text("Touchez les cartes à échanger")
    anne.locator("#hand button.hcard").nth(0).click()
    anne.locator("#hand button.hcard").nth(1).click()
    expect(anne.locator("#hand button.marked")).to_have_count(2)
    anne.click("#exchange")
    expect(anne.locator("#turns")).to_contain_text("Anne échange des cartes.", timeout=WAIT)
    expect(screen.locator("#turns")).to_contain_text("Anne échange des cartes.", timeout=WAIT)
    expect(anne.locator("#hand button.hcard")).to_have_count(7)
    screen.screenshot(path=str(SHOTS / "cards-screen.png"))

    # The server agrees: events stored in order, the 112 cards all somewhere.
    def stored() -> tuple[list[str], int]:
        from tournaments import selectors
        from tournaments.models import CardEvent, CardTable

        fresh = CardTable.objects.get(pk=table.pk)
        kinds = list(
            CardEvent.objects.filter(table=fresh).order_by("number").values_list("kind", flat=True)
        )
        return kinds, sum(selectors.card_live(fresh).game.accounted().values())

    kinds, cards = in_thread(stored)
    assert kinds[:3] == ["play", "challenge", "pass"] and "exchange" in kinds and cards == 112
