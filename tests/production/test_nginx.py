"""Debian's nginx with the shipped configuration in front of the stack: the limits on the
real URLs (429 after the burst), one Cache-Control, gzipped JSON that still revalidates,
the body limit, an access log without tablet tokens, /metrics kept private.

The keys and bursts are the shipped ones (deploy/nginx-http.conf, nginx-locations.conf):
sign-in 10/min per address, burst 10; players per token, burst 40, and per address, burst
200. The players' refill rates are lowered (12/min and 60/min instead of 10/s and 50/s,
``nginx.SLOW_RATES``) so that a slow machine still empties a bucket. nginx's own 429
carries ``{"code": "proxy.rate_limited"}``, which is how these tests tell it from the
site's throttles.
"""

from __future__ import annotations

import gzip
import http.client
import json
import secrets
import socket
import ssl
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.production.play import create_tournament

LOGIN_BURST = 10
TOKEN_BURST = 40
ADDRESS_BURST = 200


class Reply:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.getheaders()
        self.raw = response.read()

    def header(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]

    @property
    def body(self) -> bytes:
        return (
            gzip.decompress(self.raw) if self.header("Content-Encoding") == ["gzip"] else self.raw
        )

    @property
    def limited_by_nginx(self) -> bool:
        if self.status != 429:
            return False
        return json.loads(self.body)["code"] == "proxy.rate_limited"


def request(port: int, method: str, path: str, body: bytes | None = None, *, tls: bool = False,
            **headers: str) -> Reply:  # fmt: skip
    if tls:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=context)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    hdrs = {"Host": "127.0.0.1", **{k.replace("_", "-"): v for k, v in headers.items()}}
    try:
        conn.request(method, path, body=body, headers=hdrs)
        return Reply(conn.getresponse())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def front(nginx_front, stack):
    return nginx_front.rendered.https_port


@pytest.fixture(scope="module")
def players(stack, front) -> list[str]:
    """Two registered players' tokens (a round drawn and open); the second one is kept
    for the per-token limit, so its bucket is full when that test starts."""
    t = create_tournament(stack, 2)
    game = t.new_game(seed=321)
    rnd = t.wait_top(t.draw(game["id"])["id"])
    t.open(rnd["id"])
    return t.tokens


@pytest.fixture(scope="module")
def tablet(players) -> str:
    return players[0]


def test_http_redirects_to_https(nginx_front, stack) -> None:
    reply = request(nginx_front.rendered.http_port, "GET", "/arbitre/")
    assert reply.status == 301
    assert reply.header("Location") == ["https://127.0.0.1/arbitre/"]


def test_healthz_through_nginx(front) -> None:
    reply = request(front, "GET", "/healthz", tls=True)
    assert reply.status == 200, reply.raw
    assert json.loads(reply.body)["status"] == "ok"


def test_metrics_only_directly(front, stack) -> None:
    request(front, "GET", "/", tls=True)  # counted by the django-prometheus middleware
    assert request(front, "GET", "/metrics", tls=True).status == 404
    direct = request(stack.web_port, "GET", "/metrics")
    assert direct.status == 200
    assert b"django_http_requests_total_by_method_total" in direct.body


def test_control_socket_of_this_instance(stack) -> None:
    """gunicorn's control socket sits in the instance's run directory, named by its port."""
    socket_path = stack.directory / "run" / f"gunicorn-{stack.web_port}.ctl"
    assert socket_path.is_socket()


def test_login_limited_on_the_real_urls(front) -> None:
    """The console's, the admin's and the API's sign-in share one bucket per address."""
    paths = ["/arbitre/connexion/", "/admin/login/", "/api/auth/token/"]
    form = b"username=arbitre&password=wrong"
    headers = {"Content_Type": "application/x-www-form-urlencoded"}
    replies = [
        (paths[i % 3], request(front, "POST", paths[i % 3], form, tls=True, **headers))
        for i in range(LOGIN_BURST + 1 + 6)
    ]
    first, after = replies[: LOGIN_BURST + 1], replies[LOGIN_BURST + 1 :]
    assert not [r.status for _, r in first if r.limited_by_nginx], [r.status for _, r in first]
    # Refilled at one request per 6 s: at most one of the last six passes.
    for path in paths:
        assert any(r.limited_by_nginx for p, r in after if p == path), path
    refused = next(r for _, r in after if r.limited_by_nginx)
    assert refused.header("Content-Type") == ["application/json"]
    assert refused.header("Retry-After") == ["10"]


