"""Reads of the classic family: a tournament's classic settings, its divisions and their
players, rounds, tables with their current results, and the standings (recomputed by
``engine.classic.standings`` from the rows, through the adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.classic.standings import Result
from tournaments import adapter
from tournaments.errors import ServiceError
from tournaments.models import (
    ClassicEvent,
    ClassicReport,
    ClassicResult,
    ClassicRound,
    ClassicTable,
    Division,
    DivisionEntry,
    Registration,
    Tournament,
)


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table as the pages and sheets show it. ``result`` is the current version (None:
    not entered yet, or a bye); ``versions`` counts them (2 or more: corrected)."""

    table: ClassicTable
    first: str
    second: str | None
    result: ClassicResult | None
    versions: int
    #: The players' last tablet reports disagree (the arbiter decides).
    mismatch: bool = False

    @property
    def bye(self) -> bool:
        return self.table.second_id is None

    @property
    def done(self) -> bool:
        return self.bye or self.result is not None


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    name: str
    entry_id: int
    wins: str
    losses: str
    spread: int
    points: int
    games: int
    byes: int
    buchholz: str
    active: bool


def classic_event(tournament: Tournament) -> ClassicEvent | None:
    """The tournament's classic settings, or None for a duplicate tournament."""
    return ClassicEvent.objects.filter(tournament=tournament).first()


def divisions(tournament: Tournament) -> list[Division]:
    return list(Division.objects.filter(tournament=tournament).order_by("number"))


def division_by_number(tournament: Tournament, number: int) -> Division:
    division = Division.objects.filter(tournament=tournament, number=number).first()
    if division is None:
        raise ServiceError("division.unknown", f"There is no division {number}.")
    return division


def division_entries(division: Division) -> list[DivisionEntry]:
    return list(
        DivisionEntry.objects.filter(division=division)
        .select_related("registration__player")
        .order_by("seed")
    )


def registrations_without_division(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament, division_entry__isnull=True)
        .select_related("player")
        .order_by("table_number")
    )


def classic_rounds(division: Division) -> list[ClassicRound]:
    return list(ClassicRound.objects.filter(division=division).order_by("number"))


def classic_round(division: Division, number: int) -> ClassicRound:
    rnd = ClassicRound.objects.filter(division=division, number=number).first()
    if rnd is None:
        raise ServiceError("classic_round.unknown", f"There is no round {number}.")
    return rnd


def _current(tables: list[ClassicTable]) -> tuple[dict[int, ClassicResult], dict[int, int]]:
    current: dict[int, ClassicResult] = {}
    versions: dict[int, int] = {}
    for r in ClassicResult.objects.filter(table__in=tables).order_by("table_id", "version"):
        current[r.table_id] = r
        versions[r.table_id] = versions.get(r.table_id, 0) + 1
    return current, versions


def _mismatches(tables: list[ClassicTable]) -> set[int]:
    """Tables whose two players' last tablet reports disagree."""
    last: dict[tuple[int, int], ClassicReport] = {}
    for rep in ClassicReport.objects.filter(table__in=tables).order_by("created_at", "id"):
        last[(rep.table_id, rep.entry_id)] = rep
    out = set()
    for t in tables:
        a, b = last.get((t.pk, t.first_id)), last.get((t.pk, t.second_id or 0))
        if (
            a
            and b
            and (a.score_first, a.score_second, a.forfeit)
            != (
                b.score_first,
                b.score_second,
                b.forfeit,
            )
        ):
            out.add(t.pk)
    return out


def classic_tables(rnd: ClassicRound) -> list[TableLine]:
    """The round's tables with names and current results, in table order."""
    tables = list(
        ClassicTable.objects.filter(round=rnd)
        .select_related("first__registration__player", "second__registration__player")
        .order_by("number")
    )
    current, versions = _current(tables)
    mismatch = _mismatches(tables)
    lines = []
    for t in tables:
        second = t.second.registration.player.name if t.second else None
        lines.append(
            TableLine(
                t,
                t.first.registration.player.name,
                second,
                current.get(t.pk),
                versions.get(t.pk, 0),
                t.pk in mismatch and t.pk not in current,
            )
        )
    return lines


def classic_table_by_number(rnd: ClassicRound, number: int) -> ClassicTable:
    table = ClassicTable.objects.filter(round=rnd, number=number).first()
    if table is None:
        raise ServiceError("classic_table.unknown", f"There is no table {number}.")
    return table


def classic_tables_waiting(rnd: ClassicRound) -> list[ClassicTable]:
    """The round's tables (not the bye) that have no result yet."""
    return list(
        ClassicTable.objects.filter(round=rnd, second__isnull=False, results__isnull=True)
        .distinct()
        .order_by("number")
    )


def classic_engine_results(division: Division) -> list[Result]:
    """Every table of the division as the engine's results (unplayed ones without scores)."""
    tables = list(
        ClassicTable.objects.filter(round__division=division)
        .select_related("round")
        .order_by("round__number", "number")
    )
    current, _ = _current(tables)
    return [adapter.classic_result(t, t.round.number, current.get(t.pk)) for t in tables]


