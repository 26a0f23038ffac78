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
13C PAYES 45. Every other move's score is computed below from the board and the rules
(../shared/rules/duplicate.md), not from the code under test.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.browser.test_tablet_game import browser
from tests.conftest import screenshots_dir
from tests.site.test_french_everywhere import leaks

__all__ = ["browser"]  # fixture used by the test below

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PDF_PAGES_READ = 6  # pages of each PDF read back (pypdf is slow on a loaded machine)
SLOW = 30_000  # ms: a page that computes (a top, a document) on a loaded 2-core machine
SHOTS = screenshots_dir()
HEAD, HEAD_PASSWORD = "arbitre", "arbitre"  # tirage_setup's development account
SECOND, SECOND_PASSWORD = "claire", "Scrabble-club-2026"
SLUG = "club-du-mardi"

# Table, name, licence, club, série, catégorie (the CSV the club secretary exports).
PLAYERS = [
    (1, "Anne Martin", "100001", "Arcachon", "1A", "Senior"),
    (2, "Bruno Petit", "100002", "Arcachon", "2B", "Vermeil"),
    (3, "Chloé Durand", "100003", "Bordeaux", "3A", "Senior"),
    (4, "David Leroy", "100004", "Bordeaux", "4B", "Diamant"),
    (5, "Émile Moreau", "100005", "Arcachon", "5C", "Vermeil"),
    (6, "Fanny Simon", "100006", "Libourne", "6A", "Senior"),
    (7, "Gaston Laurent", "100007", "Libourne", "5A", "Diamant"),
    (8, "Hélène Michel", "100008", "Bordeaux", "4A", "Vermeil"),
    (9, "Ivan Garcia", "100009", "Arcachon", "6B", "Senior"),
    (10, "Julie Roux", "100010", "Libourne", "3B", "Vermeil"),
    (11, "Karim Fournier", "100011", "Bordeaux", "2A", "Senior"),
    (12, "Léa Girard", "100012", "Arcachon", "7A", "Émeraude"),
]
TABLETS = (1, 2)  # Anne and Bruno play on tablets; tables 3–12 hand in paper slips
HEAD_TYPES = range(3, 8)  # the head arbiter types tables 3–7, Claire tables 8–12

