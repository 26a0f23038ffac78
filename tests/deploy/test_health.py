"""/healthz and /metrics in-process: answered before the host check, no secrets, metrics
only for a direct caller from an allowed address."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from tournaments import metrics

pytestmark = pytest.mark.django_db


def test_healthz_ok_for_any_host_header() -> None:
    # compose's healthcheck and systemd call gunicorn by its container or loopback name,
    # which ALLOWED_HOSTS does not list.
    response = Client().get("/healthz", HTTP_HOST="web:8000")
    assert response.status_code == 200, response.content
    body = json.loads(response.content)
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["redis"] in {"ok", "absent"}
    assert response["Cache-Control"] == "no-store"


def test_healthz_names_a_down_redis_without_its_address(monkeypatch, settings) -> None:
    settings.REDIS_URL = "redis://:s3cret-pw@127.0.0.1:1/0"
    monkeypatch.setattr(metrics, "_redis", {})
    response = Client().get("/healthz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body == {"status": "error", "database": "ok", "redis": "error"}
    assert b"s3cret" not in response.content and b"127.0.0.1" not in response.content


def test_healthz_refuses_writes() -> None:
    response = Client().post("/healthz")
    assert response.status_code == 405
    assert json.loads(response.content)["code"] == "method"


@override_settings(TIRAGE_METRICS_ALLOWED_IPS=["127.0.0.1"])
def test_metrics_for_loopback_only() -> None:
    Client().get("/")  # one request through the django-prometheus middleware
    response = Client().get("/metrics", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200
    text = response.content.decode()
    assert "django_http_requests_total_by_method_total" in text
    assert "django_http_requests_latency_seconds_by_view_method" in text
    assert "# TYPE tirage_proposals_total counter" in text
    assert "# TYPE tirage_top_computation_seconds histogram" in text
    assert "# TYPE tirage_task_seconds histogram" in text
    assert "tirage_queue_length" in text
    # Through the proxy (it adds X-Forwarded-For) or from another address: not there.
    assert Client().get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 404
    assert Client(REMOTE_ADDR="203.0.113.5").get("/metrics").status_code == 404


def test_etag_compared_weakly() -> None:
    # nginx's gzip sends W/"v" for our "v"; the tablet sends it back and gets its 304.
    from tournaments.tablet.live import etag_matches

    assert etag_matches('W/"abc"', '"abc"')
    assert etag_matches('"x", W/"abc"', '"abc"')
    assert etag_matches('"abc"', '"abc"')
    assert not etag_matches('W/"abd"', '"abc"')
    assert not etag_matches("", '"abc"')
