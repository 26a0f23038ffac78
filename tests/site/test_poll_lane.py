"""The WSGI fast lane of the polls (tournaments/poll_lane.py, issue 16, item 4).

Every request goes through the real WSGI application, twice when it matters: through
Django's handler alone (every middleware and the view) and through the lane in front of
it; a lane's 304 must be Django's 304 to the byte (status line and header list, in order)
and cost no query. Whatever the lane does not answer must reach Django untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from django.conf import settings as django_settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from tests.scenario import GameScenario, new_game, tablet_token
from tournaments import live_versions, poll_lane
from tournaments.access import SYSTEM
from tournaments.models import Registration
from tournaments.services import arbiter_add, arbiter_remove, registration_token_revoke

pytestmark = pytest.mark.django_db

BROKEN_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing listens on it
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}
# The production profile's security settings (tournaments/settings.py), behind the proxy.
PRODUCTION_LIKE = {
    "SECURE_SSL_REDIRECT": True,
    "SECURE_HSTS_SECONDS": 31_536_000,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
    "SECURE_HSTS_PRELOAD": True,
    "SECURE_CONTENT_TYPE_NOSNIFF": True,
    "SECURE_REFERRER_POLICY": "same-origin",
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
}


class Answer(NamedTuple):
    status: str
    headers: list[tuple[str, str]]
    body: bytes


def call(app: Any, environ: dict[str, Any]) -> Answer:
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        got["status"], got["headers"] = status, headers

    chunks = app(environ, start_response)
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return Answer(got["status"], got["headers"], body)


def refuse(environ: dict[str, Any], start_response: Any) -> Any:
    raise AssertionError(f"the lane left {environ['PATH_INFO']} to Django")


class Site:
    """Django's WSGI handler, the lane in front of it, and a record of what reached Django."""

    def __init__(self) -> None:
        self.django = WSGIHandler()
        self.asked: list[str] = []

        def recorded(environ: dict[str, Any], start_response: Any) -> Any:
            self.asked.append(environ["PATH_INFO"])
            return self.django(environ, start_response)

        self.lane = poll_lane.wrap(recorded)
        self.strict = poll_lane.wrap(refuse)  # a 304 from the lane alone, or an error

    def get(self, path: str, etag: str = "", *, via: str = "lane", **meta: Any) -> Answer:
        if etag:
            meta["HTTP_IF_NONE_MATCH"] = etag
        environ = RequestFactory().get(path, **meta).environ
        app = {"lane": self.lane, "django": self.django, "strict": self.strict}[via]
        return call(app, environ)


