"""Classic tournaments: the formula chosen, divisions and their players, rounds paired by the
chosen system, results entered per table (docs/classic.md, "Classic tournaments on the
site").

The pairing and the standings are ``engine.classic`` (through ``tournaments.adapter``); these
services keep what was decided. A division's next round is paired only once every table of
the previous one has its result, since Swiss and King of the Hill read the standings.
Results are append-only versions; a correction is a new version with its reason.
Setting up and pairing are the head arbiter's; any arbiter of the tournament enters results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from engine.classic.standings import TIE_BREAKS
from tournaments import adapter, selectors
from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import (
    ClassicEvent,
    ClassicForfeit,
    ClassicResult,
    ClassicRound,
    ClassicSeat,
    ClassicSource,
    ClassicTable,
    Division,
    DivisionEntry,
    PairingSystem,
    Registration,
    Tournament,
)
from tournaments.models.classic import SCORE_MAX, SCORE_MIN
from tournaments.services.audit import audit_record
from tournaments.services.registry import locked_tournament

#: The settings ``classic_event_update`` may change, with their bounds.
_BOUNDS = {
    "fontes_rounds": (1, 15),
    "rounds_planned": (1, 99),
    "bye_halves": (0, 2),
    "bye_spread": (0, 1000),
    "forfeit_spread": (0, 1000),
    "seed": (0, 2**63 - 1),
}


def _event(tournament: Tournament) -> ClassicEvent:
    event = ClassicEvent.objects.filter(tournament=tournament).first()
    if event is None:
        raise ServiceError(
            "classic.not_classic",
            "This tournament is not a classic tournament.",
            tournament=tournament.slug,
        )
    return event


def _check_settings(fields: dict[str, Any]) -> None:
    for name, (low, high) in _BOUNDS.items():
        if name in fields:
            value = fields[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ServiceError(
                    "classic.setting_range",
                    f"{name} is a whole number from {low} to {high}.",
                    field=name,
                    low=low,
                    high=high,
                )
    if "fontes_rounds" in fields and fields["fontes_rounds"] % 2 == 0:
        raise ServiceError("pairing.fontes_rounds", "Initial Fontes pairs an odd number of rounds.")
    if "pairing_system" in fields and fields["pairing_system"] not in PairingSystem.values:
        raise ServiceError("pairing.system", "Unknown pairing system.")
    if "tie_breaks" in fields:
        chosen = [t for t in fields["tie_breaks"] if t]
        if len(set(chosen)) != len(chosen) or any(t not in TIE_BREAKS for t in chosen):
            raise ServiceError("settings.tie_breaks", "Unknown or repeated tie-break.")
        fields["tie_breaks"] = ",".join(chosen)


def classic_event_create(
    *,
    tournament_id: int,
    pairing_system: str = PairingSystem.SWISS,
    rounds_planned: int = 7,
    actor: Actor,
) -> ClassicEvent:
    """Make the tournament a classic one (formula « classique »), with a first division
    « A ». Refused once it has duplicate games: a tournament is of one family."""
    fields: dict[str, Any] = {"pairing_system": pairing_system, "rounds_planned": rounds_planned}
    _check_settings(fields)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        if ClassicEvent.objects.filter(tournament=tournament).exists():
            raise ServiceError("classic.already", "This tournament is already classic.")
        if tournament.games.exists():
            raise ServiceError(
                "classic.has_games", "A tournament with duplicate games cannot become classic."
            )
        event = ClassicEvent.objects.create(tournament=tournament, **fields)
        Division.objects.create(tournament=tournament, number=1, name="A")
        audit_record(actor=actor, action="classic.create", obj=tournament, **fields)
        return event


def classic_event_update(*, tournament_id: int, actor: Actor, **changes: Any) -> ClassicEvent:
    """Change the pairing and standings settings (``pairing_system``, ``fontes_rounds``,
    ``rounds_planned``, ``bye_halves``, ``bye_spread``, ``forfeit_spread``,
    ``tie_breaks`` as a list, ``seed``). Rounds already paired keep their tables; the
    standings are recomputed with the new settings."""
    unknown = set(changes) - {*_BOUNDS, "pairing_system", "tie_breaks"}
    if unknown:
        raise ServiceError("classic.setting_unknown", f"Unknown settings: {sorted(unknown)}.")
    _check_settings(changes)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        event = _event(tournament)
        before = {name: getattr(event, name) for name in changes}
        for name, value in changes.items():
            setattr(event, name, value)
        event.save(update_fields=list(changes))
        audit_record(
            actor=actor, action="classic.update", obj=tournament, before=before, after=changes
        )
        return event


def division_create(*, tournament_id: int, name: str, actor: Actor) -> Division:
    name = name.strip()
    if not name or len(name) > 60:
        raise ServiceError("division.name", "A division needs a name (60 characters at most).")
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        _event(tournament)
        if tournament.divisions.filter(name=name).exists():
            raise ServiceError("division.name_taken", f"The division {name} exists.", name=name)
        number = (tournament.divisions.aggregate(n=Max("number"))["n"] or 0) + 1
        division = Division.objects.create(tournament=tournament, number=number, name=name)
        audit_record(actor=actor, action="division.create", obj=division, name=name)
        return division


def _locked_division(division_id: int) -> Division:
    division = Division.objects.select_for_update().filter(pk=division_id).first()
    if division is None:
        raise ServiceError("division.unknown", f"There is no division {division_id}.")
    return division


def division_entries_add(
    *, division_id: int, registration_ids: Sequence[int] | None = None, actor: Actor
) -> list[DivisionEntry]:
    """Put registered players in the division, at the end of its seeding list, in the
    order given (``None``: every player of the tournament in no division yet, by their
    registration number). A player is in one division only (a database constraint)."""
    with transaction.atomic():
        division = _locked_division(division_id)
        require_arbiter(actor=actor, tournament_id=division.tournament_id, head=True)
        regs = Registration.objects.filter(tournament_id=division.tournament_id)
        if registration_ids is None:
            chosen = list(regs.filter(division_entry__isnull=True).order_by("table_number"))
        else:
            by_id = {r.pk: r for r in regs.filter(pk__in=registration_ids)}
            if len(by_id) != len(set(registration_ids)):
                raise ServiceError("registration.unknown", "A player is not registered here.")
            chosen = [by_id[i] for i in dict.fromkeys(registration_ids)]
            if any(DivisionEntry.objects.filter(registration=r).exists() for r in chosen):
                raise ServiceError("division.player_taken", "A player is already in a division.")
        seed = (division.entries.aggregate(n=Max("seed"))["n"] or 0) + 1
        entries = []
        for i, reg in enumerate(chosen):
            entries.append(
                DivisionEntry.objects.create(division=division, registration=reg, seed=seed + i)
            )
        audit_record(
            actor=actor,
            action="division.entries_add",
            obj=division,
            registrations=[r.pk for r in chosen],
        )
        return entries


def division_entry_set_active(*, entry_id: int, active: bool, actor: Actor) -> DivisionEntry:
    """A player leaves the division (their games stay; they are no longer paired) or
    comes back."""
    with transaction.atomic():
        entry = DivisionEntry.objects.select_for_update().filter(pk=entry_id).first()
        if entry is None:
            raise ServiceError("division_entry.unknown", f"There is no entry {entry_id}.")
        require_arbiter(actor=actor, tournament_id=entry.division.tournament_id, head=True)
        entry.active = bool(active)
        entry.save(update_fields=["active"])
        audit_record(actor=actor, action="division.entry_active", obj=entry, active=entry.active)
        return entry


def classic_round_pair(
    *,
    division_id: int,
    manual: Sequence[tuple[int, int | None]] | None = None,
    system: str | None = None,
    actor: Actor,
) -> ClassicRound:
    """Pair the division's next round with the tournament's system (or ``system`` for this
    round; ``manual`` tables of entry ids for ``manual``). Refused while a table of the
    previous round has no result, or when every planned round is paired."""
    with transaction.atomic():
        division = _locked_division(division_id)
        tournament = division.tournament
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        event = _event(tournament)
        system = system or (PairingSystem.MANUAL if manual is not None else event.pairing_system)
        if system not in PairingSystem.values:
            raise ServiceError("pairing.system", "Unknown pairing system.")
        last = division.rounds.order_by("-number").first()
        number = last.number + 1 if last else 1
        if number > event.rounds_planned:
            raise ServiceError(
                "classic.rounds_done", "Every planned round is paired.", rounds=event.rounds_planned
            )
        if last is not None and selectors.classic_tables_waiting(last):
            raise ServiceError(
                "classic.round_incomplete",
                "A table of the previous round has no result.",
                round=last.number,
            )
        active = [e.pk for e in division.entries.filter(active=True).order_by("seed")]
        results = selectors.classic_engine_results(division)
        tables = adapter.classic_pair(
            system, active, results, round_number=number, event=event, manual=manual
        )
        rnd = ClassicRound.objects.create(
            division=division, number=number, system=system, created_by=user_of(actor)
        )
        for t in tables:
            row = ClassicTable.objects.create(
                round=rnd, number=t.number, first_id=t.first, second_id=t.second
            )
            for entry in (t.first, t.second):
                if entry is not None:
                    ClassicSeat.objects.create(round=rnd, entry_id=entry, table=row)
        audit_record(
            actor=actor,
            action="classic.round_pair",
            obj=rnd,
            division=division.pk,
            number=number,
            system=system,
            tables=[[t.first, t.second] for t in tables],
        )
        return rnd


def classic_round_unpair(*, round_id: int, actor: Actor) -> None:
    """Take back the last round of a division while none of its tables has a result (the
    pairing is redone, say after a late arrival). The audit row keeps its tables."""
    with transaction.atomic():
        rnd = ClassicRound.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None:
            raise ServiceError("classic_round.unknown", f"There is no round {round_id}.")
        division = _locked_division(rnd.division_id)
        require_arbiter(actor=actor, tournament_id=division.tournament_id, head=True)
        if division.rounds.filter(number__gt=rnd.number).exists():
            raise ServiceError("classic.round_not_last", "Only the last round can be taken back.")
        if ClassicResult.objects.filter(table__round=rnd).exists():
            raise ServiceError("classic.round_has_results", "A table of this round has a result.")
        tables = [[t.first_id, t.second_id] for t in rnd.tables.order_by("number")]
        audit_record(
            actor=actor, action="classic.round_unpair", obj=rnd, number=rnd.number, tables=tables
        )
        rnd.delete()


def check_result(score_first: int | None, score_second: int | None, forfeit: str) -> None:
    if forfeit not in ClassicForfeit.values:
        raise ServiceError("classic.forfeit", "The forfeit is the first or the second player's.")
    if forfeit:
        if score_first is not None or score_second is not None:
            raise ServiceError("classic.forfeit_scores", "A forfeit has no scores.")
        return
    for score in (score_first, score_second):
        if score is None or isinstance(score, bool) or not isinstance(score, int):
            raise ServiceError("classic.scores_missing", "Both scores are needed.")
        if not SCORE_MIN <= score <= SCORE_MAX:
            raise ServiceError(
                "classic.score_range", "A score is out of range.", low=SCORE_MIN, high=SCORE_MAX
            )


def classic_result_record(
    *,
    table: ClassicTable,
    score_first: int | None,
    score_second: int | None,
    forfeit: str,
    source: str,
    reason: str,
    actor: Actor,
) -> ClassicResult:
    """Append the next version of ``table``'s result (the caller holds the table's lock and
    checked the rights: ``classic_result_enter`` or a tablet confirmation)."""
    if table.second_id is None:
        raise ServiceError("classic.bye_result", "A bye has no result to enter.")
    current = table.results.order_by("-version").first()
    if current is not None and not reason.strip():
        raise ServiceError("classic.reason_required", "A correction needs its reason.")
    version = current.version + 1 if current else 1
    try:
        with transaction.atomic():
            result = ClassicResult.objects.create(
                table=table,
                version=version,
                score_first=score_first,
                score_second=score_second,
                forfeit=forfeit,
                source=source,
                entered_by=user_of(actor),
                reason=reason.strip()[:200],
            )
    except IntegrityError as error:  # another version landed in between
        raise ServiceError("classic.result_race", "The result changed meanwhile.") from error
    audit_record(
        actor=actor,
        action="classic.result",
        obj=result,
        table=table.pk,
        version=version,
        score_first=score_first,
        score_second=score_second,
        forfeit=forfeit,
        source=source,
        reason=result.reason,
    )
    return result


def classic_result_enter(
    *,
    table_id: int,
    score_first: int | None = None,
    score_second: int | None = None,
    forfeit: str = "",
    reason: str = "",
    actor: Actor,
) -> ClassicResult:
    """An arbiter enters a table's result: both players' scores (after the end
    adjustments), or the forfeit of one (``first``/``second``). Entering it again is a
    correction, a new version, which needs its ``reason``."""
    check_result(score_first, score_second, forfeit)
    with transaction.atomic():
        table = ClassicTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ServiceError("classic_table.unknown", f"There is no table {table_id}.")
        tournament_id = table.round.division.tournament_id
        require_arbiter(actor=actor, tournament_id=tournament_id)
        return classic_result_record(
            table=table,
            score_first=score_first,
            score_second=score_second,
            forfeit=forfeit,
            source=ClassicSource.ARBITER,
            reason=reason,
            actor=actor,
        )
