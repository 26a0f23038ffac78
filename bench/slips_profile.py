"""One paper slip and one correction, in process: milliseconds and SQL statements each.

    deploy/with-test-services .venv/bin/python bench/slips_profile.py [--players 2000]
        [--centres 10] [--rounds 3] [--slips 200] [--corrections 20] [--profile FILE]

Runs against ``DATABASE_URL`` (PostgreSQL; ``deploy/with-test-services`` starts a private
one and removes it afterwards) and ``REDIS_URL`` (the live versions' bumps), migrating it
first. Builds, through the services, a simultaneous tournament of ``--centres`` centres,
each with its own head arbiter (an API token, as ``bench/stack_event.py`` sets up), the
players imported with their centre column, one seeded game whose first ``--rounds``
rounds are played (every player's move bulk-inserted as a judged current version, as
``bench/rankings_stored.py`` does, then each centre closed and the top placed), and the
next round drawn and opened.

Then times, in this process through Django's test client (the whole request: middleware,
DRF's token authentication, the view, the service, the serializer), ``--slips`` entries of
``POST /api/rounds/{id}/slips/`` by the centre arbiters, each a different player's slip
among the round's best moves (the first ones judged, the later ones mostly the judgement
cache's), and ``--corrections`` calls of ``proposal_correct`` on the last closed round
(the service, after one call not counted; ``--cold N``: also the first and second
correction in N fresh ``manage.py shell`` processes, as bench/rankings_stored.py times
one), and prints for each the median, p95 and max of the wall time, of this process's CPU
time and of the PostgreSQL backend's (from /proc), and the SQL statements per call with
their time inside the database driver. ``--profile FILE``: a cProfile in CPU time of the
slips (``FILE``) and of the corrections (``FILE.correct``), their 25 heaviest functions
by cumulative time printed.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gzip
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Characters of each statement ``--show-sql`` prints (``--sql-width``).
WIDTH = 160


def _ms(values: list[float]) -> str:
    ms = sorted(1000 * v for v in values)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[-1] if len(ms) > 1 else ms[0]
    return f"median {statistics.median(ms):.1f}  p95 {p95:.1f}  max {ms[-1]:.1f} ms"


def _stats(name: str, runs: list[_Run]) -> str:
    queries = [r.timer.count for r in runs]
    return (
        f"{name}, n={len(runs)}:\n"
        f"  wall            {_ms([r.wall for r in runs])}\n"
        f"  CPU, Python     {_ms([r.cpu for r in runs])}\n"
        f"  CPU, PostgreSQL mean {1000 * sum(r.pg for r in runs) / len(runs):.1f} ms (its "
        f"backend, /proc, in ticks of {1000 // _TICK} ms)\n"
        f"  SQL statements  min {min(queries)}  median {statistics.median(queries):.0f}  "
        f"max {max(queries)}; time in the driver {_ms([r.timer.seconds for r in runs])}"
    )


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


class _Run:
    """One timed call: wall and CPU seconds (this process's, the PostgreSQL backend's)
    and its statements."""

    def __init__(self, backend: int) -> None:
        self.backend = backend
        self.timer = _Timer()

    def __enter__(self) -> _Run:
        from django.db import connection

        self._wrap = connection.execute_wrapper(self.timer)
        self._wrap.__enter__()
        self._pg = _cpu_of(self.backend)
        self._cpu = time.process_time()
        self._wall = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = time.process_time() - self._cpu
        self.pg = _cpu_of(self.backend) - self._pg
        self._wrap.__exit__(*exc)


def _backend() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


class _Timer:
    """Counts the statements and their time in the driver (a cursor wrapper)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.statements: list[tuple[float, str]] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent = time.perf_counter() - began
            self.seconds += spent
            self.count += 1
            self.statements.append((spent, sql))


def _lexicon(directory: Path) -> int:
    from engine.lexicon.automaton import build_lexicon_file
    from tests.engine.conftest import WORDS_FILE
    from tournaments.access import SYSTEM
    from tournaments.services import lexicon_register

    path = directory / "conformance.lex"
    if not path.exists():
        with gzip.open(WORDS_FILE, "rt", encoding="utf-8") as handle:
            words = [line.strip() for line in handle if line.strip()]
        build_lexicon_file(words, str(path), name="conformance", source=str(WORDS_FILE),
                           version="1")  # fmt: skip
    return int(lexicon_register(path=str(path), actor=SYSTEM).pk)


