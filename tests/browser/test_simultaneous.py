"""A simultaneous event in headless Chromium (issue 16): two centres, one arbiter each in
their own browser context. Each centre arbiter enters their centre's slips and closes
their centre; the organiser (the tournament's head arbiter) sees which centre is still
playing and places the top only once both have closed. Every wait is on what the page
shows or on the server's state, never on a delay."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_tablet_game import SHOTS, WAIT, browser, in_thread

__all__ = ["browser"]  # fixture used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """Centre A (Anne, Chloé) and centre B (Bruno), each with its head arbiter
    (``centre-a``, ``centre-b``); the organiser ``ja``; round 1 open (seed 7: ESIUHAN)."""
    from tests.scenario import simultaneous_seeded_game
    from tournaments.models import ArbiterMembership, Registration
    from tournaments.services import (
        arbiter_add,
        arbiter_handover,
        centre_create,
        registration_centre_set,
        tournament_update,
    )

    t, first = tournament_setup["tournament"], tournament_setup["arbiter"]
    organiser = django_user_model.objects.create_user("ja", password="ja-secret-42")
    ArbiterMembership.objects.create(user=organiser, tournament=t, role="arbiter")
    arbiter_handover(actor=first, tournament_id=t.pk, user_id=organiser.pk)
    tournament_update(actor=organiser, tournament_id=t.pk, simultaneous=True)
    a = centre_create(tournament_id=t.pk, name="Centre A", actor=organiser)
    b = centre_create(tournament_id=t.pk, name="Centre B", time_zone="America/Montreal",
                      actor=organiser)  # fmt: skip
    anne, bruno, chloe = tournament_setup["players"]
    for player, centre in ((anne, a), (bruno, b), (chloe, a)):
        reg = Registration.objects.get(tournament=t, player=player)
        registration_centre_set(registration_id=reg.pk, centre_id=centre.pk, actor=organiser)
    for login, centre in (("centre-a", a), ("centre-b", b)):
        django_user_model.objects.create_user(login, password=f"{login}-secret-42")
        arbiter_add(actor=organiser, tournament_id=t.pk, login=login, centre_id=centre.pk,
                    centre_head=True)  # fmt: skip
    from tests.site.test_tablet import issue_token

    tokens = {player.name: issue_token(Registration.objects.get(tournament=t, player=player))
              for player in (anne, bruno)}  # fmt: skip
    play = simultaneous_seeded_game(tournament_setup, seed=7, actor=organiser)
    return {"play": play, "round": play.open_round(), "a": a, "b": b, "tokens": tokens,
            "slug": t.slug}  # fmt: skip


def signed_in(browser: Any, base: str, login: str, password: str) -> Any:
    """A new browser context (its own cookies) signed in as ``login``."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(f"{base}/arbitre/connexion/")
    page.fill("input[name=username]", login)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state()
    return page


def enter_slip_and_close(page: Any, base: str, rnd: Any, game: Any, line: str, name: str,
                         centre: Any) -> None:  # fmt: skip
    """A centre arbiter types one slip, then closes their centre (time is left: the page
    asks for a confirmation first)."""
    from playwright.sync_api import expect

    page.goto(f"{base}/arbitre/tour/{rnd.pk}/saisie/")
    missing = page.locator("#missing-list")
    expect(missing).to_contain_text(name)
    page.fill("#slip-line", line)
    page.keyboard.press("Enter")
    expect(missing).not_to_contain_text(name, timeout=WAIT)
    page.goto(f"{base}/arbitre/partie/{game.pk}/")
    mine = page.locator(f"#centres li[data-centre='{centre.pk}']")
    mine.get_by_role("button", name="Fermer ce centre", exact=True).click()
    mine.get_by_role("button", name="Fermer ce centre quand même").click()
    expect(mine).to_contain_text("fermé à", timeout=WAIT)


