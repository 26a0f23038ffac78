"""Issue 16, a centre's documents and its time zone: the centre's ranking (PDF, XLSX) from
the console, the API and ``tirage_export``, kept to the centre (a centre arbiter never
gets another centre's players), escaped; times shown in a centre arbiter's time zone.

Hand-computed values (../shared/rules/duplicate.md §4.5, §4.6, §5), the game of
tests/site/test_centres.py (seed 7; tops of tests/site/test_game_services.py: round 1
HAINES H4 26, round 2 AUlOFEE G6 70, so the top total is 96). Anne plays AUE H8 (not a
word, 0), then AUE I7 with a moyenne of her centre (⌊11 / 2⌋ = 5): 5. Bruno plays HAINES
H4 26 and FAcE G6 20, each better than every other player's, two solos of 10 (§4.6, 4
entrants): 66. Chloé FEAUtES 9B 11. Denis nothing: 0. The event: Bruno 1st, Chloé 2nd, Anne
3rd, Denis 4th. Centre A (Anne, Chloé, Denis): Chloé 1st (2nd overall), Anne 2nd (3rd),
Denis 3rd (4th). Négatifs: Chloé 11 − 96 = −85, Anne −91, Denis −96.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.site.test_centres import event  # noqa: F401  (the fixture: a 2-centre event)
from tournaments.models import CentreClose, Player, ProposalVersion, Registration, ReportJob
from tournaments.services import centre_update, decision_moyenne

pytestmark = pytest.mark.django_db


def logged(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def played(event) -> None:  # noqa: F811
    anne, bruno, chloe, _denis = event["players"]
    play = event["play"]
    r1 = play.play({anne: ("AUE", "H8", None), bruno: ("HAINES", "H4", 26)})
    r2 = play.play(
        {anne: ("AUE", "I7", None), bruno: ("FAcE", "G6", 20), chloe: ("FEAUtES", "9B", 11)},
    )
    decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                     reason="AUE rejoué", actor=event["arb_a"])  # fmt: skip


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def sheet_rows(content: bytes) -> list[tuple]:
    ws = load_workbook(io.BytesIO(content)).active
    return [row for row in ws.iter_rows(values_only=True)]


def test_a_centres_ranking_holds_its_players_with_both_ranks(event) -> None:  # noqa: F811
    played(event)
    a = event["a"]
    url = reverse("console:centre_document", args=[a.pk, "centre-xlsx"])
    answer = logged(event["arb_a"]).get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "open-test-centre-centre-a-classement-general.xlsx" in answer["Content-Disposition"]
    rows = sheet_rows(answer.content)
    assert rows[0][0] == "Classement du centre « Centre A »"
    assert rows[4][:2] == ("Total des tops", 96)
    assert rows[5][:2] == ("Joueurs au classement général", 4)
    head = rows.index(next(r for r in rows if r[0] == "Rang centre"))
    players = [(r[0], r[2], r[3], r[4], r[9], r[10]) for r in rows[head + 1 :] if r[0]]
    # (centre rank, overall rank, table, name, score, négatif)
    assert players == [(1, 2, 3, "Chloé", 11, -85), (2, 3, 1, "Anne", 5, -91),
                       (3, 4, 4, "Denis", 0, -96)]  # fmt: skip
    pdf = logged(event["arb_a"]).get(reverse("console:centre_document",
                                             args=[a.pk, "centre-ranking"]))  # fmt: skip
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    assert "Classement du centre « Centre A »" in text and "total des tops : 96" in text
    assert all(name in text for name in ("Chloé", "Anne", "Denis")) and "Bruno" not in text
    assert text.index("Chloé") < text.index("Anne") < text.index("Denis")


def test_a_centre_arbiter_gets_their_centres_documents_only(event) -> None:  # noqa: F811
    played(event)
    t, a, b = event["tournament"], event["a"], event["b"]
    url_b = reverse("console:centre_document", args=[b.pk, "centre-ranking"])
    refused = logged(event["arb_a"]).get(url_b)
    assert refused.status_code == 403
    assert 'data-code="access.other_centre"' in refused.content.decode()
    assert "Ce centre n&#x27;est pas le vôtre" in refused.content.decode()
    assert "Bruno" not in refused.content.decode()
    api = APIClient()
    api.force_login(event["arb_a"])
    answer = api.get(f"/api/tournaments/{t.slug}/centres/{b.pk}/documents/centre-xlsx")
    assert (answer.status_code, answer.json()["code"]) == (403, "access.other_centre")
    mine = api.get(f"/api/tournaments/{t.slug}/centres/{a.pk}/documents/centre-xlsx?game=1")
    assert mine.status_code == 200
    assert "classement-partie-1.xlsx" in mine["Content-Disposition"]
    assert [r[4] for r in sheet_rows(mine.content)[8:] if r[0]] == ["Chloé", "Anne", "Denis"]
    # The documents page lists centre A's documents only for its arbiter, both for the head.
    docs = reverse("console:documents", args=[t.slug])
    page = logged(event["arb_a"]).get(docs).content.decode()
    assert f'data-centre="{a.pk}"' in page and f'data-centre="{b.pk}"' not in page
    page = logged(event["head"]).get(docs).content.decode()
    assert f'data-centre="{a.pk}"' in page and f'data-centre="{b.pk}"' in page
    # The organiser gets centre B's: Bruno alone, first in the centre and overall.
    xlsx = logged(event["head"]).get(reverse("console:centre_document",
                                             args=[b.pk, "centre-xlsx"]))  # fmt: skip
    assert [(r[0], r[2], r[4], r[9]) for r in sheet_rows(xlsx.content)[8:] if r[0]] == [
        (1, 1, "Bruno", 66)
    ]
    # An unknown kind, another tournament's centre number: 404.
    api.force_login(event["head"])
    assert api.get(f"/api/tournaments/{t.slug}/centres/{a.pk}/documents/nope").status_code == 404
    assert api.get(f"/api/tournaments/{t.slug}/centres/999999/documents/centre-xlsx"
                   ).status_code == 404  # fmt: skip


def test_a_centres_document_built_by_the_worker_stays_its_centres(
    event,  # noqa: F811
    eager_celery,
    django_capture_on_commit_callbacks,
) -> None:
    """The worker path (``ReportJob``): asked from the documents page, built by the task,
    its page and file for the centre's arbiters and the organiser only."""
    played(event)
    a = event["a"]
    client = logged(event["arb_a"])
    create = reverse("console:centre_report_job_create", args=[a.pk, "centre-xlsx"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(create)
    job = ReportJob.objects.get()
    assert response["Location"] == reverse("console:report_job", args=[job.pk])
    job.refresh_from_db()
    assert (job.state, job.kind, job.params["centre"]) == ("done", "centre-xlsx", a.pk)
    page = client.get(response["Location"]).content.decode()
    assert "Classement du centre (XLSX)" in page
    built = client.get(reverse("console:report_job_file", args=[job.pk]))
    rows = sheet_rows(b"".join(built.streaming_content))
    assert [r[4] for r in rows[8:] if r[0]] == ["Chloé", "Anne", "Denis"]
    # Centre B's arbiter: refused the job of centre A, its page and file, and asking for it.
    other = logged(event["arb_b"])
    for name in ("report_job", "report_job_status", "report_job_file"):
        assert other.get(reverse(f"console:{name}", args=[job.pk])).status_code == 403
    docs = other.get(reverse("console:documents", args=[event["tournament"].slug]))
    assert reverse("console:report_job", args=[job.pk]) not in docs.content.decode()
    refused = other.post(create)
    assert refused.status_code == 403 and ReportJob.objects.count() == 1
    # The organiser may read it.
    assert logged(event["head"]).get(response["Location"]).status_code == 200


def test_user_text_is_escaped_in_both_files(event) -> None:  # noqa: F811
    played(event)
    anne = event["players"][0]
    Player.objects.filter(pk=anne.pk).update(name="<b>Anne", club='=HYPERLINK("x")')
    a = centre_update(centre_id=event["a"].pk, name="Lyon <i>", club="+cmd", actor=event["head"])
    client = logged(event["arb_a"])
    rows = sheet_rows(client.get(reverse("console:centre_document",
                                         args=[a.pk, "centre-xlsx"])).content)  # fmt: skip
    assert rows[0][0] == "Classement du centre « Lyon <i> »"
    assert rows[1][1] == "'+cmd"  # a formula's start is made text
    anne_row = next(r for r in rows if r[4] == "<b>Anne")
    assert anne_row[6] == '\'=HYPERLINK("x")'
    text = pdf_text(client.get(reverse("console:centre_document",
                                       args=[a.pk, "centre-ranking"])).content)  # fmt: skip
    assert "Lyon <i>" in text and "<b>Anne" in text  # printed, not obeyed


def test_tirage_export_writes_a_centres_document(event, tmp_path) -> None:  # noqa: F811
    played(event)
    call_command("tirage_export", "centre-xlsx", tournament="open-test", centre="centre a",
                 output=str(tmp_path))  # fmt: skip
    path = tmp_path / "open-test-centre-centre-a-classement-general.xlsx"
    assert [r[4] for r in sheet_rows(path.read_bytes())[8:] if r[0]] == ["Chloé", "Anne",
                                                                          "Denis"]  # fmt: skip
    with pytest.raises(CommandError) as caught:  # a centre's document needs its centre
        call_command("tirage_export", "centre-ranking", tournament="open-test")
    assert caught.value.returncode == 2
    with pytest.raises(CommandError):
        call_command("tirage_export", "centre-ranking", tournament="open-test", centre="Paris")


# --- times in the centre's time zone -------------------------------------------------------

#: 18:00:00 UTC on 7 December 2026: 19:00:00 in Paris (CET, UTC+1), 13:00:00 in Montréal
#: (EST, UTC−5).
AT = datetime(2026, 12, 7, 18, 0, 0, tzinfo=UTC)


def test_a_centre_arbiter_reads_times_in_their_centres_zone(event) -> None:  # noqa: F811
    bruno = event["players"][1]
    play, b = event["play"], event["b"]
    rnd = play.open_round()
    bruno_table = Registration.objects.get(player=bruno).table_number
    montreal = logged(event["arb_b"])
    sent = montreal.post(reverse("console:slips", args=[rnd.pk]),
                         {"line": f"{bruno_table} H4 HAINES 26"},
                         headers={"Accept": "application/json"})  # fmt: skip
    # The log line the page's script adds carries the time in the centre's zone, as the
    # page shows it after a reload.
    stored = ProposalVersion.objects.get(player=bruno).created_at
    assert sent.json()["entry"]["when"] == (
        stored.astimezone(ZoneInfo("America/Montreal")).strftime("%H:%M:%S")
    )
    ProposalVersion.objects.filter(player=bruno).update(created_at=AT.replace(second=5))
    play.close_centre(rnd, b, actor=event["arb_b"])
    CentreClose.objects.filter(round=rnd, centre=b).update(closed_at=AT)
    game = reverse("console:game", args=[play.game.pk])
    page = montreal.get(game).content.decode()
    assert "fermé à 13:00:00" in page
    assert 'data-time-zone="America/Montreal"' in page
    assert "13:00:05" in montreal.get(reverse("console:slips", args=[rnd.pk])).content.decode()
    # The zone was the request's only: the test's thread is back on the server's zone.
    assert timezone.get_current_timezone_name() == "Europe/Paris"
    # The organiser reads the tournament's (the server's) time, and no centre zone.
    page = logged(event["head"]).get(game).content.decode()
    assert "fermé à 19:00:00" in page and "data-time-zone" not in page
    # Centre A's arbiter (Europe/Paris, the default) reads Paris time too.
    assert "fermé à 19:00:00" in logged(event["arb_a"]).get(game).content.decode()
