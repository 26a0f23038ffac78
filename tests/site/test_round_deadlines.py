"""Lateness against the deadline in force when the move arrived (docs/rules-choices.md,
*Round control*): the round clock's history (``RoundDeadline``, migration 0021) and the
queued path judging a stamped arrival after the clock moved (a pause, a resume, an
extension, the close).

Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_arrivals.py). Times are
written relative to the test's ``now``: "-40" is 40 seconds before it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.scenario import scenario_of
from tests.site.test_arrivals import queued, versions  # noqa: F401  (an autouse fixture)
from tournaments.access import SYSTEM
from tournaments.models import ClockChange, ProposalArrival, Round, RoundDeadline
from tournaments.services import (
    arrivals_ingest,
    game_create,
    round_close,
    round_extend,
    round_pause,
    round_reopen,
    round_resume,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rnd(tournament_setup: dict[str, Any]) -> Round:
    """Round 1 of seed 7, open, with its top computed (the queued path judges from it)."""
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=SYSTEM)
    return scenario_of(game, tournament_setup["arbiter"]).open_round(top=True)


ON_TIME = [(1, "HAINES", False, True, 26, "ok")]
LATE = [(1, "HAINES", True, True, 0, "zero.late")]


def history(rnd: Round, now: datetime, *rows: tuple[str, int, int | None]) -> None:
    """Replace the round's clock history by ``(kind, at, deadline)`` rows, in seconds from
    ``now``; the round's current deadline is the last row's."""
    RoundDeadline.objects.filter(round=rnd).delete()
    for kind, at, deadline in rows:
        RoundDeadline.objects.create(
            round=rnd, kind=kind, at=now + timedelta(seconds=at),
            deadline=None if deadline is None else now + timedelta(seconds=deadline),
        )  # fmt: skip
    last = rows[-1][2]
    if last is not None:
        Round.objects.filter(pk=rnd.pk).update(deadline=now + timedelta(seconds=last))


def arrive(rnd: Round, player: Any, now: datetime, at: float) -> None:
    ProposalArrival.objects.create(
        round=rnd, player=player, reference="H4", word="HAINES", client_key=f"k{player.pk}",
        received_at=now + timedelta(seconds=at),
    )  # fmt: skip


def test_every_change_of_the_clock_appends_the_deadline_then_in_force(
    tournament_setup, rnd
) -> None:
    head = tournament_setup["arbiter"]
    round_pause(round_id=rnd.pk, actor=head)
    round_extend(round_id=rnd.pk, seconds=30, actor=head)  # paused: the deadline stays unset
    resumed = round_resume(round_id=rnd.pk, actor=head)
    extended = round_extend(round_id=rnd.pk, seconds=30, actor=head)
    closed = round_close(round_id=rnd.pk, actor=head, confirm=True)
    reopened = round_reopen(round_id=rnd.pk, actor=head, seconds=60)
    rows = list(RoundDeadline.objects.filter(round=rnd).order_by("at", "id"))
    assert [r.kind for r in rows] == ["open", "pause", "resume", "extend", "close", "reopen"]
    assert rows[1].deadline is None
    assert rows[2].deadline == resumed.deadline
    # Running, an extension moves the deadline 30 s later.
    assert rows[3].deadline == extended.deadline == resumed.deadline + timedelta(seconds=30)
    assert rows[4].at == closed.closed_at and rows[4].deadline == closed.deadline
    assert rows[5].deadline == reopened.deadline
    assert all(a.at <= b.at for a, b in zip(rows, rows[1:], strict=False))


def test_a_move_sent_after_the_deadline_stays_late_after_an_extension_and_a_pause(
    tournament_setup, rnd
) -> None:
    """Opened at -100 with a 60 s clock (deadline -40). Bruno's move arrived at -50 (on
    time), Anne's at -35: 5 s after the deadline, late. The head arbiter then extends the
    round by 60 s (from now: the time had run out) and pauses it; Chloé's move arrives during
    the pause (on time). The worker judges all three only now, the clock paused."""
    anne, bruno, chloe = tournament_setup["players"]
    head = tournament_setup["arbiter"]
    now = timezone.now()
    history(rnd, now, (ClockChange.OPEN, -100, -40))
    arrive(rnd, bruno, now, -50)
    arrive(rnd, anne, now, -35)
    round_extend(round_id=rnd.pk, seconds=60, actor=head)
    round_pause(round_id=rnd.pk, actor=head)
    arrive(rnd, chloe, timezone.now(), 0)
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 3
    assert versions(rnd, anne) == LATE
    assert versions(rnd, bruno) == ON_TIME
    assert versions(rnd, chloe) == ON_TIME


def test_moves_judged_after_the_close_follow_the_deadline_in_force_when_they_arrived(
    tournament_setup, rnd
) -> None:
    """Opened at -100 with a 60 s clock, paused at -70 (30 s left), resumed at -30 with
    28 s (deadline -2), closed now. Stored after the close (a slow web process): Anne's
    move from -50 (during the pause) and Bruno's from -10 (before the resumed deadline)
    are on time; Chloé's from -1, after the deadline but before the close, is late."""
    anne, bruno, chloe = tournament_setup["players"]
    now = timezone.now()
    history(rnd, now, (ClockChange.OPEN, -100, -40), (ClockChange.PAUSE, -70, None),
            (ClockChange.RESUME, -30, -2))  # fmt: skip
    Round.objects.filter(pk=rnd.pk).update(deadline=now + timedelta(seconds=-2))
    round_close(round_id=rnd.pk, actor=tournament_setup["arbiter"])  # the time is over
    for player, at in ((anne, -50), (bruno, -10), (chloe, -1)):
        arrive(rnd, player, now, at)
    assert arrivals_ingest(round_id=rnd.pk, actor=SYSTEM) == 3
    assert versions(rnd, anne) == ON_TIME
    assert versions(rnd, bruno) == ON_TIME
    assert versions(rnd, chloe) == LATE
