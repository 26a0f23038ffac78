"""Classic score sheets on the site (services, rights, versions, constraints). The figures
are worked out by hand in the comments: letter values and premium squares from page 004
and the rules (§9 A3), the end lines as page 004 describes them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tournaments import selectors
from tournaments.access import PlayerActor
from tournaments.errors import ServiceError, http_status
from tournaments.models import AuditLog, ScoreSheetLine
from tournaments.services import classic as classic_svc
from tournaments.services import player_register
from tournaments.services import score_sheets as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(tournament_setup) -> dict[str, Any]:
    """The fixture tournament made classic with four players (Anne, Bruno, Chloé, David),
    round 1 paired: table 1 Anne (starts) against Chloé, table 2 Bruno against David."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    player_register(tournament_id=t.pk, name="David", actor=head)
    classic_svc.classic_event_create(tournament_id=t.pk, rounds_planned=3, actor=head)
    division = selectors.divisions(t)[0]
    classic_svc.division_entries_add(division_id=division.pk, actor=head)
    rnd = classic_svc.classic_round_pair(division_id=division.pk, actor=head)
    tables = {x.table.number: x for x in selectors.classic_tables(rnd)}
    return {**tournament_setup, "tables": tables}


def _actor(table_line, first: bool) -> PlayerActor:  # type: ignore[no-untyped-def]
    entry = table_line.table.first if first else table_line.table.second
    return PlayerActor.of(entry.registration)


def test_page_004_example_on_a_stand_alone_sheet(tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    sheet = svc.score_sheet_create(tournament_id=t.pk, names=["Ana", "Ben", "Cal"], actor=head)
    assert sheet.number == 1 and sheet.players == 3
    for score in ("300", "280", "250"):  # bare scores, in playing order
        svc.score_sheet_line_add(sheet_id=sheet.pk, text=score, actor=head)
    # « lettres restantes »: 9 for Ben, 4 for Cal; « partie terminée »: Ana went out and
    # adds 9 + 4 = 13. Totals: Ana 313, Ben 271, Cal 246.
    svc.score_sheet_end_set(sheet_id=sheet.pk, left=["0", "9", "4"], went_out=0, actor=head)
    view = selectors.score_sheet_view(sheet)
    assert [(r.name, r.minus, r.plus, r.final, r.rank) for r in view.end_rows] == [
        ("Ana", 0, 13, 313, 1),
        ("Ben", 9, 0, 271, 2),
        ("Cal", 4, 0, 246, 3),
    ]
    with pytest.raises(ServiceError) as err:  # the game is over: no new line
        svc.score_sheet_line_add(sheet_id=sheet.pk, text="12", actor=head)
    assert err.value.code == "score_sheet.over" and http_status(err.value.code) == 409


def test_the_players_of_a_table_fill_its_sheet_with_moves(paired) -> None:
    table = paired["tables"][1]
    anne, chloe = _actor(table, True), _actor(table, False)
    sheet = svc.score_sheet_open_for_table(table_id=table.table.pk, actor=chloe)
    assert sheet.names == ["Anne", "Chloé"]  # the first player starts
    assert svc.score_sheet_open_for_table(table_id=table.table.pk, actor=anne).pk == sheet.pk
    # Anne: H8 CHAT = (C 3 + H 4 + A 1 + T 1) x 2 (the star) = 18.
    line = svc.score_sheet_line_add(sheet_id=sheet.pk, text="h8 CHAT", actor=anne)
    assert (line.coord, line.word, line.score) == ("H8", "CHAT", 18)
    # Chloé: 9H HARPe = H 4 (on the board) + A 1 x 2 (I9, double letter) + R 1 + P 3 + a
    # joker as E 0 = 10.
    line = svc.score_sheet_line_add(sheet_id=sheet.pk, text="9H HARPe", actor=chloe)
    assert (line.word, line.score, line.registration_id) == ("HARPe", 10, chloe.registration_id)
    view = selectors.score_sheet_view(sheet)
    assert [r.totals for r in view.rows] == [(18, 0), (18, 10)]
    assert view.next_name == "Anne"
    # 102 tiles - 8 on the board = 94 not played; Anne's rack EEE leaves 91 unseen.
    assert len(view.state.not_played) == 94 and len(view.state.unseen("EEE")) == 91
    # A player of another table may neither open nor fill this sheet.
    other = _actor(paired["tables"][2], True)
    for call in (
        lambda: svc.score_sheet_open_for_table(table_id=table.table.pk, actor=other),
        lambda: svc.score_sheet_line_add(sheet_id=sheet.pk, text="12", actor=other),
    ):
        with pytest.raises(ServiceError) as err:
            call()
        assert err.value.code == "access.not_at_table" and http_status(err.value.code) == 403


def test_a_correction_is_a_new_version_with_its_reason(paired) -> None:
    head, table = paired["arbiter"], paired["tables"][1]
    sheet = svc.score_sheet_open_for_table(table_id=table.table.pk, actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="H8 CHAT", actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="9H HARPe", actor=head)
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_line_correct(sheet_id=sheet.pk, number=1, text="H8 CHATS", reason=" ",
                                     actor=head)  # fmt: skip
    assert err.value.code == "score_sheet.reason_required"
    # CHATS at H8: the S lands on H12, a double letter: (3 + 4 + 1 + 1 + 1 x 2) x 2 = 22;
    # HARPe unchanged (10).
    svc.score_sheet_line_correct(sheet_id=sheet.pk, number=1, text="H8 CHATS", reason="S oublié",
                                 actor=head)  # fmt: skip
    view = selectors.score_sheet_view(sheet)
    assert [(r.score, r.versions) for r in view.rows] == [(22, 2), (10, 1)]
    assert view.state.totals == (22, 10)
    assert [(c.number, c.before, c.after, c.reason) for c in view.history] == [
        (1, "H8 CHAT", "H8 CHATS", "S oublié")
    ]
    assert ScoreSheetLine.objects.filter(sheet=sheet).count() == 3  # nothing overwritten
    # CHAT moved to H6 puts its T on H9, where HARPe (line 2) needs its H: refused, with
    # the line it breaks named, and nothing stored.
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_line_correct(sheet_id=sheet.pk, number=1, text="H6 CHAT", reason="x",
                                     actor=head)  # fmt: skip
    assert err.value.code == "score_sheet.breaks_line" and err.value.details["number"] == 2
    assert ScoreSheetLine.objects.filter(sheet=sheet).count() == 3
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"score_sheet.create", "score_sheet.line"} <= actions


