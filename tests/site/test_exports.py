"""Documents and exports from the console and the API, report jobs built by the task, and
the game record import (embedded profile, Django test client).

The game: seed 7 on the conformance list, two rounds placed (H4 HAINES 26, G6 AUlOFEE 70),
Anne playing both tops, Bruno the first only; a warning for Bruno on round 2."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments.models import ArbiterMembership, Game, Registration, ReportJob
from tournaments.reports.documents import DOCUMENTS, GAME, TOURNAMENT
from tournaments.services import (
    decision_warning,
    registration_token_issue,
    round_close,
    round_draw,
    round_open,
    round_place_top,
)

pytestmark = pytest.mark.django_db

TYPES = {"pdf": "application/pdf", "xlsx": "spreadsheetml", "csv": "text/csv",
         "json": "application/json"}  # fmt: skip


@pytest.fixture
def played(client, tournament_setup, settings, tmp_path) -> dict[str, Any]:
    """The fixture tournament with two placed rounds, its head arbiter logged in."""
    settings.VAR_DIR = tmp_path / "var"
    setup = tournament_setup
    head = setup["arbiter"]
    anne, bruno, _ = setup["players"]
    play = new_game(setup, seed=7)
    game = play.game
    play.play({anne: ("HAINES", "H4", None), bruno: ("HAINES", "H4", None)})
    rnd = play.open_round()
    play.propose(rnd, anne, "AUlOFEE", "G6")
    decision_warning(round_id=rnd.pk, player_id=bruno.pk, reason="Bavardage", actor=head)
    play.finish(rnd)
    reg = Registration.objects.get(tournament=setup["tournament"], player=anne)
    registration_token_issue(registration_id=reg.pk, actor=head)
    client.force_login(head)
    return {**setup, "client": client, "game": game}


def check_file(kind: str, response: Any) -> None:
    """Right type, a filename, and a body that opens as what it claims."""
    assert response.status_code == 200, (kind, response.content[:300])
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body, kind
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; filename="), disposition
    ctype = response["Content-Type"]
    if ctype.startswith("application/pdf"):
        assert body.startswith(b"%PDF"), kind
    elif "spreadsheetml" in ctype:
        workbook = load_workbook(io.BytesIO(body))
        assert "Classement" in workbook.sheetnames
    elif ctype.startswith("application/json"):
        assert json.loads(body)["format"] == "tirage-game"
    elif ctype.startswith("application/xml"):
        assert body.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<EliotGame format="2">')
    else:
        assert ctype.startswith("text/csv"), (kind, ctype)
    expected = {"xlsx": "spreadsheetml", "classic-xlsx": "spreadsheetml", "csv": "text/csv",
                "sigles": "text/csv", "record": "application/json",
                "eliot": "application/xml"}  # fmt: skip
    expected = expected.get(kind, "application/pdf")
    assert expected in ctype, (kind, ctype)


def test_every_document_downloads_from_the_console(played) -> None:
    client = played["client"]
    page = client.get(reverse("console:documents", args=["open-test"]))
    assert page.status_code == 200
    text = page.content.decode()
    for doc in DOCUMENTS:
        assert f'data-kind="{doc.kind}"' in text, doc.kind
    # Heavy ones are offered as a background job; the others as a plain link.
    assert reverse("console:report_job_create", args=["open-test", "xlsx"]) in text
    assert reverse("console:report_job_create", args=["open-test", "player-records"]) in text
    for doc in DOCUMENTS:
        url = reverse("console:document", args=["open-test", doc.kind])
        if doc.scope != TOURNAMENT:
            check_file(doc.kind, client.get(url, {"partie": "1"}))
        if doc.scope != GAME:
            check_file(doc.kind, client.get(url))
    # The whole tournament's CSV carries a BOM; the tablet links print Anne's link.
    csv = client.get(reverse("console:document", args=["open-test", "csv"])).content
    assert csv.startswith("\ufeff".encode())


def test_bad_document_requests_are_4xx(played) -> None:
    client = played["client"]

    def url(kind: str) -> str:
        return reverse("console:document", args=["open-test", kind])

    response = client.get(url("game-sheet"))
    assert (
        response.status_code == 404
        and 'data-code="document.game_required"' in response.content.decode()
    )
    # No such document (a whole-tournament one for a game, or the reverse): a 404, as in
    # the API (tournaments.errors.http_status).
    assert client.get(url("sigles"), {"partie": "1"}).status_code == 404
    assert client.get(url("nothing")).status_code == 404
    assert client.get(url("results"), {"partie": "9"}).status_code == 404
    assert client.get(url("results"), {"partie": "x"}).status_code == 404
    outsider = get_user_model().objects.create_user("autre", password="z")
    client.force_login(outsider)
    assert client.get(url("results")).status_code == 403
    assert client.get(reverse("console:documents", args=["open-test"])).status_code == 403
    client.logout()
    assert client.get(url("results")).status_code == 302  # to the login page


def test_api_documents(played) -> None:
    api = APIClient()
    base = "/api/tournaments/open-test/documents"
    assert api.get(f"{base}/results").status_code == 401
    api.force_authenticate(played["arbiter"])
    check_file("results", api.get(f"{base}/results", {"game": 1}))
    check_file("xlsx", api.get(f"{base}/xlsx"))
    check_file("record", api.get(f"{base}/record", {"game": 1}, HTTP_ACCEPT="application/json"))
    check_file("game-sheet", api.get(f"{base}/game-sheet?game=1", HTTP_ACCEPT="application/pdf"))
    body = api.get(f"{base}/game-sheet").json()
    assert body["code"] == "document.game_required"
    assert api.get(f"{base}/nothing").json()["code"] == "document.unknown"
    assert api.get(f"{base}/nothing").status_code == 404

    outsider = get_user_model().objects.create_user("pas-arbitre", password="z")
    api.force_authenticate(outsider)
    response = api.get(f"{base}/results")
    assert response.status_code == 403 and response.json()["code"].startswith("access.")
    token = Registration.objects.exclude(access_token=None).first().access_token
    player = APIClient()
    player.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    assert player.get(f"{base}/results").status_code == 403


def test_a_report_job_is_built_and_downloaded(
    played, eager_celery, django_capture_on_commit_callbacks
) -> None:
    client = played["client"]
    create = reverse("console:report_job_create", args=["open-test", "xlsx"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(create)
    assert len(callbacks) == 1
    job = ReportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("console:report_job", args=[job.pk])
    job.refresh_from_db()
    assert (job.state, job.progress, job.created_by) == ("done", 100, played["arbiter"])
    status = client.get(reverse("console:report_job_status", args=[job.pk])).json()
    assert status["state"] == "done" and status["download"]
    page = client.get(response["Location"]).content.decode()
    assert "Télécharger" in page and job.filename in page
    check_file("xlsx", client.get(status["download"]))

    # Per game: the players' records; a job for an impossible document is refused at once.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("console:report_job_create", args=["open-test", "player-records"]),
                    {"partie": "1"})  # fmt: skip
    job = ReportJob.objects.get(kind="player-records")
    assert job.state == "done" and job.params["game"] == 1
    check_file("player-records", client.get(reverse("console:report_job_file", args=[job.pk])))
    refused = client.post(reverse("console:report_job_create", args=["open-test", "game-sheet"]))
    assert refused.status_code == 404 and ReportJob.objects.count() == 2  # no such document

    # A job not built yet: its page refreshes, its file is a 404.
    waiting = ReportJob.objects.create(tournament=played["tournament"], kind="xlsx")
    page = client.get(reverse("console:report_job", args=[waiting.pk])).content.decode()
    assert 'http-equiv="refresh"' in page
    assert client.get(reverse("console:report_job_file", args=[waiting.pk])).status_code == 404
    outsider = get_user_model().objects.create_user("autre", password="z")
    client.force_login(outsider)
    assert client.get(reverse("console:report_job_status", args=[job.pk])).status_code == 403


def test_game_record_import_replays_the_same_racks(played) -> None:
    client, head = played["client"], played["arbiter"]
    record = client.get(reverse("console:document", args=["open-test", "record"]),
                        {"partie": "1"}).content  # fmt: skip
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("console:record_import", args=["open-test"])
    assert client.get(url).status_code == 200
    bad = SimpleUploadedFile("x.tirage.json", b'{"format": "autre"}')
    response = client.post(url, {"file": bad})
    assert response.status_code == 400 and 'data-code="record.' in response.content.decode()
    good = SimpleUploadedFile("p1.tirage.json", record)
    response = client.post(url, {"file": good})
    assert response.status_code == 302
    game = Game.objects.get(tournament=played["tournament"], number=2)
    assert game.kind == "predrawn" and response["Location"] == reverse(
        "console:game", args=[game.pk]
    )
    first = played["game"].rounds.order_by("number")
    for old in first:
        new = round_draw(game_id=game.pk, actor=head)
        assert new.rack == old.rack
        round_open(round_id=new.pk, actor=head)
        round_close(round_id=new.pk, actor=head, confirm=True)
        round_place_top(round_id=new.pk, actor=head)
    # A plain arbiter may not create games.
    helper = get_user_model().objects.create_user("assesseur", password="y")
    ArbiterMembership.objects.create(user=helper, tournament=played["tournament"])
    client.force_login(helper)
    assert client.get(url).status_code == 403


def test_documents_above_direct_cells_go_to_the_worker(
    played, settings, eager_celery, django_capture_on_commit_callbacks
) -> None:
    """3 players × 1 game = 3 cells. At a limit of 3 the results download directly; at 2
    the console answers 303 to the documents page (« Préparer »), the API 409
    ``document.by_worker`` naming that page; documents whose cost does not grow with the
    players (the CSV, the game sheet) are never refused; the worker still builds it."""
    client = played["client"]
    results = reverse("console:document", args=["open-test", "results"])
    page_url = reverse("console:documents", args=["open-test"])
    prepare = reverse("console:report_job_create", args=["open-test", "results"])
    api = APIClient()
    api.force_authenticate(played["arbiter"])
    base = "/api/tournaments/open-test/documents"

    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 3
    check_file("results", client.get(results))
    check_file("results", api.get(f"{base}/results"))
    assert prepare not in client.get(page_url).content.decode()

    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 2
    response = client.get(results)
    assert response.status_code == 303
    assert response["Location"] == f"{page_url}#document-results"
    page = client.get(page_url).content.decode()
    assert prepare in page and "Préparer" in page
    assert "Ce document couvre 3 cases (joueurs × parties), plus que les 2" in page
    one_game = client.get(results, {"partie": "1"})
    assert one_game.status_code == 303
    assert one_game["Location"] == f"{page_url}#document-results-1"
    arbiter_sheet = client.get(reverse("console:document", args=["open-test", "arbiter-sheet"]),
                               {"partie": "1"})  # fmt: skip
    assert arbiter_sheet.status_code == 303
    check_file("csv", client.get(reverse("console:document", args=["open-test", "csv"])))
    check_file("game-sheet", client.get(reverse("console:document", args=["open-test",
                                                                          "game-sheet"]),
                                        {"partie": "1"}))  # fmt: skip

    refused = api.get(f"{base}/xlsx")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "document.by_worker"
    assert body["params"] == {"kind": "xlsx", "cells": 3, "limit": 2, "page": page_url}
    assert body["detail"] == (
        "Ce document couvre 3 cases (joueurs × parties), plus que les 2 produites pendant la "
        "requête : préparez-le avec le bouton « Préparer » de la page Documents de la console "
        f"({page_url})."
    )
    check_file("csv", api.get(f"{base}/csv"))
    # A wrong request is still the 404 it was, before any size is counted.
    assert api.get(f"{base}/arbiter-sheet").json()["code"] == "document.game_required"

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(prepare).status_code == 302
    job = ReportJob.objects.get(kind="results")
    assert job.state == "done"
    check_file("results", client.get(reverse("console:report_job_file", args=[job.pk])))


def test_the_tablet_links_sheet_is_sized_by_its_players_not_the_games(
    played, settings, eager_celery, django_capture_on_commit_callbacks
) -> None:
    """The tablet links hold a QR card a player, whatever the games: 3 players, so at a
    limit of 3 the sheet downloads (a second game would not change it), at 2 the console
    answers 303 (« Préparer ») and the API 409 ``document.by_worker`` counting players;
    the worker builds it, with the site's address in the links."""
    client = played["client"]
    links = reverse("console:document", args=["open-test", "tablet-links"])
    page_url = reverse("console:documents", args=["open-test"])
    prepare = reverse("console:report_job_create", args=["open-test", "tablet-links"])
    api = APIClient()
    api.force_authenticate(played["arbiter"])
    new_game(played, seed=8)  # 3 players × 2 games = 6 cells; 3 players

    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 3
    check_file("tablet-links", client.get(links))
    check_file("tablet-links", api.get("/api/tournaments/open-test/documents/tablet-links"))
    assert prepare not in client.get(page_url).content.decode()

    settings.TIRAGE_DOCUMENT_DIRECT_CELLS = 2
    response = client.get(links)
    assert (response.status_code, response["Location"]) == (
        303, f"{page_url}#document-tablet-links"
    )  # fmt: skip
    assert prepare in client.get(page_url).content.decode()
    refused = api.get("/api/tournaments/open-test/documents/tablet-links").json()
    assert refused["code"] == "document.by_worker"
    assert refused["params"] == {"kind": "tablet-links", "players": 3, "limit": 2,
                                 "page": page_url}  # fmt: skip
    assert refused["detail"] == (
        "Ce document couvre 3 joueurs, plus que les 2 produits pendant la requête : "
        "préparez-le avec le bouton « Préparer » de la page Documents de la console "
        f"({page_url})."
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(prepare).status_code == 302
    job = ReportJob.objects.get(kind="tablet-links")
    assert job.state == "done"
    check_file("tablet-links", client.get(reverse("console:report_job_file", args=[job.pk])))
