"""A simulated simultaneous event (issue 16, item 6) through the production stack:
P players in C centres, G sealed pre-drawn games of R rounds, tablets and paper slips.

    .venv/bin/python bench/stack_event.py [--players 5000] [--centres 25] [--games 4]
        [--rounds 20] [--tablet-share 0.8] [--pollers 200] [--poll-every 2] [--window 20]
        [--views 1] [--web-instances 2] [--web-workers 2] [--worker-concurrency 2]
        [--connections 64] [--max-seconds 3600] [--check-seconds 1800] [--seed 1]
        [--games-ahead] [--no-engine-top]

Starts a private stack (bench/stack_common.py: ``--web-instances`` gunicorn instances of
``--web-workers`` sync workers on consecutive ports, as separate web machines behind nginx
would run them, PostgreSQL, Redis, a Celery worker, all on 127.0.0.1) and sets the event
up through the site's services in ``manage.py shell``: a simultaneous tournament, C
centres, one arbiter per centre (its centre's head arbiter, with an API token), the
players imported with their centre column and spread over the centres, their tablet
links, and the racks of G pre-drawn games (a seeded game played top by top by the engine,
its first R rounds). The organiser creates each game **sealed** through the API when the
previous one is over (``--games-ahead``: all at the start), with a release schedule already
due: the worker releases, draws and tops each round as soon as the previous top is placed.

Each round: the organiser opens it; every tablet player (``--tablet-share``) submits once
through the player API at a random moment of ``--window`` seconds; each centre's arbiter
types the other players' paper slips one after the other over the same window; moves come
from the round's best moves (the top more often), some are invalid words, a few players
hand in nothing. Then every centre's arbiter closes their centre (the last close closes
the round), the bench checks in the database that every move the site took (200, 201 or
202) is stored as exactly one version, not late, and nothing else is (any difference is an
error), reads the rankings (console page and API) once (first view after a change), has
the top placed, and reads them ``--views`` times more (steady).

Polls: ``--pollers`` of the tablets poll ``/tablette/<token>/etat/`` all along the run,
``--poll-every`` seconds after each answer (as poll.js does), with the ETag they hold. A
sample, not all 4,000 tablets at 1 s: that alone is 4,000 requests a second, ~21 web cores
(docs/capacity.md), measured apart by bench/stack_polls.py; the sample's latencies say what
a tablet waits while the event runs on this stack.

Prints, per phase of the run, its wall time, each part's CPU (cores busy) and the load
average; every latency with the stack's CPU share and the load of its phase; moves/s and
polls/s; errors by kind and status; then ``tirage_standings_check`` (0 differences
expected, within ``--check-seconds``). All as markdown tables for docs/benchmarks.md.
Bounded: no round starts after ``--max-seconds``; the rounds are stopped at
``--max-seconds`` + 300 s; the summary is printed whatever stops the run (the end, the
bound, Ctrl-C, SIGTERM, an error), then the check runs unless the hard bound was hit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from event_figures import PARTS, Figures, Phases, stack_pids
from event_load import Http, Player, Pollers, RoundMoves
from rankings_stored import CHECK
from stack_common import ARBITER, ROOT, load_average, manage_shell, private_stack, require
from stack_rankings import Session

SETUP = r"""
import json, time
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from engine.duplicate import Game as EngineGame, SeededSource, engine_top_finder
from tournaments import adapter
from tournaments.models import Lexicon, Registration
from tournaments.services.arbiters import arbiter_add
from tournaments.services.batch import predrawn_text
from tournaments.services.centres import centre_create
from tournaments.services.imports import players_import
from tournaments.services.registrations import registration_tokens_issue
from tournaments.services.registry import tournament_create
from tournaments.services.tournament_settings import tournament_update

P, C, G, R, SEED, LEXICON = {players}, {centres}, {games}, {rounds}, {seed}, {lexicon}
head = get_user_model().objects.get(username={user!r})
began = time.monotonic()
t = tournament_create(name="Simultané (banc d'essai)", slug="bench-event", lexicon_id=LEXICON,
                      seconds_per_move=900, actor=head)
tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
centres = []
for c in range(C):
    centre = centre_create(tournament_id=t.pk, name=f"Centre {{c + 1:02d}}",
                           club=f"Club {{c + 1}}", actor=head)
    added = arbiter_add(actor=head, tournament_id=t.pk, login=f"arbitre-centre-{{c + 1:02d}}",
                        centre_id=centre.pk, centre_head=True)
    # The arbiter's API token, as POST /api/auth/token/ would give it after they set a
    # password through their one-time link (a fixture step: the token view is throttled).
    token, _ = Token.objects.get_or_create(user=added.membership.user)
    centres.append([centre.pk, token.key])
