"""Round control in headless Chromium (issue 15): a tablet shows « Pause » while the head
arbiter's pause holds and the extended time once the clock runs again; on the game screen a
key that cannot act says why, `?` lists every key, `f` with time left asks first (Esc
cancels, Enter closes); on the slip page a letter in the empty slip field is a shortcut.
Every wait is on what the page shows or on the server's state, never on a delay."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_tablet_game import SHOTS, WAIT, browser, in_thread

__all__ = ["browser"]  # fixture used by the tests below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def prepared(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """A seeded game with its first round open, a tablet token and the head arbiter's
    login, made before the browser starts."""
    from tests.scenario import SYSTEM, new_game
    from tests.site.test_tablet import issue_token
    from tournaments.models import Registration

    django_user_model.objects.create_superuser("ja", password="ja-secret-42")
    play = new_game(tournament_setup, seed=7, actor=SYSTEM)
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    rnd = play.open_round()
    return {**tournament_setup, "play": play, "round": rnd, "token": issue_token(reg)}


def signed_in(browser: Any, base: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(f"{base}/arbitre/connexion/")
    page.fill("input[name=username]", "ja")
    page.fill("input[name=password]", "ja-secret-42")
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state()
    return page


def test_a_tablet_shows_the_pause_then_the_extended_time(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tournaments.access import SYSTEM
    from tournaments.services import round_extend, round_pause, round_resume

    rnd = prepared["round"]
    tablet = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR").new_page()
    tablet.goto(f"{live_server.url}/tablette/{prepared['token']}/")
    countdown = tablet.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^\d+:\d\d$"), timeout=WAIT)
    in_thread(lambda: round_pause(round_id=rnd.pk, actor=SYSTEM))
    expect(countdown).to_have_text("Pause", timeout=WAIT)
    expect(tablet.locator("#word")).to_be_enabled()  # a move may still be played
    in_thread(lambda: round_extend(round_id=rnd.pk, seconds=600, actor=SYSTEM))
    in_thread(lambda: round_resume(round_id=rnd.pk, actor=SYSTEM))
    # 600 s more: at least ten minutes on the clock now.
    expect(countdown).to_have_text(re.compile(r"^[1-9]\d+:\d\d$"), timeout=WAIT)


def test_keys_say_why_help_lists_them_and_an_early_close_asks_first(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tournaments.models import Round

    rnd, game = prepared["round"], prepared["play"].game
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/arbitre/partie/{game.pk}/")
    message = page.locator("#key-message")
    page.keyboard.press("n")  # the top is placed after the close: n says so
    expect(message).to_have_text(
        "Fermez d'abord le coup (f) : le top se place après le ramassage.", timeout=WAIT
    )
    page.keyboard.press("?")
    help_box = page.locator("#key-help")
    expect(help_box).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "console-key-help.png"))
    for label in ("fermer le coup", "suspendre le chrono (pause)", "vérifier un mot"):
        expect(help_box).to_contain_text(label)
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()

    page.keyboard.press("f")  # time left: the page asks, Esc cancels
    confirm = page.locator("#close-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Il reste")
    expect(page.get_by_role("button", name="Fermer quand même", exact=True)).to_be_focused()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "console-close-confirm.png"))
    page.keyboard.press("Escape")
    expect(confirm).to_be_hidden()
    assert in_thread(lambda: Round.objects.get(pk=rnd.pk).state) == "open"
    page.keyboard.press("f")
    expect(confirm).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#game")).to_have_attribute("data-round-state", "closed", timeout=WAIT)
    assert in_thread(lambda: Round.objects.get(pk=rnd.pk).state) == "closed"
    expect(page.locator("#reopen-form")).to_be_visible()


def test_a_letter_in_the_empty_slip_field_is_a_shortcut(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    rnd, game = prepared["round"], prepared["play"].game
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/arbitre/tour/{rnd.pk}/saisie/")
    field = page.locator("#slip-line")
    expect(field).to_be_focused()
    page.keyboard.press("?")
    expect(page.locator("#key-help")).to_be_visible()
    expect(page.locator("#key-help")).to_contain_text("écran de jeu")
    page.keyboard.press("Escape")
    expect(page.locator("#key-help")).to_be_hidden()
    field.focus()
    page.keyboard.type("1 h")  # once the field holds text, letters are typed
    expect(field).to_have_value("1 h")
    field.fill("")
    page.keyboard.press("x")  # no key: says so, nothing typed
    expect(field).to_have_value("")
    expect(page.locator("#key-message")).to_contain_text("numéro de table")
    page.keyboard.press("g")
    expect(page).to_have_url(re.compile(rf"/arbitre/partie/{game.pk}/$"), timeout=WAIT)
