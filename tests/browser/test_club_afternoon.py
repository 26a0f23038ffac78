"""A club afternoon, from an empty site to printed results, in the console only (issue 15).

The database holds only what ``make run`` creates on a site without the demo: the arbiter
account of ``manage.py tirage_setup --no-demo``. In one flow the head arbiter signs in,
creates the tournament and fills its settings, imports 12 players from a CSV file, adds a
second arbiter (who, in a browser context of her own, chooses a password through the one-time
link, signs in and types half the paper slips), creates the tablet links, plays 3 rounds with
two players on tablets and ten on paper slips, corrects a slip two rounds back, checks the
rankings, then downloads every document of the documents page and reads each one back.

Every request of every browser context is watched: the test fails if any goes to Django's
admin (``/admin/``) or answers a server error. Screenshots go to var/screenshots
(``make screenshots`` writes them into docs/screenshots, which docs/console.md shows).

The game is seed 7 on the conformance word list, whose racks and tops are checked by hand in
tests/site/test_game_services.py: ESIUHAN → H4 HAINES 26, U+OEE?AF → G6 AUlOFEE 70, YPUNASE →
13C PAYES 45. Every other move's score is computed in tests/browser/club_afternoon.py from
the board and the rules (../shared/rules/duplicate.md), not from the code under test.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.club_afternoon import (
    CORRECTION,
    CSV_NAMES,
    DATA_FORMATS,
    HEAD_TYPES,
    PLAYERS,
    ROUNDS,
    SLOW,
    TABLETS,
    TOP_TOTAL,
    TOPS,
    TOTALS,
    Watch,
    name_of,
    players_csv,
    read_back,
    sign_in,
    slip_line,
    submit,
    tablet_play,
    type_slips,
)
from tests.browser.test_tablet_game import WAIT, browser
from tests.conftest import screenshots_dir
from tests.site.test_french_everywhere import leaks

__all__ = ["browser"]  # fixture used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = screenshots_dir()
HEAD, HEAD_PASSWORD = "arbitre", "arbitre"  # tirage_setup's development account
SECOND, SECOND_PASSWORD = "claire", "Scrabble-club-2026"
SLUG = "club-du-mardi"


@pytest.fixture
def empty_site(conformance_lexicon_file: Path, settings: Any) -> Iterator[None]:
    """What ``make run`` leaves on a site without the demo: the arbiter account only. The
    site's free default list is the conformance list (the file the scores above are on)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import Lexicon, Player, Tournament

    settings.TIRAGE_LEXICON = conformance_lexicon_file
    call_command("tirage_setup", "--no-demo", stdout=io.StringIO())
    assert list(get_user_model().objects.values_list("username", flat=True)) == [HEAD]
    assert not Tournament.objects.exists() and not Player.objects.exists()
    assert not Lexicon.objects.exists()
    yield


@pytest.fixture
def patient_expect(browser: Any) -> Iterator[None]:
    """Every ``expect`` of this test waits up to :data:`SLOW` (a loaded 2-core machine), and
    the next tests get the ``browser`` fixture's wait back."""
    from playwright.sync_api import expect

    expect.set_options(timeout=SLOW)
    yield
    expect.set_options(timeout=WAIT)


#: What the pages and documents showed that is not French (``test_french_everywhere.leaks``),
#: and the pages that offered a way into Django's admin.
french: list[str] = []


def shot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Save the screenshot the guide shows, and look for English in what the page says."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"afternoon-{name}.png"), full_page=full_page)
    read_french(page, name)


def read_french(page: Any, where: str) -> None:
    """Note any English word, raw code or markup in the page's text or title, and any link
    or form that would send the arbiter to Django's admin."""
    french.extend(leaks(f"page {where}", page.locator("body").inner_text()))
    french.extend(leaks(f"title of {where}", page.title()))
    to_admin = page.locator('a[href*="/admin"], form[action*="/admin"]')
    french.extend(f"page {where}: a way to /admin/" for _ in range(to_admin.count()))


