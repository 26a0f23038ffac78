"""A 6-player, 3-round Swiss classic tournament in headless Chromium: the head arbiter pairs
each round from the console, both players of every table type the result on their tablet
(the second confirms), one table's tablets disagree and the arbiter types its result in the
console; no pair meets twice. Every wait is on what the page shows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_tablet_game import WAIT, browser, in_thread

__all__ = ["browser"]  # fixture used by the tests below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def prepared(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """Six players (Anne … Farid) in division A of a classic Swiss over 3 rounds, each with
    a tablet token; the operator's login. Made before the browser starts."""
    from tournaments.access import SYSTEM
    from tournaments.services import classic as svc
    from tournaments.services import player_register, registration_token_issue

    django_user_model.objects.create_superuser("ja", password="ja-secret-42")
    t = tournament_setup["tournament"]
    for name in ("David", "Emma", "Farid"):
        player_register(tournament_id=t.pk, name=name, actor=SYSTEM)
    svc.classic_event_create(tournament_id=t.pk, rounds_planned=3, actor=SYSTEM)
    division = t.divisions.get()
    entries = svc.division_entries_add(division_id=division.pk, actor=SYSTEM)
    tokens = {
        e.registration_id: registration_token_issue(registration_id=e.registration_id, actor=SYSTEM)
        for e in entries
    }
    return {**tournament_setup, "tokens": tokens, "division": division}


def _tables(division: Any, number: int) -> list[tuple[int, int, int | None]]:
    from tournaments import selectors

    def read() -> list[tuple[int, int, int | None]]:
        rnd = selectors.classic_round(division, number)
        return [
            (
                x.table.number,
                x.table.first.registration_id,
                x.table.second.registration_id if x.table.second else None,
            )
            for x in selectors.classic_tables(rnd)
        ]

    return in_thread(read)


def _report(tablet: Any, base: str, token: str, mine: int, theirs: int, expect_text: str) -> None:
    from playwright.sync_api import expect

    tablet.goto(f"{base}/tablette/{token}/classique/")
    tablet.fill("#mine", str(mine))
    tablet.fill("#theirs", str(theirs))
    tablet.click("#report-send")
    expect(tablet.locator("#classic-state")).to_contain_text(expect_text, timeout=WAIT)


def test_a_swiss_tournament_with_results_from_the_tablets(
    prepared: dict[str, Any], live_server: Any, browser: Any
) -> None:
    from playwright.sync_api import expect

    base, slug = live_server.url, prepared["tournament"].slug
    console = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="fr-FR"
    ).new_page()
    console.goto(f"{base}/arbitre/connexion/")
    console.fill("input[name=username]", "ja")
    console.fill("input[name=password]", "ja-secret-42")
    console.locator("form button[type=submit]").last.click()
    console.wait_for_load_state()
    tablet = browser.new_context(viewport={"width": 800, "height": 1000}, locale="fr-FR").new_page()
    tokens, division = prepared["tokens"], prepared["division"]
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        console.goto(f"{base}/arbitre/classique/{slug}/")
        console.get_by_role("button", name=f"Apparier la ronde {number}").click()
        expect(console.locator("h1")).to_contain_text(f"ronde {number}", timeout=WAIT)
        tables = _tables(division, number)
        assert len(tables) == 3
        for table, first, second in tables:
            assert second is not None
            pair = frozenset((first, second))
            assert pair not in met, "a pair met twice"
            met.add(pair)
            score_first, score_second = 400 + 10 * table, 380 + number
            _report(
                tablet,
                base,
                tokens[first],
                score_first,
                score_second,
                "votre adversaire doit le confirmer",
            )
            if number == 2 and table == 1:  # the second tablet disagrees
                _report(
                    tablet, base, tokens[second], score_second, score_first + 1, "autre résultat"
                )
                console.goto(f"{base}/arbitre/classique/{slug}/division/1/ronde/2/")
                expect(console.locator("#tables")).to_contain_text("désaccord des tablettes")
                console.fill("#result-line", f"1 {score_first} {score_second}")
                console.keyboard.press("Enter")
                expect(console.locator("tr[data-table='1'] .result")).to_have_text(
                    f"{score_first} – {score_second}", timeout=WAIT
                )
            else:
                _report(
                    tablet, base, tokens[second], score_second, score_first, "Résultat enregistré"
                )
        console.goto(f"{base}/arbitre/classique/{slug}/division/1/ronde/{number}/")
        expect(console.locator("#waiting-list")).to_contain_text("Tous les résultats sont saisis")
    console.goto(f"{base}/arbitre/classique/{slug}/")
    standings = console.locator("#division-1 table.standings tbody tr")
    expect(standings).to_have_count(6)
    # Every game has a winner (the first player's 410–430 against 381–383): 9 wins in all.
    wins = [standings.nth(i).locator("td").nth(2).inner_text() for i in range(6)]
    assert sum(float(w.replace("½", ".5")) for w in wins) == 9  # 3 rounds × 3 games
    expect(console.get_by_role("button", name="Apparier la ronde 4")).to_have_count(0)
    assert len(met) == 9
