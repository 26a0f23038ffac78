"""Classic tournaments' printables, exports, API and projector view, checked against the
round entered by hand."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.site.test_classic import classic  # noqa: F401 (the fixture)
from tournaments import selectors
from tournaments.models import Player
from tournaments.reports.documents import render_document
from tournaments.services import classic as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(classic):  # noqa: F811
    """Round 1 of the fixture's Swiss (Anne–David, Bruno–Emma, Chloé–Farid) entered:
    420–380, 350–400 and a forfeit of Farid; Bruno's name is hostile."""
    head = classic["arbiter"]
    Player.objects.filter(name="Bruno").update(name='=HYPERLINK("x")<b>')
    r1 = svc.classic_round_pair(division_id=classic["division"].pk, actor=head)
    lines = selectors.classic_tables(r1)
    svc.classic_result_enter(
        table_id=lines[0].table.pk, score_first=420, score_second=380, actor=head
    )
    svc.classic_result_enter(
        table_id=lines[1].table.pk, score_first=350, score_second=400, actor=head
    )
    svc.classic_result_enter(table_id=lines[2].table.pk, forfeit="second", actor=head)
    return {**classic, "round": r1}


def _pdf_text(kind: str, tournament) -> str:  # type: ignore[no-untyped-def]
    rendered = render_document(kind, tournament, None, base_url="http://testserver")
    assert rendered.content_type == "application/pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(rendered.content)).pages)
    return " ".join(text.split())  # a cell's text may wrap


def test_pairings_standings_and_scorecards_pdf(played) -> None:
    t = played["tournament"]
    text = _pdf_text("classic-pairings", t)
    assert "Division A — ronde 1" in text and "420 – 380" in text
    assert "forfait du second" in text and '=HYPERLINK("x")<b>' in text  # printed, not obeyed
    text = _pdf_text("classic-standings", t)
    # Emma +50, Chloé +50 (forfeit), Anne +40: Chloé and Emma equal on wins and spread;
    # Buchholz 0 both; points: Emma 400, Chloé 0 (a forfeit scores no points): Emma first.
    assert text.index("Emma") < text.index("Chloé") < text.index("Anne")
    text = _pdf_text("classic-scorecards", t)
    assert "Anne — division A" in text and "David" in text and "gagné par forfait" in text


def test_standings_xlsx_cells_are_safe(played) -> None:
    rendered = render_document(
        "classic-xlsx", played["tournament"], None, base_url="http://testserver"
    )
    wb = load_workbook(io.BytesIO(rendered.content))
    rows = list(wb[wb.sheetnames[0]].iter_rows(values_only=True))
    assert rows[0][:4] == ("Division", "Rang", "Joueur", "Victoires")
    assert rows[1][2:6] == ("Emma", 1, 0, 50) or rows[1][2] == "Emma"
    names = [r[2] for r in rows[1:]]
    assert '\'=HYPERLINK("x")<b>' in names  # safe_cell's apostrophe: text, not a formula
    games = list(wb[wb.sheetnames[1]].iter_rows(values_only=True))
    assert ("A", "Anne", 1, "David", "oui", 420, 380, None) in games


def test_the_api_reads_pairs_and_takes_results(client, played) -> None:
    t = played["tournament"]
    url = reverse("api-classic", args=[t.slug])
    assert client.get(url).status_code == 403  # standings not public
    client.force_login(played["arbiter"])
    body = client.get(url).json()
    division = body["divisions"][0]
    assert body["pairing_system"] == "swiss" and division["round"] == 1
    assert division["tables"][0]["score_first"] == 420 and division["tables"][2]["forfeit"]
    table = division["tables"][0]["id"]
    result_url = reverse("api-classic-result", args=[table])
    bad = client.post(result_url, {"score_first": 400}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "classic.scores_missing"
    again = client.post(
        result_url, {"score_first": 400, "score_second": 380}, content_type="application/json"
    )
    assert again.status_code == 400 and again.json()["code"] == "classic.reason_required"
    fixed = client.post(
        result_url,
        {"score_first": 400, "score_second": 380, "reason": "typo"},
        content_type="application/json",
    )
    assert fixed.status_code == 201 and fixed.json()["version"] == 2
    paired = client.post(reverse("api-classic-pair", args=[t.slug, 1]))
    assert paired.status_code == 201 and paired.json()["round"] == 2
    assert client.get(reverse("api-classic", args=["nope"])).status_code == 404


def test_the_projector_shows_pairings_and_standings(client, played, tournament_setup) -> None:
    t = played["tournament"]
    page = client.get(reverse("classic_projector:page", args=[t.slug]))
    body = page.content.decode()
    assert page.status_code == 200 and "Division A — ronde 1" in body and "420 – 380" in body
    assert "&lt;b&gt;" in body  # escaped
    assert 'http-equiv="refresh"' in body


@pytest.mark.parametrize("kind", ["classic-pairings", "classic-standings", "classic-xlsx"])
def test_classic_documents_above_direct_cells_players_go_to_the_worker(
    client, played, settings, kind
) -> None:
    """The classic documents grow with the players: the fixture's 6 players download at a
    limit of 6; at 5 the API answers 409 ``document.by_worker`` counting the players and
    the console's download sends to the documents page (« Préparer »)."""
    from rest_framework.test import APIClient

    t = played["tournament"]
    api = APIClient()
    api.force_authenticate(played["arbiter"])
    url = f"/api/tournaments/{t.slug}/documents/{kind}"
    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 6
    assert api.get(url).status_code == 200
    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 5
    refused = api.get(url)
    assert refused.status_code == 409
    assert refused.json()["params"]["players"] == 6
    assert refused.json()["detail"].startswith("Ce document couvre 6 joueurs, plus que les 5")
    client.force_login(played["arbiter"])
    page = client.get(reverse("console:document", args=[t.slug, kind]))
    assert page.status_code == 303
    assert page["Location"] == reverse("console:documents", args=[t.slug]) + f"#document-{kind}"