@pytest.fixture(autouse=True)
def _connections_kept() -> Iterator[None]:
    """As Django's test client does: the handler's request signals must not close the
    test's connection (its transaction holds the test's rows)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def etag_of(answer: Answer) -> str:
    return dict(answer.headers)["ETag"]


class Room:
    def __init__(self, setup: dict[str, Any], play: GameScenario, client: Any) -> None:
        self.setup, self.play = setup, play
        regs = Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
        self.anne, self.bruno = list(regs)[:2]
        self.tablet = f"/tablette/{tablet_token(self.anne, actor=SYSTEM)}/etat/"
        self.bruno_tablet = f"/tablette/{tablet_token(self.bruno, actor=SYSTEM)}/etat/"
        self.projector = f"/projecteur/{setup['tournament'].slug}/etat/"
        self.console = f"/arbitre/partie/{play.game.pk}/etat/"
        client.force_login(setup["arbiter"])
        self.session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        self.cookie = f"{django_settings.SESSION_COOKIE_NAME}={self.session}"


@pytest.fixture
def room(client: Any, tournament_setup: dict[str, Any]) -> Room:
    return Room(tournament_setup, new_game(tournament_setup), client)


def _the_304_is_djangos(site: Site, path: str, **meta: Any) -> str:
    """Holds the current ETag (a full answer first), then compares the two 304s."""
    first = site.get(path, via="django", **meta)
    assert first.status.startswith("200"), first
    etag = etag_of(first)
    djangos = site.get(path, etag, via="django", **meta)
    assert djangos.status == "304 Not Modified", djangos
    with CaptureQueriesContext(connection) as queries:
        lanes = site.get(path, etag, via="strict", **meta)
    assert len(queries) == 0, [q["sql"] for q in queries]
    assert lanes == djangos
    return etag


@pytest.mark.parametrize(
    ("profile", "meta"),
    [
        ("development", {}),
        ("development", {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.8"}),
        ("production", {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "tirage.example.org"}),
    ],
)
def test_the_lanes_304_is_djangos_304_byte_for_byte(
    room: Room, settings: Any, profile: str, meta: dict[str, str]
) -> None:
    if profile == "production":
        for name, value in PRODUCTION_LIKE.items():
            setattr(settings, name, value)
        settings.ALLOWED_HOSTS = ["tirage.example.org"]
    site = Site()  # the middleware reads its settings when the handler is made
    room.play.open_round()
    for path in (room.tablet, room.projector, room.projector + "?langue=en"):
        _the_304_is_djangos(site, path, **meta)
    _the_304_is_djangos(site, room.console, HTTP_COOKIE=room.cookie, **meta)
    answer = site.get(room.tablet, etag_of(site.get(room.tablet, via="django", **meta)), **meta)
    headers = dict(answer.headers)
    assert headers["X-Frame-Options"] == "DENY" and headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    if profile == "production":
        assert (
            headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
        )
    else:
        assert "Strict-Transport-Security" not in headers
    expected = "en" if "HTTP_ACCEPT_LANGUAGE" in meta else "fr"
    assert headers["Content-Language"] == expected
    assert site.asked == []


def test_a_changed_version_goes_to_django_for_a_200(room: Room) -> None:
    site = Site()
    rnd = room.play.open_round(top=True)  # as the worker does after the open
    etags = {p: etag_of(site.get(p)) for p in (room.tablet, room.projector)}
    console = etag_of(site.get(room.console, HTTP_COOKIE=room.cookie))
    site.asked.clear()
    # Anne's own move: her tablet (and the console's count) change, not the projector.
    room.play.propose(rnd, room.anne.player, "HAINES", "H4")
    assert site.get(room.projector, etags[room.projector]).status.startswith("304")
    tablet = site.get(room.tablet, etags[room.tablet])
    assert tablet.status.startswith("200") and b'"HAINES"' in tablet.body
    status = site.get(room.console, console, HTTP_COOKIE=room.cookie)
    assert status.status.startswith("200") and b'"received": 1' in status.body
    assert site.asked == [room.tablet, room.console]
    # The close changes everyone's.
    room.play.close(rnd)
    for path in (room.tablet, room.projector):
        assert (
            site.get(path, etag_of(tablet) if path == room.tablet else etags[path]).status[:3]
            == "200"
        )


def test_a_revoked_token_or_another_tablets_etag_never_gets_a_304(room: Room) -> None:
    site = Site()
    room.play.open_round()
    anne, bruno = etag_of(site.get(room.tablet)), etag_of(site.get(room.bruno_tablet))
    # Bruno's ETag with Anne's token, a made-up one: Django answers Anne's state.
    for held in (bruno, '"L1.1.0123456789abcdef0123"', anne.replace('"L', '"L9')):
        answer = site.get(room.tablet, held)
        assert answer.status.startswith("200") and b'"Anne"' in answer.body
    registration_token_revoke(registration_id=room.anne.pk, actor=SYSTEM)
    gone = site.get(room.tablet, anne)
    assert gone.status.startswith("404") and b"tablet.unknown" in gone.body


def test_with_the_cache_down_every_poll_goes_to_django(room: Room, settings: Any) -> None:
    site = Site()
    room.play.open_round()
    held = {p: etag_of(site.get(p)) for p in (room.tablet, room.projector)}
    console = etag_of(site.get(room.console, HTTP_COOKIE=room.cookie))
    site.asked.clear()
    settings.CACHES = BROKEN_REDIS
    live_versions.forget()
    for path, etag in held.items():
        assert site.get(path, etag).status.startswith("200")  # the database path's version
    assert site.get(room.console, console, HTTP_COOKIE=room.cookie).status.startswith("200")
    assert site.asked == [room.tablet, room.projector, room.console]


def test_the_console_status_304_makes_no_query(room: Room) -> None:
    site = Site()
    room.play.open_round()
    first = site.get(room.console, HTTP_COOKIE=room.cookie)
    assert first.status.startswith("200")
    with CaptureQueriesContext(connection) as queries:
        again = site.get(room.console, etag_of(first), via="strict", HTTP_COOKIE=room.cookie)
    assert again.status == "304 Not Modified" and len(queries) == 0
    # Django's own view answers it from the versions too (after the session and the role).
    with CaptureQueriesContext(connection) as queries:
        djangos = site.get(room.console, etag_of(first), via="django", HTTP_COOKIE=room.cookie)
    assert djangos.status == "304 Not Modified"
    assert not any("proposal" in q["sql"] for q in queries), [q["sql"] for q in queries]


def test_the_console_lane_needs_the_session_that_got_the_etag_and_its_role(room: Room) -> None:
    site = Site()
    room.play.open_round()
    tournament = room.setup["tournament"]
    helper = arbiter_add(actor=room.setup["arbiter"], tournament_id=tournament.pk, login="aide")
    other_browser = Client()
    other_browser.force_login(helper.membership.user)
    name = django_settings.SESSION_COOKIE_NAME
    cookie = f"{name}={other_browser.cookies[name].value}"
    held = etag_of(site.get(room.console, HTTP_COOKIE=cookie))
    assert site.get(room.console, held, via="strict", HTTP_COOKIE=cookie).status[:3] == "304"
    # Another session with this ETag, or none: Django decides (here the other arbiter's
    # full answer, and the login page).
    other = site.get(room.console, held, HTTP_COOKIE=room.cookie)
    assert other.status.startswith("200")
    assert site.get(room.console, held).status.startswith("302")
    # The role removed: the tournament's version changes, Django refuses.
    arbiter_remove(
        actor=room.setup["arbiter"], tournament_id=tournament.pk, user_id=helper.membership.user_id
    )
    assert site.get(room.console, held, HTTP_COOKIE=cookie).status.startswith("403")


def test_a_logout_ends_the_console_lane(room: Room, client: Any) -> None:
    site = Site()
    room.play.open_round()
    held = etag_of(site.get(room.console, HTTP_COOKIE=room.cookie))
    assert site.get(room.console, held, via="strict", HTTP_COOKIE=room.cookie).status[:3] == "304"
    client.logout()
    answer = site.get(room.console, held, HTTP_COOKIE=room.cookie)
    assert answer.status.startswith("302")  # the login page: the session is gone


def test_the_rate_limit_counts_each_poll_once_and_django_refuses_past_it(
    room: Room, settings: Any
) -> None:
    site = Site()
    rnd = room.play.open_round(top=True)
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 4
    held = etag_of(site.get(room.tablet))  # 1
    assert site.get(room.tablet, held, via="strict").status.startswith("304")  # 2
    assert site.get(room.tablet, held, via="strict").status.startswith("304")  # 3
    room.play.propose(rnd, room.anne.player, "HAINES", "H4")
    # Counted by the lane (4), then Django's full answer, not counted again.
    changed = site.get(room.tablet, held)
    assert changed.status.startswith("200")
    refused = site.get(room.tablet, etag_of(changed))  # 5: over the limit
    assert refused.status.startswith("429") and b"tablet.too_many_requests" in refused.body


@pytest.mark.parametrize(
    ("meta", "status"),
    [
        ({"HTTP_HOST": "evil.example"}, "400"),  # a host Django refuses
        ({"HTTP_HOST": "tirage.example.org"}, "301"),  # plain HTTP: Django redirects
    ],
)
def test_what_django_would_refuse_or_redirect_goes_to_django(
    room: Room, settings: Any, meta: dict[str, str], status: str
) -> None:
    settings.ALLOWED_HOSTS = ["tirage.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    site = Site()
    room.play.open_round()
    secure = {"HTTP_HOST": "tirage.example.org", "HTTP_X_FORWARDED_PROTO": "https"}
    held = etag_of(site.get(room.tablet, **secure))
    assert site.get(room.tablet, held, via="strict", **secure).status.startswith("304")
    assert site.get(room.tablet, held, **meta).status.startswith(status)


def test_the_lane_turns_itself_off_with_a_middleware_it_does_not_know(settings: Any) -> None:
    assert poll_lane.PollLane(refuse).on
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "example.HeaderMiddleware"]
    assert not poll_lane.PollLane(refuse).on
    settings.MIDDLEWARE = settings.MIDDLEWARE[:-1]
    settings.TIRAGE_POLL_LANE = False
    assert not poll_lane.PollLane(refuse).on


def test_the_wsgi_entry_point_is_the_lane_in_front_of_django() -> None:
    from tournaments import wsgi

    # The submissions' lane (tournaments/proposal_lane.py) stands in front of this one.
    assert isinstance(wsgi.application.app, poll_lane.PollLane)
    assert isinstance(wsgi.application.app.app, WSGIHandler)
    home = call(wsgi.application, RequestFactory().get("/").environ)
    assert home.status.startswith("200")


def test_the_lanes_304s_are_counted(room: Room) -> None:
    from prometheus_client import REGISTRY

    def counted(name: str, labels: dict[str, str]) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    site = Site()
    room.play.open_round()
    held = etag_of(site.get(room.tablet))
    ours = counted("tirage_polls_fast_total", {"page": "tablet"})
    django = counted("django_http_responses_total_by_status_total", {"status": "304"})
    for _ in range(3):
        assert site.get(room.tablet, held, via="strict").status.startswith("304")
    assert counted("tirage_polls_fast_total", {"page": "tablet"}) == ours + 3
    assert counted("django_http_responses_total_by_status_total", {"status": "304"}) == django + 3
