"""The club afternoon of tests/browser/test_club_afternoon.py: the players, every move with
its score computed by hand, the totals; and the helpers that watch the browser's requests and
read the downloaded documents back. No test here (the flow is in the test module)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

SLOW = 30_000  # ms: a page that computes (a top, a document) on a loaded 2-core machine

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
#: Names the CSV file spells wrongly (the arbiter corrects them on the player's page).
CSV_NAMES = {12: "Lea Girard"}
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


def players_csv(path: Path) -> Path:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";")
    writer.writerow(["Table", "Nom", "Licence", "Club", "Série", "Catégorie"])
    writer.writerows((t, CSV_NAMES.get(t, name), *rest) for t, name, *rest in PLAYERS)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


PDF_PAGES_READ = 6  # pages of each PDF read back (pypdf is slow on a loaded machine)


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