class Afternoon:
    """The browser side of the afternoon: the site's address, the request watch, and a new
    context (a device of its own) for each arbiter and tablet."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base, self.watch = browser, base, Watch()

    def device(self, width: int = 1280, height: int = 900) -> Any:
        context = self.browser.new_context(
            locale="fr-FR", accept_downloads=True, viewport={"width": width, "height": height}
        )
        page = self.watch.attach(context).new_page()
        page.set_default_timeout(SLOW)
        return page

    def url(self, path: str) -> str:
        return path if path.startswith("http") else self.base + path


def create_tournament(head: Any, site: Afternoon) -> None:
    """From the site's home page to a tournament with its settings."""
    from playwright.sync_api import expect

    head.goto(site.url("/"))
    expect(head.locator("main")).to_contain_text("Aucun tournoi")
    head.locator("header").get_by_role("link", name="Console arbitre").click()
    expect(head).to_have_url(re.compile(r"/arbitre/connexion/"))
    sign_in(head, None, HEAD, HEAD_PASSWORD)
    expect(head.locator("main")).to_contain_text("Vous n'arbitrez aucun tournoi.")
    head.fill("#id_name", "Tournoi du mardi")
    head.fill("#id_slug", SLUG)
    # The lexicon is required and starts on the site's free list.
    expect(head.locator("#id_lexicon option:checked")).to_have_text(
        "Lexique libre par défaut du site"
    )
    shot(head, "new-tournament", full_page=True)
    submit(head, "main form.stack")
    expect(head.locator("h1")).to_have_text("Tournoi du mardi")
    expect(head.locator("p.lexicon")).to_contain_text("Lexique")

    head.locator("p.summary").get_by_role("link", name="Réglages").click()
    expect(head.locator("#settings-form")).to_be_visible()
    head.select_option("#id_variant_code", "standard")
    head.fill("#id_seconds_per_move", "180")
    head.check("#id_score_required")
    head.fill("#id_solo_value", "10")
    head.fill("#id_solo_min_players", "10")
    head.fill("#id_starts_on", "2026-12-01")
    head.fill("#id_ends_on", "2026-12-01")
    submit(head, "#settings-form")
    expect(head.locator("#id_seconds_per_move")).to_have_value("180")
    expect(head.locator("#id_solo_min_players")).to_have_value("10")
    expect(head.locator("#id_score_required")).to_be_checked()
    shot(head, "settings", full_page=True)


def import_players(head: Any, site: Afternoon, folder: Path) -> None:
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/joueurs/"))
    expect(head.locator("main")).to_contain_text("Aucun joueur inscrit.")
    head.set_input_files(
        "form:has(input[name=action][value=import]) input[type=file]",
        str(players_csv(folder / "joueurs.csv")),
    )
    submit(head, "form:has(input[name=action][value=import])")
    for table, name, *_rest in PLAYERS:
        expect(head.locator(f"#t{table}")).to_contain_text(CSV_NAMES.get(table, name))
    # The club's export lost an accent: « Modifier » on her row puts it back.
    for table in CSV_NAMES:
        head.locator(f"#t{table}").get_by_role("link", name="Modifier").click()
        head.fill("#registration-form input[name=name]", name_of(table))
        submit(head, "#registration-form")
        expect(head.locator("h1")).to_contain_text(name_of(table))
        head.get_by_role("link", name="Retour aux joueurs").click()
        expect(head.locator(f"#t{table}")).to_contain_text(name_of(table))


def add_second_arbiter(head: Any, site: Afternoon) -> Any:
    """The head arbiter adds Claire; on her own computer she sets her password through the
    one-time link and signs in. Returns her page."""
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/arbitres/"))
    head.fill("#arbiter-add input[name=login]", SECOND)
    submit(head, "#arbiter-add")
    link = head.locator("#password-link a").get_attribute("href")
    assert link and "/arbitre/mot-de-passe/" in link
    expect(head.locator("#arbiters")).to_contain_text(SECOND)
    shot(head, "arbiters", full_page=True)
    claire = site.device()
    claire.goto(site.url(link))
    claire.fill("input[name=new_password1]", SECOND_PASSWORD)
    claire.fill("input[name=new_password2]", SECOND_PASSWORD)
    submit(claire, "main form.stack")
    expect(claire.locator("ul.messages")).to_contain_text("Mot de passe enregistré")
    sign_in(claire, None, SECOND, SECOND_PASSWORD)
    expect(claire.locator("ul.tournaments")).to_contain_text("Tournoi du mardi")
    claire.goto(site.url(link))  # the link served once
    expect(claire.locator("main")).to_contain_text("Ce lien n'est plus valable")
    return claire


