"""Faults on the running stack: each test breaks one component in the middle of play and
shows that nothing acknowledged is lost and that the tournament goes on."""

from __future__ import annotations

import http.client
import random
import signal
import threading
import time

from tests.production.play import Tournament, create_tournament, move_for
from tests.production.stack import wait_for


def play_round(t: Tournament, game_id: int, players: int, tag: str) -> dict:
    """Draw (top by the worker), open, every player submits, close, place."""
    rnd = t.wait_top(t.draw(game_id)["id"])
    t.open(rnd["id"])
    for i in range(players):
        assert t.submit(i, move_for(rnd, i), key=f"{tag}-{i}").status == 201
    t.close(rnd["id"])
    return t.place(rnd["id"])


def top_rows(stack, round_id: int) -> int:
    return stack.sql(
        "SELECT count(*) FROM tournaments_auditlog WHERE action = 'round.top_computed' "
        "AND object_id = %s",
        round_id,
    )[0][0]


def test_worker_killed_during_a_top_computation(healthy_stack) -> None:
    """SIGKILL the pool process that is computing a top: the message was not acknowledged
    (acks_late), the worker gives it back (reject_on_worker_lost), another process computes
    it. The top lands, once; the round then plays normally."""
    stack = healthy_stack
    t = create_tournament(stack, 4)
    game = t.new_game(seed=201)
    for old in stack.probe.glob("computing-*"):
        old.unlink()
    (stack.probe / "top-delay").write_text("4")
    drawn = t.draw(game["id"])
    marker = wait_for(lambda: list(stack.probe.glob("computing-*")), 30, "top computation")[0]
    pid = int(marker.name.split("-")[1])
    assert pid in stack.children(stack.pid("celery"))
    (stack.probe / "top-delay").unlink()  # the retry computes at full speed
    stack.kill(pid, signal.SIGKILL)
    rnd = t.wait_top(drawn["id"], seconds=60)
    assert "WorkerLostError" in stack.worker_log()
    assert top_rows(stack, rnd["id"]) == 1
    t.open(rnd["id"])
    for i in range(4):
        assert t.submit(i, move_for(rnd, i), key=f"wk-{i}").status == 201
    t.close(rnd["id"])
    assert t.place(rnd["id"])["top_placed"]
    time.sleep(1)  # a duplicate delivery, if any, would land now
    assert top_rows(stack, rnd["id"]) == 1
    play_round(t, game["id"], 4, "wk2")


def test_redis_restarted_during_a_round(healthy_stack) -> None:
    """Redis (the broker, no persistence) restarts while a round is open and a top is still
    queued: proposals are accepted and stored all along (the database is the record), the
    queued top lost with Redis is computed when it is first needed, and play goes on."""
    stack = healthy_stack
    t = create_tournament(stack, 6)
    game = t.new_game(seed=202)
    rnd = t.wait_top(t.draw(game["id"])["id"])
    t.open(rnd["id"])
    stack.stop("redis")
    for i in range(3):  # Redis down: tablets still hand in
        assert t.submit(i, move_for(rnd, i), key=f"rd-{i}").status == 201
    stack.start("redis")
    for i in range(3, 6):
        assert t.submit(i, move_for(rnd, i), key=f"rd-{i}").status == 201
    t.close(rnd["id"])
    t.place(rnd["id"])
    assert len(t.proposals(rnd["id"])) == 6
    # A top queued while no worker runs is in Redis only: restart Redis before it is
    # consumed, the message is gone. The round is in the database; its top is computed
    # when the first proposal (or the place) needs it, and the worker still works after.
    stack.stop("worker")
    queued = t.draw(game["id"])
    stack.stop("redis")
    stack.start("redis", "worker")
    time.sleep(2)
    t.open(queued["id"])
    first = t.round(queued["id"])
    for i in range(6):
        if first["top_ready"]:
            move = move_for(first, i)
        else:  # the top is not there yet: hand in a word of the rack as a player would
            move = {"coord": "H8", "word": first["rack"].replace("?", "")[:2], "score": 0}
        assert t.submit(i, move, key=f"rq-{i}").status == 201
        first = t.round(queued["id"])
    assert first["top_ready"]
    t.close(queued["id"])
    assert t.place(queued["id"])["top_placed"]
    assert top_rows(stack, queued["id"]) == 1
    assert len(t.proposals(queued["id"])) == 6
    play_round(t, game["id"], 6, "rd3")  # the worker computes tops again