# --- The moves, scored by hand (standard board; French values A1 E1 F4 H4 I1 N1 O1 P3 S1 U1
# Y10, joker 0). Squares: H4 and H12 letter ×2, H8 word ×2 (centre); G7, G9, G13 letter ×2;
# F6 letter ×3; C13 word ×2; I4, J4, D13, E13, F13 plain.
#
# Round 1, rack ESIUHAN, empty board (move 1 pays the word's best placement through H8):
#   H4 HAINES (top): H 4×2 + A I N E S 5 = 13, ×2 (H8) = 26.
#   H4 HAINE: H 8 + A I N E 4 = 12, ×2 = 24 (best placement: the H on H4's letter ×2).
#   H5 HUNE: H U N E 7, ×2 = 14 (no letter square reachable through H8: 14 anywhere).
#   HAINSE is not a word: zero.
# Round 2, rack U+OEE?AF, HAINES on H4–H9:
#   G6 AUlOFEE (top): A 1 + U 2 + l 0 + O 2 + F 4 + E 1 + E 1 = 11; cross-words AI 2, UN 3,
#   LE 1, OS 3; scrabble 50: 11 + 9 + 50 = 70.
#   6F FOI: F 4×3 + O 1 + I 1 (on the board) = 14, no cross-word.
#   4H HUE: H (board) 4 + U 1 + E 1 = 6, no cross-word.
# Round 3, rack YPUNASE, AULOFEE on G6–G12:
#   13C PAYES (top): P 3 + A 1 + Y 10 + E 1 + S 2 = 17, ×2 (C13) = 34; AULOFEES 11: 45.
#   13D PUES: P 3 + U 1 + E 1 + S 2 = 7; AULOFEES 11: 18.
#   4H HUE: 6, as in round 2 (I4, J4 still empty).
# Each move: (table, reference, word, score written on the slip, score paid); None: no slip.
ROUNDS: list[dict[int, tuple[str, str, int, int] | None]] = [
    {
        1: ("H4", "HAINES", 26, 26), 2: ("H4", "HAINE", 24, 24),
        3: ("H4", "HAINES", 26, 26), 4: ("H4", "HAINE", 24, 24), 5: ("H5", "HUNE", 14, 14),
        6: ("H4", "HAINSE", 26, 0),  # the arbiter misreads Fanny's HAINES: corrected later
        7: ("H4", "HAINES", 26, 26), 8: ("H4", "HAINES", 26, 26), 9: ("H4", "HAINE", 24, 24),
        10: ("H5", "HUNE", 14, 14), 11: None, 12: ("H4", "HAINES", 26, 26),
    },
    {
        1: ("G6", "AUlOFEE", 70, 70), 2: ("6F", "FOI", 14, 14),
        3: ("6F", "FOI", 14, 14), 4: ("4H", "HUE", 6, 6), 5: ("6F", "FOI", 14, 14),
        6: ("6F", "FOI", 14, 14),
        7: ("6F", "FOI", 15, 14),  # wrong score, right place (§4.3): 14 paid and a warning
        8: ("6F", "FOI", 14, 14), 9: ("4H", "HUE", 6, 6), 10: ("6F", "FOI", 14, 14),
        11: ("6F", "FOI", 14, 14), 12: ("6F", "FOI", 14, 14),
    },
    {
        1: ("13C", "PAYES", 45, 45), 2: ("13D", "PUES", 18, 18),
        3: ("13C", "PAYES", 45, 45), 4: ("13D", "PUES", 18, 18), 5: ("13C", "PAYES", 45, 45),
        6: ("4H", "HUE", 6, 6), 7: ("13C", "PAYES", 45, 45), 8: ("13C", "PAYES", 45, 45),
        9: ("13D", "PUES", 18, 18), 10: ("13C", "PAYES", 45, 45), 11: ("13C", "PAYES", 45, 45),
        12: ("4H", "HUE", 6, 6),
    },
]  # fmt: skip
TOPS = [("H4", "HAINES", 26), ("G6", "AUlOFEE", 70), ("13C", "PAYES", 45)]
CORRECTION = (1, 6, "H4", "HAINES", 26)  # round, table, reference, word, score: Fanny's slip
# Solo (§4.6, 12 players ≥ the 10 set below): on round 2 only Anne scores 70, strictly more
# than everyone else: +10. Rounds 1 and 3 have several players on the top: no solo.
# Totals (round 1 after the correction): Anne 26 + 70 + 45 + 10 = 151; Bruno 24 + 14 + 18 =
# 56; Chloé 26 + 14 + 45 = 85; David 24 + 6 + 18 = 48; Émile 14 + 14 + 45 = 73; Fanny 26 + 14
# + 6 = 46; Gaston 26 + 14 + 45 = 85 (one warning, no cost before the 4th); Hélène 85; Ivan
# 24 + 6 + 18 = 48; Julie 14 + 14 + 45 = 73; Karim 0 + 14 + 45 = 59; Léa 26 + 14 + 6 = 46.
# Top total 26 + 70 + 45 = 141: Anne's négatif is +10.
#: Documents for programs, not readers (codes and markup are their content).
DATA_FORMATS = {"record", "eliot"}
TOTALS = {1: 151, 2: 56, 3: 85, 4: 48, 5: 73, 6: 46, 7: 85, 8: 85, 9: 48, 10: 73, 11: 59, 12: 46}
TOP_TOTAL = 141


def name_of(table: int) -> str:
    return PLAYERS[table - 1][1]


def slip_line(table: int, move: tuple[str, str, int, int]) -> str:
    reference, word, written, _paid = move
    return f"{table} {reference} {word} {written}"


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
def patient_expect() -> Iterator[None]:
    """Every ``expect`` of this test waits up to :data:`SLOW` (a loaded 2-core machine), and
    the next tests get Playwright's default back."""
    from playwright.sync_api import expect

    expect.set_options(timeout=SLOW)
    yield
    expect.set_options(timeout=5_000)


#: What a page loads beside itself (Playwright's resource types).
PARTS = {"script", "stylesheet", "image", "font", "media", "manifest", "other"}


class Watch:
    """Every request and response of every context: none may reach /admin/, none may fail
    with a server error, no part of a page (script, style, icon) may be missing."""

    def __init__(self) -> None:
        self.admin: list[str] = []
        self.errors: list[str] = []

    def attach(self, context: Any) -> Any:
        context.on("request", self._request)
        context.on("response", self._response)
        return context

    def _request(self, request: Any) -> None:
        if urlparse(request.url).path.startswith("/admin"):
            self.admin.append(request.url)

    def _response(self, response: Any) -> None:
        # A page or a refused slip may answer 404 (an unknown table); a page's parts never.
        missing = response.status == 404 and response.request.resource_type in PARTS
        if response.status >= 500 or missing:
            self.errors.append(f"{response.status} {response.url}")

    def check(self) -> None:
        assert not self.admin, f"Django's admin was requested: {self.admin}"
        assert not self.errors, f"server errors: {self.errors}"


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


