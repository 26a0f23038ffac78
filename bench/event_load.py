"""The load of one round of ``bench/stack_event.py``: tablets submitting and polling, centre
arbiters entering slips, then each centre closing, in one asyncio loop of raw HTTP/1.1
requests to 127.0.0.1 (one connection a request, as a tablet's would be; about a tenth of
the CPU of a thread per tablet, see ``bench/stack_proposals.py``).

Kept apart from the orchestration so that each file stays small; nothing here knows the
site beyond the paths of docs/api.md and the tablet's ``/tablette/<token>/etat/``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: Share of the moves sent as an invalid word (the word reversed, same square and score):
#: the site must accept and store them (judged at the close), never refuse them.
INVALID_SHARE = 0.05
#: Share of the players who hand in nothing in a round.
SILENT_SHARE = 0.03


@dataclass
class Figures:
    """Everything measured over the run (latencies in seconds)."""

    proposals: list[float] = field(default_factory=list)  # tablet proposals and slips
    slips: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    not_modified: int = 0
    closes: list[float] = field(default_factory=list)
    round_rates: list[float] = field(default_factory=list)  # proposals/s, one per round
    proposal_wall: float = 0.0
    window_total: float = 0.0  # the rounds' --window seconds, summed
    poll_wall: float = 0.0
    errors: Counter = field(default_factory=Counter)  # (what, status) → count
    samples: list[str] = field(default_factory=list)  # the first few error bodies

    def error(self, what: str, status: int, body: bytes | str) -> None:
        self.errors[(what, status)] += 1
        if len(self.samples) < 8:
            self.samples.append(f"{what} {status}: {body[:200]!r}")


@dataclass(frozen=True)
class Player:
    registration: int
    table: int
    centre: int  # index into the centres list
    token: str
    tablet: bool


async def request(
    port: int, method: str, path: str, headers: dict[str, str], body: Any = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection: (status, lower-cased headers, body)."""
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json",
             "Connection: close", *(f"{k}: {v}" for k, v in headers.items())]  # fmt: skip
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write("\r\n".join(lines).encode() + b"\r\n\r\n" + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split(" ", 2)[1]), found, rest


def move_of(rnd: dict, key: str) -> dict | None:
    """A player's move this round, chosen by ``key``: mostly one of the round's best moves
    (the top more often), now and then an invalid word, now and then nothing."""
    rng = random.Random(key)
    if rng.random() < SILENT_SHARE:
        return None
    best = rnd["top"]["best"] or [rnd["top"]["chosen"]]
    move = dict(best[min(int(rng.expovariate(0.5)), len(best) - 1)])
    if rng.random() < INVALID_SHARE and move["word"][::-1] != move["word"]:
        move["word"] = move["word"][::-1]
    return move


