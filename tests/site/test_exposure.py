"""What the site exposes (issue 14, items 6, 9, 10): a Content-Security-Policy without
inline scripts, the admin off and the API schema for arbiters only in production, JSON
errors on every /api/ path, and no development password in production.

Before: no CSP header, an inline ``onchange`` handler, ``/admin/`` and ``/api/schema/``
public in production, HTML 404 pages under /api/, and ``arbitre/arbitre`` usable on a
production database."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client

from tournaments import wsgi
from tournaments.checks import CHECK_ID, dev_passwords_check

ROOT = Path(__file__).resolve().parents[2]
#: An executable inline script (a ``type="application/json"`` data block is not one).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
STYLE_ATTR = re.compile(r"\sstyle\s*=", re.I)


def test_no_template_has_an_inline_script_handler_or_style() -> None:
    for path in sorted((ROOT / "templates").rglob("*.html")):
        html = path.read_text()
        assert not INLINE_SCRIPT.search(html), path
        assert not HANDLER.search(html), path
        assert not STYLE_ATTR.search(html), path


@pytest.mark.django_db
def test_every_answer_carries_the_content_security_policy(tournament_setup) -> None:
    client = Client()
    for url in ("/", "/arbitre/connexion/", "/projecteur/open-test/", "/api/tournaments/",
                "/api/nope", "/tablette/inconnu/"):  # fmt: skip
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "default-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        if response["Content-Type"].startswith("text/html"):
            assert not INLINE_SCRIPT.search(response.content.decode()), url


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("get", "/api/nope", 404, "not_found"),
        ("post", "/api/nope/deeper/", 404, "not_found"),
        ("get", "/api/games/abc/", 404, "not_found"),
        ("get", "/api/tournaments/%0A%2C/players/", 404, "not_found"),
        ("get", "/api/tournaments/absent/", 404, "tournament.unknown"),
        ("put", "/api/tournaments/", 405, "method_not_allowed"),
        ("delete", "/api/tournaments/", 405, "method_not_allowed"),
    ],
)
def test_api_errors_are_json_everywhere(method, url, status, code) -> None:
    response = getattr(Client(), method)(url)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["detail"]


PROBE = """
import django, json, sys
django.setup()
from django.test import Client
c = Client()
out = {}
for url in sys.argv[1:]:
    r = c.get(url, secure=True)
    out[url] = [r.status_code, r.get("Content-Type", "")]
print(json.dumps(out))
"""


def _production(run_cli, *urls: str, **extra: str) -> dict:
    env = {"TIRAGE_ENV": "production", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "testserver",
           **extra}  # fmt: skip
    result = run_cli("-c", PROBE, *urls, env=env)
    assert result.returncode == 0, result.stderr
    import json

    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_hides_the_admin_and_the_schema(run_cli) -> None:
    seen = _production(run_cli, "/admin/", "/admin/login/", "/api/schema/", "/api/docs/")
    assert seen["/admin/"][0] == 404 and seen["/admin/login/"][0] == 404
    assert seen["/api/schema/"][0] == 401 and "json" in seen["/api/schema/"][1]
    assert seen["/api/docs/"][0] == 401


def test_production_admin_and_docs_when_asked(run_cli) -> None:
    seen = _production(run_cli, "/admin/", "/api/schema/", TIRAGE_ADMIN="true",
                       TIRAGE_API_DOCS_PUBLIC="true")  # fmt: skip
    assert seen["/admin/"][0] == 302 and seen["/api/schema/"][0] == 200


@pytest.mark.django_db
def test_the_schema_is_for_arbiters_in_production(settings, tournament_setup) -> None:
    settings.TIRAGE_API_DOCS_PUBLIC = False
    assert Client().get("/api/schema/").status_code == 401
    arbiter = Client()
    arbiter.force_login(tournament_setup["arbiter"])  # an arbiter, not staff
    assert arbiter.get("/api/schema/").status_code == 200
    docs = arbiter.get("/api/docs/")
    assert docs.status_code == 200 and not INLINE_SCRIPT.search(docs.content.decode())
    assert "cdn" not in docs.content.decode().lower()


@pytest.mark.django_db
def test_production_refuses_development_passwords(settings, django_user_model, monkeypatch):
    # gunicorn preloads the app then forks: the start-up check must close its database
    # connection, or every worker shares it (answers read by the wrong worker).
    closed = []
    monkeypatch.setattr("django.db.connections.close_all", lambda: closed.append(True))
    settings.PRODUCTION = True
    user = django_user_model.objects.create_superuser("arbitre", password="arbitre")
    errors = dev_passwords_check()
    assert [e.id for e in errors] == [CHECK_ID] and "arbitre" in errors[0].msg
    with pytest.raises(SystemCheckError):
        call_command("check", "--deploy", "--tag", "security")
    with pytest.raises(ImproperlyConfigured, match="development password"):
        wsgi._refuse_development_passwords()
    assert closed
    user.set_password("un-vrai-mot-de-passe-2026")
    user.save()
    assert dev_passwords_check() == []
    django_user_model.objects.create_user("lucie", password="lucie", is_staff=True)
    assert "lucie" in dev_passwords_check()[0].msg  # the user name as password
    settings.PRODUCTION = False
    assert dev_passwords_check() == []


@pytest.mark.django_db
def test_any_arbiter_of_the_tournament_manages_tablet_links(tournament_setup, django_user_model):
    """docs/security.md: any arbiter of the tournament (not only the head arbiter) may
    issue, reissue or revoke a tablet link; an arbiter of no tournament here may not."""
    from rest_framework.test import APIClient

    from tournaments.models import ArbiterMembership, Registration

    helper = django_user_model.objects.create_user("adjoint", password="x")
    ArbiterMembership.objects.create(user=helper, tournament=tournament_setup["tournament"],
                                     role="arbiter")  # fmt: skip
    stranger = django_user_model.objects.create_user("etranger", password="x")
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    api = APIClient()
    api.force_authenticate(helper)
    first = api.post(f"/api/registrations/{reg.pk}/token").json()["access_token"]
    second = api.post(f"/api/registrations/{reg.pk}/token").json()["access_token"]
    assert first and second and first != second
    assert Client().get(f"/tablette/{first}/").status_code == 404  # revoked by the reissue
    api.force_authenticate(stranger)
    assert api.post(f"/api/registrations/{reg.pk}/token").status_code == 403
    assert api.delete(f"/api/registrations/{reg.pk}/token").status_code == 403


def test_the_schema_types_game_rounds_and_lists_framework_statuses() -> None:
    """GameState.rounds was typed as a list of string maps while holding integers; the
    framework's 401/404/415/429 were missing from the schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    parts = schema["components"]["schemas"]
    rounds = parts["GameState"]["properties"]["rounds"]
    assert rounds["items"]["$ref"].endswith("/RoundSummary")
    summary = parts["RoundSummary"]["properties"]
    assert summary["id"]["type"] == "integer" and summary["number"]["type"] == "integer"
    assert summary["top_score"]["nullable"] is True
    assert summary["top_placed"]["type"] == "boolean"
    paths = schema["paths"]
    assert {"400", "401", "404", "409", "415", "429"} <= set(
        paths["/api/player/proposals/"]["post"]["responses"]
    )
    assert "401" in paths["/api/tournaments/"]["get"]["responses"]
    assert {} in paths["/api/tournaments/"]["get"]["security"]
