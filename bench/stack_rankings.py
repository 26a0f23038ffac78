"""Ranking page time through gunicorn on deploy/stack: P players × G games of R rounds.

    .venv/bin/python bench/stack_rankings.py [--players 300] [--games 4] [--rounds 20]
                                             [--requests 30] [--web-workers 2] [--no-profile]

Starts a private stack (bench/stack_common.py), then builds the tournament inside the
stack's database through the services (``manage.py shell`` with the stack's environment):
P registrations, G seeded games, each with R rounds drawn, top computed, opened, one
proposal per player (a move among the round's best moves, varied per player: strong
players find the top more often, weak ones play lower, now and then a misspelt word or no
slip), closed and placed. Then times N sequential requests of the console rankings page
(``/arbitre/tournoi/<slug>/classement/``, an arbiter session logged in through the login
form) and of the API (``/api/tournaments/<slug>/rankings/``, arbiter token), and prints
median/p90/p99/max. Unless ``--no-profile``: in the same database, the SQL query count and
time of one request of each (django's CaptureQueriesContext) and the functions where the
time goes (cProfile). Stops the stack.
"""

from __future__ import annotations

import argparse
import http.client
import re
import sys
import time

from stack_common import ARBITER, load_average, manage_shell, private_stack, require, summary

BUILD = r"""
import json, random, time
from django.contrib.auth import get_user_model
from django.db import transaction
from tournaments.models import Tournament
from tournaments.services.games import game_create, round_draw, round_place_top
from tournaments.access import PlayerActor
from tournaments.services.proposals import proposal_submit
from tournaments.services.registry import player_register, tournament_create
from tournaments.services.rounds import round_close, round_compute_top, round_open

P, G, R, LEXICON = {players}, {games}, {rounds}, {lexicon}
arbiter = get_user_model().objects.get(username={user!r})
began = time.monotonic()
t = tournament_create(name="Bench classement", slug="bench-rankings", lexicon_id=LEXICON,
                      actor=arbiter)
series = ("1A", "2A", "3B", "4C", "5A", "6B", "7")
categories = ("", "", "Vermeil", "Diamant", "Junior", "Espoir")
regs = []
with transaction.atomic():
    for i in range(P):
        regs.append(player_register(tournament_id=t.pk, name=f"Joueur {{i + 1:03d}}",
                                    club=f"Club {{i % 23}}", series=series[i % 7],
                                    category=categories[i % 6], actor=arbiter))
strength = [random.Random(i).uniform(0.05, 0.95) for i in range(P)]


def misspelt(word):
    if len(word) >= 3 and word[-1] != word[-2]:
        return word[:-2] + word[-1] + word[-2]
    return word + "E"


proposals, submit_time = 0, 0.0
for g in range(G):
    game = game_create(tournament_id=t.pk, kind="seeded", seed=7000 + g, actor=arbiter)
    for _ in range(R):
        try:
            rnd = round_compute_top(round_id=round_draw(game_id=game.pk, actor=arbiter).pk,
                                    actor=arbiter)
        except Exception as error:  # the bag ran out: a shorter game
            print(f"game {{g + 1}}: {{error}}", flush=True)
            break
        round_open(round_id=rnd.pk, actor=arbiter)
        best = rnd.top["best"] or [rnd.top["chosen"]]
        s0 = time.monotonic()
        with transaction.atomic():
            for i, reg in enumerate(regs):
                rng = random.Random(f"{{g}}-{{rnd.number}}-{{i}}")
                if rng.random() < 0.02:
                    continue  # no slip
                if rng.random() < strength[i] or len(best) < 2:
                    move = rnd.top["chosen"]
                else:
                    deepest = min(len(best) - 1, 1 + round(12 * (1 - strength[i])))
                    move = best[rng.randint(1, deepest)]
                word = misspelt(move["word"]) if rng.random() < 0.03 else move["word"]
                proposal_submit(round_id=rnd.pk, player_id=reg.player_id, word=word,
                                reference=move["coord"], source="tablet",
                                client_key=f"b-{{g}}-{{rnd.number}}-{{i}}", device="bench",
                                actor=PlayerActor.of(reg))
                proposals += 1
        submit_time += time.monotonic() - s0
        round_close(round_id=rnd.pk, actor=arbiter, confirm=True)
        round_place_top(round_id=rnd.pk, actor=arbiter)
    print(f"game {{g + 1}}/{{G}}: {{game.rounds.count()}} rounds, {{proposals}} proposals so far, "
          f"{{time.monotonic() - began:.0f}} s", flush=True)
print(json.dumps({{"slug": t.slug, "seconds": time.monotonic() - began, "proposals": proposals,
                  "submit_ms": 1000 * submit_time / max(proposals, 1)}}))
"""

