"""Browsers ask every site for /favicon.ico: the site answers its icon, not a 404 (the club
afternoon's browser test saw one on each device's first page)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_site_has_an_icon(client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg ")
    assert "max-age=86400" in response["Cache-Control"]
    assert client.post("/favicon.ico").status_code == 405
