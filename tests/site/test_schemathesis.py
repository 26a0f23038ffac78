"""Schemathesis as a real client against the running site (issue 14, item 10).

The site runs in a live server (pytest-django's ``live_server``: a real HTTP server on a
free port, the test database behind it) with a tournament, its head arbiter and players
holding tablet tokens and an open round. The ``schemathesis`` command then reads the
published schema (``/api/schema/``) and sends generated requests — valid and invalid —
to every operation, once with the arbiter's token and once with a player's, with every
check enabled (server errors, status codes and content types the schema does not list,
response bodies and headers against their schemas, invalid data accepted, valid data
refused, unsupported methods, authentication ignored, ...). Zero failures are allowed.

It takes a few minutes, so it runs when ``CI=true`` (``make test`` in CI) or
``TIRAGE_SCHEMATHESIS=1`` (``TIRAGE_SCHEMATHESIS_ONLY``, a path regex, narrows it to some
operations); ``TIRAGE_SCHEMATHESIS_EXAMPLES`` bounds the examples per
operation (default 10: about 5 minutes for both runs on the shared 2-core machine,
docs/benchmarks.md). Failures are kept in ``schemathesis.txt`` under the test's tmp_path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.models import CardSeat, Registration
from tournaments.services import SeatSpec, card_table_open
from tournaments.services.registry import registration_token_issue

RUN = os.environ.get("CI", "").lower() == "true" or os.environ.get("TIRAGE_SCHEMATHESIS") == "1"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not RUN, reason="slow: runs with CI=true or TIRAGE_SCHEMATHESIS=1"),
]
EXAMPLES = int(os.environ.get("TIRAGE_SCHEMATHESIS_EXAMPLES", "10"))
#: A path regex narrowing the run (e.g. ``^/api/cards/`` while working on those endpoints).
ONLY = os.environ.get("TIRAGE_SCHEMATHESIS_ONLY", "")
CLI = Path(sys.executable).with_name("schemathesis")
CONFIG = Path(__file__).with_name("schemathesis.toml")


@pytest.fixture
def site(
    live_server: Any, tournament_setup: dict[str, Any], settings: Any, monkeypatch: Any
) -> dict[str, str]:
    # The per-player limit (180 a minute) would answer 429 to a fuzzer sending ~50 a
    # second; it is tested on its own (tests/production/test_security.py).
    settings.TIRAGE_PLAYER_RATE_PER_MINUTE = 1_000_000
    t = tournament_setup["tournament"]
    tokens = [
        registration_token_issue(registration_id=r.pk, actor=SYSTEM)
        for r in Registration.objects.filter(tournament=t).order_by("table_number")
    ]
    new_game(tournament_setup, seed=7, actor=SYSTEM).open_round()
    arbiter = Token.objects.create(user=tournament_setup["arbiter"]).key
    # A card table: schemathesis.toml gives its first seat's token to the seat operations,
    # so their valid requests reach a real game (not only 404s).
    table = card_table_open(
        tournament_id=t.pk,
        seats=[SeatSpec("human", "Anne"), SeatSpec("human", "Bruno"), SeatSpec("strong")],
        seed=2026,
        actor=SYSTEM,
    )
    seat = CardSeat.objects.get(table=table, number=0)
    monkeypatch.setenv("TIRAGE_CARD_SEAT", seat.access_token or "")
    return {"url": live_server.url, "arbiter": arbiter, "player": tokens[0]}


def schemathesis(site: dict[str, str], header: str, tmp_path: Path) -> subprocess.CompletedProcess:
    command = [
        str(CLI), "--config-file", str(CONFIG), "--no-color", "run",
        f"{site['url']}/api/schema/", "--url", site["url"],
        "--header", header, "--checks", "all", "--max-examples", str(EXAMPLES),
        "--workers", "1", "--seed", "14", "--suppress-health-check", "all",
        "--request-timeout", "30", "--report", "junit",
        "--report-junit-path", str(tmp_path / "junit.xml"),
    ]  # fmt: skip
    if ONLY:  # a developer's run of some operations (the default: every one)
        command += ["--include-path-regex", ONLY]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": ""}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=900,
                          cwd=tmp_path)  # fmt: skip


@pytest.mark.parametrize("who", ["arbiter", "player"])
def test_schemathesis_finds_no_failure(site, who, tmp_path) -> None:
    scheme = "Token" if who == "arbiter" else "Player"
    result = schemathesis(site, f"Authorization: {scheme} {site[who]}", tmp_path)
    output = result.stdout + result.stderr
    (tmp_path / "schemathesis.txt").write_text(output)
    assert result.returncode == 0, output[-20000:]
    assert "No issues found" in output or " passed" in output, output[-3000:]
