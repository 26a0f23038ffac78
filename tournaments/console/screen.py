"""What the console's game screen draws, built from ``tournaments.selectors``: the board
grid with its premiums and the last top marked, and the status payload the screen polls.
Presentation only: the rows come from the selectors."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html

from engine.tiles import DOUBLE_LETTER, DOUBLE_WORD, ROWS, SIZE, TRIPLE_LETTER, TRIPLE_WORD
from tournaments import adapter, selectors
from tournaments.console.keys import game_keys
from tournaments.models import Game, Round, RoundState
from tournaments.services.rounds import time_left

CENTRE = (7, 7)


# --- The board -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the grid as shown: its tile, premium and marks."""

    name: str
    letter: str
    premium: str
    joker: bool
    last: bool

    @property
    def css(self) -> str:
        """The square's classes: premium, ``tile``, ``joker``, ``last``."""
        marks = [self.premium, "tile" * bool(self.letter), "joker" * self.joker]
        marks.append("last" * self.last)
        return " ".join(m for m in marks if m)


def _premium(row: int, col: int) -> str:
    if (row, col) == CENTRE:
        return "centre"
    if (row, col) in TRIPLE_WORD:
        return "mt"
    if (row, col) in DOUBLE_WORD:
        return "md"
    if (row, col) in TRIPLE_LETTER:
        return "lt"
    if (row, col) in DOUBLE_LETTER:
        return "ld"
    return ""


def move_squares(move: dict[str, Any]) -> dict[tuple[int, int], str]:
    """The squares a stored top covers, with the letter on each."""
    ref = adapter.move(move).reference
    out = {}
    for i, ch in enumerate(move["word"]):
        row, col = (ref.row, ref.col + i) if ref.horizontal else (ref.row + i, ref.col)
        out[(row, col)] = ch
    return out


def board_grid(rnd: Round | None, previous: Round | None) -> list[tuple[str, list[Square]]]:
    """Rows of squares: the board before ``rnd`` plus its top once placed; the last placed
    top is marked. With no round, the empty board."""
    cells = adapter.board(rnd.board_before if rnd else "").cells
    letters = {(i // SIZE, i % SIZE): ch for i, ch in enumerate(cells) if ch != "."}
    last: set[tuple[int, int]] = set()
    if rnd is not None and rnd.top_placed_at is not None:
        placed = move_squares(rnd.top["chosen"])
        letters.update({sq: ch for sq, ch in placed.items() if sq not in letters})
        last = set(placed)
    elif previous is not None and previous.top_placed_at is not None:
        last = set(move_squares(previous.top["chosen"]))
    return grid(letters, last)


def grid(
    letters: dict[tuple[int, int], str], last: set[tuple[int, int]]
) -> list[tuple[str, list[Square]]]:
    """Rows of squares from the letters on the board (lowercase: a joker), ``last`` marked:
    the game screen's board and the classic score sheet's (``templates/includes/board.html``)."""
    rows = []
    for r in range(SIZE):
        squares = []
        for c in range(SIZE):
            ch = letters.get((r, c), "")
            squares.append(
                Square(
                    f"{ROWS[r]}{c + 1}", ch.upper(), _premium(r, c), ch.islower(), (r, c) in last
                )
            )
        rows.append((ROWS[r], squares))
    return rows


# --- The status the game screen polls --------------------------------------------------


def status_payload(game: Game) -> dict[str, Any]:
    """What changes while the arbiter watches: round state, top, deadline, slips count.

    Deliberately free of the current time, so an unchanged game keeps its ETag."""
    rnd = selectors.current_round(game, cancelled=False)
    data: dict[str, Any] = {"game": game.pk, "state": game.state, "round": None}
    if rnd is not None:
        chosen = (rnd.top or {}).get("chosen")
        data["round"] = {
            "id": rnd.pk,
            "number": rnd.number,
            "state": rnd.state,
            "rack": rnd.rack,
            "top_ready": rnd.top is not None,
            "top": chosen,
            "top_placed": rnd.top_placed_at is not None,
            "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
            "paused": rnd.paused_at is not None,
            "paused_remaining": rnd.paused_remaining,
            "received": selectors.received_count(rnd),
            "registered": selectors.expected_count(rnd),
        }
    return data


def status_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """The status answer's cache headers, full or 304 (the WSGI fast lane's 304 too,
    ``tournaments.poll_lane``): revalidate every time, never in a shared cache."""
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


def status_not_modified(etag: str) -> HttpResponse:
    """The ``304`` of a status poll whose ``If-None-Match`` holds ``etag``."""
    return status_headers(HttpResponse(status=304), etag)


# --- Round control: the keys, the clock, what undoing the close gives back ----------------


def control_context(game: Game, rnd: Round | None, role: str | None) -> dict[str, Any]:
    """What the game screen's round control shows: every key with why it cannot act
    (``console.keys``), the seconds left (running or paused) and, for a closed round whose
    top is not placed, the seconds a reopen gives back (0: the arbiter must give some)."""
    reopen_seconds = None
    if rnd is not None and rnd.state == RoundState.CLOSED and rnd.top_placed_at is None:
        reopen_seconds = 0
        if rnd.deadline is not None and rnd.closed_at is not None:
            reopen_seconds = max(0, int(-(-(rnd.deadline - rnd.closed_at).total_seconds() // 1)))
    left = time_left(rnd) if rnd is not None else None
    return {
        "keys": game_keys(game, rnd, role),
        "time_left": left,
        "time_left_text": minutes_seconds(left or 0),
        # The time left inside the close confirmation's sentence, which console_keys.js
        # keeps up to date (one translated sentence, the number in its own element).
        "time_left_html": format_html(
            '<span id="close-left">{}</span>', minutes_seconds(left or 0)
        ),
        "paused": rnd is not None and rnd.paused_at is not None,
        "reopen_seconds": reopen_seconds,
        "reopen_text": minutes_seconds(reopen_seconds or 0),
        # « Prolonger » posts this key: the same form sent twice (a retry) extends once.
        "extend_key": uuid.uuid4().hex,
    }


def minutes_seconds(seconds: int) -> str:
    """``m:ss``, as the countdown shows it."""
    return f"{seconds // 60}:{seconds % 60:02d}"