def test_web_worker_killed_while_tablets_submit(healthy_stack) -> None:
    """SIGKILL gunicorn workers while 20 tablets submit, each time the worker that holds a
    tablet's proposal (tests/production/web_probe.py): the master replaces them; tablets
    resend with the same client key after a failure, so every proposal acknowledged with a
    2xx is in the database, once."""
    stack = healthy_stack
    players, versions = 20, 5
    t = create_tournament(stack, players)
    game = t.new_game(seed=203)
    rnd = t.wait_top(t.draw(game["id"])["id"])
    t.open(rnd["id"])
    acknowledged: list[tuple[int, str]] = []
    failures: list[str] = []
    cut: list[str] = []  # requests that ended without an answer: the kills cut them short
    lock = threading.Lock()

    def tablet(i: int) -> None:
        client = t.player(i)
        client.timeout = 10
        for v in range(versions):
            move = move_for(rnd, i + v)
            body = {"reference": move["coord"], "word": move["word"], "score": move["score"],
                    "client_key": f"web-{i}-{v}"}  # fmt: skip
            for _attempt in range(30):
                try:
                    response = client.request("POST", "/api/player/proposals/", body)
                except (OSError, http.client.HTTPException):
                    # Refused, reset, or the answer cut short by the kill: resend, same key.
                    with lock:
                        cut.append(body["client_key"])
                    time.sleep(0.2)
                    continue
                if response.status in (200, 201) and not isinstance(response.body, dict):
                    time.sleep(0.2)  # a 2xx whose body was cut: resend to read the stored one
                    continue
                if response.status in (200, 201):
                    with lock:
                        acknowledged.append((response.body["id"], body["client_key"]))
                    break
                if response.status >= 500:
                    time.sleep(0.2)
                    continue
                failures.append(f"{i}/{v}: {response!r}")
                break
            else:
                failures.append(f"{i}/{v}: never acknowledged")
            time.sleep(random.uniform(0, 0.2))

    hold = stack.probe / "submit-hold"
    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(players)]
    killed: list[int] = []
    try:
        for kill in range(3):
            for old in stack.probe.glob("serving-*"):
                old.unlink()
            hold.write_text("")  # the next proposal to reach a worker waits there
            if kill == 0:
                for thread in threads:
                    thread.start()
            marker = wait_for(lambda: sorted(stack.probe.glob("serving-*")), 30,
                              "a proposal held by a web worker")[0]  # fmt: skip
            pid = int(marker.name.split("-")[1])
            # That worker is a child of the master and has a request in flight right now.
            assert pid in stack.children(stack.pid("gunicorn")), (pid, killed)
            stack.kill(pid, signal.SIGKILL)
            killed.append(pid)
            hold.unlink()  # release a request the other worker may be holding
    finally:
        hold.unlink(missing_ok=True)
    for thread in threads:
        thread.join(timeout=120)
    assert len(set(killed)) == 3 and not failures, (killed, failures)
    # Each kill cut a tablet's request short, and the tablet resent it (same key).
    assert len(cut) >= 3, cut
    assert len(acknowledged) == players * versions
    rows = dict(stack.sql(
        "SELECT id, client_key FROM tournaments_proposalversion WHERE round_id = %s", rnd["id"]
    ))  # fmt: skip
    for pk, key in acknowledged:
        assert rows.get(pk) == key
    assert sorted(rows.values()) == sorted(key for _, key in acknowledged)  # each once
    t.close(rnd["id"])
    assert len(t.proposals(rnd["id"])) == players  # the last version of each is current
    t.place(rnd["id"])


def test_postgresql_restarted_between_rounds(healthy_stack) -> None:
    """PostgreSQL restarts between two rounds: the web workers and the Celery worker
    reconnect on their own (health checks), and the next round is played as usual."""
    stack = healthy_stack
    t = create_tournament(stack, 5)
    game = t.new_game(seed=204)
    first = play_round(t, game["id"], 5, "pg1")
    stack.stop("pg")
    stack.start("pg")
    # One request may still meet a dead pooled connection in a web process: the health
    # check (CONN_HEALTH_CHECKS) replaces it before use, so none should fail.
    second = play_round(t, game["id"], 5, "pg2")
    assert second["number"] == first["number"] + 1 and second["top_placed"]
    assert top_rows(stack, second["id"]) == 1
    standings = t.arbiter.ok("GET", f"/api/tournaments/{t.slug}/games/1/rankings/")
    assert standings["top_total"] == first["top_score"] + second["top_score"]
