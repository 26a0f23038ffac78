"""Rankings read from the stored figures (issue 16) through gunicorn on deploy/stack:
P players × G games of R rounds, steady views and the first view after a correction.

    .venv/bin/python bench/rankings_stored.py [--players 5000] [--games 4] [--rounds 20]
                                              [--requests 20] [--changes 5]
                                              [--budget 1500] [--web-workers 2]

Starts a private stack (bench/stack_common.py) and builds the tournament in its
PostgreSQL database (``manage.py shell`` with the stack's environment):

* the players through ``players_import`` (CSV files of 2,000, the service's bulk path);
* each round through the services (``round_draw``, ``round_compute_top``, ``round_open``,
  ``round_close``, ``round_place_top``); the players' slips are bulk-inserted as current
  ``ProposalVersion`` rows (a documented fixture builder, not the submission path:
  ``bench/stack_proposals.py`` times that), each a move among the round's best moves
  judged valid at its score, now and then none; ``round_close`` then writes the stored
  figures through ``services.standings`` as it does in play (its time is printed).

Then times N sequential requests of the console rankings page
(``/arbitre/tournoi/<slug>/classement/``: the overall table's first 100 lines, a série's
table, a game's, a search by name) and of the API (``/api/tournaments/<slug>/rankings/``:
the default answer, 100 lines past 500, a slice of 500, one far down, a game's), the
readers of the same rows (the projector's state, a tablet's results page and the player's
results endpoint, a different player each request; the CSV, PDF and XLSX documents,
downloaded directly, a few times each), and C times: an arbiter's correction
(``proposal_correct`` on the last round, timed) followed by the first view of each,
which reads the changed rows. Prints p50/p95/max, the build and close times, and the
stored-versus-recomputed check (``tirage_standings_check``, 0 differences expected).
Bounded: the build stops adding games when ``--budget`` seconds are spent, and the
whole run is killed past twice that.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time

from stack_common import ARBITER, load_average, manage_shell, pct, private_stack, require
from stack_rankings import Session

BUILD = r"""
import json, random, time
from django.contrib.auth import get_user_model
from django.db import transaction
from tournaments.models import ProposalVersion, Registration
from tournaments.services.games import game_create, round_draw, round_place_top
from tournaments.services.imports import players_import
from tournaments.services.registry import tournament_create
from tournaments.services.rounds import round_close, round_compute_top, round_open

P, G, R, LEXICON, BUDGET = {players}, {games}, {rounds}, {lexicon}, {budget}
arbiter = get_user_model().objects.get(username={user!r})
began = time.monotonic()
t = tournament_create(name="Bench classements enregistrés", slug="bench-stored",
                      lexicon_id=LEXICON, actor=arbiter)
series = ("1A", "2A", "3B", "4C", "5A", "6B", "7")
categories = ("", "", "Vermeil", "Diamant", "Junior", "Espoir")
rows = [f"Joueur {{i + 1:04d}};B{{i:06d}};Club {{i % 23}};{{series[i % 7]}};{{categories[i % 6]}}"
        for i in range(P)]
for start in range(0, P, 2000):  # the import takes at most 2,000 players a file
    chunk = ["nom;licence;club;serie;categorie", *rows[start:start + 2000]]
    players_import(tournament_id=t.pk, filename="joueurs.csv",
                   content="\n".join(chunk).encode(), actor=arbiter)
regs = list(Registration.objects.filter(tournament=t).order_by("table_number"))
strength = [random.Random(i).uniform(0.05, 0.95) for i in range(P)]
closes, rounds_played = [], 0
for g in range(G):
    if time.monotonic() - began > BUDGET:
        print(f"budget spent: {{g}} games built", flush=True)
        break
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
        slips = []
        for i, reg in enumerate(regs):
            rng = random.Random(f"{{g}}-{{rnd.number}}-{{i}}")
            if rng.random() < 0.02:
                continue  # no slip
            if rng.random() < strength[i] or len(best) < 2:
                move = rnd.top["chosen"]
            else:
                move = best[rng.randint(1, min(len(best) - 1, 1 + round(12 * (1 - strength[i]))))]
            slips.append(ProposalVersion(
                round=rnd, player_id=reg.player_id, version=1, is_current=True,
                reference=move["coord"], word=move["word"], source="tablet",
                outcome_kind="valid", outcome_score=move["score"],
                outcome_raw_score=move["score"], outcome_code="ok",
                outcome_params={{"word": move["word"], "reference": move["coord"],
                                 "score": move["score"]}}))
        ProposalVersion.objects.bulk_create(slips, batch_size=2000)
        c0 = time.monotonic()
        round_close(round_id=rnd.pk, actor=arbiter, confirm=True)  # the clock still runs
        closes.append(time.monotonic() - c0)
        round_place_top(round_id=rnd.pk, actor=arbiter)
        rounds_played += 1
    print(f"game {{g + 1}}/{{G}}: {{game.rounds.count()}} rounds, "
          f"{{time.monotonic() - began:.0f}} s", flush=True)
