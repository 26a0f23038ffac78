"""A digit that only ``str.isdigit()`` calls one (« ² »: ``int("²")`` raises) or a number no
column holds, typed into the classic pages and the score sheet's forms (issue 17), is
refused with a 4xx and a French sentence, never a 500 (tournaments/parsing.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.site.test_score_sheet_pages import paired  # noqa: F401  (the fixture)
from tournaments.services import registration_token_issue

pytestmark = pytest.mark.django_db

SUPERSCRIPT = "²"
HUGE = "9" * 25


def refused(response) -> bool:  # type: ignore[no-untyped-def]
    return 400 <= response.status_code < 500


def test_the_score_sheet_forms_refuse_a_superscript_digit(client, paired) -> None:  # noqa: F811
    t, head = paired["tournament"], paired["arbiter"]
    client.force_login(head)
    sheets = reverse("classic:sheets", args=[t.slug])
    for table in (SUPERSCRIPT, HUGE):
        assert refused(client.post(sheets, {"action": "table", "table": table}))
    assert client.post(sheets, {"names": "Ana\nBen", "tie_break": "ex_aequo"}).status_code == 302
    url = reverse("classic:sheet", args=[t.slug, 1])
    assert client.post(url, {"action": "line", "line": "12"}).status_code == 302
    for number in (SUPERSCRIPT, HUGE):
        answer = client.post(url, {"action": "correct", "number": number, "line": "13",
                                   "reason": "faute de frappe"})  # fmt: skip
        assert refused(answer)
    end = {"action": "end", "left_0": "0", "left_1": "9", "went_out": SUPERSCRIPT}
    answer = client.post(url, end)
    assert answer.status_code == 400
    assert "Indiquez qui a terminé la partie" in answer.content.decode()


def test_the_classic_pages_refuse_a_superscript_digit(client, paired) -> None:  # noqa: F811
    t, head = paired["tournament"], paired["arbiter"]
    client.force_login(head)
    event = reverse("classic:event", args=[t.slug])
    manual = client.post(event, {"action": "manual", "division": "1", "tables": "1 ²\n2 3"})
    assert refused(manual)
    anne = registration_token_issue(
        registration_id=paired["tables"][1].table.first.registration_id, actor=head
    )
    tablet = reverse("classic_tablet:page", args=[anne])
    assert client.post(tablet, {"mine": SUPERSCRIPT, "theirs": "1"}).status_code == 400


def test_a_nul_character_is_refused_not_a_500(client, paired) -> None:  # noqa: F811
    """PostgreSQL refuses the NUL character in text: a NUL typed into the rankings' search
    or a score sheet's names or reason must be refused (or ignored), never a 500."""
    t, head = paired["tournament"], paired["arbiter"]
    client.force_login(head)
    rankings = reverse("console:rankings", args=[t.slug])
    assert client.get(rankings, {"q": "An\x00ne"}).status_code < 500
    sheets = reverse("classic:sheets", args=[t.slug])
    assert refused(client.post(sheets, {"names": "A\x00na\nBen", "tie_break": "ex_aequo"}))
    assert client.post(sheets, {"names": "Ana\nBen", "tie_break": "ex_aequo"}).status_code == 302
    url = reverse("classic:sheet", args=[t.slug, 1])
    assert client.post(url, {"action": "line", "line": "12"}).status_code == 302
    answer = client.post(url, {"action": "correct", "number": "1", "line": "13",
                               "reason": "faute\x00"})  # fmt: skip
    assert refused(answer)
    assert client.post(url, {"action": "line", "line": "H8 CH\x00AT"}).status_code < 500
    event = reverse("classic:event", args=[t.slug])
    assert refused(client.post(event, {"action": "division", "name": "Div\x00B"}))
    result = reverse("classic:round", args=[t.slug, 1, 1])
    assert refused(client.post(result, {"line": "1 350 300", "reason": "x\x00"}))