rows = [f"Joueur {{i + 1:05d}};E{{i:06d}};Club {{i % 23}};Centre {{i % C + 1:02d}}"
        for i in range(P)]
for start in range(0, P, 2000):  # the import takes at most 2,000 players a file
    chunk = ["nom;licence;club;centre", *rows[start:start + 2000]]
    players_import(tournament_id=t.pk, filename="joueurs.csv",
                   content="\n".join(chunk).encode(), actor=head)
registration_tokens_issue(tournament_id=t.pk, actor=head)
index = {{pk: k for k, (pk, _) in enumerate(centres)}}
players = [[r.pk, r.player_id, r.table_number, index[r.centre_id], r.access_token]
           for r in Registration.objects.filter(tournament=t).order_by("table_number")]
print(f"players and centres: {{time.monotonic() - began:.1f}} s", flush=True)
lexicon = adapter.engine_lexicon(Lexicon.objects.get(pk=LEXICON))
variant = adapter.variant(t.variant_code)
games = []
for g in range(G):
    eg = EngineGame(SeededSource(SEED * 1000 + g), engine_top_finder(lexicon, variant), variant)
    eg.play_to_end()
    games.append("\n".join(predrawn_text(eg).splitlines()[:R]) + "\n")
print(json.dumps({{"slug": t.slug, "centres": centres, "players": players, "games": games,
                  "seconds": time.monotonic() - began}}))
