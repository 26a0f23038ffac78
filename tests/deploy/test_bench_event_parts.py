"""The parts of ``bench/stack_event.py`` that decide its verdict, without a stack: the
check of the stored moves against the moves the site took, and the client's reading of
an answer from a real socket (a small asyncio server on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from event_figures import Figures, Phases  # noqa: E402
from event_load import Http  # noqa: E402
from stack_event import Event  # noqa: E402


class _Rows:
    """The database's answer to the bench's query: (player, source, versions, late)."""

    def __init__(self, rows: list[tuple[int, str, int, int]]) -> None:
        self.rows = rows

    def sql(self, query: str, round_id: int) -> list[tuple[int, str, int, int]]:
        return self.rows


def _event(rows: list[tuple[int, str, int, int]]) -> Event:
    event = object.__new__(Event)  # no stack, no login: only what check_stored reads
    event.figures = Figures(Phases())
    event.stack = _Rows(rows)
    event.stored = {"accepted": 0, "stored": 0, "lost": 0, "extra": 0, "late": 0}
    return event


def test_every_move_taken_stored_once_is_no_error() -> None:
    event = _event([(1, "tablet", 1, 0), (2, "arbiter", 1, 0)])
    line = event.check_stored(7, [(1, "tablet"), (2, "arbiter")], "g1r1")
    assert sum(event.figures.errors.values()) == 0
    assert event.stored == {"accepted": 2, "stored": 2, "lost": 0, "extra": 0, "late": 0}
    assert "lost 0, extra 0, late 0" in line


def test_lost_twice_stored_unsent_and_late_moves_are_errors() -> None:
    # Taken: players 1 (tablet), 2 (slip), 3 (tablet), 4 (tablet).
    # Stored: 1 once; 2 twice (one extra); 3 once but late; 4 missing (lost);
    # 9 stored though the bench was never told it was taken (one extra).
    rows = [(1, "tablet", 1, 0), (2, "arbiter", 2, 0), (3, "tablet", 1, 1), (9, "tablet", 1, 0)]
    event = _event(rows)
    event.check_stored(7, [(1, "tablet"), (2, "arbiter"), (3, "tablet"), (4, "tablet")], "g1r2")
    errors = event.figures.errors
    assert errors[("move lost", "round g1r2")] == 1
    assert errors[("version not sent or twice", "round g1r2")] == 2
    assert errors[("version late", "round g1r2")] == 1
    assert event.stored == {"accepted": 4, "stored": 5, "lost": 1, "extra": 2, "late": 1}


def test_the_client_reads_status_headers_and_body_and_holds_the_connection_limit() -> None:
    answer = b'HTTP/1.1 202 Accepted\r\nETag: "v7"\r\nContent-Length: 2\r\n\r\nok'
    seen: list[bytes] = []
    busy = {"now": 0, "most": 0}

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        busy["now"] += 1
        busy["most"] = max(busy["most"], busy["now"])
        seen.append(await reader.readuntil(b"\r\n\r\n"))
        await asyncio.sleep(0.01)
        writer.write(answer)
        await writer.drain()
        writer.close()  # as gunicorn's sync workers do after every answer
        busy["now"] -= 1

    async def scenario() -> list[tuple[int, dict[str, str], bytes]]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        http = Http([port], connections=1, timeout=10)
        async with server:
            return await asyncio.gather(
                *(http.request(k, "GET", "/tablette/t/etat/", headers={"If-None-Match": "x"})
                  for k in range(3))
            )  # fmt: skip

    results = asyncio.run(scenario())
    assert [r[0] for r in results] == [202, 202, 202]
    assert results[0][1]["etag"] == '"v7"'
    assert results[0][2] == b"ok"
    assert busy["most"] == 1  # connections=1: one request in flight at a time
    assert seen[0].startswith(b"GET /tablette/t/etat/ HTTP/1.1\r\n")
    assert b"If-None-Match: x\r\n" in seen[0]
    assert b"Connection: close\r\n" in seen[0]
