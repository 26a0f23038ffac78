"""The round clock's history (``models.RoundDeadline``): written by every change of the
clock, read to decide whether a stamped arrival was late (docs/rules-choices.md, *Round
control*, "Late is judged on the deadline in force when the move arrived").

Every writer holds the round's exclusive lock (``locked_round``) and appends one row with
the moment of the change (``at``, the server clock) and the deadline in force from then on.
A move that arrived at ``t`` is judged by the latest row with ``at <= t``: late after a
``close`` row, on time while paused (no deadline), else late when ``t`` is after the
deadline. A round opened before the history existed has no row: the caller falls back on
the round's current clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from tournaments.models import ClockChange, Round, RoundDeadline


def deadline_record(*, rnd: Round, kind: str, at: datetime) -> RoundDeadline:
    """Append the row saying that from ``at`` on the round's deadline is the one ``rnd``
    now holds (``None`` while paused; a close keeps the deadline it had)."""
    paused = kind == ClockChange.PAUSE
    return RoundDeadline.objects.create(
        round=rnd, kind=kind, at=at, deadline=None if paused else rnd.deadline
    )


def round_clock(rnd: Round) -> list[RoundDeadline]:
    """The round's whole history, oldest first (a batch of arrivals reads it once)."""
    return list(RoundDeadline.objects.filter(round=rnd).order_by("at", "id"))


def in_force(rnd: Round, arrived: datetime,
             clock: Sequence[RoundDeadline] | None = None) -> RoundDeadline | None:  # fmt: skip
    """The row in force at ``arrived``: from ``clock`` (the round's history, oldest first)
    when given, else read; ``None`` before the first row."""
    if clock is None:
        rows = RoundDeadline.objects.filter(round=rnd, at__lte=arrived)
        return rows.order_by("-at", "-id").first()
    row = None
    for change in clock:
        if change.at > arrived:
            break
        row = change
    return row


def late_by_clock(row: RoundDeadline, arrived: datetime) -> bool:
    """A tablet move that arrived at ``arrived`` under ``row`` is late: the round was closed,
    or its clock ran and its deadline was past (never during a pause)."""
    if row.kind == ClockChange.CLOSE:
        return True
    return row.deadline is not None and arrived > row.deadline
