"""Classic results from the players' tablets (docs/classic.md, "Results on the tablets").

Each player of a table reports the result on their tablet link. The first report waits; when
the second player's report agrees, the result is recorded (a ``ClassicResult`` version,
source ``tablet``); when it differs, the table goes on the arbiter's list (the round page
shows « désaccord des tablettes »), and either player may report again, or the arbiter
enters the result. A report is append-only: a player's last one counts. Once a table has a
result, only an arbiter changes it (a correction with its reason).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from tournaments.access import Actor, PlayerActor
from tournaments.errors import ServiceError
from tournaments.models import ClassicReport, ClassicSource, ClassicTable
from tournaments.services.audit import audit_record
from tournaments.services.classic import check_result, classic_result_record

WAITING, RECORDED, MISMATCH = "waiting", "recorded", "mismatch"


@dataclass(frozen=True, slots=True)
class ReportResult:
    """``state``: ``waiting`` (the other player has not reported), ``recorded`` (both
    agree: the result is in) or ``mismatch`` (they disagree: the arbiter decides)."""

    report: ClassicReport
    state: str


def classic_report_submit(
    *, table_id: int, score_mine: int, score_theirs: int, actor: Actor
) -> ReportResult:
    """The acting player (a ``PlayerActor``, through their tablet token) reports their own
    score and their opponent's, after the end adjustments."""
    if not isinstance(actor, PlayerActor):
        raise ServiceError("access.tablet_only", "Only a player's tablet reports a result.")
    check_result(score_mine, score_theirs, "")
    with transaction.atomic():
        table = (
            ClassicTable.objects.select_for_update(of=("self",))
            .select_related("first__registration", "second__registration")
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            raise ServiceError("classic_table.unknown", f"There is no table {table_id}.")
        seats = {table.first.registration_id: "first"}
        if table.second is not None:
            seats[table.second.registration_id] = "second"
        position = seats.get(actor.registration_id)
        if position is None or table.second is None:
            raise ServiceError("access.not_at_table", "You do not play at this table.")
        if table.results.exists():
            raise ServiceError("classic.report_done", "This table's result is recorded.")
        mine_first = position == "first"
        first, second = (score_mine, score_theirs) if mine_first else (score_theirs, score_mine)
        me = table.first if mine_first else table.second
        other = table.second if mine_first else table.first
        report = ClassicReport.objects.create(
            table=table, entry=me, score_first=first, score_second=second
        )
        theirs = table.reports.filter(entry=other).order_by("-created_at", "-id").first()
        if theirs is None:
            state = WAITING
        elif (theirs.score_first, theirs.score_second) == (first, second):
            state = RECORDED
        else:
            state = MISMATCH
        audit_record(
            actor=actor,
            action="classic.report",
            obj=report,
            table=table.pk,
            score_first=first,
            score_second=second,
            state=state,
        )
        if state == RECORDED:
            classic_result_record(
                table=table,
                score_first=first,
                score_second=second,
                forfeit="",
                source=ClassicSource.TABLET,
                reason="",
                actor=actor,
            )
        return ReportResult(report, state)