def tablet_links(head: Any, site: Afternoon) -> dict[int, str]:
    """A tablet link for every player, and the QR sheet naming them all; returns the links
    of the players who play on tablets."""
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/joueurs/"))
    head.get_by_role("button", name="Créer tous les liens tablette").click()
    expect(head.locator("ul.messages")).to_contain_text(f"{len(PLAYERS)} liens de tablette créés")
    expect(head.locator("#feuille-qr")).to_contain_text("Les liens sont prêts")
    for table, *_rest in PLAYERS:
        expect(head.locator(f"#t{table} a.tablet-link")).to_be_visible()
    shot(head, "players", full_page=True)
    with head.expect_download() as sheet:
        head.get_by_role("link", name=re.compile("Imprimer les liens des tablettes")).click()
    qr_text = read_back(Path(sheet.value.path()), sheet.value.suggested_filename)
    for table, *_rest in PLAYERS:
        assert name_of(table) in qr_text
    return {t: head.locator(f"#t{t} a.tablet-link").get_attribute("href") for t in TABLETS}


def close_round(head: Any, number: int) -> None:
    """Fermer (ramassage) with time left on the clock, then wait for the screen of the
    collected round. Where the console asks to confirm such a close (issue 15's round
    control: an in-page ``#close-confirm``), the arbiter answers « Fermer quand même »."""
    from playwright.sync_api import expect

    submit(head, 'form[action$="/fermer/"]')
    placed = head.locator('form[action$="/placer/"]')
    confirm = head.locator("#close-confirm")
    expect(placed.or_(confirm.get_by_role("button", name="Fermer quand même"))).to_be_visible()
    if confirm.is_visible():
        if number == 1:
            shot(head, "close-confirm")
        submit(head, "#close-confirm form")
    expect(placed).to_be_visible()


def enter_slips(head: Any, claire: Any, site: Afternoon, number: int, round_id: int) -> None:
    """The paper slips of round ``number``: the head arbiter types tables 3–7, Claire 8–12,
    each on the slip-entry page of their own computer."""
    from playwright.sync_api import expect

    moves = ROUNDS[number - 1]
    slips_url = site.url(f"/arbitre/tour/{round_id}/saisie/")
    head.goto(slips_url)
    claire.goto(slips_url)
    received = len(TABLETS)
    expect(head.locator("#received")).to_have_text(str(received))
    if number == 1:  # a slip for a table nobody sits at: refused in French, kept typed
        head.fill("#slip-line", "13 H4 HAINES 26")
        head.press("#slip-line", "Enter")
        refused = head.locator("#slip-log li.refused").first
        expect(refused).to_contain_text("13 H4 HAINES 26 — ")
        expect(head.locator("#slip-line")).to_have_value("13 H4 HAINES 26")
        expect(head.locator("#received")).to_have_text(str(received))
        french.extend(leaks("refused slip", refused.inner_text()))
    mine = [slip_line(t, moves[t]) for t in HEAD_TYPES if moves[t]]
    hers = [slip_line(t, moves[t]) for t in range(8, 13) if moves[t]]
    received = type_slips(head, mine, received)
    received = type_slips(claire, hers, received)
    expect(claire.locator("#slip-log")).to_contain_text(name_of(12))
    if number == 2:
        # Gaston's wrong score: paid 14 with a warning, said at once in French.
        row = head.locator("#slip-log li", has_text=name_of(7)).first
        expect(row.locator(".score")).to_have_text("14")
        # The line the script added carries its time, as a reload of the page shows it.
        expect(row.locator(".when")).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))
        expect(row.locator(".kind")).to_contain_text(re.compile("avertissement", re.I))
        shot(claire, "slips", full_page=True)
        # The head arbiter types Ivan's slip again, misread: a conflict, said at once; the
        # version typed first (Claire's) counts until the head arbiter keeps one.
        head.fill("#slip-line", "9 6F FOI 14")
        head.press("#slip-line", "Enter")
        answer = head.locator("#slip-log li", has_text=name_of(9)).first
        expect(answer.locator(".conflict-note")).to_contain_text("conflit ouvert")
        expect(head.locator("#received")).to_have_text(str(received))
        resolve_conflict(head, site)
        head.goto(slips_url)
    head.reload()
    expect(head.locator("#received")).to_have_text(str(received))
    if number == 1:
        expect(head.locator("#missing-list")).to_contain_text(name_of(11))


def resolve_conflict(head: Any, site: Afternoon) -> None:
    """On Conflits de saisie, the head arbiter keeps the version Claire typed (Ivan's HUE)."""
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/conflits/"))
    hers = head.locator("table.conflicts tr[data-version]", has_text=SECOND)
    expect(hers).to_contain_text("4H HUE 6")
    shot(head, "conflicts", full_page=True)
    submit(head, f"table.conflicts tr[data-version]:has-text('{SECOND}') form")
    expect(head.locator("main")).to_contain_text("Aucun conflit de saisie en attente.")
    expect(head.locator("main")).to_contain_text("Conflits réglés")