def sign_in(page: Any, base: str | None, username: str, password: str) -> None:
    """Sign in on the login page (opened first unless ``base`` is None: already there)."""
    from playwright.sync_api import expect

    if base is not None:
        page.goto(f"{base}/arbitre/connexion/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Mes tournois")


def submit(page: Any, form: str) -> None:
    """Press the submit button of ``form`` and wait for the page it loads."""
    page.locator(f"{form} button[type=submit]").first.click()
    page.wait_for_load_state()


def players_csv(path: Path) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";")
    writer.writerow(["Table", "Nom", "Licence", "Club", "Série", "Catégorie"])
    writer.writerows(PLAYERS)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def type_slips(page: Any, lines: list[str], received: int) -> int:
    """Type each line in the slip-entry field; wait for each answer (the received count)."""
    from playwright.sync_api import expect

    for line in lines:
        page.fill("#slip-line", line)
        page.press("#slip-line", "Enter")
        received += 1
        expect(page.locator("#received")).to_have_text(str(received), timeout=SLOW)
        expect(page.locator("#slip-line")).to_have_value("")
    return received


def tablet_play(page: Any, round_number: int, move: tuple[str, str, int, int]) -> None:
    from playwright.sync_api import expect

    reference, word, _written, paid = move
    expect(page.locator("#round-label")).to_contain_text(f"coup {round_number}", timeout=SLOW)
    expect(page.locator("#rack .rtile")).to_have_count(7, timeout=SLOW)
    page.fill("#reference", reference)
    page.fill("#word", word)
    expect(page.locator("#pv-word")).to_have_text(re.compile(f"^{word}$", re.I), timeout=SLOW)
    expect(page.locator("#pv-score")).to_have_text(str(paid), timeout=SLOW)
    page.click("#send")
    expect(page.locator("#sent")).to_contain_text("Reçu par le serveur", timeout=SLOW)


def read_back(path: Path, filename: str) -> str:
    """The text of a downloaded document, read with the library its format needs."""
    data = path.read_bytes()
    assert data, f"{filename} is empty"
    if filename.endswith(".pdf"):
        from pypdf import PdfReader

        pages = PdfReader(io.BytesIO(data)).pages
        # The blank slips run to 25 pages a table: their first pages say what the rest do.
        return "\n".join(page.extract_text() or "" for page in pages[:PDF_PAGES_READ])
    if filename.endswith(".xlsx"):
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(data), read_only=True)
        cells = [
            str(cell)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for cell in row
            if cell is not None
        ]
        book.close()
        return "\n".join(cells)
    if filename.endswith(".csv"):
        for encoding in ("utf-8-sig", "latin-1"):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                continue
            list(csv.reader(io.StringIO(text)))
            return text
    if filename.endswith(".xml"):
        from xml.etree import ElementTree

        root = ElementTree.fromstring(data)
        return "\n".join(
            " ".join([node.text or "", *node.attrib.values()]).strip() for node in root.iter()
        )
    if filename.endswith(".json"):
        return json.dumps(json.loads(data), ensure_ascii=False)
    return data.decode("utf-8")


