"""Classic score sheets (seed page 004; docs/classic.md, "The score sheet").

A sheet belongs to a tournament: its arbiters open one for a game of a classic table
(``score_sheet_open_for_table``, also opened by either player of that table from their
tablet) or a stand-alone one for a friendly game (``score_sheet_create``). Each turn is a
typed line (``engine.classic.sheet.parse_turn``: a move, a bare score, a pass or an
exchange), added in playing order; a move is scored by the engine on the sheet's own board.
A correction is a new version of the line with its reason; the whole sheet is counted again
and a correction that leaves a later move off the board is refused, so the stored lines
always count. The end lines (« lettres restantes », « partie terminée ») are versions too.
Every write is audited.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max

from engine.classic.sheet import SheetEnd, SheetState, SheetTurn, parse_turn, sheet_state
from engine.errors import EngineError
from tournaments import adapter, selectors
from tournaments.access import Actor, PlayerActor, registration_of, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    ClassicTable,
    ScoreSheet,
    ScoreSheetEnd,
    ScoreSheetLine,
    SheetTieBreak,
    Tournament,
)
from tournaments.services.audit import audit_record

NAME_MAX = 60


def _check_names(names: Sequence[str]) -> list[str]:
    cleaned = [str(n).strip() for n in names if str(n).strip()]
    if not 2 <= len(cleaned) <= 4:
        raise ServiceError("score_sheet.players", "A sheet has 2 to 4 players.", count=len(cleaned))
    if any(len(n) > NAME_MAX for n in cleaned):
        raise ServiceError("score_sheet.name", "A name has 60 characters at most.", high=NAME_MAX)
    return cleaned


def _check_tie_break(tie_break: str) -> None:
    if tie_break not in SheetTieBreak.values:
        raise ServiceError("settings.tie_break", "Unknown tie-break.")


def _next_number(tournament: Tournament) -> int:
    return (tournament.score_sheets.aggregate(n=Max("number"))["n"] or 0) + 1


def score_sheet_create(
    *,
    tournament_id: int,
    names: Sequence[str],
    tie_break: str = SheetTieBreak.EX_AEQUO,
    actor: Actor,
) -> ScoreSheet:
    """A stand-alone sheet (a friendly game), its players named in playing order."""
    cleaned = _check_names(names)
    _check_tie_break(tie_break)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise ServiceError("tournament.unknown", "Unknown tournament.")
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        sheet = ScoreSheet.objects.create(
            tournament=tournament,
            number=_next_number(tournament),
            names=cleaned,
            players=len(cleaned),
            tie_break=tie_break,
            created_by=user_of(actor),
        )
        audit_record(
            actor=actor, action="score_sheet.create", obj=sheet, names=cleaned, tie_break=tie_break
        )
        return sheet


def _seated(actor: Actor, table: ClassicTable) -> bool:
    seats = {table.first.registration_id}
    if table.second is not None:
        seats.add(table.second.registration_id)
    return isinstance(actor, PlayerActor) and actor.registration_id in seats


def _require_writer(actor: Actor, sheet: ScoreSheet) -> None:
    """An arbiter of the tournament, or a player of the sheet's table on their tablet."""
    if isinstance(actor, PlayerActor):
        table = sheet.table
        if table is None or not _seated(actor, table):
            raise ServiceError("access.not_at_table", "You do not play at this table.")
        return
    require_arbiter(actor=actor, tournament_id=sheet.tournament_id)


