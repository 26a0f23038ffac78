"""Issue 16, centres in the console and the API: a centre arbiter is refused another
centre's player's slip both ways (the services check it, not the page), sees only their
centre's slips and players, closes their centre from the game screen; the organiser's
pages (centres, arbiters with their centre) and the per-centre ranking (page, PDF, XLSX).
"""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.site.test_centres import event  # noqa: F401  (the fixture: a 2-centre event)
from tournaments.models import (
    ArbiterMembership,
    Centre,
    CentreClose,
    ProposalVersion,
    Registration,
    SlipConflict,
)

pytestmark = pytest.mark.django_db


def logged(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_centre_arbiter_gets_403_on_another_centres_slip_console_and_api(event) -> None:  # noqa: F811
    anne, bruno, _chloe, _denis = event["players"]
    rnd = event["play"].open_round()
    bruno_table = Registration.objects.get(player=bruno).table_number  # centre B
    console = logged(event["arb_a"])
    url = reverse("console:slips", args=[rnd.pk])
    refused = console.post(url, {"line": f"{bruno_table} H4 HAINES 26"})
    assert refused.status_code == 403
    assert "autre centre" in refused.content.decode()
    api = APIClient()
    api.force_login(event["arb_a"])
    answer = api.post(f"/api/rounds/{rnd.pk}/slips/",
                      {"table_number": bruno_table, "word": "HAINES", "reference": "H4"},
                      format="json")  # fmt: skip
    assert (answer.status_code, answer.json()["code"]) == (403, "access.centre")
    assert not ProposalVersion.objects.filter(player=bruno).exists()
    players = api.get(f"/api/tournaments/{event['tournament'].slug}/players/").json()
    assert sorted(p["player"]["name"] for p in players) == ["Anne", "Chloé", "Denis"]
    # Centre B's arbiter enters Bruno's slip; centre A's may not read it, nor list it.
    logged(event["arb_b"]).post(url, {"line": f"{bruno_table} H4 HAINES 26"})
    version = ProposalVersion.objects.get(player=bruno)
    assert api.get(f"/api/proposals/{version.pk}/").status_code == 403
    assert api.get(f"/api/rounds/{rnd.pk}/proposals/").json() == []
    # Their own player: accepted, and listed.
    anne_table = Registration.objects.get(player=anne).table_number
    assert console.post(url, {"line": f"{anne_table} H4 HAINES 26"}).status_code == 302
    listed = api.get(f"/api/rounds/{rnd.pk}/proposals/").json()
    assert [p["player"] for p in listed] == [anne.pk]
    # The slips page shows centre A's missing slips only (Chloé, Denis), never Bruno.
    page = console.get(url).content.decode()
    assert "Chloé" in page and "Denis" in page and "Bruno" not in page
    # Centre A's count: Anne's slip of its 3 players (Bruno's is centre B's).
    assert '<strong id="received">1</strong> / <span id="registered">3</span>' in page
    decisions = console.get(reverse("console:decisions", args=[rnd.pk])).content.decode()
    assert "Chloé" in decisions and "Bruno" not in decisions
    refused = console.post(
        reverse("console:decisions", args=[rnd.pk]),
        {"table_number": bruno_table, "kind": "warning", "reason": "bruit"},
    )
    assert refused.status_code == 403
    # The tablet-links sheet holds every centre's tokens: refused to a centre arbiter.
    links = reverse("console:document", args=[event["tournament"].slug, "tablet-links"])
    assert console.get(links).status_code == 403
    documents = f"/api/tournaments/{event['tournament'].slug}/documents/tablet-links"
    assert api.get(documents).json()["code"] == "access.centre_document"
    # A centre-B player's page: 403 for centre A's arbiter.
    reg_b = Registration.objects.get(player=bruno)
    assert console.get(reverse("console:registration_edit", args=[reg_b.pk])).status_code == 403
    event["play"].finish(rnd)


def test_centre_close_from_the_game_screen(event) -> None:  # noqa: F811
    play, a, b = event["play"], event["a"], event["b"]
    rnd = play.open_round()
    game_url = reverse("console:game", args=[play.game.pk])
    head = logged(event["head"]).get(game_url).content.decode()
    assert 'id="centres"' in head and "Centre A" in head and "Centre B" in head
    assert 'id="close-form"' not in head  # the round closes through its centres
    assert "chaque centre ferme le coup" in head  # what the f key says instead
    console_a = logged(event["arb_a"])
    close = reverse("console:centre_close", args=[rnd.pk])
    # Time is left: the first press asks for a confirmation, the second closes centre A.
    first = console_a.post(close, {"centre": a.pk})
    assert first.status_code == 302 and "confirmer-centre" in first["Location"]
    assert console_a.post(close, {"centre": a.pk, "confirm": "1"}).status_code == 302
    # Centre A's arbiter cannot close centre B.
    assert console_a.post(close, {"centre": b.pk, "confirm": "1"}).status_code == 403
    head = logged(event["head"]).get(game_url).content.decode()
    assert "En jeu : Centre B" in head
    api = APIClient()
    api.force_login(event["arb_b"])
    early = api.post(f"/api/rounds/{rnd.pk}/centres/{b.pk}/close", {}, format="json")
    assert (early.status_code, early.json()["code"]) == (409, "centre.time_left")
    waiting = api.get(f"/api/rounds/{rnd.pk}/centres/").json()
    assert [(w["name"], w["closed_at"] is None) for w in waiting] == [
        ("Centre A", False), ("Centre B", True)]  # fmt: skip
    assert waiting[0]["closed_by"] == "arbitre-a"
    done = api.post(f"/api/rounds/{rnd.pk}/centres/{b.pk}/close", {"confirm": True},
                    format="json")  # fmt: skip
    assert done.status_code == 200 and done.json()["state"] == "closed"
    rnd.refresh_from_db()
    assert rnd.state == "closed"
    play.place(rnd)


def test_the_organiser_manages_centres_and_their_arbiters(event, django_user_model) -> None:  # noqa: F811
    t, head = event["tournament"], event["head"]
    client = logged(head)
    url = reverse("console:centres", args=[t.slug])
    page = client.get(url).content.decode()
    assert "Centre A" in page and "Club de Montréal" in page
    added = client.post(url, {"name": "Centre C", "club": "Club de Liège",
                              "time_zone": "Europe/Brussels", "address": ""})  # fmt: skip
    assert added.status_code == 302
    c = Centre.objects.get(name="Centre C")
    bad = client.post(url, {"name": "Centre D", "time_zone": "Lune/Tranquillité"})
    assert bad.status_code == 400 and "fuseau horaire" in bad.content.decode()
    edit = reverse("console:centre_edit", args=[c.pk])
    client.post(edit, {f"c{c.pk}-name": "Centre C", f"c{c.pk}-club": "Club de Namur",
                       f"c{c.pk}-time_zone": "Europe/Brussels"})  # fmt: skip
    assert Centre.objects.get(pk=c.pk).club == "Club de Namur"
    assert logged(event["arb_a"]).post(url, {"name": "X", "time_zone": "UTC"}).status_code == 403
    # The arbiters page: a new arbiter bound to centre C as its head.
    arbiters = reverse("console:arbiters", args=[t.slug])
    client.post(arbiters, {"login": "arbitre-c", "centre": c.pk, "centre_head": "on"})
    m = ArbiterMembership.objects.get(user__username="arbitre-c")
    assert (m.centre_id, m.centre_head) == (c.pk, True)
    client.post(reverse("console:arbiter_centre", args=[t.slug]), {"user": m.user_id,
                                                                   "centre": ""})  # fmt: skip
    m.refresh_from_db()
    assert (m.centre_id, m.centre_head) == (None, False)
    assert "Centre C" in client.get(arbiters).content.decode()
    # A player's page: the organiser moves Bruno to centre C.
    reg = Registration.objects.get(player=event["players"][1])
    page = reverse("console:registration_edit", args=[reg.pk])
    assert client.post(page, {"action": "centre", "centre": c.pk}).status_code == 302
    assert Registration.objects.get(pk=reg.pk).centre_id == c.pk
    refused = logged(event["arb_b"]).post(page, {"action": "centre", "centre": ""})
    assert refused.status_code == 403  # centre B's arbiter: no longer their player


def test_rankings_per_centre_page_pdf_xlsx(event) -> None:  # noqa: F811
    anne, bruno, chloe, _denis = event["players"]
    event["play"].play({anne: ("HAINES", "H4", 26), bruno: ("HAINES", "H4", 26),
                        chloe: ("FEAUtES", "9B", 11)})  # fmt: skip
    client = logged(event["head"])
    t = event["tournament"]
    page = client.get(reverse("console:rankings", args=[t.slug])).content.decode()
    assert "Par centre" in page and "Centre A" in page
    # One centre's table alone, as the paged reader serves it (a table picked): Bruno only.
    one = client.get(reverse("console:rankings", args=[t.slug]), {"table": "centre-Centre B"})
    assert one.status_code == 200
    body = one.content.decode()
    assert "Bruno" in body and "Anne" not in body and "Chloé" not in body
    pdf = client.get(reverse("console:document", args=[t.slug, "results"]))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Classements par centre" in text and "Centre B" in text
    xlsx = client.get(reverse("console:document", args=[t.slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(xlsx.content))["Par centre"]
    rows = [row for row in sheet.iter_rows(min_row=2, values_only=True)]
    # Centre A: Anne 26 (1st of her centre), Chloé, Denis; centre B: Bruno 1st. Anne and
    # Bruno share the overall 1st place (26 each), so Anne's and Bruno's overall rank is 1.
    assert [(r[0], r[1], r[4], r[7]) for r in rows][:1] == [("Centre A", 1, "Anne", 1)]
    # Bruno (table 2) alone in centre B: 1st there, not tied there (an empty cell).
    assert rows[-1][:5] == ("Centre B", 1, None, 2, "Bruno")


def test_a_centre_arbiter_sees_only_their_centres_slip_conflicts(event) -> None:  # noqa: F811
    """The slip conflicts (both entries, their words and who typed them) are a centre's
    slips too: centre A's arbiter sees none of centre B's, open or settled, on the
    conflicts page or the round's arbitrage page (docs/simultaneous.md)."""
    _anne, bruno, _chloe, _denis = event["players"]
    rnd = event["play"].open_round()
    bruno_table = Registration.objects.get(player=bruno).table_number  # centre B
    slips = reverse("console:slips", args=[rnd.pk])
    # Centre B's arbiter and the organiser type Bruno's slip differently: a conflict.
    logged(event["arb_b"]).post(slips, {"line": f"{bruno_table} H4 HAINES 26"})
    logged(event["head"]).post(slips, {"line": f"{bruno_table} H4 HASINE 26"})
    conflicts = reverse("console:conflicts", args=[event["tournament"].slug])
    organiser = logged(event["head"]).get(conflicts).content.decode()
    assert "Bruno" in organiser and "HASINE" in organiser  # the organiser sees it
    console = logged(event["arb_a"])
    page = console.get(conflicts)
    assert page.status_code == 200
    assert "Bruno" not in page.content.decode() and "HASINE" not in page.content.decode()
    decisions = console.get(reverse("console:decisions", args=[rnd.pk])).content.decode()
    assert "conflit de saisie à régler" not in decisions
    # Settled, it is listed among the settled conflicts: still not to centre A.
    kept = ProposalVersion.objects.get(player=bruno, word="HAINES")
    conflict_id = SlipConflict.objects.get(player=bruno).pk
    logged(event["head"]).post(reverse("console:conflict_keep", args=[conflict_id]),
                               {"version": kept.pk})  # fmt: skip
    assert "Bruno" not in console.get(conflicts).content.decode()
    event["play"].finish(rnd)


def test_a_centre_close_of_an_unknown_round_or_centre_is_a_4xx(event) -> None:  # noqa: F811
    """An unknown round is the console's 404 page, a centre number no column holds (or a
    superscript digit) a refusal: never a 500."""
    rnd = event["play"].open_round()
    console = logged(event["head"])
    unknown = console.post(reverse("console:centre_close", args=[10**9]), {"centre": "1"})
    assert unknown.status_code == 404
    edit = console.post(reverse("console:centre_edit", args=[10**9]), {"name": "Centre C"})
    assert edit.status_code == 404
    url = reverse("console:centre_close", args=[rnd.pk])
    for centre in ("9" * 25, "²", "٣"):
        answer = console.post(url, {"centre": centre, "confirm": "1"})
        assert answer.status_code == 404, centre
    assert not CentreClose.objects.filter(round=rnd).exists()
    event["play"].finish(rnd)


def test_a_centre_arbiters_slip_log_keeps_their_entries_behind_other_centres(event) -> None:  # noqa: F811
    """The slip-entry page lists the round's 50 latest entries: for a centre arbiter, the
    50 latest of their centre, not the event's 50 latest kept to their centre (which, in a
    large event, leaves them an empty list)."""
    anne, bruno, _chloe, _denis = event["players"]
    rnd = event["play"].open_round()
    url = reverse("console:slips", args=[rnd.pk])
    anne_table = Registration.objects.get(player=anne).table_number
    bruno_table = Registration.objects.get(player=bruno).table_number
    console_a = logged(event["arb_a"])
    assert console_a.post(url, {"line": f"{anne_table} H4 HAINES 26"}).status_code == 302
    console_b = logged(event["arb_b"])
    for score in range(1, 52):  # 51 later entries in centre B
        console_b.post(url, {"line": f"{bruno_table} H4 HAINES {score}"})
    assert ProposalVersion.objects.filter(player=bruno).count() == 51
    page = console_a.get(url).content.decode()
    assert "HAINES" in page and "Anne" in page
    event["play"].finish(rnd)


def test_a_centre_arbiter_sees_their_centres_latest_settled_conflicts_behind_others(
    event,  # noqa: F811
) -> None:
    """The settled conflicts list keeps a centre's own latest 20: 20 of centre B's settled
    after centre A's one must not push it out of centre A's list (filtered, then limited)."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.selectors import resolved_conflicts

    anne, bruno, _chloe, _denis = event["players"]
    rnd = event["play"].open_round()
    outcome = {"outcome_kind": "valid", "outcome_score": 26, "outcome_raw_score": 26,
               "outcome_code": "ok", "source": "arbiter", "is_current": False}  # fmt: skip
    start = timezone.now() - timedelta(hours=1)

    def settled(player, n: int, minutes: int) -> None:
        first, second = (
            ProposalVersion.objects.create(
                round=rnd, player=player, version=2 * n + k, word=word, reference="H4", **outcome
            )
            for k, word in ((1, "HAINES"), (2, "HASINE"))
        )
        SlipConflict.objects.create(
            round=rnd, player=player, first=first, second=second, kept=first,
            resolved_by=event["head"], resolved_at=start + timedelta(minutes=minutes),
        )  # fmt: skip

    settled(anne, 0, 0)  # centre A's, settled first
    for n in range(20):  # then 20 of centre B's, all newer
        settled(bruno, n, 1 + n)
    t = event["tournament"]
    assert [c.player_id for c in resolved_conflicts(t, centre_id=event["a"].pk)] == [anne.pk]
    assert len(resolved_conflicts(t, centre_id=event["b"].pk)) == 20
    assert anne.pk not in [c.player_id for c in resolved_conflicts(t)]  # the event's 20 newest
    page = logged(event["arb_a"]).get(reverse("console:conflicts", args=[t.slug]))
    text = page.content.decode()
    assert page.status_code == 200 and "Anne" in text and "Bruno" not in text
    event["play"].finish(rnd)
