"""A move played by taps only on a phone (390 × 844), a portrait tablet (800 × 1280) and a
landscape tablet (1280 × 800), checked with element geometry: the countdown and *Envoyer*
always in view, board squares of 32 px at least, the joker picker never over *Envoyer*.

Screenshots go to ``var/screenshots`` (``TIRAGE_SCREENSHOTS`` overrides it); the ones in
docs/screenshots are copied from there by hand.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_tablet_game import WAIT, browser, in_thread, prepared, square
from tournaments.access import SYSTEM

__all__ = ["browser", "prepared"]  # fixtures used by the tests below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DEVICES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "tablet-portrait": {"viewport": {"width": 800, "height": 1280}, "has_touch": True},
    "tablet-landscape": {"viewport": {"width": 1280, "height": 800}, "has_touch": True},
}


@pytest.fixture
def shots() -> Path:
    """Where this run's screenshots go (not docs/: a test run must not edit the docs)."""
    folder = Path(os.environ.get("TIRAGE_SCREENSHOTS", ROOT / "var" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not displayed"
    return found


def in_view(page: Any, selector: str) -> None:
    """``selector`` lies wholly inside the viewport and nothing covers its centre."""
    size = page.viewport_size
    b = box(page, selector)
    assert b["x"] >= 0 and b["y"] >= 0, (selector, b)
    assert b["x"] + b["width"] <= size["width"] + 0.5, (selector, b, size)
    assert b["y"] + b["height"] <= size["height"] + 0.5, (selector, b, size)
    on_top = page.evaluate(
        """([sel, x, y]) => { const el = document.elementFromPoint(x, y);
              const target = document.querySelector(sel);
              return !!el && (el === target || target.contains(el)); }""",
        [selector, b["x"] + b["width"] / 2, b["y"] + b["height"] / 2],
    )
    assert on_top, f"{selector} is covered"


def check_layout(page: Any) -> None:
    """The countdown and Envoyer are in view at the top and at the bottom of the page."""
    for where in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        in_view(page, "#countdown")
        in_view(page, "#send")
    assert box(page, "#board button[data-index='112']")["width"] >= 32


def tap_rack(page: Any, letter: str) -> None:
    page.locator("#rack .rtile:not(.used)", has_text=letter).first.tap()


def open_round(game: Any) -> None:
    """The next round drawn and opened by the system, elsewhere than the page's thread."""
    from tests.scenario import scenario_of

    in_thread(scenario_of(game, SYSTEM).open_round)


def finish_round(game: Any) -> None:
    """The last round closed and its top placed by the system."""
    from tests.scenario import scenario_of

    play = scenario_of(game, SYSTEM)
    in_thread(lambda: play.finish(play.last_round()))


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_move_by_taps_only(
    prepared: dict[str, Any], live_server: Any, browser: Any, shots: Path, device: str
) -> None:
    from playwright.sync_api import expect

    game = prepared["game"]
    context = browser.new_context(locale="fr-FR", **DEVICES[device])
    page = context.new_page()
    page.goto(f"{live_server.url}/tablette/{prepared['tokens'][0]}/")
    open_round(game)
    expect(page.locator("#rack .rtile")).to_have_count(7, timeout=WAIT)
    expect(page.locator("#countdown")).to_have_text(__import__("re").compile(r"^\d+:\d\d$"))
    check_layout(page)

    # Round 1, rack ESIUHAN: H4, then H A I N E S from the rack; a tap on the S takes it back.
    square(page, "H4").tap()
    for letter in "HAINES":
        tap_rack(page, letter)
    expect(page.locator("#word")).to_have_value("HAINES")
    expect(square(page, "H9")).to_have_text("S")
    square(page, "H9").tap()  # take the S back
    expect(page.locator("#word")).to_have_value("HAINE")
    expect(page.locator("#rack .rtile.used")).to_have_count(5)
    tap_rack(page, "S")
    expect(page.locator("#word")).to_have_value("HAINES")
    expect(page.locator("#pv-word")).to_have_text("HAINES", timeout=WAIT)
    expect(page.locator("#pv-score")).to_have_text("26")
    check_layout(page)
    page.locator("#send").tap()
    expect(page.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"tablet-{device}.png"))

    # Round 2, rack U+OEE?AF: G6 A U, the joker as L (picker), O F E E: AUlOFEE, 70.
    finish_round(game)
    open_round(game)
    expect(page.locator("#round-label")).to_contain_text("coup 2", timeout=WAIT)
    expect(page.locator("#rack .rtile.joker")).to_have_count(1)
    square(page, "G6").tap()
    tap_rack(page, "A")
    tap_rack(page, "U")
    page.locator("#rack .rtile.joker").tap()
    expect(page.locator("#joker-picker")).to_be_visible()
    check_layout(page)  # the picker never hides Envoyer nor the countdown
    in_view(page, "#joker-picker-letters button[data-letter='L']")
    page.screenshot(path=str(shots / f"tablet-{device}-joker.png"))
    page.locator("#joker-picker-letters button[data-letter='L']").tap()
    expect(page.locator("#joker-picker")).to_be_hidden()
    for letter in "OFEE":
        tap_rack(page, letter)
    expect(page.locator("#word")).to_have_value("AULOFEE")
    expect(page.locator("#pv-word")).to_have_text("AULOFEE", timeout=WAIT)
    expect(page.locator("#pv-score")).to_have_text("70")
    expect(page.locator("#joker-letters .jletter.on")).to_have_text("L")
    page.locator("#send").tap()
    expect(page.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    check_layout(page)
    context.close()
