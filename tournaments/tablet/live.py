"""Live state of a game for tablets and the projector: small JSON documents polled every
second with ``If-None-Match`` and answered ``304 Not Modified`` while nothing changed.

The version (ETag) of a game's state is computed from a handful of indexed columns: the
game's state, its current round (id, state, deadline, top computed/placed) and, once that
round is closed, the game's revision (``selectors.game_revision``: the newest audit-log id
about that game; every correction or decision writes one, and they change scores and
ranks). The game and round are ``selectors.current_game`` and ``selectors.current_round``
(a cancelled round is shown until it is drawn again). While a round is open, other
players' submissions do not change anyone else's version, so 200 tablets polling mostly
get 304s; a change in another game does not either. See docs/live-updates.md for why
polling was chosen over SSE or websockets.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from engine.notation import parse_reference
from engine.tiles import SIZE
from tournaments import selectors
from tournaments.models import Game, Round
from tournaments.models.choices import RoundState

POLL_SECONDS = 1


# The (game, current round, game revision) of a tournament, kept per process: keyed by the
# tournament's live version (``live_versions``, read before) it is reused until the next
# change, exactly; without it (the cache down) for a fraction of a second, and a change still
# shows within POLL_SECONDS + that delay.
_SNAPSHOTS: dict[int, tuple[float, str, Game | None, Round | None, int]] = {}
_SNAPSHOTS_LOCK = threading.Lock()


def snapshot(tournament_id: int, room: str = "") -> tuple[Game | None, Round | None, int]:
    """The current game, its current round and (round closed) the game's revision. With
    ``room`` (the tournament's live version, read before this call) a copy made under the
    same version is reused; without, one at most ``TIRAGE_LIVE_CACHE_SECONDS`` old (0.5 s by
    default; 0 turns that cache off)."""
    ttl = float(getattr(settings, "TIRAGE_LIVE_CACHE_SECONDS", 0.5))
    now = time.monotonic()
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(tournament_id)
    if cached is not None and (cached[1] == room if room else now - cached[0] < ttl):
        return cached[2], cached[3], cached[4]
    game = selectors.current_game(tournament_id)
    rnd = selectors.current_round(game)
    audit = (
        selectors.game_revision(game) if rnd is not None and rnd.state == RoundState.CLOSED else 0
    )
    if room or ttl > 0:
        with _SNAPSHOTS_LOCK:
            _SNAPSHOTS[tournament_id] = (now, room, game, rnd, audit)
    return game, rnd, audit


# A game's standings by player, per process, under the tournament's live version: after a
# close every tablet's next poll is a full answer holding its total and rank, and 5,000 of
# them must not each sort 5,000 players (selectors.game_standings is computed per call).
_STANDINGS: dict[int, tuple[str, dict[int, Any], int]] = {}


def standings_by_player(game: Game, room: str = "") -> tuple[dict[int, Any], int]:
    """``({player id: Standing}, players ranked)`` of ``game``; with ``room`` (the
    tournament's live version read before) kept until the next change, else computed."""
    with _SNAPSHOTS_LOCK:
        cached = _STANDINGS.get(game.pk)
    if room and cached is not None and cached[0] == room:
        return cached[1], cached[2]
    standings = selectors.game_standings(game)
    table = {s.player_id: s for s in standings}
    if room:
        with _SNAPSHOTS_LOCK:
            _STANDINGS[game.pk] = (room, table, len(standings))
    return table, len(standings)


def game_version(
    game: Game | None, rnd: Round | None, *extra: Any, audit: int | None = None
) -> str:
    """The ETag of a game's live state (see the module docstring); ``extra`` adds what is
    private to one reader (a tablet's own current proposal); ``audit`` the game's revision
    when the caller already has it."""
    parts: list[Any] = [get_language() or ""]
    if game is not None:
        parts += [game.pk, game.state]
    if rnd is not None:
        parts += [rnd.pk, rnd.state, rnd.deadline, rnd.computed_at, rnd.top_placed_at]
        parts += [rnd.paused_at, rnd.paused_remaining]  # the clock paused, or extended there
        if rnd.state == RoundState.CLOSED:
            parts.append(selectors.game_revision(game) if audit is None and game else audit)
    parts += list(extra)
    digest = hashlib.sha1(repr(parts).encode(), usedforsecurity=False).hexdigest()[:20]
    return f'"{digest}"'


def conditional_json(
    request: HttpRequest, version: str, build: Callable[[], dict[str, Any]]
) -> HttpResponse:
    """``304`` when the client already holds ``version``, else the JSON ``build()`` makes.

    ``Cache-Control: no-cache`` makes every cache revalidate; ``server_time`` lets the page
    count down on the server's clock whatever the tablet's clock says."""
    if unchanged(request, version):
        return not_modified(version)
    data = build()
    data["version"] = version
    data["server_time"] = iso(timezone.now())
    data["poll_seconds"] = POLL_SECONDS
    return _headers(JsonResponse(data, json_dumps_params={"ensure_ascii": False}), version)


def not_modified(version: str) -> HttpResponse:
    """The ``304`` of a poll whose ``If-None-Match`` holds ``version``."""
    return _headers(HttpResponse(status=304), version)


def unchanged(request: HttpRequest, version: str) -> bool:
    """Whether the poll already holds ``version`` (its ``If-None-Match``)."""
    return etag_matches(request.headers.get("If-None-Match", ""), version)


def _headers(response: HttpResponse, version: str) -> HttpResponse:
    response["ETag"] = version
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


def etag_matches(header: str, version: str) -> bool:
    """If-None-Match compared weakly (RFC 9110 13.1.2): nginx's gzip turns our strong ETag
    into ``W/"…"``, which the tablet then sends back; a list and ``*`` count too."""
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return version in tags or "*" in tags


def iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="milliseconds") if value else None


def placed_squares(board_text: str, coord: str, word: str) -> list[list[Any]]:
    """``[row, col, letter]`` of the tiles a move puts on ``board_text`` (its new tiles)."""
    cells = "".join(board_text.split()) or "." * (SIZE * SIZE)
    ref = parse_reference(coord)
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    squares = []
    for i, letter in enumerate(word):
        r, c = ref.row + dr * i, ref.col + dc * i
        if 0 <= r < SIZE and 0 <= c < SIZE and cells[r * SIZE + c] == ".":
            squares.append([r, c, letter])
    return squares


def board_cells(rnd: Round | None) -> str:
    """The 225 squares of the board the round is played on."""
    if rnd is None:
        return "." * (SIZE * SIZE)
    cells = "".join(rnd.board_before.split())
    return cells if len(cells) == SIZE * SIZE else "." * (SIZE * SIZE)


def previous_top(rnd: Round | None) -> list[list[Any]]:
    """Squares of the top placed just before ``rnd`` (highlighted on the projector)."""
    if rnd is None:
        return []
    before = selectors.previous_placed_round(rnd)
    if before is None or not before.top:
        return []
    chosen = before.top["chosen"]
    return placed_squares(before.board_before, chosen["coord"], chosen["word"])


def round_public(rnd: Round | None) -> dict[str, Any] | None:
    """What everyone in the room may see of a round: never the top before it closes."""
    if rnd is None:
        return None
    announced = rnd.state in {RoundState.OPEN, RoundState.CLOSED}
    paused = rnd.state == RoundState.OPEN and rnd.paused_at is not None
    data: dict[str, Any] = {
        "id": rnd.pk,
        "number": rnd.number,
        "state": rnd.state,
        "rack": rnd.rack if announced else "",
        "board": board_cells(rnd),
        # The effective deadline: none while the clock is paused (no time passes), with
        # the seconds it will have again on resume (``paused_remaining``).
        "deadline": iso(rnd.deadline) if announced and not paused else None,
        "paused": paused,
        "paused_remaining": rnd.paused_remaining if paused else None,
        "opened_at": iso(rnd.opened_at),
        "closed_at": iso(rnd.closed_at),
        "top": None,
        "top_placed": rnd.top_placed_at is not None,
    }
    if rnd.state == RoundState.CLOSED and rnd.top:
        chosen = rnd.top["chosen"]
        data["top"] = {
            "reference": chosen["coord"],
            "word": chosen["word"],
            "score": rnd.top_score,
            "squares": placed_squares(rnd.board_before, chosen["coord"], chosen["word"]),
        }
    return data


def premiums() -> dict[str, list[list[int]]]:
    """The premium squares, for drawing the board in the browser (engine.tiles is the truth)."""
    from engine import tiles

    def squares(values: frozenset[tuple[int, int]]) -> list[list[int]]:
        return sorted([r, c] for r, c in values)

    return {
        "tw": squares(tiles.TRIPLE_WORD),
        "dw": squares(tiles.DOUBLE_WORD),
        "tl": squares(tiles.TRIPLE_LETTER),
        "dl": squares(tiles.DOUBLE_LETTER),
    }