def test_json_gzipped_once_cached_and_revalidated(front, tablet, stack) -> None:
    poll = request(front, "GET", f"/tablette/{tablet}/etat/", tls=True, Accept_Encoding="gzip")
    assert poll.status == 200, poll.raw[:300]
    assert poll.header("Content-Encoding") == ["gzip"]
    assert json.loads(poll.body)["version"]
    assert len(poll.header("Cache-Control")) == 1
    # gzip weakens the ETag; the tablet sends it back and gets its 304.
    (etag,) = poll.header("ETag")
    assert etag.startswith("W/")
    again = request(front, "GET", f"/tablette/{tablet}/etat/", tls=True, Accept_Encoding="gzip",
                    If_None_Match=etag)  # fmt: skip
    assert again.status == 304
    # The schema is for arbiters in production (docs/security.md).
    schema = request(front, "GET", "/api/schema/?format=json", tls=True, Accept_Encoding="gzip",
                     Authorization=stack.arbiter().auth)  # fmt: skip
    assert schema.status == 200
    assert schema.header("Content-Encoding") == ["gzip"]
    assert json.loads(schema.body)["openapi"]


def test_static_files_one_cache_control(front, stack) -> None:
    static = stack.directory / "var" / "static"
    css = next(p for p in sorted(static.rglob("*.css")) if p.with_name(p.name + ".gz").exists())
    path = "/static/" + str(css.relative_to(static))
    reply = request(front, "GET", path, tls=True, Accept_Encoding="gzip")
    assert reply.status == 200
    assert reply.header("Cache-Control") == ["public, max-age=31536000, immutable"]
    assert reply.header("Content-Encoding") == ["gzip"]
    assert reply.body == css.read_bytes()


def test_body_limit(front) -> None:
    """A 6 MB upload is refused by nginx before gunicorn reads a byte of it."""
    port = front
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with (
        socket.create_connection(("127.0.0.1", port), timeout=30) as raw,
        context.wrap_socket(raw) as conn,
    ):
        conn.sendall(b"POST /api/tournaments/x/players/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: text/csv\r\nContent-Length: 6000000\r\n\r\n")  # fmt: skip
        head = conn.recv(65536).decode("latin-1")
    assert head.startswith("HTTP/1.1 413"), head[:200]
    assert '"code": "proxy.body_too_large"' in head


def test_player_limit_per_token(front, players) -> None:
    """One token past its burst is refused, through the page and the API alike."""
    tablet = players[1]
    replies = []
    for i in range(TOKEN_BURST + 25):
        if i % 2:
            replies.append(request(front, "GET", "/api/player/round/", tls=True,
                                   Authorization=f"Player {tablet}"))  # fmt: skip
        else:
            replies.append(request(front, "GET", f"/tablette/{tablet}/etat/", tls=True))
    assert not [r for r in replies[: TOKEN_BURST + 1] if r.limited_by_nginx]
    limited = [i for i, r in enumerate(replies) if r.limited_by_nginx]
    assert limited and min(limited) > TOKEN_BURST
    assert {i % 2 for i in limited} == {0, 1}  # both ways of presenting the token


def test_access_log_holds_no_token(nginx_front, players) -> None:
    log = nginx_front.access_log()
    assert "/tablette/-/etat/" in log
    assert not [token for token in players if token in log]


def test_random_tokens_limited_per_address(front) -> None:
    """Guessing tokens from one address: each token is new (its own bucket is full), the
    address's bucket runs out. Last in this module: it empties the address's bucket."""

    def guess(_: int) -> Reply:
        return request(front, "GET", f"/tablette/{secrets.token_urlsafe(16)}/etat/", tls=True)

    with ThreadPoolExecutor(max_workers=4) as pool:
        replies = list(pool.map(guess, range(ADDRESS_BURST + 100)))
    limited = [r for r in replies if r.limited_by_nginx]
    assert limited, sorted({r.status for r in replies})
    # Until the bucket ran out the site answered (unknown token); each token was new, so
    # only the address's bucket can have refused (what is left of it depends on the
    # requests earlier tests made from this address).
    assert any(r.status == 404 for r in replies)
