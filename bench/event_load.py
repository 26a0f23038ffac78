"""The load of ``bench/stack_event.py``: tablets polling and submitting, centre arbiters
typing slips, each centre closing, all in one asyncio loop of raw HTTP/1.1 requests to the
stack's gunicorn instances on 127.0.0.1.

Kept apart from the orchestration so that each file stays small; nothing here knows the
site beyond the paths of docs/api.md and the tablet's ``/tablette/<token>/etat/``.

The client is lean on purpose (its CPU shares the machine with the stack): one
``asyncio.Protocol`` a request, no stream objects. gunicorn's sync workers close every
connection after its answer (they do not keep connections alive; nginx would keep the
tablets' connections and open one to gunicorn a request), so a connection a request is
what gunicorn sees in production too. At most ``connections`` requests are in flight per
instance, the others wait their turn as they would in nginx's queue; every latency is
counted from the moment the request was due, that wait included; the time limit counts
from the moment the request is sent.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Share of the moves sent as an invalid word (the word reversed, same square and score):
#: the site must accept and store them (judged at the close), never refuse them.
INVALID_SHARE = 0.05
#: Share of the players who hand in nothing in a round.
SILENT_SHARE = 0.03
#: A move is taken: stored now (201), the same client key again (200), or queued for the
#: ingestion worker (202, a receipt; the closes drain the queue first).
MOVE_OK = (200, 201, 202)


@dataclass(frozen=True)
class Player:
    registration: int
    player: int  # the Player row: ProposalVersion.player
    table: int
    centre: int  # index into the centres list
    token: str
    tablet: bool
    polls: bool  # one of the tablets whose polls are simulated (--pollers)


class Exchange(asyncio.Protocol):
    """Write one request, collect the answer until the server closes the connection."""

    def __init__(self, payload: bytes, done: asyncio.Future) -> None:
        self.payload, self.done, self.chunks = payload, done, []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.payload)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.done.done():
            return
        if exc is not None:
            self.done.set_exception(exc)
        else:
            self.done.set_result(b"".join(self.chunks))


def _parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split(" ", 2)[1]), headers, body


class Http:
    """Requests to the gunicorn instances (``ports``), spread by a route number (a tablet
    keeps its instance, as nginx's upstream would spread tablets)."""

    def __init__(self, ports: list[int], connections: int, timeout: float) -> None:
        self.ports, self.connections, self.timeout = ports, connections, timeout
        self._slots: list[asyncio.Semaphore] = []

    async def request(self, route: int, method: str, path: str, auth: str = "",
                      body: Any = None, headers: dict[str, str] | None = None,
                      ) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
        """(status, lower-cased headers, body); raises OSError/TimeoutError/ValueError."""
        if not self._slots:
            self._slots = [asyncio.Semaphore(self.connections) for _ in self.ports]
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json",
                 "Connection: close"]  # fmt: skip
        if auth:
            lines.append(f"Authorization: {auth}")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        payload = "\r\n".join(lines).encode() + b"\r\n\r\n" + data
        index = route % len(self.ports)
        loop = asyncio.get_running_loop()
        async with self._slots[index], asyncio.timeout(self.timeout):
            done = loop.create_future()
            transport, _ = await loop.create_connection(
                lambda: Exchange(payload, done), "127.0.0.1", self.ports[index]
            )
            try:
                raw = await done
            finally:
                transport.close()
        return _parse(raw)


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


#: (what, route, method, path, auth, body, accepted statuses) → (status, body) of a request,
#: its latency and errors recorded by the caller (bench/event_figures.py).
Send = Callable[..., Any]