"""

#: The shortest interval the release API takes (seconds).
INTERVAL = 10

#: A move as the database holds it: (player, source) → versions, of which late.
STORED = """
SELECT player_id, source, count(*), count(*) FILTER (WHERE late)
FROM tournaments_proposalversion WHERE round_id = %s GROUP BY player_id, source
"""


def engine_top_median() -> str:
    """``bench/engine_top.py --repeat 1 --passes 1``: top only, whole set, median (ms)."""
    try:
        out = subprocess.run(
            [sys.executable, "bench/engine_top.py", "--repeat", "1", "--passes", "1"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        ).stdout  # fmt: skip
    except subprocess.TimeoutExpired:
        return "? (engine_top.py took over 300 s)"
    found = re.search(r"^top only, whole set\s+\d+\s+([\d.]+)", out, re.MULTILINE)
    return f"{found.group(1)} ms" if found else "? (no median line)"


class Event:
    """The organiser's side of the run (blocking calls, run in threads from the loop) and
    what it found: rounds played, moves stored."""

    def __init__(self, args: argparse.Namespace, stack: Any, built: dict, figures: Figures,
                 ) -> None:  # fmt: skip
        self.args, self.stack, self.built, self.figures = args, stack, built, figures
        self.api = stack.arbiter()
        self.session = Session(stack.web_port)
        self.session.login(*ARBITER)
        self.slug = built["slug"]
        rng = random.Random(args.seed)
        rows = [(reg, player, table, centre, token, rng.random() < args.tablet_share)
                for reg, player, table, centre, token in built["players"]]  # fmt: skip
        tablets = [row[2] for row in rows if row[5]]
        polling = set(rng.sample(tablets, min(args.pollers, len(tablets))))
        self.players = [Player(*row, polls=row[2] in polling) for row in rows]
        self.centres = [(c, token) for c, token in built["centres"]]
        self.played = 0
        self.stored = {"accepted": 0, "stored": 0, "lost": 0, "extra": 0, "late": 0}

    def create_game(self, text: str) -> tuple[int, int]:
        """The organiser creates a sealed pre-drawn game, due for release (id, rounds)."""
        body = {"kind": "predrawn", "predrawn": text, "sealed": True}
        game = self.api.ok("POST", f"/api/tournaments/{self.slug}/games/", body, status=201)
        lines = len(text.splitlines())
        start = datetime.now(UTC) - timedelta(seconds=INTERVAL * lines + 60)
        self.api.ok("PUT", f"/api/games/{game['id']}/release",
                    {"starts_at": start.isoformat(), "interval": INTERVAL}, status=200)  # fmt: skip
        return game["id"], lines

    def current(self, game_id: int, number: int) -> dict | None:
        """Round ``number`` once the worker has released, drawn and topped it."""
        rnd = self.api.ok("GET", f"/api/games/{game_id}/", status=200)["current_round"]
        if rnd and rnd["number"] == number and rnd["top_ready"]:
            return rnd
        return None

    def open(self, round_id: int) -> dict:
        self.api.ok("POST", f"/api/rounds/{round_id}/open", status=200)
        return self.api.ok("GET", f"/api/rounds/{round_id}/", status=200)

    def check_stored(self, round_id: int, accepted: list[tuple[int, str]], tag: str) -> str:
        """Every move the site took is one version, not late; nothing else is stored."""
        wanted = {(player, source): 1 for player, source in accepted}
        rows = self.stack.sql(STORED, round_id)
        stored = {(player, source): (count, late) for player, source, count, late in rows}
        lost = [key for key in wanted if key not in stored]
        extra = sum(count - wanted.get(key, 0) for key, (count, _) in stored.items()
                    if count > wanted.get(key, 0))  # fmt: skip
        late = sum(late for _, late in stored.values())
        kinds = {"tablet": 0, "arbiter": 0}
        for (_, source), (count, _) in stored.items():
            kinds[source] = kinds.get(source, 0) + count
        for what, n in (("move lost", len(lost)), ("version not sent or twice", extra),
                        ("version late", late)):  # fmt: skip
            for _ in range(n):
                self.figures.error(what, f"round {tag}")
        counts = {"accepted": len(wanted), "stored": sum(c for c, _ in stored.values()),
                  "lost": len(lost), "extra": extra, "late": late}  # fmt: skip
        for key, n in counts.items():
            self.stored[key] += n
        return (f"stored {counts['stored']} of {counts['accepted']} taken (tablets "
                f"{kinds['tablet']}, slips {kinds['arbiter']}), lost {len(lost)}, "
                f"extra {extra}, late {late}")  # fmt: skip

    def rankings(self) -> None:
        pages = (("rankings console", f"/arbitre/tournoi/{self.slug}/classement/"),
                 ("rankings API", f"/api/tournaments/{self.slug}/rankings/"))  # fmt: skip
        for what, path in pages:
            began = time.perf_counter()
            try:
                if what == "rankings console":
                    status, raw = self.session.request("GET", path)
                else:
                    response = self.api.get(path)
                    status, raw = response.status, response.raw
            except OSError as exc:
                status, raw = 0, repr(exc).encode()
            self.figures.record(what, status, time.perf_counter() - began, raw)


async def _wait_round(event: Event, game_id: int, number: int, limit: float) -> dict:
    deadline = time.monotonic() + limit
    while True:
        rnd = await asyncio.to_thread(event.current, game_id, number)
        if rnd:
            return rnd
        if time.monotonic() > deadline:
            raise RuntimeError(f"round {number} of game {game_id} not released and topped "
                               f"within {limit:.0f} s")  # fmt: skip
        await asyncio.sleep(0.2)


async def _round(event: Event, http: Http, phases: Phases, game_id: int, label: str,
                 number: int) -> None:  # fmt: skip
    args, figures, thread = event.args, event.figures, asyncio.to_thread
    began = time.monotonic()
    phases.switch("release, draw and top (worker)")
    rnd = await _wait_round(event, game_id, number, 300)
    phases.switch("open")
    rnd = await thread(event.open, rnd["id"])
    phases.switch("moves")
    load = RoundMoves(http, rnd["id"], rnd, event.players, event.centres, args.window,
                      figures.record, label)  # fmt: skip
    try:
        await load.moves()
    finally:  # a stopped round's moves count too (CPU per move)
        figures.window_total += args.window
        if load.sends:
            wall = max(max(load.sends) - min(load.sends), 1e-9)
            figures.round_rates.append(len(load.sends) / 2 / wall)
            figures.move_wall += wall
            figures.moves += len(load.sends) // 2
    phases.switch("centre closes")
    await load.closes()
    phases.switch("stored check")
    stored = await thread(event.check_stored, rnd["id"], load.accepted, label)
    state = (await thread(event.api.ok, "GET", f"/api/rounds/{rnd['id']}/", None, 200))["state"]
    if state != "closed":
        figures.error("round still open after every centre closed", state)
    phases.switch("rankings, first view after a close")
    await thread(event.rankings)
    phases.switch("top placed")
    await thread(event.api.ok, "POST", f"/api/rounds/{rnd['id']}/place", {}, 200)
    phases.switch("rankings, steady")
    for _ in range(args.views):
        await thread(event.rankings)
    event.played += 1
    rate = figures.round_rates[-1] if figures.round_rates else 0.0
    print(f"{label}: {time.monotonic() - began:.1f} s, {rate:.1f} moves/s, {stored}; "
          f"load {load_average()}", flush=True)  # fmt: skip


async def play(event: Event, http: Http, phases: Phases, deadline: float) -> None:
    """Every game's rounds until done or past the deadline; the pollers run all along."""
    stop = asyncio.Event()
    polling = asyncio.create_task(Pollers(http, event.players, event.args.poll_every,
                                          event.figures.record).run(stop))  # fmt: skip
    try:
        texts = event.built["games"]
        phases.switch("create games")
        ahead = []
        if event.args.games_ahead:
            ahead = [await asyncio.to_thread(event.create_game, text) for text in texts]
        for g, text in enumerate(texts):
            phases.switch("create games")
            game_id, lines = ahead[g] if ahead else await asyncio.to_thread(event.create_game, text)
            for number in range(1, lines + 1):
                if time.monotonic() > deadline:
                    return
                await _round(event, http, phases, game_id, f"g{g + 1}r{number}", number)
    finally:
        stop.set()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(polling, http.timeout + 5)


