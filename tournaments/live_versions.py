"""Version numbers of what the tablets and the projector show, kept in the shared cache
(Redis in production, a per-process memory in the embedded profile), so that a poll whose
``If-None-Match`` is still current is answered ``304`` without the database (issue 16).

Three scopes, each one cache key holding a random number that changes on every change:

* **the tournament** (``t:<id>``): its current game and round (draw, open, pause, extend,
  close, top computed or placed, cancel), its settings and language, registrations, and
  after the close every proposal, correction, decision or slip conflict (they change
  scores, best moves and ranks);
* **the player** (``p:<id>``): their own proposals (each submission, late attempts), their
  registration (table, name, token revoked), decisions about them;
* in a simultaneous event, **the centre** (``c:<id>``): its close of the playing round (and
  that close undone), which only its own players' tablets and its projector show;

and, for the console's game screen alone, **the receipts** (``r:<id>``): a move handed in
while the tournament's round is open (its count of moves received). The console's status
ETag also binds the arbiter's session, vouched for a minute by the full view (``s:<digest
of the session key>``, removed at logout), so the WSGI fast lane (``tournaments.poll_lane``)
can answer its 304 without reading the session, the user or the membership.

A tablet's ETag names the tournament, the player and their centre (their ids, 0 for no
centre) and holds a digest of its token and the versions; the projector's names the
tournament (and the centre, for a centre's projector), with a digest of its address, the
language asked for and the versions. So a poll reads its versions straight from
the ids in its ``If-None-Match`` (one ``MGET``) and compares digests: no token look-up.

Who changes: every service writes an audit row in the transaction of its change (a house
rule), so ``services.audit`` calls :func:`audited` and this module bumps the scopes the row
is about, **after the commit** (``transaction.on_commit``): a reader that sees the new
version reads the new rows. A proposal handed in while its round is open bumps only its
player, so 5,000 players submitting do not make 5,000 × 5,000 full answers.

A version is random (not a counter): a key lost (evicted, Redis restarted without its file)
comes back with a fresh value, never with one a tablet already holds. When the cache is
unreachable the polls take the database path (``tournaments.tablet.live``), which derives
its version from the rows; a bump that could not be written is kept and written again as
soon as the cache answers (at most every :data:`RETRY_SECONDS`, by the next poll or a timer),
and every key expires after :data:`TTL` so even a bump lost with its process is bounded.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Iterable
from functools import partial
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from tournaments import selectors, throttle
from tournaments.models.choices import RoundState
from tournaments.shared_cache import cache_key, redis_client

logger = logging.getLogger(__name__)

#: Seconds a version lives in the cache unless bumped again.
TTL = 3600
#: After a cache failure, the polls skip the cache this long (no timeout paid per poll) and
#: failed bumps are written again after it.
RETRY_SECONDS = 1.0

_pending: set[str] = set()
_lock = threading.Lock()
_flushing = threading.Lock()
_down_until = 0.0
_timer: threading.Timer | None = None
#: game id → tournament id (a game never moves), so a round's change costs no query.
_tournament_of_game: dict[int, int] = {}


def _prefix() -> str:
    return str(getattr(settings, "TIRAGE_LIVE_KEY_PREFIX", "tirage:live"))


def tournament_key(tournament_id: int) -> str:
    return f"{_prefix()}:t:{tournament_id}"


def player_key(player_id: int) -> str:
    return f"{_prefix()}:p:{player_id}"


def registration_key(registration_id: int) -> str:
    """Changes with the registration's row only (its token, withdrawal, table...): the key
    of the submissions' lane's memory of it (``tournaments.proposal_lane``)."""
    return f"{_prefix()}:g:{registration_id}"


def receipts_key(tournament_id: int) -> str:
    return f"{_prefix()}:r:{tournament_id}"


def centre_key(centre_id: int) -> str:
    """Changes when the centre closes the playing round, or that close is undone."""
    return f"{_prefix()}:c:{centre_id}"


def session_key(session: str) -> str:
    """The mark of a console session vouched for (a digest: the session key is a secret)."""
    return f"{_prefix()}:s:{hashlib.sha256(session.encode()).hexdigest()[:32]}"


def _fresh() -> int:
    """A new version: random, so that a key lost and made again never takes a value a
    reader already holds; an integer, which the Redis cache stores as is (no pickling)."""
    return secrets.randbits(62)


# --- Writing: bumps after the commit ---------------------------------------------------------


def changed(
    *, tournaments: Iterable[int] = (), players: Iterable[int] = (), receipts: Iterable[int] = (),
    registrations: Iterable[int] = (), centres: Iterable[int] = (),
) -> None:  # fmt: skip
    """What the tournaments' and players' polls show changes with the current transaction:
    new versions once it commits (at once outside a transaction). ``receipts``: tournaments
    whose open round received a move (only the console's count shows it);
    ``registrations``: registrations whose row changed; ``centres``: centres whose close
    of the round changed (their players' tablets and their projector show it).
    ``TIRAGE_LIVE_BUMP_AT_ONCE`` (tests only: their transaction never commits) also bumps
    before the commit."""
    keys = [tournament_key(t) for t in set(tournaments)] + [player_key(p) for p in set(players)]
    keys += [receipts_key(t) for t in set(receipts) if t]
    keys += [registration_key(r) for r in set(registrations)]
    keys += [centre_key(c) for c in set(centres) if c]
    if not keys:
        return
    if getattr(settings, "TIRAGE_LIVE_BUMP_AT_ONCE", False):
        bump(keys)
    transaction.on_commit(partial(bump, keys), robust=True)


def is_bump(callback: Any) -> bool:
    """Whether an on-commit callback is one of ours (tests tell them from queued tasks)."""
    return isinstance(callback, partial) and callback.func is bump


def bump(keys: list[str]) -> None:
    """Give each key a new version now; keys that cannot be written are retried later."""
    with _lock:
        _pending.update(keys)
    _flush()


def _flush() -> bool:
    """Write the pending bumps; False (and a retry scheduled) when the cache failed. One
    flush at a time (``_flushing``): the retry timer's thread and a poll must not both
    write the same keys, or a version written and already read is written again."""
    global _down_until
    with _flushing:
        with _lock:
            keys = list(_pending)
        if not keys:
            return True
        if time.monotonic() < _down_until:
            _retry_later()
            return False
        try:
            cache.set_many({key: _fresh() for key in keys}, TTL)
        except Exception:  # noqa: BLE001 - a shortcut: the database path stays right
            logger.warning("live versions: the cache is unreachable, bump kept", exc_info=True)
            _down_until = time.monotonic() + RETRY_SECONDS
            _retry_later()
            return False
        with _lock:
            _pending.difference_update(keys)
        return True


def writable() -> bool:
    """Whether a bump may go straight to Redis now (``queue_bump``): the cache not known
    down, no earlier bump still waiting (it must not be overtaken), versions on."""
    return (
        not _pending
        and time.monotonic() >= _down_until
        and getattr(settings, "TIRAGE_LIVE_VERSIONS", True)
    )


def queue_bump(pipe: Any, keys: list[str]) -> None:
    """Add new versions of ``keys`` to a Redis pipeline (as ``bump`` writes them), for a
    caller that sends other commands in the same round trip (``arrivals.arrival_signal``)."""
    for key in keys:
        pipe.set(cache_key(key), _fresh(), ex=TTL)


def submission_versions(
    token: str, tournament_id: int, registration_id: int, centre_id: int = 0
) -> tuple[tuple[int, int, int] | None, int | None]:
    """For the submissions' fast lane (``tournaments.proposal_lane``): the tournament's, the
    registration's and its centre's versions (0 for no centre), created when missing (None:
    the cache down, a bump pending), and the request counted against ``token``'s rate
    limit in the same round trip (None: not counted). Read them **before** the rows they
    vouch for."""
    keys = [tournament_key(tournament_id), registration_key(registration_id)]
    keys += [centre_key(centre_id)] if centre_id else []
    found, counted = _read(keys, create=True, rate_key=throttle.player_rate_key(token))
    if found is None:
        return None, counted
    centre = found[keys[2]] if centre_id else 0
    return (found[keys[0]], found[keys[1]], centre), counted


def centre_version(centre_id: int) -> Any:
    """The centre's current version (created when missing), None when the cache is down:
    the key of per-process memories of its close (``round_snapshots.centre_closed_at``)."""
    key = centre_key(centre_id)
    found, _ = _read([key], create=True)
    return None if found is None else found[key]


def _retry_later() -> None:
    global _timer
    with _lock:
        if _timer is not None and _timer.is_alive():
            return
        _timer = threading.Timer(RETRY_SECONDS, _flush)
        _timer.daemon = True
        _timer.start()


def audited(obj: Any, action: str) -> None:
    """The scopes an audited change is about (``services.audit`` calls this for each row)."""
    name = obj._meta.model_name
    if name == "tournament":
        changed(tournaments=[obj.pk])
    elif name == "round":
        changed(tournaments=[_tournament_of(obj)])
    elif name in {"proposalversion", "decision", "slipconflict"}:
        rnd = obj.round if type(obj).round.is_cached(obj) else None
        private = name == "proposalversion" and rnd is not None and rnd.state == RoundState.OPEN
        tournament = _tournament_of(rnd, round_id=obj.round_id)
        changed(tournaments=[] if private else [tournament], players=[obj.player_id],
                receipts=[tournament] if private else [])  # fmt: skip
    elif name == "centreclose":  # a centre collected its slips (a simultaneous event)
        # Its own players' tablets and its projector; the console's screen by its receipts.
        # The event's own state changes only with the last close (``round.close``).
        changed(centres=[obj.centre_id],
                receipts=[_tournament_of(None, round_id=obj.round_id)])  # fmt: skip
    elif name == "registration":
        changed(tournaments=[obj.tournament_id], players=[obj.player_id], registrations=[obj.pk])
    elif isinstance(getattr(obj, "tournament_id", None), int):
        changed(tournaments=[obj.tournament_id])


def _tournament_of(rnd: Any, *, round_id: int | None = None) -> int:
    """The tournament of a round (given, or by id), from memory after the first time."""
    game_id = rnd.game_id if rnd is not None else None
    if game_id is not None and game_id in _tournament_of_game:
        return _tournament_of_game[game_id]
    if rnd is not None and type(rnd).game.is_cached(rnd):
        tid = rnd.game.tournament_id
    else:
        tid = selectors.console_page_place("round_id", rnd.pk if rnd else round_id)[0] or 0
    if game_id is not None and tid:
        _tournament_of_game[game_id] = tid
    return tid


# --- Reading: the poll's ETag ---------------------------------------------------------------


def _read(
    keys: list[str], *, create: bool, rate_key: str = ""
) -> tuple[dict[str, Any] | None, int | None]:
    """The cache's values of ``keys``; a missing version gets a fresh value when ``create``.
    None when the cache is down, or a key is missing and ``create`` is false. With
    ``rate_key``, the request is also counted there (the player rate limit, in the same
    round trip) and its count returned (None: not counted)."""
    global _down_until
    if time.monotonic() < _down_until or not getattr(settings, "TIRAGE_LIVE_VERSIONS", True):
        return None, None
    counted = None
    try:
        if _pending and not _flush():
            return None, None  # a change not yet written: the database path is the safe one
        found, counted = _get_many(keys, rate_key)
        missing = [key for key in keys if key not in found]
        if missing and not create:
            return None, counted
        for key in missing:
            cache.add(key, _fresh(), TTL)
        if missing:
            found.update(_get_many(missing)[0])
    except Exception:  # noqa: BLE001 - fall back on the database path
        logger.warning("live versions: the cache is unreachable", exc_info=True)
        _down_until = time.monotonic() + RETRY_SECONDS
        return None, counted
    return (found if all(key in found for key in keys) else None), counted


def _get_many(keys: list[str], rate_key: str = "") -> tuple[dict[str, Any], int | None]:
    """The versions stored under ``keys`` (one ``MGET`` on Redis's kept client), and the
    request counted in ``rate_key`` in the same round trip when given."""
    client = redis_client()
    if client is None:
        counted = throttle.count(rate_key) if rate_key else None
        return cache.get_many(keys), counted
    pipe = client.pipeline(transaction=False)
    pipe.mget([cache_key(key) for key in keys])
    if rate_key:
        throttle.queue_count(pipe, rate_key)
    values, *rest = pipe.execute()
    found = {key: int(value) for key, value in zip(keys, values, strict=True) if value is not None}
    return found, int(rest[0]) if rest else None


def _etag(ids: tuple[int, ...], *parts: Any) -> str:
    """``"L<ids>.<digest>"``: the ids of the versions it was made from (so that the next poll
    reads them without a look-up) and a digest binding them to the reader (its token or
    address) and to the versions' values, which never leave the server: a made-up ETag can
    at most earn a 304, which tells nothing."""
    digest = hashlib.sha1(repr((ids, *parts)).encode(), usedforsecurity=False).hexdigest()[:20]
    return f'"L{".".join(map(str, ids))}.{digest}"'


def _ids(header: str, count: int) -> tuple[int, ...] | None:
    """The version ids of the first of our ETags in ``If-None-Match`` (weak or strong)."""
    for tag in header.split(","):
        text = tag.strip().removeprefix("W/").strip('"')
        if text.startswith("L"):
            parts = text[1:].split(".")
            if len(parts) == count + 1 and all(
                p.isascii() and p.isdigit() and len(p) < 12 for p in parts[:-1]
            ):
                return tuple(int(p) for p in parts[:-1])
    return None


class Versions(NamedTuple):
    """A poll's ETag, the ids it was made for, and the tournament's version (the key of the
    per-process snapshot of its game and round)."""

    etag: str
    tournament_id: int
    room: str
    player_id: int = 0
    centre_id: int = 0


def tablet_versions(token: str, held: str) -> Versions | None:
    """The tablet's current versions from the cache alone, for the ids its ``If-None-Match``
    (``held``) names, or None (no ETag of ours, a version missing, the cache down)."""
    ids = _ids(held, 3)
    return None if ids is None else _tablet(token, *ids, create=False)[0]


def tablet_poll(token: str, held: str) -> tuple[Versions | None, int | None]:
    """As :func:`tablet_versions`, for the WSGI fast lane (``tournaments.poll_lane``): the
    request is counted against the token's rate limit in the same round trip, and its
    count returned (None: not counted, the view will)."""
    ids = _ids(held, 3)
    if ids is None:
        return None, None
    return _tablet(token, *ids, create=False, rate_key=throttle.player_rate_key(token))


def tablet_versions_for(token: str, reg: Any) -> Versions | None:
    """The tablet's versions, created when missing. Read them **before** the rows the
    answer is built from. None when the cache is down."""
    return _tablet(token, reg.tournament_id, reg.player_id, reg.centre_id or 0, create=True)[0]


def _tablet(
    token: str, tournament_id: int, player_id: int, centre_id: int, *, create: bool,
    rate_key: str = "",
) -> tuple[Versions | None, int | None]:  # fmt: skip
    keys = [tournament_key(tournament_id), player_key(player_id)]
    keys += [centre_key(centre_id)] if centre_id else []  # 0: a player in no centre
    found, counted = _read(keys, create=create, rate_key=rate_key)
    if found is None:
        return None, counted
    values = [found[key] for key in keys]
    etag = _etag((tournament_id, player_id, centre_id), "tablet", token, *values)
    return Versions(etag, tournament_id, str(values[0]), player_id, centre_id), counted


def projector_versions(slug: str, language: str, held: str) -> Versions | None:
    """The projector's current versions from the cache alone (``language``: the one asked
    for in the address, or empty for the tournament's own), or None."""
    ids = _ids(held, 1)
    return None if ids is None else _projector(slug, ids[0], language, create=False)


def projector_versions_for(slug: str, tournament_id: int, language: str) -> Versions | None:
    """The projector's versions, created when missing; None when the cache is down."""
    return _projector(slug, tournament_id, language, create=True)


def _projector(slug: str, tournament_id: int, language: str, *, create: bool) -> Versions | None:
    key = tournament_key(tournament_id)
    found = _read([key], create=create)[0]
    if found is None:
        return None
    room = found[key]
    return Versions(_etag((tournament_id,), "projector", slug, language, room), tournament_id,
                    str(room))  # fmt: skip


def centre_projector_versions(
    slug: str, centre_id: int, language: str, held: str
) -> Versions | None:
    """A centre's projector's current versions from the cache alone, or None."""
    ids = _ids(held, 2)
    if ids is None or ids[1] != centre_id:
        return None
    return _centre_projector(slug, ids[0], centre_id, language, create=False)


def centre_projector_versions_for(
    slug: str, tournament_id: int, centre_id: int, language: str
) -> Versions | None:
    """A centre's projector's versions (the tournament's and the centre's), created when
    missing; None when the cache is down."""
    return _centre_projector(slug, tournament_id, centre_id, language, create=True)


def _centre_projector(
    slug: str, tournament_id: int, centre_id: int, language: str, *, create: bool
) -> Versions | None:
    keys = [tournament_key(tournament_id), centre_key(centre_id)]
    found = _read(keys, create=create)[0]
    if found is None:
        return None
    room, centre = (found[key] for key in keys)
    etag = _etag((tournament_id, centre_id), "centre-projector", slug, language, room, centre)
    return Versions(etag, tournament_id, str(room), 0, centre_id)


# --- The console's game screen: an arbiter's session --------------------------------------

#: Seconds a console session stays vouched for after a full check (login and role) by the
#: game screen's status view; then the next poll goes through Django again (and stamps the
#: arbiter's presence, ``console.presence``: once a minute too).
SESSION_SECONDS = 60


def console_versions(session: str, game_id: int, held: str) -> Versions | None:
    """The game screen's current versions from the cache alone, or None: for the ids its
    ``If-None-Match`` names, the session (its cookie's key) vouched for by
    :func:`console_versions_for` less than :data:`SESSION_SECONDS` ago."""
    ids = _ids(held, 2)
    if not session or ids is None or ids[1] != game_id:
        return None
    return _console(session, ids[0], game_id, create=False)


def console_versions_for(
    session: str, tournament_id: int, game_id: int, user_id: int
) -> Versions | None:
    """After the view checked the session's user and their role in the tournament: the
    session vouched for, and the game screen's versions (created when missing). Read them
    **before** the rows the answer is built from. None when the cache is down."""
    if not session:
        return None
    try:
        cache.set(session_key(session), user_id, SESSION_SECONDS)
    except Exception:  # noqa: BLE001 - without the mark the polls take Django's path
        logger.warning("live versions: the cache is unreachable", exc_info=True)
        return None
    return _console(session, tournament_id, game_id, create=True)


def session_ended(session: str) -> None:
    """The session logged out: its polls take Django's path again (the login page)."""
    try:
        cache.delete(session_key(session))
    except Exception:  # noqa: BLE001 - the mark expires within SESSION_SECONDS anyway
        logger.warning("live versions: the cache is unreachable", exc_info=True)


def logged_out(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: the session's mark goes with it (sent before the flush)."""
    session = getattr(getattr(request, "session", None), "session_key", None)
    if session:
        session_ended(session)


def _console(session: str, tournament_id: int, game_id: int, *, create: bool) -> Versions | None:
    mark = session_key(session)
    keys = [tournament_key(tournament_id), receipts_key(tournament_id)]
    found = _read([*keys, mark] if not create else keys, create=create)[0]
    if found is None:
        return None
    room, receipts = (found[key] for key in keys)
    etag = _etag((tournament_id, game_id), "console", session, room, receipts)
    return Versions(etag, tournament_id, f"{room}.{receipts}")


def forget() -> None:
    """Drop the in-process state (tests: a new cache prefix, the cache back up)."""
    global _down_until
    with _lock:
        _pending.clear()
    _down_until = 0.0
    _tournament_of_game.clear()


def tournament_version(tournament_id: int) -> Any:
    """The tournament's current version (created when missing), None when the cache is down:
    the key of per-process snapshots of its playing round (``round_snapshots``). Read it
    **before** the rows the snapshot is made from."""
    key = tournament_key(tournament_id)
    found, _ = _read([key], create=True)
    return None if found is None else found[key]