class Pollers:
    """The simulated tablets' polls for the whole run: each polls ``/tablette/<token>/etat/``
    with the ETag it holds, ``every`` seconds after its previous answer (as poll.js does),
    keeping its ETag from round to round, until ``stop`` is set."""

    def __init__(self, http: Http, players: list[Player], every: float, record: Callable,
                 ) -> None:  # fmt: skip
        self.http, self.every, self.record = http, every, record
        self.players = [p for p in players if p.polls]

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(*(self._poll(p, stop) for p in self.players))

    async def _poll(self, player: Player, stop: asyncio.Event) -> None:
        etag = ""
        if await _wait(stop, random.uniform(0, self.every)):
            return
        path = f"/tablette/{player.token}/etat/"
        while True:
            began = time.monotonic()
            try:
                status, got, rest = await self.http.request(
                    player.table, "GET", path, headers={"If-None-Match": etag} if etag else {}
                )
            except (OSError, TimeoutError, ValueError, IndexError) as exc:
                status, got, rest = 0, {}, repr(exc).encode()
            self.record("poll", status, time.monotonic() - began, rest, ok=(200, 304))
            if status == 200:
                etag = got.get("etag", etag)
            if await _wait(stop, self.every):
                return


async def _wait(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep ``seconds`` unless ``stop`` is set first; whether it is set."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return False
    return True


@dataclass
class RoundMoves:
    """One round's moves: ``players`` hand in at random moments of ``window`` seconds
    (tablets through the player API, naming the round as tablet.js does; paper slips
    through their centre arbiter's API, ``centres``: (centre id, arbiter token)), then
    every centre closes. ``accepted`` collects (player id, source) of every move the site
    took, for the check against the database."""

    http: Http
    round_id: int
    rnd: dict
    players: list[Player]
    centres: list[tuple[int, str]]
    window: float
    record: Callable
    tag: str

    def __post_init__(self) -> None:
        self.accepted: list[tuple[int, str]] = []
        self.sends: list[float] = []

    async def _send(self, what: str, route: int, path: str, auth: str, body: dict,
                    due: float, player: Player, source: str) -> None:  # fmt: skip
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        self.sends.append(time.monotonic())
        try:
            status, _, rest = await self.http.request(route, "POST", path, auth, body)
        except (OSError, TimeoutError, ValueError, IndexError) as exc:
            status, rest = 0, repr(exc).encode()
        self.sends.append(time.monotonic())
        self.record(what, status, time.monotonic() - due, rest, ok=MOVE_OK)
        if status in MOVE_OK:
            self.accepted.append((player.player, source))

    def _tablet(self, player: Player, due: float) -> Any:
        move = move_of(self.rnd, f"{self.tag}-{player.table}")
        if move is None:
            return None
        body = {"round": self.round_id, "reference": move["coord"], "word": move["word"],
                "score": move["score"], "client_key": f"{self.tag}-{player.table}"}  # fmt: skip
        return self._send("tablet proposal", player.table, "/api/player/proposals/",
                          f"Player {player.token}", body, due, player, "tablet")  # fmt: skip

    async def _slips(self, centre: int, token: str, players: list[Player], start: float) -> None:
        """One arbiter types their centre's slips one after the other, as they come in."""
        for k, player in enumerate(players):
            move = move_of(self.rnd, f"{self.tag}-{player.table}")
            if move is None:
                continue
            body = {"table_number": player.table, "reference": move["coord"],
                    "word": move["word"], "score": move["score"]}  # fmt: skip
            due = start + self.window * k / len(players)
            await self._send("slip", centre, f"/api/rounds/{self.round_id}/slips/",
                             f"Token {token}", body, due, player, "arbiter")  # fmt: skip

    async def moves(self) -> None:
        start = time.monotonic() + 0.1
        work = [self._tablet(p, start + random.uniform(0, self.window))
                for p in self.players if p.tablet]  # fmt: skip
        for index, (_centre, token) in enumerate(self.centres):
            slips = [p for p in self.players if not p.tablet and p.centre == index]
            if slips:
                work.append(self._slips(index, token, slips, start))
        await asyncio.gather(*(w for w in work if w is not None))

    async def closes(self) -> None:
        async def close(index: int, centre: int, token: str) -> None:
            due = time.monotonic()
            try:
                status, _, rest = await self.http.request(
                    index, "POST", f"/api/rounds/{self.round_id}/centres/{centre}/close",
                    f"Token {token}", {"confirm": True},
                )  # fmt: skip
            except (OSError, TimeoutError, ValueError, IndexError) as exc:
                status, rest = 0, repr(exc).encode()
            self.record("centre close", status, time.monotonic() - due, rest, ok=(200,))

        await asyncio.gather(*(close(k, c, t) for k, (c, t) in enumerate(self.centres)))