def test_a_club_afternoon_from_an_empty_site(
    empty_site: None,
    live_server: Any,
    browser: Any,
    patient_expect: None,
    eager_celery: None,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    watch = Watch()
    french.clear()

    def new_context(**kwargs: Any) -> Any:
        return watch.attach(browser.new_context(locale="fr-FR", accept_downloads=True, **kwargs))

    head = new_context(viewport={"width": 1280, "height": 900}).new_page()
    head.set_default_timeout(SLOW)

    # --- Sign in from the site's home page, and create the tournament ----------------------
    head.goto(f"{base}/")
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

    # --- Settings ---------------------------------------------------------------------------
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

    # --- Players: a CSV import --------------------------------------------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/joueurs/")
    expect(head.locator("main")).to_contain_text("Aucun joueur inscrit.")
    head.set_input_files(
        "form:has(input[name=action][value=import]) input[type=file]",
        str(players_csv(tmp_path / "joueurs.csv")),
    )
    submit(head, "form:has(input[name=action][value=import])")
    for table, name, *_rest in PLAYERS:
        expect(head.locator(f"#t{table}")).to_contain_text(name)

    # --- A second arbiter, with the one-time link shown on screen ---------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/arbitres/")
    head.fill("#arbiter-add input[name=login]", SECOND)
    submit(head, "#arbiter-add")
    link = head.locator("#password-link a").get_attribute("href")
    assert link and "/arbitre/mot-de-passe/" in link
    expect(head.locator("#arbiters")).to_contain_text(SECOND)
    shot(head, "arbiters", full_page=True)
    claire = new_context(viewport={"width": 1280, "height": 900}).new_page()
    claire.set_default_timeout(SLOW)
    claire.goto(link if link.startswith("http") else base + link)
    claire.fill("input[name=new_password1]", SECOND_PASSWORD)
    claire.fill("input[name=new_password2]", SECOND_PASSWORD)
    submit(claire, "main form.stack")
    expect(claire.locator("ul.messages")).to_contain_text("Mot de passe enregistré")
    sign_in(claire, None, SECOND, SECOND_PASSWORD)
    expect(claire.locator("ul.tournaments")).to_contain_text("Tournoi du mardi")
    claire.goto(link if link.startswith("http") else base + link)  # the link served once
    expect(claire.locator("main")).to_contain_text("Ce lien n'est plus valable")

    # --- Tablet links for everyone ----------------------------------------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/joueurs/")
    for table, *_rest in PLAYERS:
        head.locator(f"#t{table} form[action$='/jeton/'] button").click()
        head.wait_for_load_state()
        expect(head.locator(f"#t{table} a.tablet-link")).to_be_visible()
    shot(head, "players", full_page=True)
    tablet_links = {
        table: head.locator(f"#t{table} a.tablet-link").get_attribute("href") for table in TABLETS
    }
    with head.expect_download() as sheet:
        head.get_by_role("link", name=re.compile("Imprimer les liens des tablettes")).click()
    qr_text = read_back(Path(sheet.value.path()), sheet.value.suggested_filename)
    for table, *_rest in PLAYERS:
        assert name_of(table) in qr_text

    # --- The game: seed 7 -------------------------------------------------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/")
    head.select_option("#id_kind", "seeded")
    head.fill("#id_seed", "7")
    submit(head, f"form[action$='/{SLUG}/parties/']")
    game_url = head.url
    assert re.search(r"/arbitre/partie/\d+/$", game_url)
    tablets = {}
    for table in TABLETS:
        page = new_context(viewport={"width": 800, "height": 1280}).new_page()
        page.goto(base + tablet_links[table])
        expect(page.locator("#round-label")).to_contain_text("attente", timeout=SLOW)
        tablets[table] = page

    round_ids: list[int] = []
    for number, moves in enumerate(ROUNDS, start=1):
        top_reference, top_word, top_score = TOPS[number - 1]
        if number == 1:
            submit(head, "form.draw")
        expect(head.locator('form[action$="/ouvrir/"]')).to_be_visible(timeout=SLOW)
        submit(head, 'form[action$="/ouvrir/"]')
        round_id = int(re.search(r"/tour/(\d+)/", head.locator(
            'form[action$="/fermer/"]').get_attribute("action")).group(1))  # fmt: skip
        round_ids.append(round_id)
        for table in TABLETS:
            tablet_play(tablets[table], number, moves[table])
        if number == 1:
            shot(tablets[1], "tablet")
            shot(head, "game-open", full_page=True)
        submit(head, 'form[action$="/fermer/"]')

        # Paper slips: the head arbiter types tables 3–7, Claire tables 8–12, at once.
        slips_url = f"{base}/arbitre/tour/{round_id}/saisie/"
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
            expect(row.locator(".kind")).to_contain_text(re.compile("avertissement", re.I))
            shot(claire, "slips", full_page=True)
        head.reload()
        expect(head.locator("#received")).to_have_text(str(received))
        if number == 1:
            expect(head.locator("#missing-list")).to_contain_text(name_of(11))

        if number == 3:
            # --- A correction two rounds back: Fanny's round-1 slip read HAINES. ----------
            c_round, c_table, c_ref, c_word, c_score = CORRECTION
            form = head.locator("section.correction form")
            form.locator("select[name=round_number]").select_option(str(c_round))
            form.locator("input[name=line]").fill(f"{c_table} {c_ref} {c_word} {c_score}")
            form.locator("input[name=reason]").fill("Bulletin mal recopié : HAINES, pas HAINSE")
            submit(head, "section.correction form")
            expect(head.locator("main")).not_to_contain_text("Complétez le formulaire")

        # Place the top, and draw the next rack unless this is the last round.
        head.goto(game_url)
        place = head.locator('form[action$="/placer/"]')
        expect(place).to_be_visible(timeout=SLOW)
        expect(head.locator("#game")).to_contain_text(top_word, timeout=SLOW)
        if number < len(ROUNDS):
            place.locator("button[name=next]").click()
        else:
            place.locator("button[data-key=p]").click()
        head.wait_for_load_state()
        for table in TABLETS:
            paid = moves[table][3]
            expect(tablets[table].locator("#res-score")).to_contain_text(str(paid), timeout=SLOW)
            expect(tablets[table].locator("#res-top")).to_contain_text(
                f"{top_reference} {top_word} · {top_score}"
            )

    expect(tablets[1].locator("#res-total")).to_have_text(str(TOTALS[1]), timeout=SLOW)
    expect(tablets[2].locator("#res-total")).to_have_text(str(TOTALS[2]), timeout=SLOW)
    shot(tablets[1], "tablet-results", full_page=True)

    # --- The afternoon is over: the head arbiter ends the game after its third round ----------
    head.goto(f"{base}/arbitre/tour/{round_ids[-1]}/arbitrage/")
    shot(head, "decisions", full_page=True)
    stop = head.locator('form[action$="/arreter/"]')
    stop.locator("input[name=reason]").fill("Fin de l'après-midi du club")
    submit(head, 'form[action$="/arreter/"]')
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/")
    expect(head.locator("main table.list")).to_contain_text("terminée")
    expect(head.locator("p.arbiters-presence")).to_contain_text(SECOND)
    shot(head, "dashboard", full_page=True)

    # --- What the second arbiter reads at the end: French, and no admin link -----------------
    pages = ["", "joueurs/", "classement/", "documents/", "reglages/", "arbitres/", "conflits/"]
    for path in pages:
        claire.goto(f"{base}/arbitre/tournoi/{SLUG}/{path}")
        read_french(claire, f"claire {path or 'tableau de bord'}")
    for path in (game_url, *(f"{base}/arbitre/tour/{r}/arbitrage/" for r in round_ids)):
        claire.goto(path)
        read_french(claire, f"claire {path}")

    # --- Rankings -----------------------------------------------------------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/classement/")
    general = head.locator("table").first
    for table, total in TOTALS.items():
        expect(general.locator("tr", has_text=name_of(table))).to_contain_text(str(total))
    expect(general.locator("tbody tr").first).to_contain_text(name_of(1))
    expect(general.locator("tr", has_text=name_of(1))).to_contain_text("+10")
    shot(head, "rankings", full_page=True)

    # --- Every document of the documents page, read back --------------------------------------
    head.goto(f"{base}/arbitre/tournoi/{SLUG}/documents/")
    shot(head, "documents", full_page=True)
    items = head.locator("ul.documents li")
    count = items.count()
    assert count >= 8
    texts: dict[str, str] = {}
    kinds: dict[str, str] = {}
    for index in range(count):
        item = head.locator("ul.documents li").nth(index)
        kind = item.get_attribute("data-kind")
        key = f"{kind}:{item.get_attribute('data-game') or 'tournoi'}"
        kinds[key] = kind
        if item.locator("a[download]").count():
            with head.expect_download() as download:
                item.locator("a[download]").click()
        else:
            item.locator("button[type=submit]").click()
            head.wait_for_load_state()
            expect(head.locator("#job-download")).to_be_visible(timeout=SLOW)
            with head.expect_download() as download:
                head.locator("#job-download a").click()
            head.goto(f"{base}/arbitre/tournoi/{SLUG}/documents/")
        texts[key] = read_back(Path(download.value.path()), download.value.suggested_filename)
    assert len(texts) == count
    expected_kinds = {"results", "bulletins", "tablet-links", "xlsx", "csv", "sigles"}
    expected_kinds |= {"game-sheet", "arbiter-sheet", "player-records", "corrections", "record"}
    expected_kinds |= {"eliot"}
    assert {key.partition(":")[0] for key in texts} >= expected_kinds
    # What each document must say, from the hand computation above.
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
    record = json.loads(texts["record:1"])
    assert json.dumps(record, ensure_ascii=False).count("PAYES") >= 1
    for key, text in texts.items():
        assert text.strip(), f"{key} has no text"
        if kinds[key] not in DATA_FORMATS:
            french.extend(leaks(key, text))
    assert not french, "\n".join(french)
    watch.check()