def correct_two_rounds_back(head: Any, site: Afternoon, round_ids: list[int]) -> None:
    """From round 3's slip entry, Fanny's round-1 slip: HAINES, not the HAINSE typed."""
    from playwright.sync_api import expect

    c_round, c_table, c_ref, c_word, c_score = CORRECTION
    form = head.locator("section.correction form")
    form.locator("select[name=round_number]").select_option(str(c_round))
    form.locator("input[name=line]").fill(f"{c_table} {c_ref} {c_word} {c_score}")
    form.locator("input[name=reason]").fill("Bulletin mal recopié : HAINES, pas HAINSE")
    submit(head, "section.correction form")
    head.goto(site.url(f"/arbitre/tour/{round_ids[c_round - 1]}/arbitrage/"))
    row = head.locator("tr", has_text=name_of(c_table))
    expect(row).to_contain_text(f"{c_ref} {c_word}")
    expect(row).to_contain_text(str(c_score))


def place_top(head: Any, tablets: dict[int, Any], number: int) -> None:
    """Place the top (and draw the next rack unless this is the last round); each tablet
    then shows its player's score and the top."""
    from playwright.sync_api import expect

    top_reference, top_word, top_score = TOPS[number - 1]
    place = head.locator('form[action$="/placer/"]')
    expect(head.locator("#game")).to_contain_text(top_word)
    if number < len(ROUNDS):
        place.locator("button[name=next]").click()
    else:
        place.locator("button[data-key=p]").click()
    head.wait_for_load_state()
    for table, page in tablets.items():
        paid = ROUNDS[number - 1][table][3]
        expect(page.locator("#res-score")).to_contain_text(str(paid))
        expect(page.locator("#res-top")).to_contain_text(
            f"{top_reference} {top_word} · {top_score}"
        )


def play(head: Any, claire: Any, site: Afternoon, links: dict[int, str]) -> list[int]:
    """The game, seed 7, three rounds; returns the rounds' ids."""
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/"))
    head.select_option("#id_kind", "seeded")
    head.fill("#id_seed", "7")
    head.fill("#id_rounds", "3")  # a club afternoon of three rounds: it ends after the third
    submit(head, f"form[action$='/{SLUG}/parties/']")
    game_url = head.url
    assert re.search(r"/arbitre/partie/\d+/$", game_url)
    tablets = {}
    for table in TABLETS:
        tablets[table] = site.device(800, 1280)
        tablets[table].goto(site.url(links[table]))
        expect(tablets[table].locator("#round-label")).to_contain_text("attente")

    round_ids: list[int] = []
    for number, moves in enumerate(ROUNDS, start=1):
        if number == 1:
            submit(head, "form.draw")
        expect(head.locator('form[action$="/ouvrir/"]')).to_be_visible()
        submit(head, 'form[action$="/ouvrir/"]')
        action = head.locator('form[action$="/fermer/"]').first.get_attribute("action")
        round_ids.append(int(re.search(r"/tour/(\d+)/", action or "").group(1)))
        for table, page in tablets.items():
            tablet_play(page, number, moves[table])
        if number == 1:
            shot(tablets[1], "tablet")
            shot(head, "game-open", full_page=True)
        close_round(head, number)
        enter_slips(head, claire, site, number, round_ids[-1])
        if number == 3:
            correct_two_rounds_back(head, site, round_ids)
        head.goto(game_url)
        place_top(head, tablets, number)

    for table, page in tablets.items():
        expect(page.locator("#res-total")).to_have_text(str(TOTALS[table]))
    tablets[1].evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the results box
    shot(tablets[1], "tablet-results")
    return round_ids


def end_of_afternoon(head: Any, claire: Any, site: Afternoon, round_ids: list[int]) -> None:
    """The game, announced in three rounds, ended with its third top (no « Arrêter la
    partie »: that stop is for an interrupted game); the dashboard says so and who
    arbitrated. Then every page the second arbiter reads is checked for English."""
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tour/{round_ids[-1]}/arbitrage/"))
    shot(head, "decisions", full_page=True)
    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/"))
    expect(head.locator("main table.list")).to_contain_text("terminée")
    expect(head.locator("p.arbiters-presence")).to_contain_text(SECOND)
    shot(head, "dashboard", full_page=True)
    game_url = head.locator("main table.list a", has_text="Écran de jeu").get_attribute("href")

    pages = ["", "joueurs/", "classement/", "documents/", "reglages/", "arbitres/", "conflits/"]
    for path in pages:
        claire.goto(site.url(f"/arbitre/tournoi/{SLUG}/{path}"))
        read_french(claire, f"claire {path or 'tableau de bord'}")
    for path in (game_url or "", *(f"/arbitre/tour/{r}/arbitrage/" for r in round_ids)):
        claire.goto(site.url(path))
        read_french(claire, f"claire {path}")


