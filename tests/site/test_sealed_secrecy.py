"""A sealed game's future rounds stay secret (issue 16, item 1): with round 1 released and
played, and rounds 2 and 3 sealed, no console page, API answer, document, audit row, log
line or stored column shows their racks or tops, to the head arbiter, a superuser or a
player (her tablet pages and the player API, with her token).

The racks are those of tests/site/test_sealed_release.py (the hand-written Eliot file):
round 1 WHISKYE (top H4 WHISKY 92), round 2 E+BBCCDD rejected then BOUDEXL (top 9F OXYDE
36), round 3 BLU+?MAN (top K4 ALBUMeN 92). What is searched is each future rack's letters
and each future top's word, in the raw bytes and in the text with tags and spaces removed
(a rack shown one tile a cell)."""

from __future__ import annotations

import io
import logging
import re
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.scenario import new_predrawn_game
from tests.site.test_sealed_release import TEXT
from tournaments.access import SYSTEM
from tournaments.models import AuditLog, ProposalVersion, Registration
from tournaments.reports.documents import DOCUMENTS, TOURNAMENT
from tournaments.services.registry import registration_token_issue
from tournaments.services.release import Schedule, release_schedule_set, round_release

pytestmark = pytest.mark.django_db

SECRETS = ("BOUDEXL", "BBCCDD", "BLU+?MAN", "BLU?MAN", "BLUMAN", "OXYDE", "ALBUMEN")


def leaks(body: bytes | str, secrets: tuple[str, ...] = SECRETS) -> list[str]:
    """The secrets found in ``body`` (raw, then without tags and blanks), case-blind."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    flat = re.sub(r"\s+", "", re.sub(r"<[^>]*>", "", text))
    return [s for s in secrets if s in text.upper() or s in flat.upper()]


def document_text(response: Any) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    ctype = response.get("Content-Type", "")
    if body.startswith(b"%PDF"):
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if "spreadsheetml" in ctype:
        book = load_workbook(io.BytesIO(body))
        return "\n".join(str(c.value) for ws in book for row in ws.iter_rows() for c in row)
    return body.decode("utf-8", "replace")


@pytest.fixture
def sealed(tournament_setup, caplog) -> dict[str, Any]:
    """Round 1 released, played and placed; rounds 2 and 3 due in one and two hours."""
    caplog.set_level(logging.DEBUG)
    setup = tournament_setup
    anne, bruno, _ = setup["players"]
    play = new_predrawn_game(setup, TEXT, sealed=True)
    start = timezone.now() - timedelta(seconds=5)
    release_schedule_set(game_id=play.game.pk, schedule=Schedule(starts_at=start, interval=3600),
                         actor=setup["arbiter"])  # fmt: skip
    rnd = round_release(game_id=play.game.pk, number=1, actor=SYSTEM)
    assert rnd is not None and rnd.rack == "WHISKYE"
    play.open(rnd)
    play.propose(rnd, anne, "WHISKY", "H4")
    play.propose(rnd, bruno, "WHISKY", "8H")
    play.finish(rnd)
    token = registration_token_issue(
        registration_id=Registration.objects.get(player=anne).pk, actor=setup["arbiter"]
    )
    return {**setup, "game": play.game, "round": rnd, "token": token}


def _routes(resolver: Any, prefix: str = "") -> list[tuple[str, list[str]]]:
    out = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            out += _routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            route = prefix + str(entry.pattern)
            out.append((route, re.findall(r"<(?:\w+:)?(\w+)>", route)))
    return out


def _paths(sealed: dict[str, Any]) -> list[str]:
    """Every GET route of the site whose parameters this game fills (the documents once
    per kind), with the game's values."""
    game, rnd = sealed["game"], sealed["round"]
    reg = Registration.objects.filter(tournament=sealed["tournament"]).first()
    proposal = ProposalVersion.objects.filter(round=rnd).first()
    values = {"slug": "open-test", "game_id": game.pk, "round_id": rnd.pk, "number": 1,
              "registration_id": reg.pk, "token": sealed["token"],
              "proposal_id": proposal.pk}  # fmt: skip
    paths = []
    for route, params in _routes(get_resolver()):
        if "^" in route or "(?" in route or "admin/" in route:
            continue
        if params == ["slug", "kind"]:
            for doc in DOCUMENTS:
                path = "/" + route.replace("<slug:slug>", "open-test")
                path = path.replace("<str:kind>", doc.kind)
                paths.append(path + ("" if doc.scope == TOURNAMENT else "?partie=1&game=1"))
            continue
        if not set(params) <= set(values):
            continue
        path = route
        for name in params:
            path = re.sub(rf"<(?:\w+:)?{name}>", str(values[name]), path)
        paths.append("/" + path)
    return paths


def test_no_page_api_answer_or_document_shows_a_future_round(
    sealed, client, django_user_model, caplog
) -> None:
    admin = django_user_model.objects.create_superuser("admin-test", password="x")
    api = APIClient()
    seen: dict[str, list[str]] = {}
    public: set[str] = set()  # where round 1's rack, released, is shown: the scan sees racks
    statuses: dict[int, int] = {}
    paths = _paths(sealed)
    assert reverse("console:release", args=[sealed["game"].pk]) in paths
    assert f"/api/games/{sealed['game'].pk}/release" in paths
    player = APIClient()
    player.credentials(HTTP_AUTHORIZATION=f"Player {sealed['token']}")
    for user in (sealed["arbiter"], admin, None):  # None: Anne, with her tablet token
        if user is None:
            client.logout()
            api = player
        else:
            client.force_login(user)
            api.force_authenticate(user=user)
        for path in paths:
            agent = api if path.startswith("/api/") else client
            response = agent.get(path)
            text = document_text(response) if response.status_code == 200 else ""
            raw = response.content if not response.streaming else b""
            found = leaks(raw) + leaks(text)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if leaks(raw, ("WHISKYE",)) or leaks(text, ("WHISKYE",)):
                public.add(path)
            if found:
                seen[f"{user.username if user else 'Anne'} {path} {response.status_code}"] = found
    assert not seen, seen
    # The scan reads what it should: most routes answered, and the released rack is found
    # on the game screen, in the API's game and in the game record.
    assert len(paths) > 60 and statuses.get(200, 0) > 2 * 50, statuses
    assert any(path.startswith("/tablette/") for path in public), public  # Anne's tablet
    game_id = sealed["game"].pk
    assert {f"/arbitre/partie/{game_id}/", f"/api/games/{game_id}/"} <= public, public
    assert any("/documents/record" in path for path in public), public
    client.force_login(sealed["arbiter"])
    page = client.get(reverse("console:release", args=[game_id])).content.decode()
    assert "Prochain dévoilement : coup 2 à" in page and "data-release-seconds" in page
    # Nor the audit log, the log lines or any stored column (round 1 is public now).
    assert not leaks(str(list(AuditLog.objects.values_list("payload", flat=True))))
    assert not leaks("\n".join(r.getMessage() for r in caplog.records))
    for model in apps.get_app_config("tournaments").get_models():
        assert not leaks(str(list(model.objects.values()))), model.__name__
