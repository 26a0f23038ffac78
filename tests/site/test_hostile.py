"""The hostile fixture: names, clubs, words and reasons built to break each output format
(spreadsheet formulas, reportlab markup, XML-illegal control characters, right-to-left
marks, names at the 200-character limit), run through every document of the catalogue,
every console page, the tablet and projector pages and the API reads.

Before ``tournaments.reports.safe``: ``<b>Unclosed`` made four PDFs answer 500, ``\\x01``
made the XLSX answer 500, and ``=HYPERLINK(...)`` came out as a live formula.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.site.test_reports import play
from tournaments.access import SYSTEM
from tournaments.models import Player, ProposalVersion, Registration
from tournaments.reports.documents import DOCUMENTS, GAME, TOURNAMENT, render_document
from tournaments.reports.safe import FORMULA_START, pdf_text, safe_cell
from tournaments.services import decision_warning, player_register
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = [
    "<b>Unclosed bold",
    '=HYPERLINK("//127.0.0.1","x")',
    '<img src="x" onerror="alert(1)">',
    "+cmd|' /C calc'!A0",
    "@SUM(A1:A2)",
    "-2+3",
    "AB\x01CD\x0bEF\x1fGH",
    "\u202eesrever\u200f مرحبا &amp; co",
    "N" * 200,
]
HOSTILE_CLUBS = ["=1+1", "\t=1", "\r=2", "<i>club", "@club"]
HOSTILE_WORD = '=HYPERLINK("//x")'
HOSTILE_REASON = "<b>Motif <img src=x> \x02 =1+1"
#: What may start a CSV field written by us and still be a number, not a formula.
NUMBER = re.compile(r"-?[0-9]+(,[0-9]+)?")


@pytest.fixture
def hostile(tournament_setup):
    """The hand-checked seed-7 game, then every name, club, word and reason made hostile,
    plus extra players (no moves) carrying the remaining hostile names."""
    game = play(tournament_setup)
    t = tournament_setup["tournament"]
    regs = list(Registration.objects.filter(tournament=t).order_by("table_number"))
    for i, reg in enumerate(regs):
        Player.objects.filter(pk=reg.player_id).update(
            name=HOSTILE_NAMES[i], club=HOSTILE_CLUBS[i], series="=S", category="-C"
        )
    arbiter = tournament_setup["arbiter"]
    for table, name in enumerate(HOSTILE_NAMES[len(regs) :], start=len(regs) + 1):
        player_register(tournament_id=t.pk, name=name, table=table, actor=arbiter,
                        club=HOSTILE_CLUBS[table % len(HOSTILE_CLUBS)])  # fmt: skip
    for reg in Registration.objects.filter(tournament=t):
        registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    # A stored word and reason as a late, unchecked proposal would have left them.
    zero = ProposalVersion.objects.filter(round__game=game, outcome_kind="zero").first()
    ProposalVersion.objects.filter(pk=zero.pk).update(
        word=HOSTILE_WORD, reason=HOSTILE_REASON, outcome_reason=HOSTILE_REASON
    )
    decision_warning(round_id=zero.round_id, player_id=zero.player_id, reason=HOSTILE_REASON,
                     actor=arbiter)  # fmt: skip
    return {**tournament_setup, "game": game}


def _pdf_text(content: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)


def _no_formula(value: object, where: str) -> None:
    if isinstance(value, str) and value and not NUMBER.fullmatch(value):
        assert not value.startswith(FORMULA_START), f"{where}: {value!r}"


def test_safe_cell_neutralises_every_formula_start() -> None:
    for bad in ["=1+1", "+1", "-1+1", "@SUM(1)", "\t=1", "\r=1"]:
        assert safe_cell(bad) == "'" + bad
    assert safe_cell("AB\x01CD") == "AB\ufffdCD"
    assert safe_cell(-25) == -25 and safe_cell(None) is None and safe_cell("Zoé") == "Zoé"
    assert pdf_text("<b>x & y") == "&lt;b&gt;x &amp; y"


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: d.kind)
def test_every_document_survives_the_hostile_fixture(hostile, doc) -> None:
    game = None if doc.scope == TOURNAMENT else hostile["game"]
    if doc.scope != GAME and doc.kind in ("results", "xlsx", "csv"):
        game = None  # the whole tournament: every sheet at once
    rendered = render_document(doc.kind, hostile["tournament"], game, base_url="https://t.example")
    body = rendered.content
    if rendered.content_type == "application/pdf":
        text = _pdf_text(body)
        if doc.kind in ("results", "arbiter-sheet", "tablet-links"):
            assert "<b>Unclosed bold" in text  # printed, not obeyed
        if doc.kind == "corrections":
            assert "<b>Motif <img src=x>" in text
        if doc.kind in ("results", "tablet-links"):
            assert '<img src="x"' in text
    elif rendered.filename.endswith(".xlsx"):
        book = load_workbook(io.BytesIO(body))
        seen = set()
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", f"{sheet.title}!{cell.coordinate}"
                    _no_formula(cell.value, f"{sheet.title}!{cell.coordinate}")
                    seen.add(cell.value)
        if doc.kind.startswith("classic-"):  # a duplicate tournament: no classic rows
            return  # (hostile names in the classic XLSX: tests/site/test_classic_outputs.py)
        assert "'" + HOSTILE_NAMES[1] in seen and "'" + HOSTILE_WORD in seen
        assert "AB\ufffdCD\ufffdEF\ufffdGH" in seen
    elif doc.kind == "csv":
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
        for row in rows:
            for value in row:
                _no_formula(value, "csv")
        assert any("'=1+1" in row for row in rows)
    elif doc.kind == "sigles":
        lines = body.decode("latin-1").split("\r\n")
        assert all(line.count('"') == 4 for line in lines if line)  # one line per table
        for line in filter(None, lines):
            _no_formula(line.split('","')[1], "sigles")


def _console_urls(setup) -> list[str]:
    t, game = setup["tournament"], setup["game"]
    urls = [
        "/arbitre/",
        f"/arbitre/tournoi/{t.slug}/",
        f"/arbitre/tournoi/{t.slug}/joueurs/",
        f"/arbitre/tournoi/{t.slug}/classement/",
        f"/arbitre/tournoi/{t.slug}/documents/",
        f"/arbitre/tournoi/{t.slug}/conflits/",
        f"/arbitre/partie/{game.pk}/",
    ]
    for rnd in game.rounds.all():
        urls += [f"/arbitre/tour/{rnd.pk}/saisie/", f"/arbitre/tour/{rnd.pk}/arbitrage/"]
    return urls


def test_every_page_escapes_the_hostile_fixture(hostile) -> None:
    client = Client()
    client.force_login(hostile["arbiter"])
    t = hostile["tournament"]
    pages = _console_urls(hostile)
    pages += [f"/tablette/{r.access_token}/" for r in Registration.objects.filter(tournament=t)]
    pages += [f"/tablette/{r.access_token}/resultats/" for r in
              Registration.objects.filter(tournament=t)[:1]]  # fmt: skip
    pages.append(f"/projecteur/{t.slug}/")
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 409), (url, response.status_code)
        html = response.content.decode()
        assert "<b>Unclosed" not in html and "<img src=" not in html, url
        assert "<b>Motif" not in html, url
    api = APIClient()
    api.force_authenticate(hostile["arbiter"])
    first_round = hostile["game"].rounds.first().pk
    for url in (f"/api/tournaments/{t.slug}/players/", f"/api/tournaments/{t.slug}/rankings/",
                f"/api/tournaments/{t.slug}/games/1/rankings/",
                f"/api/rounds/{first_round}/proposals/?all=true"):  # fmt: skip
        response = api.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        assert response["Content-Type"].startswith("application/json")
