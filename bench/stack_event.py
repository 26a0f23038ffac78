"""A simulated simultaneous event (issue 16, item 6) through the production stack:
P players in C centres, G sealed pre-drawn games of R rounds, tablets and paper slips.

    .venv/bin/python bench/stack_event.py [--players 5000] [--centres 25] [--games 4]
        [--rounds 20] [--tablet-share 0.8] [--seed 1] [--window 30] [--poll-every 1]
        [--views 3] [--max-seconds 3600] [--web-workers 2] [--games-ahead] [--no-engine-top]

Starts a private stack (bench/stack_common.py: gunicorn, PostgreSQL, Redis, a Celery
worker, all on 127.0.0.1) and sets the event up through the site's services in
``manage.py shell``: a simultaneous tournament, C centres, one arbiter per centre (its
centre's head arbiter, with an API token), the players imported with their centre column
and spread over the centres, their tablet links, and the racks of G pre-drawn games (a
seeded game played top by top by the engine, its first R rounds). The organiser then
creates each game **sealed** through the API (``POST .../games/`` with ``"kind":
"predrawn", "sealed": true``, i.e. ``game_create(kind=predrawn, sealed=True)``) when the
previous one is over (``--games-ahead``: all at the start).

Each game gets a release schedule already due ("release now": the worker releases
and draws each round as soon as the previous top is placed). Each round: the organiser
opens it; tablet players (``--tablet-share``) submit once through the player API at a
random moment of ``--window`` seconds and poll ``/tablette/<token>/etat/`` every
``--poll-every`` seconds with ``If-None-Match``; each centre's arbiter enters the other
players' paper slips through the API; the moves come from the round's best moves (the top
more often), some are invalid words, a few players hand in nothing. Then every centre's
arbiter closes their centre, which closes the round; the rankings are read (console page
and API) right after the close (first view after a change) and ``--views`` times after the
top is placed (steady).

Prints proposals/s sustained (per round: first send to last answer) and latency
percentiles, polls/s and their p99, ranking p50/p95, errors by status (any answer other than
the expected 201/200/304), then ``tirage_standings_check`` on the tournament (0 differences
expected). Bounded: no round starts after ``--max-seconds`` (the run then says it stopped
early), and the whole process is stopped past that plus 10 minutes.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from event_load import Figures, Player, RoundLoad
from rankings_stored import CHECK
from stack_common import (
    ARBITER,
    ROOT,
    load_average,
    manage_shell,
    pct,
    private_stack,
    require,
)
from stack_rankings import Session

from tests.production.stack import Client, wait_for

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
players = [[r.pk, r.table_number, index[r.centre_id], r.access_token]
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


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    return (
        f"{name}: p50 {pct(values, 50):.0f}  p95 {pct(values, 95):.0f}  "
        f"p99 {pct(values, 99):.0f}  max {max(values) * 1000:.0f} ms (n={len(values)})"
    )


class Rankings:
    """The rankings as the organiser reads them: the console page and the API."""

    def __init__(self, stack: Any, api: Client, slug: str, figures: Figures) -> None:
        self.session = Session(stack.web_port)
        self.session.login(*ARBITER)
        self.api, self.figures = api, figures
        self.pages = {"console": f"/arbitre/tournoi/{slug}/classement/",
                      "api": f"/api/tournaments/{slug}/rankings/"}  # fmt: skip
        self.first: dict[str, list[float]] = {name: [] for name in self.pages}
        self.steady: dict[str, list[float]] = {name: [] for name in self.pages}

    def view(self, into: dict[str, list[float]]) -> None:
        for name, path in self.pages.items():
            began = time.perf_counter()
            if name == "console":
                status, raw = self.session.request("GET", path)
            else:
                response = self.api.get(path)
                status, raw = response.status, response.raw
            into[name].append(time.perf_counter() - began)
            if status != 200:
                self.figures.error(f"rankings {name}", status, raw)


def _current(api: Client, game_id: int, number: int) -> dict | None:
    """Round ``number`` of the game once the worker has released, drawn and topped it."""
    rnd = api.ok("GET", f"/api/games/{game_id}/", status=200)["current_round"]
    if rnd and rnd["number"] == number and rnd["top_ready"]:
        return rnd
    return None


def _players(built: dict, share: float, seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [Player(reg, table, centre, token, rng.random() < share)
            for reg, table, centre, token in built["players"]]  # fmt: skip


def create_game(api: Client, slug: str, text: str) -> tuple[int, int]:
    """The organiser creates a sealed pre-drawn game (its id, its rounds)."""
    body = {"kind": "predrawn", "predrawn": text, "sealed": True}
    game = api.ok("POST", f"/api/tournaments/{slug}/games/", body, status=201)
    return game["id"], len(text.splitlines())


def play(args: argparse.Namespace, stack: Any, built: dict, figures: Figures,
         deadline: float) -> tuple[int, Rankings]:  # fmt: skip
    """Every game's rounds until done or the deadline; the rounds played. Each game is
    created when the previous one is over, unless ``--games-ahead``: tablets play the
    current game, the highest-numbered one still being played (``selectors.playing_round``),
    so games created ahead take the tablets to the last one (docs/benchmarks.md)."""
    api = stack.arbiter()
    texts = built["games"]
    ahead = [create_game(api, built["slug"], text) for text in texts] if args.games_ahead else []
    players = _players(built, args.tablet_share, args.seed)
    centres = [(c, token) for c, token in built["centres"]]
    rankings = Rankings(stack, api, built["slug"], figures)
    played = 0
    for g, text in enumerate(texts):
        game_id, lines = ahead[g] if ahead else create_game(api, built["slug"], text)
        start = datetime.now(UTC) - timedelta(seconds=INTERVAL * lines + 60)
        api.ok("PUT", f"/api/games/{game_id}/release",
               {"starts_at": start.isoformat(), "interval": INTERVAL}, status=200)  # fmt: skip
        for number in range(1, lines + 1):
            if time.monotonic() > deadline:
                return played, rankings
            began = time.monotonic()
            rnd = wait_for(lambda gid=game_id, n=number: _current(api, gid, n), 300,
                           f"game {g + 1} round {number} released and drawn")  # fmt: skip
            api.ok("POST", f"/api/rounds/{rnd['id']}/open", status=200)
            rnd = api.ok("GET", f"/api/rounds/{rnd['id']}/", status=200)
            RoundLoad(stack.web_port, rnd["id"], rnd, players, centres, args.window,
                      args.poll_every, 120.0, figures, f"g{g + 1}r{number}").run()  # fmt: skip
            state = api.ok("GET", f"/api/rounds/{rnd['id']}/", status=200)["state"]
            if state != "closed":
                figures.error("round still open after every centre closed", 0, state)
            rankings.view(rankings.first)
            api.ok("POST", f"/api/rounds/{rnd['id']}/place", {}, status=200)
            for _ in range(args.views):
                rankings.view(rankings.steady)
            played += 1
            rate = figures.round_rates[-1] if figures.round_rates else 0.0
            print(f"game {g + 1} round {number}: {time.monotonic() - began:.1f} s, "
                  f"{rate:.1f} proposals/s, load {load_average()}", flush=True)  # fmt: skip
    return played, rankings


def report(figures: Figures, rankings: Rankings) -> None:
    f = figures
    sent = len(f.proposals) + len(f.slips)
    rate = sent / f.proposal_wall if f.proposal_wall else 0.0
    rates = sorted(f.round_rates)
    offered = f"offered {sent / f.window_total:.1f}/s, " if f.window_total else ""
    print(f"proposals: {sent} ({len(f.proposals)} from tablets, {len(f.slips)} slips), {offered}"
          f"{rate:.1f}/s sustained over the rounds' send windows"
          + (f" (median round {rates[len(rates) // 2]:.1f}/s)" if rates else ""))  # fmt: skip
    print(_line("  tablet proposal latency", f.proposals))
    print(_line("  slip latency", f.slips))
    polls = len(f.polls)
    print(f"polls: {polls}, {polls / f.poll_wall if f.poll_wall else 0:.1f}/s, "
          f"{f.not_modified} answered 304")  # fmt: skip
    print(_line("  poll latency", f.polls))
    print(_line("centre closes", f.closes))
    for name in rankings.pages:
        print(_line(f"rankings {name}, first view after a close", rankings.first[name]))
        print(_line(f"rankings {name}, steady", rankings.steady[name]))
    total = sum(f.errors.values())
    print(f"errors: {total}")
    for (what, status), count in sorted(f.errors.items()):
        print(f"  {what} {status or 'no answer'}: {count}")
    for sample in f.samples:
        print(f"  e.g. {sample}")


def _timeout(signum: int, frame: object) -> None:
    raise SystemExit("stack_event: hard time bound reached (--max-seconds + 600 s), stopped")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000, help="players (5000)")
    parser.add_argument("--centres", type=int, default=25, help="centres (25)")
    parser.add_argument("--games", type=int, default=4, help="sealed pre-drawn games (4)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds a game (20)")
    parser.add_argument(
        "--tablet-share",
        type=float,
        default=0.8,
        help="share of players on tablets, the rest on paper slips (0.8)",
    )
    parser.add_argument("--seed", type=int, default=1, help="racks and players (1)")
    parser.add_argument("--window", type=float, default=30.0,
                        help="seconds over which a round's moves are handed in (30)")  # fmt: skip
    parser.add_argument("--poll-every", type=float, default=1.0, help="tablet poll, s (1)")
    parser.add_argument("--views", type=int, default=3, help="steady ranking views a round (3)")
    parser.add_argument("--max-seconds", type=int, default=3600,
                        help="no round starts after this many seconds (3600)")  # fmt: skip
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn (2)")
    parser.add_argument("--games-ahead", action="store_true",
                        help="create every game at the start")  # fmt: skip
    parser.add_argument(
        "--no-engine-top",
        action="store_true",
        help="skip the bench/engine_top.py median printed at the start",
    )
    args = parser.parse_args(argv)
    require(parser, 1 <= args.players <= 20000, "--players must be from 1 to 20000.")
    require(parser, 1 <= args.centres <= min(100, args.players),
            "--centres must be from 1 to 100, and at most --players.")  # fmt: skip
    require(parser, 1 <= args.games <= 20, "--games must be from 1 to 20.")
    require(parser, 1 <= args.rounds <= 40, "--rounds must be from 1 to 40.")
    require(parser, 0 <= args.tablet_share <= 1, "--tablet-share must be from 0 to 1.")
    require(parser, 1 <= args.window <= 600, "--window must be from 1 to 600 s.")
    require(parser, 0.2 <= args.poll_every <= 60, "--poll-every must be from 0.2 to 60 s.")
    require(parser, 0 <= args.views <= 100, "--views must be from 0 to 100.")
    require(parser, 60 <= args.max_seconds <= 14400, "--max-seconds must be from 60 to 14400.")
    require(parser, 1 <= args.web_workers <= 64, "--web-workers must be from 1 to 64.")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    began = time.monotonic()
    deadline = began + args.max_seconds
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(args.max_seconds + 600)
    print(f"load average at start: {load_average()}")
    if not args.no_engine_top:
        print(f"bench/engine_top.py --repeat 1: top only, whole set, median {engine_top_median()}")
    with private_stack(web_workers=args.web_workers) as stack:
        code = SETUP.format(players=args.players, centres=args.centres, games=args.games,
                            rounds=args.rounds, seed=args.seed, lexicon=stack.lexicon,
                            user=ARBITER[0])  # fmt: skip
        built = manage_shell(stack, code, timeout=args.max_seconds)
        planned = sum(len(text.splitlines()) for text in built["games"])
        print(f"set-up: {args.players} players in {args.centres} centres, "
              f"{len(built['games'])} pre-drawn games ({planned} rounds) prepared "
              f"in {built['seconds']:.0f} s")  # fmt: skip
        figures = Figures()
        played, rankings = play(args, stack, built, figures, deadline)
        if played < planned:
            print(f"STOPPED EARLY: --max-seconds {args.max_seconds} reached after "
                  f"{played} of {planned} rounds")  # fmt: skip
        print(f"rounds played: {played} of {planned} in {time.monotonic() - began:.0f} s; "
              f"load average now: {load_average()}")  # fmt: skip
        report(figures, rankings)
        check = manage_shell(stack, CHECK.format(slug=built["slug"]), timeout=900)
        print(f"tirage_standings_check --tournament {built['slug']}: exit {check['code']}, "
              f"last lines: {check['lines']}")  # fmt: skip
    failed = sum(figures.errors.values()) or check["code"] != 0 or played < planned
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