closes.sort()
print(json.dumps({{"slug": t.slug, "seconds": time.monotonic() - began, "rounds": rounds_played,
                  "close_ms": [1000 * closes[len(closes) // 2], 1000 * closes[-1]]}}))
"""

CORRECT = r"""
import json, random, time
from django.contrib.auth import get_user_model
from django.core.cache import cache
from tournaments.models import Game, Registration
from tournaments.services.proposals import proposal_correct
from tournaments.services.rounds import lexicon_of

arbiter = get_user_model().objects.get(username={user!r})
game = Game.objects.filter(tournament__slug={slug!r}).order_by("-number").first()
rnd = game.rounds.filter(state="closed").order_by("-number").first()
reg = Registration.objects.filter(tournament=game.tournament).order_by("?").first()
move = random.choice(rnd.top["best"] or [rnd.top["chosen"]])
# This process is fresh: load what a web worker holds already (the Redis client, which
# the live versions' bump imports on first use, ~0.5 s; the lexicon), so the time is
# the service's own (session 7, docs/benchmarks.md "Slips and corrections in process").
cache.get("tirage-bench-warm")
lexicon_of(rnd.game)
began = time.monotonic()
proposal_correct(round_id=rnd.pk, player_id=reg.player_id, word=move["word"],
                 reference=move["coord"], reason="bench: bulletin corrigé", actor=arbiter)
print(json.dumps({{"ms": 1000 * (time.monotonic() - began)}}))
"""

TOKENS = r"""
import json
from django.contrib.auth import get_user_model
from tournaments.models import Registration
from tournaments.services.registry import registration_token_issue

arbiter = get_user_model().objects.get(username={user!r})
regs = Registration.objects.filter(tournament__slug={slug!r}).order_by("table_number")
every = max(1, regs.count() // {count})
tokens = [registration_token_issue(registration_id=r.pk, actor=arbiter)
          for r in list(regs)[::every][:{count}]]
print(json.dumps(tokens))
"""

CHECK = r"""
import io, json
from django.core.management import call_command
out = io.StringIO()
try:
    call_command("tirage_standings_check", "--tournament", {slug!r}, stdout=out, stderr=out)
    code = 0
except SystemExit as stop:
    code = stop.code
lines = out.getvalue().strip().splitlines()
print(json.dumps({{"code": code, "lines": lines[-5:], "count": len(lines)}}))
"""


def _line(name: str, values: list[float]) -> str:
    return (f"{name}: p50 {pct(values, 50):.0f}  p95 {pct(values, 95):.0f}  "
            f"max {max(values) * 1000:.0f} ms (n={len(values)})")  # fmt: skip


def _get(get, path: str) -> tuple[float, int]:
    began = time.perf_counter()
    status, raw = get(path)
    elapsed = time.perf_counter() - began
    assert status == 200, f"GET {path}: {status} {raw[:300]!r}"
    return elapsed, len(raw)


def _timeout(signum: int, frame: object) -> None:
    raise SystemExit("rankings_stored: time bound reached, stopped")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000, help="registrations (5000)")
    parser.add_argument("--games", type=int, default=4, help="seeded games (4)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds a game (20)")
    parser.add_argument("--requests", type=int, default=20, help="steady requests each (20)")
    parser.add_argument("--changes", type=int, default=5, help="corrections, each then viewed (5)")
    parser.add_argument("--budget", type=int, default=1500, help="build budget, seconds (1500)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn (default 2)")
    args = parser.parse_args()
    require(parser, 1 <= args.players <= 20000, "--players must be from 1 to 20000.")
    require(parser, 1 <= args.games <= 20, "--games must be from 1 to 20.")
    require(parser, 1 <= args.rounds <= 40, "--rounds must be from 1 to 40.")
    require(parser, 1 <= args.requests <= 1000, "--requests must be from 1 to 1000.")
    require(parser, 0 <= args.changes <= 100, "--changes must be from 0 to 100.")
    require(parser, 10 <= args.budget <= 7200, "--budget must be from 10 to 7200 seconds.")
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(2 * args.budget + 600)
    with private_stack(web_workers=args.web_workers) as stack:
        code = BUILD.format(players=args.players, games=args.games, rounds=args.rounds,
                            lexicon=stack.lexicon, user=ARBITER[0], budget=args.budget)  # fmt: skip
        built = manage_shell(stack, code, timeout=2 * args.budget + 300)
        slug = built["slug"]
        print(f"build: {args.players} players × {args.games} games, {built['rounds']} rounds "
              f"in {built['seconds']:.0f} s; round_close (stored figures) median "
              f"{built['close_ms'][0]:.0f} ms, max {built['close_ms'][1]:.0f} ms")  # fmt: skip
        session = Session(stack.web_port)
        session.login(*ARBITER)
        api = stack.arbiter()
        console = f"/arbitre/tournoi/{slug}/classement/"

        def browse(path: str) -> tuple[int, bytes]:
            return session.request("GET", path)

        def read(path: str) -> tuple[int, bytes]:
            response = api.get(path)
            return response.status, response.raw

        rankings = f"/api/tournaments/{slug}/rankings/"
        tokens = manage_shell(stack, TOKENS.format(user=ARBITER[0], slug=slug, count=20))
        turn = iter(range(10**9))

        def tablet(path: str) -> tuple[int, bytes]:  # a different player's tablet each time
            token = tokens[next(turn) % len(tokens)]
            response = stack.client().get(path.replace("TOKEN", token))
            return response.status, response.raw

        def player(path: str) -> tuple[int, bytes]:
            token = tokens[next(turn) % len(tokens)]
            response = stack.client(f"Player {token}").get(path)
            return response.status, response.raw

        pages = {
            "projector state (/projecteur/…/etat/, every line)": (
                browse,
                f"/projecteur/{slug}/etat/",
            ),
            "tablet results page (/tablette/…/resultats/)": (tablet, "/tablette/TOKEN/resultats/"),
            "api, player results (/api/player/results/)": (player, "/api/player/results/"),
            "console": (browse, console),
            "console, série 1 (?table=series-1)": (browse, console + "?table=series-1"),
            "console, a game (?table=game-1)": (browse, console + "?table=game-1"),
            "console, search (?q=Joueur 0042)": (browse, console + "?q=Joueur+0042"),
            "api": (read, rankings),
            "api, ?limit=500": (read, rankings + "?limit=500"),
            "api, a game (games/1/rankings/)": (read, f"/api/tournaments/{slug}/games/1/rankings/"),
            "api, ?offset=4900&limit=100": (read, rankings + "?offset=4900&limit=100"),
        }
        print(f"load average before timing: {load_average()}")
        first: dict[str, list[float]] = {name: [] for name in pages}
        for name, (get, path) in pages.items():
            first[name].append(_get(get, path)[0])  # the first view after the build
        corrections = []
        for _ in range(args.changes):
            fix = CORRECT.format(user=ARBITER[0], slug=slug)
            corrections.append(manage_shell(stack, fix)["ms"])
            for name, (get, path) in pages.items():
                first[name].append(_get(get, path)[0])
        for name, (get, path) in pages.items():
            steady, size = [], 0
            for _ in range(args.requests):
                elapsed, size = _get(get, path)
                steady.append(elapsed)
            print(f"{name} ({size // 1024} KiB), steady " + _line("", steady).lstrip(": "))
            print(f"{name}, first view after a change " + _line("", first[name]).lstrip(": "))
        documents = f"/arbitre/tournoi/{slug}/documents/"
        for name, path in (
            ("document csv (whole ranking)", documents + "csv/"),
            ("document results PDF (whole)", documents + "results/"),
            ("document xlsx of game 1", documents + "xlsx/?partie=1"),
        ):
            taken, size = [], 0
            for _ in range(max(3, args.requests // 8)):
                began = time.perf_counter()
                status, raw = browse(path)
                taken.append(time.perf_counter() - began)
                if status != 200:  # past gunicorn's timeout: the worker is killed, a 500
                    print(f"{name}: HTTP {status} after {taken[-1]:.1f} s, not timed further")
                    break
                size = len(raw)
            else:
                print(f"{name} ({size // 1024} KiB), steady " + _line("", taken).lstrip(": "))
        if corrections:
            print(f"proposal_correct with its stored update: median "
                  f"{sorted(corrections)[len(corrections) // 2]:.0f} ms")  # fmt: skip
        print(f"load average after timing: {load_average()}")
        check = manage_shell(stack, CHECK.format(slug=slug), timeout=args.budget + 300)
        print(f"tirage_standings_check: exit {check['code']}, last lines: {check['lines']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
