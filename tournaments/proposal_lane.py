"""A tablet's move received before Django (issue 16, item 3: 300 moves a second on 2 cores).

With the queued path on (``TIRAGE_QUEUED_PROPOSALS``), ``POST /api/player/proposals/``
answers ``202`` once the move is one row of ``ProposalArrival`` (``services.arrivals``).
Through Django and DRF that request costs ~15 ms of CPU (middleware, authentication by a
token query, throttle, serializer, round snapshot, INSERT, the debounce and the live bump:
``docs/benchmarks.md``). :class:`ProposalLane`, in front of the polls' lane in
``tournaments.wsgi``, serves the common case with the same functions:

1. only ``POST`` to that path, ``Content-Type: application/json``, ``Accept`` absent,
   ``*/*`` or ``application/json`` (DRF would choose another renderer otherwise), no
   cookie (a signed-in arbiter's session would authenticate first), an
   ``Authorization: Player <token>`` of the tokens' alphabet, a body of at most 4 KB, a
   host Django accepts (``lanes.request_of``);
2. the registration from this process's memory, valid while the registration's live
   version (``live_versions.registration_key``: its row only, not the moves) is the one
   read **before** the row was read from the database: every change of a registration
   (its token revoked or reissued, a withdrawal) is audited and bumps that version before
   the change's request answers, so a token revoked is never served once its revocation
   is answered. A token's first request in a process reads the row (one indexed SELECT of
   the columns a move needs, ``selectors.registration_for_move``: the same row Django's
   authentication finds) and keeps only its ids; the next one reads the row after the
   version and keeps it. The tournament's, the registration's and (a simultaneous event)
   its centre's versions and the rate limit's count (same key and rule as
   ``PlayerRateThrottle``) come in one Redis round trip;
3. the body parsed as DRF's ``JSONParser`` does and accepted only when the serializer
   (``PlayerProposalSerializer``) would give these very values (:func:`parse`: anything
   it would change, trim or refuse goes to Django, which answers the French 400);
4. the round from the per-process snapshot (``round_snapshots.playing_round_at``, keyed by
   the tournament's version read in step 2), queueable as the view decides
   (``round_snapshots.queueable``: open with its top, the one named if any); in a
   simultaneous event, the player's centre still playing it
   (``round_snapshots.centre_closed_at``, keyed by the centre's version read in step 2):
   a move after the centre's close goes to Django, whose synchronous path stores it late
   (``proposals.proposal_late``, as for any late move);
5. the checks of ``arrivals.arrival_checked`` (a refusal goes to Django), the row stored
   by ``arrivals.arrival_insert`` (one INSERT, the SQL of ``arrival_receive``; a replayed
   client key goes to Django, which finds the stored row), then ``arrival_signal``: the
   debounce ``SET NX`` and the player's live bump in one Redis round trip;
6. the receipt's fields as DRF's serializer gives them (:func:`receipt_data`), rendered by
   DRF's renderer, with the headers Django's answer carries, in its order
   (``tests/site/test_proposal_lane.py`` compares both byte for byte, and the rows stored).

Whatever is unsure goes to Django unchanged (the body given back to it, the rate-limit
count passed on in ``throttle.COUNTED`` so it is not counted twice): the cache down or a
version missing, an unknown or revoked token, over the limit (Django's 429), no open
round, an odd body. Its answers are counted in ``tirage_proposals_fast_total`` and in
django-prometheus's request and status totals (``metrics.fast_proposal``).
``TIRAGE_PROPOSAL_LANE`` false (or an unknown middleware, as for the polls) turns it off.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from tournaments import (
    lanes,
    live_versions,
    metrics,
    poll_lane,
    round_snapshots,
    selectors,
    throttle,
)
from tournaments.api import serializers as s
from tournaments.api.views.common import client_device
from tournaments.errors import ServiceError
from tournaments.http import client_ip
from tournaments.models import ProposalArrival
from tournaments.services import arrivals
from tournaments.shared_cache import redis_client

PATH = "/api/player/proposals/"
TOKEN = re.compile(r"Player ([A-Za-z0-9_-]{1,200})")
JSON_TYPES = frozenset({"application/json", "application/json; charset=utf-8"})
ACCEPTS = frozenset({"", "*/*", "application/json"})
MAX_BODY = 4096
FIELDS = frozenset({"round", "reference", "word", "score", "client_key"})
#: Registrations kept per process before the memory is emptied.
LIMIT = 20_000

#: token → (tournament id, registration id, centre id or 0): a token never moves to another
#: registration (its centre may change: a registration read with another is sent to Django).
_ids: dict[str, tuple[int, int, int]] = {}
#: token → (the registration's live version read before the row, the registration).
_registrations: dict[str, tuple[int, Any]] = {}


def enabled() -> bool:
    return bool(getattr(settings, "TIRAGE_PROPOSAL_LANE", True)) and poll_lane.enabled()


class ProposalLane(lanes.Lane):
    """A WSGI application: a tablet's move answered 202 when all is common, else ``app``."""

    name = "proposal"

    def enabled(self) -> bool:
        return enabled()

    def wants(self, environ: dict[str, Any]) -> bool:
        return environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == PATH

    def answer(self, environ: dict[str, Any]) -> lanes.Answer | None:
        found = accepted(environ)
        if found is None:
            return None
        headers, body = found
        return "202 Accepted", headers, [body], metrics.fast_proposal


