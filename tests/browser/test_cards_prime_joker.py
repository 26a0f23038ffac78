"""A Prime card and a joker on the seat tablets (issue 18), in headless Chromium: two
players, Anne and Bruno, with the hands the seed deals (seed 223, two seats: Anne starts
with A A E E N P and a joker; Bruno holds A E F R S S and a double Prime card).

1. Anne lays PAIN across through the centre, the joker as its I: she taps the joker, taps
   its square and picks I in the letter picker. Bruno lets it stand.
2. Bruno lays RAS down through the A of PAIN: R above, S below, and taps his double Prime
   card then the A already on the table. Anne lets it stand.

The scores, by hand from the rules (seed page 000, docs/cards.md; values of the board
game, a joker worth 0):

* PAIN, the first word: P 3 + A 1 + I (joker) 0 + N 1 = 5, doubled as the first word:
  **10** for Anne.
* RAS: R 1 + A 1 + S 1 = 3; the Prime ×2 is on the A, a letter of RAS, the only word the
  move forms: 3 × 2 = **6** for Bruno. Bruno used one letter of PAIN (the A), so PAIN is
  removed; its A stays, held by RAS (a card leaves only when every word it belongs to
  leaves), and P, the joker and N leave the table.

Every step waits on what the pages show, never on a sleep.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_cards_table import _square, _tap_card
from tests.browser.test_tablet_game import SHOTS, WAIT, browser, in_thread  # noqa: F401
from tournaments.access import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 223


@pytest.fixture
def card_table(tournament_setup: dict[str, Any]) -> dict[str, Any]:
    """The table, opened before the browser starts; the premises checked (the seed's
    hands and both words in the tournament's word list)."""
    from engine.cards import CardGame
    from tournaments import adapter
    from tournaments.models import CardSeat
    from tournaments.services import SeatSpec, card_table_open

    lexicon = adapter.engine_lexicon(tournament_setup["lexicon"])
    game = CardGame(2, SEED)
    assert game.first == 0 and game.hands == ["AAEENP?", "AEFRSS2"], game.hands
    assert lexicon.contains("PAIN") and lexicon.contains("RAS")
    table = card_table_open(
        tournament_id=tournament_setup["tournament"].pk,
        seats=[SeatSpec("human", "Anne"), SeatSpec("human", "Bruno")],
        seed=SEED,
        actor=SYSTEM,
    )
    tokens = {s.number: s.access_token for s in CardSeat.objects.filter(table=table)}
    return {"table": table, "tokens": tokens}


def test_a_joker_letter_and_a_prime_card_on_a_letter(
    card_table: dict[str, Any],
    live_server: Any,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    table, tokens = card_table["table"], card_table["tokens"]
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    anne = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR").new_page()
    bruno = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR").new_page()
    anne.goto(f"{base}/cartes/{tokens[0]}/")
    bruno.goto(f"{base}/cartes/{tokens[1]}/")
    expect(anne.locator("#status")).to_have_text("À vous de jouer.", timeout=WAIT)
    expect(bruno.locator("#status")).to_have_text("À Anne de jouer.", timeout=WAIT)

    # --- Anne: P, A, the joker as I, N across from the centre. --------------------------
    for col, letter in ((0, "P"), (1, "A")):
        _tap_card(anne, letter)
        _square(anne, 0, col).click()
    _tap_card(anne, "?")
    _square(anne, 0, 2).click()
    expect(anne.locator("#joker-picker")).to_be_visible()
    anne.locator('#joker-letters button[data-letter="I"]').click()
    expect(anne.locator("#joker-picker")).to_be_hidden()
    expect(_square(anne, 0, 2)).to_contain_text("I", ignore_case=True)
    _tap_card(anne, "N")
    _square(anne, 0, 3).click()
    expect(anne.locator("#hand button.used")).to_have_count(4)
    anne.click("#play")
    expect(anne.locator("#status")).to_have_text(
        "Votre coup attend la réponse des autres joueurs.", timeout=WAIT
    )
    # Bruno sees the move and its score (10: 5 doubled) before answering.
    expect(bruno.locator("#status")).to_contain_text("(10 points)", timeout=WAIT)
    bruno.click("#accept")
    expect(bruno.locator("#status")).to_have_text("À vous de jouer.", timeout=WAIT)
    expect(bruno.locator("#turns li").first).to_contain_text("10 points", timeout=WAIT)

    # --- Bruno: R above the A, S below, the double Prime on the A of the table. ---------
    _tap_card(bruno, "R")
    _square(bruno, -1, 1).click()
    _tap_card(bruno, "S")
    _square(bruno, 1, 1).click()
    _tap_card(bruno, "2")
    _square(bruno, 0, 1).click()
    expect(bruno.locator("#hand button.used")).to_have_count(3)
    bruno.click("#play")
    expect(anne.locator("#status")).to_contain_text("RAS (6 points)", timeout=WAIT)
    anne.click("#accept")
    # A joker's letter is written in lower case, as on the board (docs/cards.md).
    told = "Bruno pose RAS : 6 points. Retirés de la table : PAiN."
    expect(anne.locator("#turns li").first).to_have_text(told, timeout=WAIT)
    expect(bruno.locator("#turns li").first).to_have_text(told, timeout=WAIT)
    expect(bruno.locator("#turns li").nth(1)).to_have_text("Anne pose PAiN : 10 points.")
    # PAIN left the table but its A, held by RAS.
    for row, col, shown in ((-1, 1, "R"), (0, 1, "A"), (1, 1, "S")):
        expect(_square(bruno, row, col)).to_have_text(shown)
    for col in (0, 2, 3):
        expect(_square(bruno, 0, col)).to_have_text("")
    scores = bruno.locator("#scores")
    expect(scores).to_contain_text("Anne", timeout=WAIT)
    expect(scores.locator("li").nth(0)).to_contain_text("10 points")
    expect(scores.locator("li").nth(1)).to_contain_text("6 points")
    bruno.screenshot(path=str(SHOTS / "cards-prime.png"))

    # The server agrees: the joker's letter and the Prime card's square as laid.
    def stored() -> list[dict[str, Any]]:
        from tournaments.models import CardEvent

        rows = CardEvent.objects.filter(table_id=table.pk, kind="play").order_by("number")
        return [row.data for row in rows]

    first, second = in_thread(stored)
    assert {"row": 0, "col": 2, "letter": "I", "joker": True} in first["cards"]
    assert "prime" not in first
    assert second["prime"] == {"card": "2", "row": 0, "col": 1}
