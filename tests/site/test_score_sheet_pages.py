"""The score sheet's pages: the console (list, stand-alone sheet, a table's sheet from the
round page, lines, refusals with their status and the typed line kept, end lines, tie
setting, PDF) and the players' tablets. Figures worked out by hand in the comments."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournaments import selectors
from tournaments.models import ScoreSheet, ScoreSheetLine
from tournaments.reports.documents import render_document
from tournaments.services import classic as classic_svc
from tournaments.services import player_register, registration_token_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(tournament_setup) -> dict[str, Any]:
    """Four players (Anne, Bruno, Chloé, David), round 1 paired by the Swiss fold: table 1
    Anne (starts) – Chloé, table 2 Bruno – David."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    player_register(tournament_id=t.pk, name="David", actor=head)
    classic_svc.classic_event_create(tournament_id=t.pk, rounds_planned=3, actor=head)
    division = selectors.divisions(t)[0]
    classic_svc.division_entries_add(division_id=division.pk, actor=head)
    rnd = classic_svc.classic_round_pair(division_id=division.pk, actor=head)
    tables = {x.table.number: x for x in selectors.classic_tables(rnd)}
    return {**tournament_setup, "tables": tables}


def _text(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(response.content.decode().split())


def test_a_stand_alone_sheet_in_the_console_page_004(client, tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    client.force_login(head)
    sheets = reverse("classic:sheets", args=[t.slug])
    assert client.get(sheets).status_code == 200
    response = client.post(sheets, {"names": "Ana\nBen\nCal", "tie_break": "ex_aequo"})
    assert response.status_code == 302
    url = reverse("classic:sheet", args=[t.slug, 1])
    assert "Tour 1 — Ana" in _text(client.get(url))
    for score in ("300", "280", "250"):
        assert client.post(url, {"action": "line", "line": score}).status_code == 302
    # Page 004: « lettres restantes » 9 for Ben and 4 for Cal, « partie terminée » +13 for
    # Ana: 313, 271, 246.
    end = {"action": "end", "left_0": "0", "left_1": "9", "left_2": "4", "went_out": "0"}
    assert client.post(url, end).status_code == 302
    page = _text(client.get(url))
    assert "−9" in page and "−4" in page and "+13" in page
    assert "313" in page and "271" in page and "246" in page
    # A line after the end: 409 with its sentence.
    late = client.post(url, {"action": "line", "line": "12"})
    assert late.status_code == 409 and "La partie est terminée" in late.content.decode()


def test_a_tables_sheet_from_the_round_page_scores_moves(client, paired) -> None:
    t, head, table = paired["tournament"], paired["arbiter"], paired["tables"][1]
    client.force_login(head)
    round_page = _text(client.get(reverse("classic:round", args=[t.slug, 1, 1])))
    assert "Feuille" in round_page
    sheets = reverse("classic:sheets", args=[t.slug])
    response = client.post(sheets, {"action": "table", "table": table.table.pk})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get(table=table.table)
    url = reverse("classic:sheet", args=[t.slug, sheet.number])
    # H8 CHAT: (3 + 4 + 1 + 1) x 2 on the star = 18, for Anne who starts.
    client.post(url, {"action": "line", "line": "H8 CHAT"})
    # 9H HARPe: H 4 + A 1 x 2 (I9) + R 1 + P 3 + joker 0 = 10, for Chloé.
    client.post(url, {"action": "line", "line": "9H HARPe"})
    page = _text(client.get(url))
    assert "H8 CHAT" in page and "9H HARPe" in page and "Tour 3 — Anne" in page
    # The sheet's board: HARPe's joker on L9 in lowercase, its squares marked the last move.
    assert '<td class="tile joker last" title="L9">e</td>' in page
    assert '<td class="md tile" title="H8">' not in page  # H8 is the centre square
    assert '<td class="centre tile" title="H8">C</td>' in page
    # 102 - 8 tiles on the board = 94; Anne's rack EEE leaves 91 unseen.
    assert 'id="unseen-count">94<' in page.replace(" ", "")
    assert 'id="unseen-count">91<' in _text(client.get(url, {"chevalet": "EEE"})).replace(" ", "")
    # A move that does not fit: 400, its sentence, the line kept.
    bad = client.post(url, {"action": "line", "line": "A1 ZOO"})
    body = bad.content.decode()
    assert bad.status_code == 400 and "ne touche aucune lettre" in body and 'value="A1 ZOO"' in body
    # A correction without a reason is refused; with one, a new version.
    fix = {"action": "correct", "number": "1", "line": "H8 CHATS", "reason": ""}
    assert client.post(url, fix).status_code == 400
    fix["reason"] = "S oublié"
    assert client.post(url, fix).status_code == 302
    assert ScoreSheetLine.objects.filter(sheet=sheet, number=1).count() == 2
    assert "S oublié" in _text(client.get(url))
    # The tie setting.
    assert client.post(url, {"action": "tie", "tie_break": "fewest_tiles"}).status_code == 302
    sheet.refresh_from_db()
    assert sheet.tie_break == "fewest_tiles"
    # The PDF: CHATS at H8 with the S on H12 (double letter): (3+4+1+1+2) x 2 = 22.
    pdf = client.get(reverse("classic:sheet_pdf", args=[t.slug, sheet.number]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " ".join(
        " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages).split()
    )
    assert "Feuille de score n° 1" in text and "H8 CHATS" in text and "22" in text
    assert "S oublié" in text


def test_the_documents_catalogue_prints_every_sheet(paired) -> None:
    from tournaments.services import score_sheets as svc

    t, head = paired["tournament"], paired["arbiter"]
    sheet = svc.score_sheet_create(tournament_id=t.pk, names=["<b>Ana</b>", "Ben"], actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="H8 CHAT", actor=head)
    rendered = render_document("classic-score-sheets", t, None, base_url="http://testserver")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(rendered.content)).pages)
    assert "<b>Ana</b>" in text  # printed, not obeyed
    assert "CHAT" in text and "18" in text


def test_the_players_fill_their_tables_sheet_on_their_tablets(client, paired) -> None:
    head, table = paired["arbiter"], paired["tables"][1]
    anne = registration_token_issue(registration_id=table.table.first.registration_id, actor=head)
    chloe = registration_token_issue(registration_id=table.table.second.registration_id, actor=head)
    url_anne = reverse("classic_tablet:sheet", args=[anne])
    url_chloe = reverse("classic_tablet:sheet", args=[chloe])
    assert "Feuille de score de la partie" in _text(
        client.get(reverse("classic_tablet:page", args=[anne]))
    )
    assert "pas encore ouverte" in _text(client.get(url_anne))
    assert client.post(url_chloe, {"action": "line", "line": "12"}).status_code == 409
    assert client.post(url_anne, {"action": "open"}).status_code == 302
    assert client.post(url_anne, {"action": "line", "line": "H8 CHAT"}).status_code == 302
    assert client.post(url_chloe, {"action": "line", "line": "23"}).status_code == 302
    page = _text(client.get(url_chloe))
    assert "Tour 3 — Anne" in page and "score seul" in page
    line = ScoreSheetLine.objects.get(number=2)
    assert line.registration_id == table.table.second.registration_id and line.entered_by is None
    # A player of the other table has no sheet to open for this one.
    bruno = registration_token_issue(
        registration_id=paired["tables"][2].table.first.registration_id, actor=head
    )
    assert "pas encore ouverte" in _text(client.get(reverse("classic_tablet:sheet", args=[bruno])))


def test_the_sheet_pages_are_for_arbiters(client, tournament_setup, django_user_model) -> None:
    t = tournament_setup["tournament"]
    outsider = django_user_model.objects.create_user("passant", password="x")
    client.force_login(outsider)
    assert client.get(reverse("classic:sheets", args=[t.slug])).status_code == 403
    client.force_login(tournament_setup["arbiter"])
    assert client.get(reverse("classic:sheet", args=[t.slug, 9])).status_code == 404
    bad = client.post(reverse("classic:sheets", args=[t.slug]), {"names": "Seul"})
    assert bad.status_code == 400 and "de 2 à 4 joueurs" in bad.content.decode()


def test_the_api_opens_fills_corrects_and_ends_a_sheet(client, paired) -> None:
    t, head, table = paired["tournament"], paired["arbiter"], paired["tables"][1]
    create = reverse("api-sheets", args=[t.slug])
    assert client.post(
        create, {"table": table.table.pk}, content_type="application/json"
    ).status_code in (401, 403)
    client.force_login(head)
    opened = client.post(create, {"table": table.table.pk}, content_type="application/json")
    assert opened.status_code == 201
    sheet = opened.json()
    assert sheet["names"] == ["Anne", "Chloé"] and sheet["next_player"] == 0
    lines = reverse("api-sheet-lines", args=[sheet["id"]])
    # H8 CHAT = 18 (see above), then Chloé's bare 23.
    body = client.post(lines, {"line": "H8 CHAT"}, content_type="application/json").json()
    assert body["lines"][0]["score"] == 18 and body["lines"][0]["placed"] == "CHAT"
    body = client.post(lines, {"line": "23"}, content_type="application/json").json()
    assert body["totals"] == [18, 23] and body["tracked"] is False and len(body["not_played"]) == 98
    bad = client.post(lines, {"line": "A1 ZOO"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "move.not_connected"
    assert "ne touche aucune lettre" in bad.json()["detail"]
    fix = reverse("api-sheet-line", args=[sheet["id"], 2])
    fixed = client.post(fix, {"line": "25", "reason": "mal lu"}, content_type="application/json")
    assert fixed.status_code == 201 and fixed.json()["lines"][1]["versions"] == 2
    # Blocked: Anne keeps Q E (8 + 1 = 9): 18 - 9 = 9; Chloé keeps 4 points: 25 - 4 = 21.
    end = reverse("api-sheet-end", args=[sheet["id"]])
    done = client.post(
        end, {"left": ["QE", "4"], "went_out": None}, content_type="application/json"
    )
    assert done.status_code == 201
    assert [(e["minus"], e["plus"], e["final"], e["rank"]) for e in done.json()["end"]] == [
        (9, 0, 9, 2),
        (4, 0, 21, 1),
    ]
    assert done.json()["next_player"] is None
    late = client.post(lines, {"line": "12"}, content_type="application/json")
    assert late.status_code == 409 and late.json()["code"] == "score_sheet.over"
    assert client.get(reverse("api-sheet", args=[sheet["id"]])).json()["totals"] == [9, 21]
    assert client.get(reverse("api-sheet", args=[999999])).status_code == 404