def accepted(environ: dict[str, Any]) -> tuple[list[tuple[str, str]], bytes] | None:
    """The headers and body of Django's 202 for this move, once it is stored; None: Django."""
    if not arrivals.queued_proposals() or environ.get("HTTP_COOKIE"):
        return None
    if environ.get("CONTENT_TYPE", "") not in JSON_TYPES:
        return None
    if environ.get("HTTP_ACCEPT", "") not in ACCEPTS:
        return None
    match = TOKEN.fullmatch(environ.get("HTTP_AUTHORIZATION", ""))
    if match is None:
        return None
    body = _body(environ)
    if body is None:
        return None
    request = lanes.request_of(environ)
    if request is None:
        return None
    token = match[1]
    reg, versions = _registration(token, environ)
    if reg is None or versions is None:
        return None
    data = parse(body)
    if data is None:
        return None
    rnd = round_snapshots.queueable(
        round_snapshots.playing_round_at(reg.tournament_id, versions[0]), data.get("round")
    )
    if rnd is None:
        return None
    if round_snapshots.centre_closed_at(rnd.pk, reg.centre_id, versions[2]) is not None:
        return None  # the player's centre has closed: Django judges the move (late)
    word, reference = data["word"], data["reference"]
    try:
        claimed = arrivals.arrival_checked(
            rnd=rnd, registration=reg, word=word, reference=reference,
            claimed_score=data.get("score"),
        )  # fmt: skip
    except ServiceError:
        return None  # Django answers the refusal in the reader's language
    arrival = arrivals.arrival_insert(
        rnd.pk, reg.player_id, word=word, reference=reference, claimed=claimed,
        client_key=arrivals.arrival_key(data["client_key"]), ip=client_ip(request),
        device=client_device(request),
    )  # fmt: skip
    if arrival is None:
        return None  # a replay: Django finds the stored row (or refuses a key reused)
    arrivals.arrival_signal(round_id=rnd.pk, player_id=reg.player_id)
    return _response(request, arrival)


def _body(environ: dict[str, Any]) -> bytes | None:
    """The request's body, given back to Django in ``wsgi.input`` (None: too long to try)."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= MAX_BODY:
        return None
    body = environ["wsgi.input"].read(length)
    environ["wsgi.input"] = io.BytesIO(body)
    return body


def _registration(token: str, environ: dict[str, Any]) -> tuple[Any, tuple[int, int, int] | None]:
    """The token's registration and the (tournament, registration, centre) versions, the
    request counted against the rate limit; (None, None) when Django must answer."""
    if redis_client() is None:
        return None, None
    ids, fresh = _ids.get(token), None
    if ids is None:  # read once, as Django would; kept from the next request on
        fresh = selectors.registration_for_move(token)
        if fresh is None:
            return None, None
        ids = _ids[token] = (fresh.tournament_id, fresh.pk, fresh.centre_id or 0)
    versions, count = live_versions.submission_versions(token, *ids)
    if count is not None:
        environ[throttle.COUNTED] = count  # Django must not count it again
        if not throttle.verdict(count)[0]:
            return None, None  # Django answers the 429
    if versions is None or count is None:
        return None, None
    if fresh is not None:  # its version was not read before it: not kept
        return fresh, versions
    # Kept under the registration's version read now, its centre is the one ``ids`` names
    # (moving a player to another centre is audited: it bumps that version).
    held = _registrations.get(token)
    if held is not None and held[0] == versions[1]:
        return held[1], versions
    reg = selectors.registration_for_move(token)  # read after the version: never older
    if reg is None or (reg.tournament_id, reg.pk, reg.centre_id or 0) != ids:
        _registrations.pop(token, None)
        if reg is not None:  # moved to another centre: its versions next time
            _ids[token] = (reg.tournament_id, reg.pk, reg.centre_id or 0)
        return None, None
    if len(_registrations) >= LIMIT:
        _registrations.clear()
        _ids.clear()
    _registrations[token] = (versions[1], reg)
    return reg, versions


def parse(body: bytes) -> dict[str, Any] | None:
    """The body's values as ``PlayerProposalSerializer`` validates them (``client_key`` and
    ``reference`` defaulting to ""), or None whenever the serializer would refuse, trim or
    convert anything (Django then answers)."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_refuse)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data.keys() <= FIELDS:
        return None
    word = data.get("word")
    if not isinstance(word, str) or len(word) > 30 or word != word.strip():
        return None
    if not s._WORD.fullmatch(word):
        return None
    out: dict[str, Any] = {"word": word}
    for name, longest in (("reference", 10), ("client_key", 64)):
        text = data.get(name, "")
        if not isinstance(text, str) or not _plain(text, longest):
            return None
        out[name] = text
    for name, low, high in (("score", 0, s.MAX_SCORE), ("round", 1, 2**62)):
        if name in data:
            number = data[name]
            if type(number) is not int or not low <= number <= high:
                return None
            out[name] = number
    return out