def report(args: argparse.Namespace, figures: Figures, phases: Phases, event: Event | None,
           planned: int, wall: float) -> None:  # fmt: skip
    f = figures
    print("\n## Summary\n")
    played = event.played if event else 0
    print(f"rounds played: {played} of {planned} in {wall:.0f} s; load average now: "
          f"{load_average()}")  # fmt: skip
    print(f"\n{phases.table()}\n")
    print(f"{f.table()}\n")
    taken = f.count("tablet proposal") + f.count("slip")
    rates = sorted(f.round_rates)
    median = f" (median round {rates[len(rates) // 2]:.1f}/s)" if rates else ""
    offered = f", offered {f.moves / f.window_total:.1f}/s" if f.window_total else ""
    sustained = f.moves / f.move_wall if f.move_wall else 0.0
    print(f"- moves: {taken:,} answered ({f.count('tablet proposal'):,} tablet proposals, "
          f"{f.count('slip'):,} slips){offered}, **{sustained:.1f}/s sustained** over the "
          f"rounds' moves (first send to last answer){median}")  # fmt: skip
    for what in ("tablet proposal", "slip", "poll", "centre close", "rankings console",
                 "rankings API"):  # fmt: skip
        print(f"- {what} statuses: {f.status_line(what)}")
    polls = f.count("poll")
    moves = phases.totals.get("moves")
    polled = sum(p.wall for name, p in phases.totals.items()
                 if name not in ("start", "stack start", "set-up (services)"))  # fmt: skip
    in_moves = len([v for (w, ph), vs in f.latencies.items() if w == "poll" and ph == "moves"
                    for v in vs])  # fmt: skip
    pollers = sum(p.polls for p in event.players) if event else 0
    print(f"- polls: {polls:,} answered by {pollers} polling tablets (every {args.poll_every} s), "
          f"**{polls / polled if polled else 0:.1f}/s** over the rounds"
          + (f", {in_moves / moves.wall:.1f}/s while the moves came in" if moves and moves.wall
             else ""))  # fmt: skip
    if event:
        s = event.stored
        print(f"- stored check after each close: {s['stored']:,} versions stored for "
              f"{s['accepted']:,} moves taken; lost {s['lost']}, extra {s['extra']}, "
              f"late {s['late']}")  # fmt: skip
    total = sum(f.errors.values())
    print(f"- **errors: {total}**")
    for (what, status), count in sorted(f.errors.items(), key=str):
        print(f"  - {what} {status or 'no answer'}: {count}")
    for sample in f.samples:
        print(f"  - e.g. {sample}")
    outside = ("start", "stack start", "set-up (services)", "create games", "standings check",
               "end")  # fmt: skip
    rounds = {name: p for name, p in phases.totals.items() if name not in outside}
    if moves and f.moves:
        per_move = {part: moves.cpu[part] * 1000 / f.moves for part in (*PARTS, "load generator")}
        print("- CPU per move in the moves phase (polls included): "
              + ", ".join(f"{part} {ms:.1f}" for part, ms in per_move.items())
              + f" ms; stack {sum(per_move[p] for p in PARTS):.1f} ms")  # fmt: skip
    if played:
        cpu = {name: (p.stack + p.cpu["load generator"]) / played for name, p in rounds.items()}
        rest = sum(v for name, v in cpu.items() if name != "moves")
        wall_round = sum(p.wall for p in rounds.values()) / played
        print(f"- a round: {wall_round:.1f} s wall here; CPU-s of the stack and the load "
              f"generator a round: moves {cpu.get('moves', 0):.1f}, the rest {rest:.1f} ("
              + ", ".join(f"{name} {v:.1f}" for name, v in cpu.items() if name != "moves")
              + ")")  # fmt: skip


