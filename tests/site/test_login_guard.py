"""Login throttling (issue 14, item 5): failed sign-ins on the console, the admin and the
API token are counted per user name and per address in the shared cache; past the limit
the answer is a 429 with the wait in French, before the password is even checked.

Before: 30 wrong passwords were all answered and the right one then worked."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
RIGHT = "le-bon-mot-de-passe-42"


@pytest.fixture
def arbiter(django_user_model):
    return django_user_model.objects.create_superuser("arbitre-x", password=RIGHT)


@pytest.mark.parametrize("path", ["/arbitre/connexion/", "/admin/login/"])
def test_wrong_passwords_pause_the_user_name(arbiter, path) -> None:
    client = Client()
    for _ in range(5):
        response = client.post(path, {"username": "arbitre-x", "password": "faux"})
        assert response.status_code == 200  # the form again, with its error
    refused = client.post(path, {"username": "arbitre-x", "password": RIGHT})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 800
    page = refused.content.decode()
    assert "Trop de tentatives de connexion : réessayez dans 15 minutes" in page
    assert "_auth_user_id" not in client.session
    # Another arbiter (another name) from another address is not held up.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post(path, {"username": "someone", "password": "x"}).status_code == 200


def test_a_right_password_clears_the_name_count(arbiter) -> None:
    client = Client()
    for _ in range(4):
        client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": "faux"})
    ok = client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": RIGHT})
    assert ok.status_code == 302
    client.logout()
    for _ in range(4):
        client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": "faux"})
    ok = client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": RIGHT})
    assert ok.status_code == 302


def test_one_address_guessing_many_names_is_paused(arbiter) -> None:
    client = Client(REMOTE_ADDR="192.0.2.7")
    for i in range(20):
        client.post("/arbitre/connexion/", {"username": f"nom-{i}", "password": "x"})
    refused = client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": RIGHT})
    assert refused.status_code == 429
    # The same name from elsewhere still signs in: the address was paused, not the name.
    ok = Client(REMOTE_ADDR="192.0.2.8").post(
        "/arbitre/connexion/", {"username": "arbitre-x", "password": RIGHT}
    )
    assert ok.status_code == 302


def test_the_api_token_endpoint_is_throttled_in_json(arbiter) -> None:
    api = APIClient(REMOTE_ADDR="198.51.100.3")
    for _ in range(5):
        bad = api.post("/api/auth/token/", {"username": "arbitre-x", "password": "x"},
                       format="json")  # fmt: skip
        assert bad.status_code == 401 and bad.json()["code"] == "auth.credentials"
    refused = api.post("/api/auth/token/", {"username": "arbitre-x", "password": RIGHT},
                       format="json")  # fmt: skip
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "login.throttled" and "réessayez dans" in body["detail"]


def test_english_wait_on_request(arbiter) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(6):
        response = client.post("/arbitre/connexion/", {"username": "arbitre-x", "password": "x"})
    assert response.status_code == 429
    assert "Too many sign-in attempts: try again in 15 minutes" in response.content.decode()