def _build(args: argparse.Namespace, lexicon_id: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from tournaments.models import ProposalVersion, Registration
    from tournaments.services.arbiters import arbiter_add
    from tournaments.services.centres import centre_close, centre_create
    from tournaments.services.games import game_create, round_draw, round_place_top
    from tournaments.services.imports import players_import
    from tournaments.services.registry import tournament_create
    from tournaments.services.rounds import round_compute_top, round_open
    from tournaments.services.tournament_settings import tournament_update

    User = get_user_model()
    head = User.objects.create_user("bench-head", password="bench-head-password")
    head.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = tournament_create(name="Bulletins (banc)", slug="bench-slips", lexicon_id=lexicon_id,
                          seconds_per_move=900, actor=head)  # fmt: skip
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
    centres = []
    for c in range(args.centres):
        centre = centre_create(tournament_id=t.pk, name=f"Centre {c + 1:02d}", actor=head)
        added = arbiter_add(actor=head, tournament_id=t.pk, login=f"arbitre-centre-{c + 1:02d}",
                            centre_id=centre.pk, centre_head=True)  # fmt: skip
        token, _ = Token.objects.get_or_create(user=added.membership.user)
        centres.append((centre.pk, token.key))
    rows = [f"Joueur {i + 1:05d};E{i:06d};Club {i % 23};Centre {i % args.centres + 1:02d}"
            for i in range(args.players)]  # fmt: skip
    for start in range(0, args.players, 2000):
        chunk = ["nom;licence;club;centre", *rows[start : start + 2000]]
        players_import(tournament_id=t.pk, filename="joueurs.csv",
                       content="\n".join(chunk).encode(), actor=head)  # fmt: skip
    regs = list(Registration.objects.filter(tournament=t).order_by("table_number"))
    game = game_create(tournament_id=t.pk, kind="seeded", seed=4242, actor=head)
    for _ in range(args.rounds):
        rnd = round_compute_top(round_id=round_draw(game_id=game.pk, actor=head).pk, actor=head)
        round_open(round_id=rnd.pk, actor=head)
        best = rnd.top["best"] or [rnd.top["chosen"]]
        slips = []
        for i, reg in enumerate(regs):
            rng = random.Random(f"{rnd.number}-{i}")
            if rng.random() < 0.02:
                continue
            move = rnd.top["chosen"] if rng.random() < 0.5 else rng.choice(best)
            slips.append(ProposalVersion(
                round=rnd, player_id=reg.player_id, version=1, is_current=True,
                reference=move["coord"], word=move["word"], source="tablet",
                outcome_kind="valid", outcome_score=move["score"],
                outcome_raw_score=move["score"], outcome_code="ok",
                outcome_params={"word": move["word"], "reference": move["coord"],
                                "score": move["score"]}))  # fmt: skip
        ProposalVersion.objects.bulk_create(slips, batch_size=2000)
        for centre_id, _key in centres:
            centre_close(round_id=rnd.pk, centre_id=centre_id, actor=head, confirm=True)
        round_place_top(round_id=rnd.pk, actor=head)
        closed = rnd.pk
    rnd = round_compute_top(round_id=round_draw(game_id=game.pk, actor=head).pk, actor=head)
    round_open(round_id=rnd.pk, actor=head)
    return {"tournament": t, "head": head, "centres": centres, "regs": regs, "open": rnd,
            "closed": closed}  # fmt: skip


def _slips(args: argparse.Namespace, built: dict[str, Any]) -> None:
    from django.test import Client

    rnd = built["open"]
    best = rnd.top["best"] or [rnd.top["chosen"]]
    centre_of = {pk: k for k, (pk, _) in enumerate(built["centres"])}
    clients = [Client(HTTP_AUTHORIZATION=f"Token {key}") for _pk, key in built["centres"]]
    picked = random.Random(1).sample(built["regs"], min(args.slips, len(built["regs"])))
    runs: list[_Run] = []
    backend = _backend()
    profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU time
    for k, reg in enumerate(picked):
        move = best[k % len(best)] if k % 3 else rnd.top["chosen"]
        body = {
            "table_number": reg.table_number,
            "reference": move["coord"],
            "word": move["word"] if k % 20 else move["word"][::-1],
            "score": move["score"],
        }
        client = clients[centre_of[reg.centre_id]]
        if profiler:
            profiler.enable()
        with _Run(backend) as run:
            response = client.post(f"/api/rounds/{rnd.pk}/slips/", body,
                                   content_type="application/json")  # fmt: skip
        if profiler:
            profiler.disable()
        if response.status_code != 201:
            raise SystemExit(f"slip {k}: {response.status_code} {response.content[:300]!r}")
        runs.append(run)
    print(_stats("slip (POST /api/rounds/{id}/slips/, whole request)", runs))
    if args.show_sql:
        _show("the last slip's statements", runs[-1].timer)
    if profiler:
        profiler.dump_stats(args.profile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def _corrections(args: argparse.Namespace, built: dict[str, Any]) -> None:
    from tournaments.models import Round
    from tournaments.services.proposals import proposal_correct

    rnd = Round.objects.get(pk=built["closed"])
    best = rnd.top["best"] or [rnd.top["chosen"]]
    regs = random.Random(2).sample(built["regs"], min(args.corrections + 1, len(built["regs"])))
    runs: list[_Run] = []
    backend = _backend()
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    for k, reg in enumerate(regs):
        move = best[k % len(best)]
        if profiler and k:
            profiler.enable()
        with _Run(backend) as run:
            proposal_correct(round_id=rnd.pk, player_id=reg.player_id, word=move["word"],
                             reference=move["coord"], reason="banc : bulletin corrigé",
                             actor=built["head"])  # fmt: skip
        if profiler:
            profiler.disable()
        if k == 0:
            print(f"first correction (not counted): {1000 * run.wall:.0f} ms")
            continue
        runs.append(run)
    print(_stats("proposal_correct (service, closed round)", runs))
    if profiler:
        profiler.dump_stats(f"{args.profile}.correct")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    if args.show_sql:
        _show("the last correction's statements", runs[-1].timer)


def _show(title: str, timer: _Timer) -> None:
    print(f"{title}:")
    for spent, statement in timer.statements:
        print(f"  {1000 * spent:6.1f} ms  {' '.join(statement.split())[:WIDTH]}")


#: One fresh process (``manage.py shell``, as ``bench/rankings_stored.py`` times a
#: correction): its first ``proposal_correct``, then a second one, each timed.
COLD = r"""
import json, time
from django.contrib.auth import get_user_model
from tournaments.models import Round
from tournaments.services.proposals import proposal_correct

head = get_user_model().objects.get(username="bench-head")
rnd = Round.objects.get(pk={round_id})
best = rnd.top["best"] or [rnd.top["chosen"]]
spent = []
for k, player in enumerate({players}):
    move = best[k % len(best)]
    began = time.perf_counter()
    proposal_correct(round_id=rnd.pk, player_id=player, word=move["word"],
                     reference=move["coord"], reason="banc : à froid", actor=head)
    spent.append(time.perf_counter() - began)
print(json.dumps(spent))
"""


def _cold(args: argparse.Namespace, built: dict[str, Any]) -> None:
    """``--cold`` fresh processes: the first correction against the second."""
    import json
    import subprocess

    players = [r.player_id for r in built["regs"]]
    first, second = [], []
    for k in range(args.cold):
        code = COLD.format(round_id=built["closed"], players=players[2 * k : 2 * k + 2])
        done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT,
                              capture_output=True, text=True, timeout=600, check=True)  # fmt: skip
        spent = json.loads(done.stdout.strip().splitlines()[-1])
        first.append(spent[0])
        second.append(spent[1])
    print(f"proposal_correct in a fresh process (manage.py shell), n={args.cold}:\n"
          f"  first call      {_ms(first)}\n  second call     {_ms(second)}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--centres", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="rounds played before (3)")
    parser.add_argument("--slips", type=int, default=200)
    parser.add_argument("--corrections", type=int, default=20)
    parser.add_argument("--cold", type=int, default=0,
                        help="also time a correction in N fresh processes (0)")  # fmt: skip
    parser.add_argument("--profile", default="", help="write a cProfile of the slips here")
    parser.add_argument("--show-sql", action="store_true", help="list the last call's SQL")
    parser.add_argument("--sql-width", type=int, default=160, help="characters a statement")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("DATABASE_URL must name a PostgreSQL database (deploy/with-test-services).")
    if not 2 <= args.players <= 20000 or not 1 <= args.centres <= args.players:
        parser.error("--players from 2 to 20000, --centres from 1 to --players.")
    if not 1 <= args.rounds <= 20 or args.slips < 1 or args.corrections < 1:
        parser.error("--rounds from 1 to 20; --slips and --corrections at least 1.")
    global WIDTH
    WIDTH = args.sql_width
    var = Path(tempfile.mkdtemp(prefix="tirage-slips-"))
    os.environ.setdefault("TIRAGE_VAR_DIR", str(var))
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    import django

    django.setup()
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
        call_command("migrate", verbosity=0)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, load average {load}")
    began = time.monotonic()
    cache = Path(tempfile.gettempdir()) / "tirage-slips-lexicon"
    cache.mkdir(exist_ok=True)
    built = _build(args, _lexicon(cache))
    print(f"build: {args.players} players, {args.centres} centres, {args.rounds} rounds played, "
          f"{time.monotonic() - began:.0f} s")  # fmt: skip
    _slips(args, built)
    _corrections(args, built)
    if args.cold:
        _cold(args, built)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"load average after: {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