def _halves(value: int) -> str:
    whole, half = divmod(value, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def division_standings(division: Division, event: ClassicEvent) -> list[StandingLine]:
    """The division's standings after every result entered (wins, spread, tie-breaks)."""
    entries = division_entries(division)
    rows = adapter.classic_standings(
        [e.pk for e in entries], classic_engine_results(division), event
    )
    by_id = {e.pk: e for e in entries}
    lines = []
    for row in rows:
        entry = by_id[row.player]
        lines.append(
            StandingLine(
                row.rank,
                entry.registration.player.name,
                entry.pk,
                _halves(row.halves),
                _halves(row.losses_halves),
                row.spread,
                row.points,
                row.games,
                row.byes,
                _halves(row.buchholz),
                entry.active,
            )
        )
    return lines


@dataclass(frozen=True, slots=True)
class TabletTable:
    """What a player's tablet shows of their table in the division's last round: the
    line, whether they are the first player, their opponent's name, and the last report
    of each (None: not reported)."""

    round: ClassicRound
    line: TableLine
    mine_first: bool
    opponent: str | None
    my_report: ClassicReport | None
    their_report: ClassicReport | None


def classic_tablet_table(registration: Registration) -> TabletTable | None:
    """The player's table in their division's last round (None: not in a division, or no
    round paired yet)."""
    entry = DivisionEntry.objects.filter(registration=registration).first()
    if entry is None:
        return None
    rnd = ClassicRound.objects.filter(division_id=entry.division_id).order_by("-number").first()
    if rnd is None:
        return None
    line = next(
        (x for x in classic_tables(rnd) if entry.pk in (x.table.first_id, x.table.second_id)), None
    )
    if line is None:  # joined after the pairing
        return None
    mine_first = line.table.first_id == entry.pk
    other = line.table.second_id if mine_first else line.table.first_id
    reports = ClassicReport.objects.filter(table=line.table).order_by("created_at", "id")
    mine = theirs = None
    for rep in reports:
        if rep.entry_id == entry.pk:
            mine = rep
        elif rep.entry_id == other:
            theirs = rep
    return TabletTable(
        rnd, line, mine_first, line.second if mine_first else line.first, mine, theirs
    )


@dataclass(frozen=True, slots=True)
class CardLine:
    """One round of a player's scorecard (tsh's scorecard): opponent (None: the bye),
    whether the player started, both scores (None: not entered, or a forfeit), the
    forfeit (``won``/``lost``), then the running wins (in halves) and spread."""

    round: int
    opponent: str | None
    started: bool
    mine: int | None
    theirs: int | None
    forfeit: str
    halves: int
    spread: int


@dataclass(frozen=True, slots=True)
class DivisionReport:
    """A division as the printed documents show it: its last round's tables, the
    standings, and each player's scorecard (seeding order)."""

    name: str
    round_number: int | None
    tables: list[TableLine]
    standings: list[StandingLine]
    cards: list[tuple[str, list[CardLine]]]
    rounds_planned: int


def _cards(division: Division, event: ClassicEvent) -> list[tuple[str, list[CardLine]]]:
    entries = division_entries(division)
    names = {e.pk: e.registration.player.name for e in entries}
    settings = adapter.classic_settings(event)
    results = classic_engine_results(division)
    out = []
    for e in entries:
        halves = spread = 0
        lines = []
        for r in sorted((r for r in results if e.pk in r.players), key=lambda r: r.round):
            other = r.opponent(e.pk)
            mine = theirs = None
            forfeit = ""
            if r.done:
                h, s, _ = r.outcome(e.pk, settings)
                halves, spread = halves + h, spread + s
            if r.forfeit is not None:
                forfeit = "lost" if r.forfeit == e.pk else "won"
            elif r.second is not None and r.done:
                first = r.first == e.pk
                mine = r.score_first if first else r.score_second
                theirs = r.score_second if first else r.score_first
            lines.append(
                CardLine(
                    r.round,
                    names.get(other) if other is not None else None,
                    r.first == e.pk and r.second is not None,
                    mine,
                    theirs,
                    forfeit,
                    halves,
                    spread,
                )
            )
        out.append((names[e.pk], lines))
    return out


def classic_report(tournament: Tournament) -> list[DivisionReport]:
    """Every division of a classic tournament for the printed documents (empty for a
    duplicate tournament)."""
    event = classic_event(tournament)
    if event is None:
        return []
    out = []
    for division in divisions(tournament):
        rounds = classic_rounds(division)
        last = rounds[-1] if rounds else None
        out.append(
            DivisionReport(
                division.name,
                last.number if last else None,
                classic_tables(last) if last else [],
                division_standings(division, event),
                _cards(division, event),
                event.rounds_planned,
            )
        )
    return out


def classic_table_by_id(table_id: int) -> ClassicTable:
    table = ClassicTable.objects.select_related("round__division").filter(pk=table_id).first()
    if table is None:
        raise ServiceError("classic_table.unknown", f"There is no table {table_id}.")
    return table