class HardStop(BaseException):
    """The whole run's time bound (--max-seconds + 300 s)."""


def _hard_stop(signum: int, frame: object) -> None:
    raise HardStop(f"hard time bound reached (--max-seconds + {GRACE} s)")


#: Past --max-seconds, the round under way, the summary and the standings check get this long.
GRACE = 300


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--players", type=int, default=5000, help="players (5000)")
    add("--centres", type=int, default=25, help="centres (25)")
    add("--games", type=int, default=4, help="sealed pre-drawn games (4)")
    add("--rounds", type=int, default=20, help="rounds a game, at most (20)")
    add("--tablet-share", type=float, default=0.8,
        help="share of players on tablets, the rest on paper slips (0.8)")  # fmt: skip
    add("--pollers", type=int, default=200,
        help="tablets whose polls are simulated, at most all (200)")  # fmt: skip
    add("--poll-every", type=float, default=2.0,
        help="seconds between a polling tablet's answer and its next poll (2)")  # fmt: skip
    add("--window", type=float, default=20.0,
        help="seconds over which a round's moves are handed in (20)")  # fmt: skip
    add("--views", type=int, default=1, help="ranking views after each top is placed (1)")
    add("--web-instances", type=int, default=2, help="gunicorn instances (2)")
    add("--web-workers", type=int, default=2, help="sync workers an instance (2)")
    add("--worker-concurrency", type=int, default=2, help="Celery worker processes (2)")
    add("--connections", type=int, default=64,
        help="requests in flight an instance, the others queue as in nginx (64)")  # fmt: skip
    add("--timeout", type=float, default=120.0, help="a request's time limit, s (120)")
    add("--max-seconds", type=int, default=3600,
        help="no round starts after this many seconds (3600)")  # fmt: skip
    add("--check-seconds", type=int, default=1800,
        help="time limit of the standings check at the end, s (1800)")  # fmt: skip
    add("--seed", type=int, default=1, help="racks and players (1)")
    add("--games-ahead", action="store_true", help="create every game at the start")
    add("--no-engine-top", action="store_true",
        help="skip the bench/engine_top.py median printed at the start")  # fmt: skip
    add("--sync", action="store_true",
        help="tablets' moves on the synchronous path (TIRAGE_QUEUED_PROPOSALS=false); by "
             "default the production profile's queued path and its fast lane")  # fmt: skip
    args = parser.parse_args(argv)
    require(parser, 1 <= args.players <= 20000, "--players must be from 1 to 20000.")
    require(parser, 1 <= args.centres <= min(100, args.players),
            "--centres must be from 1 to 100, and at most --players.")  # fmt: skip
    require(parser, 1 <= args.games <= 20, "--games must be from 1 to 20.")
    require(parser, 1 <= args.rounds <= 40, "--rounds must be from 1 to 40.")
    require(parser, 0 <= args.tablet_share <= 1, "--tablet-share must be from 0 to 1.")
    require(parser, 0 <= args.pollers <= 20000, "--pollers must be from 0 to 20000.")
    require(parser, 0.2 <= args.poll_every <= 60, "--poll-every must be from 0.2 to 60 s.")
    require(parser, 1 <= args.window <= 600, "--window must be from 1 to 600 s.")
    require(parser, 0 <= args.views <= 100, "--views must be from 0 to 100.")
    require(parser, 1 <= args.web_instances <= 8, "--web-instances must be from 1 to 8.")
    require(parser, 1 <= args.web_workers <= 64, "--web-workers must be from 1 to 64.")
    require(parser, 1 <= args.worker_concurrency <= 16,
            "--worker-concurrency must be from 1 to 16.")  # fmt: skip
    require(parser, 1 <= args.connections <= 1000, "--connections must be from 1 to 1000.")
    require(parser, 5 <= args.timeout <= 600, "--timeout must be from 5 to 600 s.")
    require(parser, 60 <= args.max_seconds <= 14400, "--max-seconds must be from 60 to 14400.")
    require(parser, 60 <= args.check_seconds <= 14400,
            "--check-seconds must be from 60 to 14400.")  # fmt: skip
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    began = time.monotonic()
    deadline = began + args.max_seconds
    signal.signal(signal.SIGALRM, _hard_stop)
    signal.alarm(args.max_seconds + GRACE)
    print(f"stack_event {' '.join(sys.argv[1:])}")
    print(f"started {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC, load average {load_average()}, "
          f"{os.cpu_count()} cores")  # fmt: skip
    if not args.no_engine_top:
        print(f"bench/engine_top.py --repeat 1: top only, whole set, median {engine_top_median()}")
    phases = Phases()
    figures = Figures(phases)
    event, planned, stopped, check, hard = None, args.games * args.rounds, "", None, False
    # Read by deploy/stack: the instances on the stack's port and the ports after it.
    os.environ["STACK_WEB_INSTANCES"] = str(args.web_instances)
    # The production profile's path for tablets' moves (tests/production/stack.py turns it
    # off for its own tests): queued, through the submissions' fast lane, answered 202.
    os.environ["TIRAGE_QUEUED_PROPOSALS"] = "false" if args.sync else "true"
    phases.switch("stack start")
    with private_stack(web_workers=args.web_workers,
                       worker_concurrency=args.worker_concurrency) as stack:  # fmt: skip
        phases.pids = stack_pids(stack.directory)
        try:
            phases.switch("set-up (services)")
            code = SETUP.format(players=args.players, centres=args.centres, games=args.games,
                                rounds=args.rounds, seed=args.seed, lexicon=stack.lexicon,
                                user=ARBITER[0])  # fmt: skip
            built = manage_shell(stack, code, timeout=args.max_seconds)
            planned = sum(len(text.splitlines()) for text in built["games"])
            print(f"set-up: {args.players} players in {args.centres} centres, "
                  f"{len(built['games'])} pre-drawn games ({planned} rounds) in "
                  f"{built['seconds']:.0f} s", flush=True)  # fmt: skip
            ports = [stack.web_port + k for k in range(args.web_instances)]
            http = Http(ports, args.connections, args.timeout)
            event = Event(args, stack, built, figures)
            print(f"{sum(p.tablet for p in event.players)} tablets "
                  f"({sum(p.polls for p in event.players)} polling every {args.poll_every} s), "
                  f"{sum(not p.tablet for p in event.players)} on slips; {args.web_instances} "
                  f"gunicorn instance(s) × {args.web_workers} sync workers on ports "
                  f"{ports}", flush=True)  # fmt: skip
            asyncio.run(play(event, http, phases, deadline))
        except (Exception, KeyboardInterrupt, SystemExit, HardStop) as exc:
            stopped, hard = f"{type(exc).__name__}: {exc}", isinstance(exc, HardStop)
        finally:
            phases.switch("end")
        wall = time.monotonic() - began
        try:
            report(args, figures, phases, event, planned, wall)
            if stopped:
                print(f"\nSTOPPED: {stopped}")
            elif event and event.played < planned:
                print(f"\nSTOPPED EARLY: --max-seconds {args.max_seconds} reached after "
                      f"{event.played} of {planned} rounds")  # fmt: skip
            if event and not hard:
                print("\nstandings check (a second Ctrl-C or SIGTERM skips it)", flush=True)
                phases.switch("standings check")
                signal.alarm(args.check_seconds + 60)
                check = manage_shell(stack, CHECK.format(slug=event.slug),
                                     timeout=args.check_seconds)  # fmt: skip
                phases.switch("end")
                print(f"\ntirage_standings_check --tournament {event.slug}: exit "
                      f"{check['code']}, {check['lines']} "
                      f"({phases.totals['standings check'].wall:.0f} s)")  # fmt: skip
        except (Exception, KeyboardInterrupt, SystemExit, HardStop) as exc:
            print(f"standings check not run to its end: {type(exc).__name__}: {exc}")
        finally:
            signal.alarm(0)
    errors = sum(figures.errors.values())
    ok = not stopped and event and event.played == planned and check and check["code"] == 0
    print(f"verdict: {'PASS' if ok and not errors else 'FAIL'} ({errors} errors, standings "
          f"check {'exit ' + str(check['code']) if check else 'not run'}, "
          f"{event.played if event else 0} of {planned} rounds); ended "
          f"{datetime.now(UTC):%H:%M:%S} UTC")  # fmt: skip
    return 0 if ok and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