PROFILE = r"""
import cProfile, io, json, pstats, time
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

user = get_user_model().objects.get(username={user!r})
console = Client(HTTP_HOST="127.0.0.1")
console.force_login(user)
token = Token.objects.get_or_create(user=user)[0].key
api = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Token {{token}}")
out = {{}}
for name, client, url in (("console", console, "/arbitre/tournoi/{slug}/classement/"),
                          ("api", api, "/api/tournaments/{slug}/rankings/")):
    client.get(url)  # warm: lexicon, templates, connection
    with CaptureQueriesContext(connection) as queries:
        began = time.perf_counter()
        status = client.get(url).status_code
        wall = time.perf_counter() - began
    captured = list(queries.captured_queries)
    sql = sum(float(q["time"]) for q in captured)
    shapes = {{}}
    for q in captured:
        key = q["sql"].split(" WHERE ")[0][:90]
        shapes[key] = shapes.get(key, 0) + 1
    profile = cProfile.Profile()
    profile.enable()
    client.get(url)
    profile.disable()
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text).sort_stats("cumulative")
    stats.print_stats(r"tournaments|engine|template|serializ|db/models/sql/compiler", 14)
    stats.sort_stats("tottime").print_stats(12)
    out[name] = {{"status": status, "wall_ms": wall * 1000, "queries": len(captured),
                  "sql_ms": sql * 1000, "profile": text.getvalue(),
                  "top_shapes": sorted(shapes.items(), key=lambda kv: -kv[1])[:6]}}
print(json.dumps(out))
"""


class Session:
    """A logged-in console session through the login form (cookies kept by hand: the
    production profile marks them Secure, which a plain-HTTP client need not honour)."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, {}

    def request(self, method: str, path: str, body: str = "", **headers: str):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        hdrs = {"Host": f"127.0.0.1:{self.port}", **headers}
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body or None, headers=hdrs)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, raw

    def login(self, username: str, password: str) -> None:
        status, raw = self.request("GET", "/arbitre/connexion/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', raw)
        assert status == 200 and token, f"login page: {status}"
        body = (f"csrfmiddlewaretoken={token.group(1).decode()}&username={username}"
                f"&password={password}")  # fmt: skip
        origin = f"http://127.0.0.1:{self.port}"
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        status, raw = self.request("POST", "/arbitre/connexion/", body, Origin=origin,
                                   Referer=origin + "/arbitre/connexion/", **form)  # fmt: skip
        assert status == 302 and "sessionid" in self.cookies, f"login: {status} {raw[:300]!r}"


def timed(get, path: str, n: int) -> tuple[list[float], int]:
    durations, size = [], 0
    get(path)  # warm the gunicorn worker (lexicon, templates)
    for _ in range(n):
        began = time.perf_counter()
        status, raw = get(path)
        durations.append(time.perf_counter() - began)
        assert status == 200, f"GET {path}: {status} {raw[:300]!r}"
        size = len(raw)
    return durations, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300, help="registrations (default 300)")
    parser.add_argument("--games", type=int, default=4, help="seeded games (default 4)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds a game (default 20)")
    parser.add_argument("--requests", type=int, default=30, help="timed requests (default 30)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn (default 2)")
    parser.add_argument("--no-profile", action="store_true", help="skip the query count/profile")
    args = parser.parse_args()
    require(parser, 1 <= args.players <= 5000, "--players must be from 1 to 5000.")
    require(parser, 1 <= args.games <= 20, "--games must be from 1 to 20.")
    require(parser, 1 <= args.rounds <= 40, "--rounds must be from 1 to 40.")
    require(parser, 1 <= args.requests <= 10000, "--requests must be from 1 to 10000.")
    require(parser, 1 <= args.web_workers <= 64, "--web-workers must be from 1 to 64.")
    with private_stack(web_workers=args.web_workers) as stack:
        code = BUILD.format(players=args.players, games=args.games, rounds=args.rounds,
                            lexicon=stack.lexicon, user=ARBITER[0])  # fmt: skip
        cells = args.players * args.games * args.rounds
        built = manage_shell(stack, code, timeout=max(3600, 0.05 * cells))
        slug = built["slug"]
        print(f"build: {args.players} players × {args.games} games × ≤{args.rounds} rounds, "
              f"{built['proposals']} proposals in {built['seconds']:.0f} s "
              f"({built['submit_ms']:.1f} ms a proposal_submit)")  # fmt: skip
        session = Session(stack.web_port)
        session.login(*ARBITER)
        api = stack.arbiter()
        print(f"load average before timing: {load_average()}")
        page, page_size = timed(
            lambda p: session.request("GET", p),
            f"/arbitre/tournoi/{slug}/classement/",
            args.requests,
        )
        print(f"console page ({page_size // 1024} KiB): {summary(page)}")
        rankings, api_size = timed(
            lambda p: (r := api.get(p)) and (r.status, r.raw),
            f"/api/tournaments/{slug}/rankings/",
            args.requests,
        )
        print(f"API rankings ({api_size // 1024} KiB): {summary(rankings)}")
        print(f"load average after timing: {load_average()}")
        if not args.no_profile:
            found = manage_shell(stack, PROFILE.format(user=ARBITER[0], slug=slug))
            for name, figures in found.items():
                print(f"\n{name}: status {figures['status']}, {figures['wall_ms']:.0f} ms "
                      f"in-process, {figures['queries']} SQL queries taking "
                      f"{figures['sql_ms']:.0f} ms")  # fmt: skip
                for shape, count in figures["top_shapes"]:
                    print(f"  {count:5d} × {shape}")
                print(figures["profile"].strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
