"""Security boundaries, in-process (no stack needed): players, arbiters of another
tournament, CSRF on the console's forms, throttling of the player endpoints, secrets."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.models import ArbiterMembership, Player, Registration, Round, Tournament
from tournaments.services import round_close
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_tournaments(tournament_setup: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    """Tournament A (tournament_setup, round 1 open) and B (its own arbiter and player)."""
    a = tournament_setup["tournament"]
    tokens = [
        registration_token_issue(registration_id=r.pk, actor=SYSTEM)
        for r in Registration.objects.filter(tournament=a).order_by("table_number")
    ]
    play = new_game(tournament_setup, seed=7, actor=SYSTEM)
    game, rnd = play.game, play.open_round()
    b = Tournament.objects.create(name="Open B", slug="open-b", lexicon=a.lexicon)
    other = django_user_model.objects.create_user("arbitre-b", password="b-pw-12345")
    ArbiterMembership.objects.create(user=other, tournament=b, role="head")
    eve = Player.objects.create(name="Ève")
    reg_b = Registration.objects.create(tournament=b, player=eve, table_number=1)
    token_b = registration_token_issue(registration_id=reg_b.pk, actor=SYSTEM)
    rnd_b = new_game(tournament_setup, seed=8, actor=SYSTEM, tournament=b).open_round()
    return {"a": a, "b": b, "round": rnd, "round_b": rnd_b, "tokens": tokens,
            "token_b": token_b, "arbiter_b": other, "game": game}  # fmt: skip


def player(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Player {token}")
    return client


def submit(client: APIClient, **body: Any) -> Any:
    body = {"reference": "H4", "word": "HAINES", "score": 26, **body}
    return client.post("/api/player/proposals/", body, format="json")


def test_players_see_and_change_only_their_own_proposal(two_tournaments) -> None:
    t = two_tournaments
    anne, bruno = player(t["tokens"][0]), player(t["tokens"][1])
    mine = submit(anne, client_key="anne-1")
    assert mine.status_code == 201
    pid = mine.json()["id"]
    # Not before the close, not someone else's, not the round's list.
    early = anne.get(f"/api/proposals/{pid}/")
    assert early.status_code == 409 and "outcome" not in early.json()  # round.not_closed
    assert bruno.get(f"/api/proposals/{pid}/").status_code == 403
    assert bruno.get(f"/api/rounds/{t['round'].pk}/proposals/").status_code == 403
    # Bruno cannot correct Anne's proposal, nor hand in under her name: his submission
    # is his own (the token decides who; there is no player field to forge).
    corrected = bruno.post(
        f"/api/proposals/{pid}/correct",
        {"reference": "H4", "word": "HUE", "reason": "x"},
        format="json",
    )
    assert corrected.status_code == 403
    forged = submit(bruno, client_key="anne-1", player=t["tokens"][0])
    assert forged.status_code == 201 and forged.json()["id"] != pid
    round_close(round_id=t["round"].pk, actor=SYSTEM)
    assert anne.get(f"/api/proposals/{pid}/").status_code == 200
    assert bruno.get(f"/api/proposals/{pid}/").status_code == 403
    # The player's views never list anyone else.
    state = anne.get("/api/player/round/").json()
    assert state["proposal"]["id"] == pid and "proposals" not in state


def test_players_cannot_act_after_the_deadline(two_tournaments) -> None:
    t = two_tournaments
    Round.objects.filter(pk=t["round"].pk).update(deadline=timezone.now() - timedelta(seconds=1))
    late = submit(player(t["tokens"][0]), client_key="late-1")
    assert late.status_code == 201 and late.json()["late"] is True  # stored, scores zero
    round_close(round_id=t["round"].pk, actor=SYSTEM)
    after = submit(player(t["tokens"][1]), client_key="late-2")
    assert after.json()["late"] is True


def test_players_reach_no_arbiter_action_nor_another_tournament(two_tournaments) -> None:
    t = two_tournaments
    anne = player(t["tokens"][0])
    rid, gid, slug = t["round"].pk, t["game"].pk, t["a"].slug
    for method, path, body in [
        ("post", f"/api/rounds/{rid}/close", {}),
        ("post", f"/api/rounds/{rid}/place", {}),
        ("post", f"/api/rounds/{rid}/cancel", {"reason": "x"}),
        ("post", f"/api/rounds/{rid}/slips/", {"table_number": 2, "reference": "H4",
                                               "word": "HAINES"}),
        ("post", f"/api/rounds/{rid}/decisions/", {"table_number": 2, "kind": "warning",
                                                   "reason": "x"}),
        ("post", f"/api/games/{gid}/rounds/draw", {}),
        ("get", f"/api/games/{gid}/", None),
        ("get", f"/api/tournaments/{slug}/players/", None),
        ("post", f"/api/tournaments/{slug}/games/", {"kind": "seeded"}),
        ("post", "/api/tournaments/", {"name": "X", "slug": "x"}),
    ]:  # fmt: skip
        response = getattr(anne, method)(path, body, format="json")
        assert response.status_code == 403, (path, response.content)
    # A round of tournament B through A's token.
    other = submit(anne, client_key="b-1", round=t["round_b"].pk)
    assert other.status_code == 403 and other.json()["code"] == "access.player"
    assert Round.objects.get(pk=t["round_b"].pk).state == "open"


def test_arbiters_of_one_tournament_cannot_touch_another(two_tournaments) -> None:
    t = two_tournaments
    client = APIClient()
    client.force_authenticate(t["arbiter_b"])
    rid, gid, slug = t["round"].pk, t["game"].pk, t["a"].slug
    for method, path, body in [
        ("post", f"/api/rounds/{rid}/close", {}),
        ("post", f"/api/rounds/{rid}/slips/", {"table_number": 2, "reference": "H4",
                                               "word": "HAINES"}),
        ("get", f"/api/rounds/{rid}/proposals/", None),
        ("get", f"/api/rounds/{rid}/", None),
        ("get", f"/api/games/{gid}/", None),
        ("post", f"/api/games/{gid}/rounds/draw", {}),
        ("get", f"/api/tournaments/{slug}/players/", None),
        ("post", f"/api/tournaments/{slug}/players/", {"name": "Intrus"}),
    ]:  # fmt: skip
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 403, (path, response.content)
    assert Round.objects.get(pk=rid).state == "open"
    assert not Registration.objects.filter(tournament=t["a"], player__name="Intrus").exists()


def test_csrf_is_required_on_console_forms_and_session_api(two_tournaments) -> None:
    t = two_tournaments
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ArbiterMembership.objects.filter(tournament=t["a"]).first().user)
    rid = t["round"].pk
    for path in (f"/arbitre/tour/{rid}/fermer/", f"/arbitre/tour/{rid}/saisie/"):
        assert browser.post(path, {"table_number": 2}).status_code == 403, path
    assert browser.post(f"/api/rounds/{rid}/close", {}).status_code == 403
    assert Round.objects.get(pk=rid).state == "open"
    # The login form itself needs the token.
    assert (
        Client(enforce_csrf_checks=True)
        .post("/arbitre/connexion/", {"username": "x", "password": "y"})
        .status_code
        == 403
    )


def test_player_endpoints_are_rate_limited(two_tournaments) -> None:
    anne = player(two_tournaments["tokens"][0])
    codes = {anne.get("/api/player/round/").status_code for _ in range(300)}
    assert 429 in codes


def test_nginx_limits_the_player_endpoints() -> None:
    """The zones are declared and applied (test_nginx.py runs them for real)."""
    http = (ROOT / "deploy" / "nginx-http.conf").read_text()
    locations = (ROOT / "deploy" / "nginx-locations.conf").read_text()
    assert "zone=tirage_player_token" in http and "zone=tirage_player_address" in http
    assert "location ~ ^/(api/player/|tablette/)" in locations


def test_secrets_come_only_from_the_environment(tmp_path: Path) -> None:
    """Production refuses to start without SECRET_KEY; env.example's values pass
    ``check --deploy`` with no warning; the stack's generated env file is private."""
    base = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "tournaments.settings",
            "TIRAGE_VAR_DIR": str(tmp_path / "var")}  # fmt: skip
    example = {}
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            example[key] = value.split("#")[0].strip()
    example["TIRAGE_VAR_DIR"] = str(tmp_path / "var")
    run = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    ok = subprocess.run(run, cwd=ROOT, env={**base, **example}, capture_output=True, text=True,
                        timeout=120)  # fmt: skip
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "no issues" in ok.stdout
    missing = {k: v for k, v in example.items() if k != "SECRET_KEY"}
    refused = subprocess.run(run, cwd=ROOT, env={**base, **missing}, capture_output=True,
                             text=True, timeout=120)  # fmt: skip
    assert refused.returncode != 0 and "SECRET_KEY must be set" in refused.stderr
    stack = (ROOT / "deploy" / "stack").read_text()
    assert "umask 077" in stack and "token_urlsafe" in stack
