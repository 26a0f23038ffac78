"""A 3-round game in headless Chromium: the head arbiter drives it from the console while two
tablets play (one with a joker, one late, one losing its connection) and the projector
follows. Saves screenshots of the tablet, the console and the projector under var/screenshots
(``make screenshots`` writes them into docs/screenshots instead).

Needs Debian's ``chromium`` and the ``playwright`` package (no downloaded browser). Locally
the test skips with a one-line reason when either is missing; under CI it fails (tests/ci.py).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from tests.ci import unavailable
from tests.conftest import screenshots_dir
from tournaments import live_versions
from tournaments.access import SYSTEM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
SHOTS = screenshots_dir()
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT = 10_000  # ms: every live change must show well within this (the target is 2 s)


def _missing() -> str | None:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return f"{CHROMIUM} is not installed"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    reason = _missing()
    if reason:
        unavailable("browser", reason, "deploy/ensure-system-packages installs chromium")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the ORM calls made by the
    # test itself (not by the live server's thread) are still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # The live server answers each request in a thread of its own: no persistent sessions.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    from playwright.sync_api import expect

    # Every expect waits as long as a live change may take (Playwright's default is 5 s,
    # which a loaded 2-core machine exceeded: a tap's effect or a poll's answer came later).
    expect.set_options(timeout=WAIT)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
            expect.set_options(timeout=5_000)  # Playwright's default back


def in_thread(work: Callable[[], Any]) -> Any:
    """Run ORM work in a short-lived thread that closes its database connection.

    Inside Playwright's sync API the ORM may open a connection bound to Playwright's
    context, which nothing closes and which then blocks dropping the test database.
    """

    def run() -> Any:
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def square(page: Any, ref: str) -> Any:
    """The board button of square ``ref`` (row letter then column, e.g. H4)."""
    row, col = "ABCDEFGHIJKLMNO".index(ref[0]), int(ref[1:]) - 1
    return page.locator(f'#board button[data-index="{row * 15 + col}"]')


def console_post(page: Any, action: str) -> None:
    """Press the console button whose form posts to ``.../<action>/``."""
    page.locator(f'form[action$="/{action}/"] button[type=submit]').first.click()
    page.wait_for_load_state()


def console_close_early(page: Any) -> None:
    """Close a round whose clock still has time: « Fermer » asks first (issue 15), the
    arbiter answers « Fermer quand même » (this page may be in the browser's English)."""
    from playwright.sync_api import expect

    page.locator("#close-form button[type=submit]").click()
    expect(page.locator("#close-confirm")).to_be_visible(timeout=WAIT)
    with page.expect_navigation():
        page.locator("#close-confirm-yes").click()


@pytest.fixture
def prepared(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """Tokens, the head arbiter's login and a seeded game, made before the browser starts
    (ORM work inside Playwright's context would open a connection nothing closes)."""
    from tests.site.test_tablet import issue_token
    from tournaments.models import Registration
    from tournaments.services import game_create

    tournament = tournament_setup["tournament"]
    regs = list(Registration.objects.filter(tournament=tournament).order_by("table_number"))
    django_user_model.objects.create_superuser("ja", password="ja-secret-42")
    return {
        **tournament_setup,
        "tokens": (issue_token(regs[0]), issue_token(regs[1])),
        "game": game_create(tournament_id=tournament.pk, seed=7, actor=SYSTEM),
    }


def test_three_round_game_on_two_tablets_console_and_projector(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tournaments.models import Round

    tournament, game = prepared["tournament"], prepared["game"]
    anne_token, bruno_token = prepared["tokens"]
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)

    arbiter = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    anne_ctx = browser.new_context(viewport={"width": 800, "height": 1280}, locale="fr-FR")
    bruno_ctx = browser.new_context(viewport={"width": 412, "height": 915}, locale="fr-FR")
    anne, bruno = anne_ctx.new_page(), bruno_ctx.new_page()
    projector = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()

    arbiter.goto(f"{base}/arbitre/connexion/")
    arbiter.fill("input[name=username]", "ja")
    arbiter.fill("input[name=password]", "ja-secret-42")
    arbiter.locator("form button[type=submit], form input[type=submit]").last.click()
    arbiter.goto(f"{base}/arbitre/partie/{game.pk}/")
    anne.goto(f"{base}/tablette/{anne_token}/")
    bruno.goto(f"{base}/tablette/{bruno_token}/")
    projector.goto(f"{base}/projecteur/{tournament.slug}/")
    expect(anne.locator("#round-label")).to_contain_text("attente")

    # --- Round 1: Anne taps H4 and types; Bruno types reference and word. -----------------
    console_post(arbiter, "tirage")
    console_post(arbiter, "ouvrir")
    expect(anne.locator("#rack .rtile")).to_have_count(7, timeout=WAIT)
    expect(anne.locator("#round-label")).to_contain_text("coup 1")
    expect(anne.locator("#countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(projector.locator("#p-rack .rtile")).to_have_count(7, timeout=WAIT)
    square(anne, "H4").click()
    anne.fill("#word", "haines")
    expect(anne.locator("#pv-ref")).to_have_text("H4", timeout=WAIT)
    expect(anne.locator("#pv-score")).to_have_text("26")
    expect(square(anne, "H6")).to_have_text("I")  # the move is shown on the board
    expect(anne.locator("#sent")).to_contain_text("Pas encore envoyé")
    anne.click("#send")
    expect(anne.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    anne.screenshot(path=str(SHOTS / "tablet.png"))

    bruno.fill("#reference", "H4")
    bruno.fill("#word", "HAINSE")  # not a word: the preview still only says where and how much
    expect(bruno.locator("#pv-score")).to_have_text(re.compile(r"^\d+$"), timeout=WAIT)
    expect(bruno.locator("#preview")).not_to_contain_text("valable")
    bruno.click("#send")
    expect(bruno.locator("#sent")).to_contain_text("Reçu", timeout=WAIT)
    bruno.fill("#word", "HAINES")  # changing the proposal until the end: the last one counts
    expect(bruno.locator("#sent")).to_contain_text("pas encore envoyée")
    # HAINSE scores 26 too: wait for the preview of the new word, not just for 26.
    expect(bruno.locator("#pv-word")).to_have_text("HAINES", timeout=WAIT)
    expect(bruno.locator("#pv-score")).to_have_text("26")
    bruno.click("#send")
    expect(bruno.locator("#received")).to_contain_text("version 2", timeout=WAIT)
    # A third version leaves while the connection is down and arrives after the close: it
    # is kept as late, and the on-time HAINES still counts (issue 13).
    bruno.fill("#word", "HAINSE")
    expect(bruno.locator("#pv-word")).to_have_text("HAINSE", timeout=WAIT)
    bruno_ctx.set_offline(True)
    bruno.click("#send")
    expect(bruno.locator("#sent")).to_contain_text("Pas encore reçu", timeout=WAIT)

    console_close_early(arbiter)
    bruno_ctx.set_offline(False)
    expect(bruno.locator("#sent")).to_contain_text("Coup terminé", timeout=WAIT)
    expect(bruno.locator("#sent")).to_contain_text("est retenue")
    expect(bruno.locator("#sent")).to_contain_text("hors délai : il ne compte pas")
    expect(bruno.locator("#sent")).not_to_contain_text("Reçu par le serveur")
    expect(bruno.locator("#received")).to_contain_text("HAINES (version 2")
    expect(bruno.locator("#word")).to_be_disabled()
    expect(bruno.locator("#send")).to_be_disabled()
    expect(anne.locator("#res-score")).to_contain_text("26", timeout=WAIT)
    expect(anne.locator("#res-top")).to_contain_text("H4 HAINES · 26")
    expect(bruno.locator("#res-score")).to_contain_text("26", timeout=WAIT)
    expect(projector.locator("#p-top-word")).to_have_text("HAINES", timeout=WAIT)
    expect(projector.locator("#p-best-list li")).to_have_count(2)
    arbiter.locator('form[action$="/placer/"] button[name=next]').click()
    arbiter.wait_for_load_state()

    # --- Round 2: Anne plays the joker (lowercase l); Bruno hands in after the deadline. ----
    console_post(arbiter, "ouvrir")
    expect(anne.locator("#round-label")).to_contain_text("coup 2", timeout=WAIT)
    expect(projector.locator("#p-round")).to_contain_text("coup 2", timeout=WAIT)
    expect(projector.locator("#p-ranking")).to_be_hidden()  # the board, rack and clock only
    expect(anne.locator("#jokers")).to_be_visible()
    anne.fill("#reference", "G6")
    anne.fill("#word", "AUlOFEE")
    expect(anne.locator("#joker-letters .jletter.on")).to_have_text("L")
    expect(anne.locator("#pv-score")).to_have_text("70", timeout=WAIT)
    expect(anne.locator("#pv-ref")).to_have_text("G6")
    anne.click("#send")
    expect(anne.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    # Bruno's only proposal leaves while his connection is down and arrives after the
    # deadline: late, and with nothing on time it counts zero.
    bruno.fill("#reference", "G6")
    bruno.fill("#word", "AUlOFEE")
    expect(bruno.locator("#pv-score")).to_have_text("70", timeout=WAIT)
    bruno_ctx.set_offline(True)
    bruno.click("#send")
    expect(bruno.locator("#sent")).to_contain_text("Pas encore reçu", timeout=WAIT)
    late = timezone.now() - timedelta(seconds=1)
    # A write outside the services (standing in for the clock): it tells the polls' versions
    # itself, as a service's audit row would (tournaments/live_versions.py).
    in_thread(
        lambda: (
            Round.objects.filter(game=game, number=2).update(deadline=late),
            live_versions.changed(tournaments=[game.tournament_id]),
        )
    )
    bruno_ctx.set_offline(False)
    expect(bruno.locator("#sent")).to_contain_text("hors délai", timeout=WAIT)
    expect(bruno.locator("#countdown")).to_have_text("Temps écoulé", timeout=WAIT)
    expect(bruno.locator("#sent")).to_contain_text("hors délai")
    expect(bruno.locator("#sent")).not_to_contain_text("Reçu par le serveur")
    # The console learns the new deadline from its status poll: time up, it closes at once.
    expect(arbiter.locator("#countdown")).to_have_text("0:00", timeout=WAIT)
    console_post(arbiter, "fermer")
    expect(bruno.locator("#res-score")).to_contain_text("0", timeout=WAIT)
    expect(bruno.locator("#res-reason")).to_contain_text("après la fin du coup")
    expect(anne.locator("#res-score")).to_contain_text("70", timeout=WAIT)
    arbiter.locator('form[action$="/placer/"] button[name=next]').click()
    arbiter.wait_for_load_state()

    # --- Round 3: Bruno loses the connection while sending; the move goes when it is back. -
    console_post(arbiter, "ouvrir")
    expect(bruno.locator("#round-label")).to_contain_text("coup 3", timeout=WAIT)
    square(bruno, "C13").click()
    square(bruno, "C13").click()  # the second tap turns the direction: vertical, 13C
    expect(bruno.locator("#reference")).to_have_value("13C")
    bruno.fill("#word", "PAYES")
    expect(bruno.locator("#pv-score")).to_have_text("45", timeout=WAIT)
    bruno_ctx.set_offline(True)
    bruno.click("#send")
    expect(bruno.locator("#sent")).to_contain_text("Pas encore reçu", timeout=WAIT)
    expect(bruno.locator("#connection")).to_contain_text("Connexion perdue", timeout=WAIT)
    bruno_ctx.set_offline(False)
    expect(bruno.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    square(anne, "C13").click()
    square(anne, "C13").click()
    anne.fill("#word", "PAYES")
    expect(anne.locator("#pv-score")).to_have_text("45", timeout=WAIT)
    anne.click("#send")
    expect(anne.locator("#sent")).to_contain_text("Reçu par le serveur ✔", timeout=WAIT)
    arbiter.screenshot(path=str(SHOTS / "console.png"), full_page=True)
    console_close_early(arbiter)

    # Anne: 26 + 70 + 45 (+10 solo on round 2: Bruno was late, Chloé absent) = 151.
    expect(anne.locator("#res-total")).to_have_text("151", timeout=WAIT)
    expect(anne.locator("#res-rank")).to_contain_text("1 sur 3")
    expect(bruno.locator("#res-total")).to_have_text("71", timeout=WAIT)
    expect(bruno.locator("#res-negatif")).to_have_text("-70")
    expect(projector.locator("#p-top-word")).to_have_text("PAYES", timeout=WAIT)
    expect(projector.locator("#p-ranking-body tr").first).to_contain_text("Anne")
    expect(projector.locator("#p-ranking-body tr").first).to_contain_text("151")
    anne.screenshot(path=str(SHOTS / "tablet-results.png"))
    projector.screenshot(path=str(SHOTS / "projector.png"))
    bruno.screenshot(path=str(SHOTS / "tablet-phone.png"))
