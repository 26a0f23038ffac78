"""The console's game screen and a report job page follow the server through poll.js
(issue 20): counts change in place, a new round or state reloads the screen unless the
arbiter is typing (then as soon as they leave the field), and the job page shows the
progress and reloads once the job is over. Every wait is on what the page shows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_game import WAIT, browser, in_thread

__all__ = ["browser"]  # fixture used by the tests below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def prepared(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """The head arbiter's login and a seeded game driven by the scenario builder, made
    before the browser starts (ORM work inside Playwright's context would open a connection
    nothing closes)."""
    from tests.scenario import SYSTEM, new_game

    django_user_model.objects.create_superuser("ja", password="ja-secret-42")
    play = new_game(tournament_setup, seed=7, actor=SYSTEM)
    return {**tournament_setup, "game": play.game, "play": play}


def signed_in(browser: Any, base: str) -> Any:
    """A console page signed in as the superuser of ``prepared`` (head arbiter everywhere)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/arbitre/connexion/")
    page.fill("input[name=username]", "ja")
    page.fill("input[name=password]", "ja-secret-42")
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state()
    return page


def test_the_game_screen_follows_the_round(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    play, anne = prepared["play"], prepared["players"][0]
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/arbitre/partie/{play.game.pk}/")
    screen = page.locator("#game")
    expect(screen).to_have_attribute("data-round", "")

    r1 = in_thread(play.open_round)  # drawn and opened elsewhere: the screen reloads
    expect(screen).to_have_attribute("data-round", str(r1.pk), timeout=WAIT)
    expect(screen).to_have_attribute("data-round-state", "open")
    in_thread(lambda: play.compute_top(r1))  # the top is ready: the screen reloads again
    expect(screen).to_have_attribute("data-top-ready", "1", timeout=WAIT)
    expect(page.locator("#received")).to_have_text("0")

    # A proposal only changes the count: updated in place, the page is not reloaded.
    page.evaluate("window.sameDocument = true")
    in_thread(lambda: play.propose(r1, anne, "HAINES", "H4"))
    expect(page.locator("#received")).to_have_text("1", timeout=WAIT)
    assert page.evaluate("window.sameDocument === true")

    # The arbiter is typing when the round closes: nothing reloads under their fingers...
    page.evaluate(
        "() => { const i = document.createElement('input'); i.id = 'typing';"
        " document.body.appendChild(i); i.focus(); }"
    )
    status = f"/arbitre/partie/{play.game.pk}/etat/"
    with page.expect_response(lambda r: r.url.endswith(status) and r.status == 200, timeout=WAIT):
        in_thread(lambda: play.close(r1))  # the next answer says "closed"
    page.locator("#typing").fill("une note")
    expect(page.locator("#typing")).to_be_focused()
    assert page.evaluate("window.sameDocument === true")
    # ...and once they leave the field, the next answer is compared again and reloads.
    page.locator("#typing").blur()
    expect(screen).to_have_attribute("data-round-state", "closed", timeout=WAIT)
    assert page.evaluate("window.sameDocument === undefined")


def test_the_report_job_page_shows_progress_then_the_outcome(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tournaments.models import ReportJob

    job = in_thread(
        lambda: ReportJob.objects.create(
            tournament=prepared["tournament"], kind="results", state="running", progress=10
        )
    )
    page = signed_in(browser, live_server.url)
    page.goto(f"{live_server.url}/arbitre/document/{job.pk}/")
    expect(page.locator("#job-percent")).to_have_text("10")

    in_thread(lambda: ReportJob.objects.filter(pk=job.pk).update(progress=55))
    expect(page.locator("#job-percent")).to_have_text("55", timeout=WAIT)
    expect(page.locator("#job-progress")).to_have_js_property("value", 55)

    in_thread(
        lambda: ReportJob.objects.filter(pk=job.pk).update(state="failed", error="Disque plein")
    )
    expect(page.locator("#report-job .error")).to_contain_text("Disque plein", timeout=WAIT)