def _plain(text: str, longest: int) -> bool:
    """Printable ASCII the serializer keeps as is (nothing to trim)."""
    return len(text) <= longest and text.isascii() and text.isprintable() and text == text.strip()


def _refuse(constant: str) -> Any:
    raise ValueError(constant)  # NaN, Infinity: DRF's parser refuses them


#: DRF's renderer and the receipt's date field, as ``PlayerProposalReceiptSerializer``'s.
_RENDERER = JSONRenderer()
_RECEIVED_AT = serializers.DateTimeField()


def receipt_data(arrival: ProposalArrival) -> dict[str, Any]:
    """``PlayerProposalReceiptSerializer(Receipt(arrival)).data`` of a new arrival (not a
    replay, not ingested), without the serializer's machinery (~0.3 ms of CPU a move):
    the same fields in the same order (``tests/site/test_proposal_lane.py`` compares)."""
    return {
        "id": arrival.pk,
        "round": arrival.round_id,
        "reference": arrival.reference,
        "word": arrival.word,
        "score": arrival.claimed_score,
        "client_key": arrival.client_key,
        "received_at": _RECEIVED_AT.to_representation(arrival.received_at),
        "replayed": False,
        "pending": arrival.ingested_at is None,
    }


def _response(request: Any, arrival: ProposalArrival) -> tuple[list[tuple[str, str]], bytes]:
    """Django's 202: DRF's body, and the headers of :func:`_headers` with its length."""
    body = _RENDERER.render(receipt_data(arrival))
    key = (request.is_secure(), request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
    held = _heads.get(key)
    if held is None:
        held = _headers(request)
        if len(_heads) >= HEADS:
            _heads.clear()
        _heads[key] = held
    length = str(len(body))
    return [(name, length if name == "Content-Length" else value) for name, value in held], body


def _headers(request: Any) -> list[tuple[str, str]]:
    """The headers of Django's 202 (its ``Content-Length`` the body's to fill in): DRF's
    (``finalize_response``), then the middleware's (``Vary``: DRF's ``Accept``, the
    locale's ``Accept-Language``, the session's ``Cookie``, in that order; the others as
    ``lanes.headers_of``). They depend only on the settings, whether the request is secure
    and its ``Accept-Language`` (no cookie reaches the lane): kept per process by those
    two (:data:`_heads`), emptied when a setting changes (tests)."""
    response = HttpResponse(b"", status=202, content_type="application/json")
    patch_vary_headers(response, ("Accept",))
    response.headers["Allow"] = "POST, OPTIONS"
    patch_vary_headers(response, ("Accept-Language",))
    patch_vary_headers(response, ("Cookie",))
    return lanes.headers_of(request, response)


#: (secure, Accept-Language) → the 202's headers (:func:`_headers`); at most HEADS kept.
_heads: dict[tuple[bool, str], list[tuple[str, str]]] = {}
HEADS = 64


@receiver(setting_changed)
def _settings_changed(**kwargs: Any) -> None:
    _heads.clear()


def forget() -> None:
    """Drop the registrations and headers kept (tests)."""
    _ids.clear()
    _registrations.clear()
    _heads.clear()


def wrap(app: lanes.WsgiApp) -> ProposalLane:
    """``app`` (the polls' lane over Django's handler) behind the submissions' lane."""
    return ProposalLane(app)