def test_two_centres_close_then_the_organiser_places_the_top(
    event: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tournaments.models import ProposalVersion, Round

    rnd, game, base = event["round"], event["play"].game, live_server.url
    # Anne's tablet (centre A), Bruno's (centre B) and centre A's projector.
    tablets = {}
    for name, token in event["tokens"].items():
        tablets[name] = browser.new_context(viewport={"width": 800, "height": 1280},
                                            locale="fr-FR").new_page()  # fmt: skip
        tablets[name].goto(f"{base}/tablette/{token}/")
        expect(tablets[name].locator("#countdown")).to_have_text(re.compile(r"^\d+:\d\d$"),
                                                                 timeout=WAIT)  # fmt: skip
    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{base}/projecteur/{event['slug']}/centre/{event['a'].pk}/")
    expect(wall.locator("#p-centre")).to_have_text("Centre A")
    expect(wall.locator("#p-countdown")).to_have_text(re.compile(r"^\d+:\d\d$"), timeout=WAIT)
    organiser = signed_in(browser, base, "ja", "ja-secret-42")
    centre_a = signed_in(browser, base, "centre-a", "centre-a-secret-42")
    centre_b = signed_in(browser, base, "centre-b", "centre-b-secret-42")

    # Centre A's arbiter never sees Bruno (centre B) among the missing slips.
    centre_a.goto(f"{base}/arbitre/tour/{rnd.pk}/saisie/")
    expect(centre_a.locator("#missing-list")).not_to_contain_text("Bruno")
    enter_slip_and_close(centre_a, base, rnd, game, "1 H4 HAINES 26", "Anne", event["a"])
    assert in_thread(lambda: Round.objects.get(pk=rnd.pk).state) == "open"
    # Centre A's tablet and wall follow its close; centre B's tablet keeps its clock.
    anne, bruno = tablets["Anne"], tablets["Bruno"]
    expect(anne.locator("#countdown")).to_have_text("Ramassé dans votre centre", timeout=WAIT)
    expect(anne.locator("#round-label")).to_contain_text("Ramassé dans votre centre")
    expect(anne.locator("#send")).to_be_disabled()
    expect(anne.locator("#word")).to_be_disabled()
    expect(wall.locator("#p-countdown")).to_have_text("Ramassé dans ce centre", timeout=WAIT)
    expect(bruno.locator("#countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(bruno.locator("#word")).to_be_enabled()

    organiser.goto(f"{base}/arbitre/partie/{game.pk}/")
    expect(organiser.locator("#centres-waiting")).to_contain_text("En jeu : Centre B")
    expect(organiser.get_by_role("button", name="Placer le top")).to_have_count(0)

    enter_slip_and_close(centre_b, base, rnd, game, "2 H4 HAINES 26", "Bruno", event["b"])
    # The last centre's close closed the round: the organiser's screen follows the server.
    expect(organiser.locator("#game")).to_have_attribute("data-round-state", "closed",
                                                         timeout=WAIT)  # fmt: skip
    SHOTS.mkdir(parents=True, exist_ok=True)
    organiser.screenshot(path=str(SHOTS / "console-simultaneous-closed.png"))
    organiser.get_by_role("button", name=re.compile(r"^Placer le top")).click()
    expect(organiser.locator(".placed")).to_be_visible(timeout=WAIT)
    placed = in_thread(lambda: Round.objects.get(pk=rnd.pk).top_placed_at)
    assert placed is not None
    scores = in_thread(lambda: sorted(ProposalVersion.objects.filter(round_id=rnd.pk)
                                      .values_list("outcome_score", flat=True)))  # fmt: skip
    assert scores == [26, 26]  # both slips on time, each in its own centre
    # Every centre closed: the round's own close speaks on every tablet and on the wall.
    expect(bruno.locator("#countdown")).to_have_text("Coup ramassé", timeout=WAIT)
    expect(wall.locator("#p-ranking-body")).to_contain_text("Anne", timeout=WAIT)
    expect(wall.locator("#p-ranking-body")).not_to_contain_text("Bruno")