def score_sheet_open_for_table(*, table_id: int, actor: Actor) -> ScoreSheet:
    """The sheet of a classic table's game, opened the first time it is asked for (by an
    arbiter or a player of the table); its players are the table's, the first one first."""
    with transaction.atomic():
        table = (
            ClassicTable.objects.select_for_update(of=("self",))
            .select_related("round__division__tournament", "first", "second")
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            raise ServiceError("classic_table.unknown", f"There is no table {table_id}.")
        tournament = table.round.division.tournament
        if isinstance(actor, PlayerActor):
            if not _seated(actor, table):
                raise ServiceError("access.not_at_table", "You do not play at this table.")
        else:
            require_arbiter(actor=actor, tournament_id=tournament.pk)
        if table.second_id is None:
            raise ServiceError("classic.bye_result", "A bye has no game to record.")
        existing = selectors.score_sheet_of_table(table)
        if existing is not None:
            return existing
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        names = selectors.sheet_names(table)
        sheet = ScoreSheet.objects.create(
            tournament=tournament,
            number=_next_number(tournament),
            table=table,
            names=names,
            players=len(names),
            created_by=user_of(actor),
        )
        audit_record(
            actor=actor, action="score_sheet.create", obj=sheet, table=table.pk, names=names
        )
        return sheet


def score_sheet_update(*, sheet_id: int, tie_break: str, actor: Actor) -> ScoreSheet:
    """Change how the sheet ranks a tie (an arbiter's choice, before or after the end)."""
    _check_tie_break(tie_break)
    with transaction.atomic():
        sheet = _locked(sheet_id)
        require_arbiter(actor=actor, tournament_id=sheet.tournament_id)
        before = sheet.tie_break
        sheet.tie_break = tie_break
        _counted(sheet, *_stored(sheet))  # fewest tiles needs the letters of the end lines
        sheet.save(update_fields=["tie_break"])
        audit_record(
            actor=actor, action="score_sheet.update", obj=sheet, before=before, after=tie_break
        )
        return sheet


def _locked(sheet_id: int) -> ScoreSheet:
    sheet = ScoreSheet.objects.select_for_update().filter(pk=sheet_id).first()
    if sheet is None:
        raise ServiceError("score_sheet.unknown", f"There is no sheet {sheet_id}.")
    return sheet


def _stored(sheet: ScoreSheet) -> tuple[list[SheetTurn], SheetEnd | None]:
    lines, end, _ = selectors.score_sheet_current(sheet)
    return [adapter.sheet_turn(r) for r in lines], adapter.sheet_end(end)


def _counted(
    sheet: ScoreSheet, turns: Sequence[SheetTurn], end: SheetEnd | None, typed: int = 0
) -> SheetState:
    """The sheet counted with these lines and end lines: an engine refusal becomes the
    ``ServiceError`` shown to whoever typed, and nothing is stored. When line ``typed`` is
    a correction that leaves a later move off the board, the refusal names that move."""
    try:
        return sheet_state(sheet.players, turns, end, sheet.tie_break)
    except EngineError as error:
        number = error.details.get("number")
        if typed and number is not None and number != typed:
            raise ServiceError(
                "score_sheet.breaks_line",
                f"After this correction, line {number} no longer fits.",
                number=number,
            ) from error
        raise ServiceError.from_engine(error) from error


def _parse(text: str) -> SheetTurn:
    try:
        return parse_turn(text)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


def _store_line(
    sheet: ScoreSheet, number: int, version: int, turn: SheetTurn, reason: str, actor: Actor
) -> ScoreSheetLine:
    """Store the line as the engine counted it (a move's word as fitted, its score)."""
    turns, end = _stored(sheet)
    if number > len(turns):
        turns.append(turn)
    else:
        turns[number - 1] = turn
    state = _counted(sheet, turns, end, number)  # a later move that no longer fits: refused
    line = state.lines[number - 1]
    coord, word = (line.move.coord, line.move.word) if line.move else ("", "")
    try:
        with transaction.atomic():
            row = ScoreSheetLine.objects.create(
                sheet=sheet,
                number=number,
                version=version,
                kind=turn.kind,
                coord=coord,
                word=word,
                score=line.score,
                entered_by=user_of(actor),
                registration_id=registration_of(actor),
                reason=reason.strip()[:200],
            )
    except IntegrityError as error:  # another version landed in between
        raise ServiceError("score_sheet.race", "The sheet changed meanwhile.") from error
    audit_record(
        actor=actor,
        action="score_sheet.line",
        obj=row,
        sheet=sheet.pk,
        number=number,
        version=version,
        kind=turn.kind,
        coord=coord,
        word=word,
        score=line.score,
        reason=row.reason,
    )
    return row


def score_sheet_line_add(*, sheet_id: int, text: str, actor: Actor) -> ScoreSheetLine:
    """Type the next turn (``H8 CHAT``, ``23``, ``passe``, ``échange``); refused once the
    end lines are typed."""
    turn = _parse(text)
    with transaction.atomic():
        sheet = _locked(sheet_id)
        _require_writer(actor, sheet)
        if sheet.ends.exists():
            raise ServiceError("score_sheet.over", "The game is over: correct a line instead.")
        number = (sheet.lines.aggregate(n=Max("number"))["n"] or 0) + 1
        return _store_line(sheet, number, 1, turn, "", actor)


def score_sheet_line_correct(
    *, sheet_id: int, number: int, text: str, reason: str, actor: Actor
) -> ScoreSheetLine:
    """Replace line ``number`` by a new version, with its reason. The sheet is counted
    again: a later move that no longer fits refuses the correction."""
    turn = _parse(text)
    if not reason.strip():
        raise ServiceError("score_sheet.reason_required", "A correction needs its reason.")
    with transaction.atomic():
        sheet = _locked(sheet_id)
        _require_writer(actor, sheet)
        current = sheet.lines.filter(number=number).order_by("-version").first()
        if current is None:
            raise ServiceError("score_sheet_line.unknown", f"There is no line {number}.")
        return _store_line(sheet, number, current.version + 1, turn, reason, actor)


def score_sheet_end_set(
    *,
    sheet_id: int,
    left: Sequence[str],
    went_out: int | None,
    reason: str = "",
    actor: Actor,
) -> ScoreSheetEnd:
    """Type the end lines: each player's tiles left (a value or the letters) and who went
    out (``None``: blocked). Typing them again is a correction, with its reason."""
    typed = [str(v).strip() for v in left]
    with transaction.atomic():
        sheet = _locked(sheet_id)
        _require_writer(actor, sheet)
        if went_out is not None and not 0 <= went_out < sheet.players:
            raise ServiceError("end.player", "This player is not in the game.")
        current = sheet.ends.order_by("-version").first()
        if current is not None and not reason.strip():
            raise ServiceError("score_sheet.reason_required", "A correction needs its reason.")
        if not sheet.lines.exists():
            raise ServiceError("score_sheet.no_line", "Type the game's turns first.")
        _counted(sheet, _stored(sheet)[0], SheetEnd(tuple(typed), went_out))
        version = current.version + 1 if current else 1
        try:
            with transaction.atomic():
                row = ScoreSheetEnd.objects.create(
                    sheet=sheet,
                    version=version,
                    left=typed,
                    went_out=went_out,
                    entered_by=user_of(actor),
                    registration_id=registration_of(actor),
                    reason=reason.strip()[:200],
                )
        except IntegrityError as error:
            raise ServiceError("score_sheet.race", "The sheet changed meanwhile.") from error
        audit_record(
            actor=actor,
            action="score_sheet.end",
            obj=row,
            sheet=sheet.pk,
            version=version,
            left=typed,
            went_out=went_out,
            reason=row.reason,
        )
        return row