def check_rankings(head: Any, site: Afternoon) -> None:
    from playwright.sync_api import expect

    head.goto(site.url(f"/arbitre/tournoi/{SLUG}/classement/"))
    general = head.locator("table").first
    for table, total in TOTALS.items():
        expect(general.locator("tr", has_text=name_of(table))).to_contain_text(str(total))
    expect(general.locator("tbody tr").first).to_contain_text(name_of(1))
    expect(general.locator("tr", has_text=name_of(1))).to_contain_text("+10")
    shot(head, "rankings", full_page=True)


def download_every_document(head: Any, site: Afternoon) -> tuple[dict[str, str], dict[str, str]]:
    """Each document of the documents page, downloaded (the heavy ones through their job
    page) and read back: ``({kind:game: text}, {kind:game: kind})``."""
    from playwright.sync_api import expect

    documents_url = site.url(f"/arbitre/tournoi/{SLUG}/documents/")
    head.goto(documents_url)
    shot(head, "documents", full_page=True)
    count = head.locator("ul.documents li").count()
    assert count >= 8
    texts: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for index in range(count):
        item = head.locator("ul.documents li").nth(index)
        kind = item.get_attribute("data-kind") or ""
        key = f"{kind}:{item.get_attribute('data-game') or 'tournoi'}"
        kinds[key] = kind
        if item.locator("a[download]").count():
            with head.expect_download() as download:
                item.locator("a[download]").click()
        else:
            item.locator("button[type=submit]").click()
            head.wait_for_load_state()
            expect(head.locator("#job-download")).to_be_visible()
            with head.expect_download() as download:
                head.locator("#job-download a").click()
            head.goto(documents_url)
        texts[key] = read_back(Path(download.value.path()), download.value.suggested_filename)
    assert len(texts) == count
    return texts, kinds


def check_documents(texts: dict[str, str], kinds: dict[str, str]) -> None:
    """What each document must say, from the hand computation; and all of it in French."""
    expected_kinds = {"results", "bulletins", "tablet-links", "xlsx", "csv", "sigles"}
    expected_kinds |= {"game-sheet", "arbiter-sheet", "player-records", "corrections", "record"}
    expected_kinds |= {"eliot"}
    assert set(kinds.values()) >= expected_kinds
    for key in ("results:tournoi", "results:1", "xlsx:tournoi", "xlsx:1", "csv:tournoi"):
        for table in TOTALS:
            assert name_of(table) in texts[key], (key, table)
        assert re.search(rf"{re.escape(name_of(1))}\W.*\b{TOTALS[1]}\b", texts[key], re.S), key
    for table, total in TOTALS.items():  # one line a player, with their total
        name = name_of(table)
        for key, line in (("csv:tournoi", f";{name};"), ("sigles:tournoi", f'"{name}",')):
            row = next(r for r in texts[key].splitlines() if line in r)
            assert re.search(rf"[;,]{total}\b", row), (key, row)
    for word in ("HAINES", "PAYES", str(TOP_TOTAL)):
        assert word in texts["game-sheet:1"], word
    for word in ("HAINES", "AUlOFEE", "PAYES", name_of(1)):  # Eliot's saved game
        assert word in texts["eliot:1"], word
    assert name_of(7) in texts["corrections:1"]  # Gaston's wrong score: a correction slip
    assert "FOI" in texts["corrections:1"]
    assert "PAYES" in json.dumps(json.loads(texts["record:1"]), ensure_ascii=False)
    for key, text in texts.items():
        assert text.strip(), f"{key} has no text"
        if kinds[key] not in DATA_FORMATS:
            french.extend(leaks(key, text))


def test_a_club_afternoon_from_an_empty_site(
    empty_site: None,
    live_server: Any,
    browser: Any,
    patient_expect: None,
    eager_celery: None,
    tmp_path: Path,
) -> None:
    site = Afternoon(browser, live_server.url)
    french.clear()
    head = site.device()
    create_tournament(head, site)
    import_players(head, site, tmp_path)
    claire = add_second_arbiter(head, site)
    links = tablet_links(head, site)
    round_ids = play(head, claire, site, links)
    end_of_afternoon(head, claire, site, round_ids)
    check_rankings(head, site)
    check_documents(*download_every_document(head, site))
    assert not french, "\n".join(french)
    site.watch.check()
