"""Reads of the classic score sheets (``models.score_sheets``): a tournament's sheets, a
sheet by number, by id or by table, its current line versions, and the sheet as every
audience shows it (console, tablet, API, PDF), counted by ``engine.classic.sheet`` through
the adapter."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from engine.classic.sheet import SheetState
from tournaments import adapter
from tournaments.errors import ServiceError
from tournaments.models import (
    ClassicTable,
    Registration,
    ScoreSheet,
    ScoreSheetEnd,
    ScoreSheetLine,
    Tournament,
)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the sheet as shown: who played it, what was typed, its score, the
    tiles it put down, every player's total after it, and its versions (2 or more:
    corrected; ``who`` and ``reason`` are the current version's)."""

    number: int
    player: int
    name: str
    kind: str
    text: str
    score: int
    placed: str
    totals: tuple[int, ...]
    versions: int
    who: str
    reason: str


@dataclass(frozen=True, slots=True)
class EndRow:
    """A player's end lines: the tiles left as typed, « lettres restantes » (−minus),
    « partie terminée » (+plus), the final score and the place."""

    name: str
    left: str
    minus: int
    plus: int
    final: int
    rank: int


@dataclass(frozen=True, slots=True)
class Correction:
    """An earlier version replaced by a correction (line ``number``; 0 for the end lines)."""

    number: int
    version: int
    before: str
    after: str
    who: str
    reason: str
    when: str


@dataclass(frozen=True, slots=True)
class SheetView:
    sheet: ScoreSheet
    names: tuple[str, ...]
    table_label: str
    state: SheetState
    rows: tuple[SheetRow, ...]
    end: ScoreSheetEnd | None
    end_rows: tuple[EndRow, ...]
    history: tuple[Correction, ...]

    @property
    def next_name(self) -> str:
        return self.names[self.state.next_player]

    @property
    def finals(self) -> tuple[int, ...]:
        return self.state.finals


def score_sheets(tournament: Tournament) -> list[ScoreSheet]:
    return list(
        ScoreSheet.objects.filter(tournament=tournament)
        .select_related("table__round__division")
        .order_by("number")
    )


def score_sheet(tournament: Tournament, number: int) -> ScoreSheet:
    sheet = ScoreSheet.objects.filter(tournament=tournament, number=number).first()
    if sheet is None:
        raise ServiceError("score_sheet.unknown", f"There is no sheet {number}.", number=number)
    return sheet


def score_sheet_by_id(sheet_id: int) -> ScoreSheet:
    sheet = ScoreSheet.objects.select_related("tournament").filter(pk=sheet_id).first()
    if sheet is None:
        raise ServiceError("score_sheet.unknown", f"There is no sheet {sheet_id}.")
    return sheet


def score_sheet_of_table(table: ClassicTable) -> ScoreSheet | None:
    return ScoreSheet.objects.filter(table=table).first()


def score_sheet_current(
    sheet: ScoreSheet,
) -> tuple[list[ScoreSheetLine], ScoreSheetEnd | None, dict[int, list[ScoreSheetLine]]]:
    """The current version of every line (in line order), the current end lines, and
    every version of each line number (oldest first)."""
    versions: dict[int, list[ScoreSheetLine]] = {}
    rows = ScoreSheetLine.objects.filter(sheet=sheet).select_related(
        "entered_by", "registration__player"
    )
    for row in rows.order_by("number", "version"):
        versions.setdefault(row.number, []).append(row)
    current = [versions[n][-1] for n in sorted(versions)]
    end = (
        ScoreSheetEnd.objects.filter(sheet=sheet)
        .select_related("entered_by", "registration__player")
        .order_by("-version")
        .first()
    )
    return current, end, versions


def _who(row: ScoreSheetLine | ScoreSheetEnd) -> str:
    if row.registration_id is not None and row.registration is not None:
        return row.registration.player.name
    if row.entered_by is not None:
        return row.entered_by.get_username()
    return ""


def _table_label(sheet: ScoreSheet) -> str:
    table = sheet.table
    if table is None:
        return ""
    rnd = table.round
    return f"{rnd.division.name} · {rnd.number} · {table.number}"


def sheet_names(table: ClassicTable) -> list[str]:
    """A table's players in playing order (the first player starts)."""
    entries = [table.first, table.second] if table.second is not None else [table.first]
    regs = Registration.objects.select_related("player").filter(
        pk__in=[e.registration_id for e in entries]
    )
    by_id = {r.pk: r.player.name for r in regs}
    return [by_id[e.registration_id] for e in entries]


def _left_text(end: ScoreSheetEnd) -> str:
    left = " / ".join(str(v) or "0" for v in end.left)
    return left if end.went_out is None else f"{left} (+{end.went_out + 1})"


def _correction(
    number: int, new: ScoreSheetLine | ScoreSheetEnd, before: str, after: str
) -> Correction:
    when = timezone.localtime(new.created_at).strftime("%d/%m %H:%M")
    return Correction(number, new.version, before, after, _who(new), new.reason, when)


def score_sheet_view(sheet: ScoreSheet) -> SheetView:
    """The sheet counted from its current versions, with who typed what and the history
    of corrections, as every audience shows it."""
    current, end, versions = score_sheet_current(sheet)
    state = adapter.sheet_state(sheet, current, end)
    names = tuple(str(n) for n in sheet.names)
    rows = tuple(
        SheetRow(
            number=line.number,
            player=line.player,
            name=names[line.player],
            kind=line.turn.kind,
            text=line.turn.text() if line.move is None else f"{line.move.coord} {line.move.word}",
            score=line.score,
            placed=line.placed,
            totals=line.totals,
            versions=len(versions[line.number]),
            who=_who(row),
            reason=row.reason,
        )
        for line, row in zip(state.lines, current, strict=True)
    )
    end_rows: tuple[EndRow, ...] = ()
    if end is not None and state.adjustments is not None and state.ranks is not None:
        end_rows = tuple(
            EndRow(names[a.player], str(end.left[a.player]), a.minus, a.plus, a.final, rank)
            for a, rank in zip(state.adjustments, state.ranks, strict=True)
        )
    history: list[Correction] = []
    for number in sorted(versions):
        for old, new in zip(versions[number], versions[number][1:], strict=False):
            before, after = adapter.sheet_turn(old).text(), adapter.sheet_turn(new).text()
            history.append(_correction(number, new, before, after))
    ends = list(
        ScoreSheetEnd.objects.filter(sheet=sheet)
        .select_related("entered_by", "registration__player")
        .order_by("version")
    )
    for old_end, new_end in zip(ends, ends[1:], strict=False):
        before, after = _left_text(old_end), _left_text(new_end)
        history.append(_correction(0, new_end, before, after))
    return SheetView(sheet, names, _table_label(sheet), state, rows, end, end_rows, tuple(history))