@dataclass
class RoundLoad:
    """One round: ``players`` hand in their moves at random moments of ``window`` seconds
    (tablets through the player API, paper slips through their centre arbiter's API),
    tablets poll every ``poll_every`` s until the last centre has closed; then each centre
    closes (``centres``: (centre id, arbiter token))."""

    port: int
    round_id: int
    rnd: dict
    players: list[Player]
    centres: list[tuple[int, str]]
    window: float
    poll_every: float
    timeout: float
    figures: Figures
    tag: str
    _closed: asyncio.Event | None = None

    async def _timed(
        self,
        what: str,
        method: str,
        path: str,
        auth: str,
        body: Any,
        ok: tuple[int, ...],
        into: list[float],
    ) -> tuple[int, dict[str, str]]:
        sent = time.monotonic()
        try:
            status, headers, rest = await asyncio.wait_for(
                request(self.port, method, path, {"Authorization": auth} if auth else {}, body),
                self.timeout,
            )
        except (OSError, TimeoutError, ValueError, IndexError) as exc:
            self.figures.error(what, 0, repr(exc))
            return 0, {}
        into.append(time.monotonic() - sent)
        if status not in ok:
            self.figures.error(what, status, rest)
        return status, headers

    async def _tablet_move(self, player: Player, at: float, sends: list[float]) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        move = move_of(self.rnd, f"{self.tag}-{player.table}")
        if move is None:
            return
        body = {"reference": move["coord"], "word": move["word"], "score": move["score"],
                "client_key": f"{self.tag}-{player.table}"}  # fmt: skip
        sends.append(time.monotonic())
        await self._timed(
            "proposal",
            "POST",
            "/api/player/proposals/",
            f"Player {player.token}",
            body,
            (201,),
            self.figures.proposals,
        )
        sends.append(time.monotonic())

    async def _slips(self, token: str, players: list[Player], sends: list[float]) -> None:
        """One arbiter types their centre's slips one after the other, as they come in."""
        start = time.monotonic()
        for k, player in enumerate(players):
            await asyncio.sleep(max(0.0, start + self.window * k / len(players) - time.monotonic()))
            move = move_of(self.rnd, f"{self.tag}-{player.table}")
            if move is None:
                continue
            body = {"table_number": player.table, "reference": move["coord"],
                    "word": move["word"], "score": move["score"]}  # fmt: skip
            sends.append(time.monotonic())
            await self._timed("slip", "POST", f"/api/rounds/{self.round_id}/slips/",
                              f"Token {token}", body, (201,), self.figures.slips)  # fmt: skip
            sends.append(time.monotonic())

    async def _poll(self, player: Player) -> None:
        assert self._closed is not None
        await asyncio.sleep(random.uniform(0, self.poll_every))
        etag = ""
        while not self._closed.is_set():
            began = time.monotonic()
            headers = {"If-None-Match": etag} if etag else {}
            path = f"/tablette/{player.token}/etat/"
            try:
                status, got, rest = await asyncio.wait_for(
                    request(self.port, "GET", path, headers), self.timeout
                )
            except (OSError, TimeoutError, ValueError, IndexError) as exc:
                self.figures.error("poll", 0, repr(exc))
                status, got, rest = 0, {}, b""
            if status:
                self.figures.polls.append(time.monotonic() - began)
            if status == 304:
                self.figures.not_modified += 1
            elif status == 200:
                etag = got.get("etag", "")
            elif status:
                self.figures.error("poll", status, rest)
            await asyncio.sleep(max(0.0, began + self.poll_every - time.monotonic()))

    async def _close(self, centre: int, token: str) -> None:
        await self._timed(
            "centre close",
            "POST",
            f"/api/rounds/{self.round_id}/centres/{centre}/close",
            f"Token {token}",
            {"confirm": True},
            (200,),
            self.figures.closes,
        )

    async def _run(self) -> None:
        self._closed = asyncio.Event()
        polls_began = time.monotonic()
        polls_before = len(self.figures.polls)
        pollers = [asyncio.create_task(self._poll(p)) for p in self.players if p.tablet]
        start = time.monotonic() + 0.2
        sends: list[float] = []
        work = [self._tablet_move(p, start + random.uniform(0, self.window), sends)
                for p in self.players if p.tablet]  # fmt: skip
        for index, (_centre, token) in enumerate(self.centres):
            slips = [p for p in self.players if not p.tablet and p.centre == index]
            if slips:
                work.append(self._slips(token, slips, sends))
        await asyncio.gather(*work)
        self.figures.window_total += self.window
        if sends:
            wall = max(max(sends) - min(sends), 1e-9)
            self.figures.round_rates.append(len(sends) / 2 / wall)
            self.figures.proposal_wall += wall
        await asyncio.gather(*(self._close(c, token) for c, token in self.centres))
        self._closed.set()
        await asyncio.gather(*pollers)
        if len(self.figures.polls) > polls_before:
            self.figures.poll_wall += time.monotonic() - polls_began

    def run(self) -> None:
        asyncio.run(self._run())