def test_bad_input_is_refused_with_a_4xx_and_nothing_saved(paired) -> None:
    head, table = paired["arbiter"], paired["tables"][1]
    sheet = svc.score_sheet_open_for_table(table_id=table.table.pk, actor=head)
    refusals = {
        "": "sheet.empty",
        "H8": "sheet.line",
        "99999": "sheet.score_range",
        "Z9 CHAT": "reference.row",
        "A1 CHAT": "move.first_not_centre",
    }
    for text, code in refusals.items():
        with pytest.raises(ServiceError) as err:
            svc.score_sheet_line_add(sheet_id=sheet.pk, text=text, actor=head)
        assert err.value.code == code and 400 <= http_status(code) < 500, text
    assert not ScoreSheetLine.objects.filter(sheet=sheet).exists()
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_end_set(sheet_id=sheet.pk, left=["0", "3"], went_out=0, actor=head)
    assert err.value.code == "score_sheet.no_line"
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_create(tournament_id=paired["tournament"].pk, names=["Solo"], actor=head)
    assert err.value.code == "score_sheet.players"


def test_the_tie_setting_and_the_blocked_game(tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    sheet = svc.score_sheet_create(tournament_id=t.pk, names=["Ana", "Ben"], actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="200", actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="208", actor=head)
    # Blocked: nobody adds. Ana keeps A E (2, two tiles): 198; Ben keeps K (10, one): 198.
    svc.score_sheet_end_set(sheet_id=sheet.pk, left=["AE", "K"], went_out=None, actor=head)
    view = selectors.score_sheet_view(sheet)
    assert [(r.final, r.rank) for r in view.end_rows] == [(198, 1), (198, 1)]  # ex aequo
    svc.score_sheet_update(sheet_id=sheet.pk, tie_break="fewest_tiles", actor=head)
    sheet.refresh_from_db()
    assert [r.rank for r in selectors.score_sheet_view(sheet).end_rows] == [2, 1]
    # Correcting the end to bare values is refused under fewest tiles; with a reason.
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_end_set(sheet_id=sheet.pk, left=["2", "10"], went_out=None, actor=head)
    assert err.value.code == "score_sheet.reason_required"
    with pytest.raises(ServiceError) as err:
        svc.score_sheet_end_set(sheet_id=sheet.pk, left=["2", "10"], went_out=None,
                                reason="valeurs", actor=head)  # fmt: skip
    assert err.value.code == "sheet.letters_needed"


def test_the_database_keeps_lines_whole(tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    sheet = svc.score_sheet_create(tournament_id=t.pk, names=["Ana", "Ben"], actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="12", actor=head)
    bad = [
        {"number": 1, "version": 1, "kind": "score", "score": 5},  # version taken
        {"number": 2, "version": 1, "kind": "move", "score": 5},  # a move without its word
        {"number": 2, "version": 1, "kind": "pass", "score": 5},  # a pass scores 0
    ]
    for fields in bad:
        with pytest.raises(IntegrityError), transaction.atomic():
            ScoreSheetLine.objects.create(sheet=sheet, **fields)


def test_a_round_taken_back_leaves_its_sheets_stand_alone(paired) -> None:
    head, table = paired["arbiter"], paired["tables"][1]
    sheet = svc.score_sheet_open_for_table(table_id=table.table.pk, actor=head)
    svc.score_sheet_line_add(sheet_id=sheet.pk, text="H8 CHAT", actor=head)
    classic_svc.classic_round_unpair(round_id=table.table.round_id, actor=head)
    sheet.refresh_from_db()
    assert sheet.table_id is None and sheet.names == ["Anne", "Chloé"]
    assert selectors.score_sheet_view(sheet).state.totals == (18, 0)  # nothing lost
