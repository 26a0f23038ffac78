"""Issue 15/20: ``tournament_update``, the one way a tournament's settings change after its
creation: head arbiter only, audited old → new, refusing what would alter games already
played, with the ranges also held by the database."""

from __future__ import annotations

import datetime
import gzip
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from engine.lexicon.automaton import build_lexicon_file
from tournaments import wording
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.language import in_tournament_language
from tournaments.models import ArbiterMembership, AuditLog, Tournament
from tournaments.reports.documents import render_document
from tournaments.selectors import tournament_settings_locks
from tournaments.services import (
    game_create,
    lexicon_register,
    round_close,
    round_draw,
    round_open,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _uploads_in_tmp(settings, tmp_path: Path) -> None:
    """Uploaded word lists and the lexicons built from them land in the test's folder."""
    settings.VAR_DIR = tmp_path


@pytest.fixture
def staff(tournament_setup, django_user_model):
    """The fixture's tournament with its head arbiter, an arbiter and an outsider."""
    t = tournament_setup["tournament"]
    second = django_user_model.objects.create_user("second")
    ArbiterMembership.objects.create(user=second, tournament=t, role="arbiter")
    outsider = django_user_model.objects.create_user("dehors")
    return {**tournament_setup, "head": tournament_setup["arbiter"], "second": second,
            "outsider": outsider}  # fmt: skip


@pytest.fixture
def other_lexicon(tmp_path: Path):
    """A second, tiny lexicon (two words) a tournament could switch to."""
    path = tmp_path / "petit.lex"
    build_lexicon_file(["AA", "BU"], path, name="petit", source="test", version="1")
    return lexicon_register(path=path, actor=SYSTEM)


def _refused(code: str, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        tournament_update(**kwargs)
    assert info.value.code == code, info.value
    return info.value


def test_the_head_arbiter_changes_settings_and_each_change_is_audited(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    before = AuditLog.objects.count()
    updated = tournament_update(
        actor=head, tournament_id=t.pk, name="Open de Vichy", starts_on=datetime.date(2026, 12, 5),
        ends_on=datetime.date(2026, 12, 6), solo_value=5, language="en", score_required=False,
    )  # fmt: skip
    assert (updated.name, updated.solo_value, updated.language) == ("Open de Vichy", 5, "en")
    row = AuditLog.objects.get(action="tournament.update")
    assert (row.actor, row.object_type, row.object_id) == (head, "tournament", t.pk)
    # Old → new for what changed only (score_required was already False in the fixture).
    assert row.payload["changes"] == {
        "name": ["Open de test", "Open de Vichy"],
        "starts_on": [None, "2026-12-05"],
        "ends_on": [None, "2026-12-06"],
        "solo_value": [10, 5],
        "language": ["fr", "en"],
    }
    # The same values again change nothing and write nothing.
    tournament_update(actor=head, tournament_id=t.pk, name="Open de Vichy", solo_value=5)
    assert AuditLog.objects.count() == before + 1
    t.refresh_from_db()
    assert t.starts_on == datetime.date(2026, 12, 5)


def test_only_the_head_arbiter_changes_settings(staff) -> None:
    t = staff["tournament"]
    _refused("access.head_arbiter", actor=staff["second"], tournament_id=t.pk, name="X")
    _refused("access.arbiter", actor=staff["outsider"], tournament_id=t.pk, name="X")
    _refused("tournament.unknown", actor=staff["head"], tournament_id=10**9, name="X")
    assert Tournament.objects.get(pk=t.pk).name == "Open de test"
    assert not AuditLog.objects.filter(action="tournament.update").exists()


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"solo_value": 101}, "tournament.range"),
        ({"solo_value": -1}, "tournament.range"),
        ({"solo_min_players": 0}, "tournament.range"),
        ({"seconds_per_move": 0}, "tournament.range"),
        ({"seconds_per_move": 3601}, "tournament.range"),
        ({"warning_penalty_from": 0}, "tournament.range"),
        ({"solo_value": True}, "tournament.range"),  # a bool is not a number of points
        ({"name": "   "}, "tournament.name"),
        ({"language": "de"}, "tournament.language"),
        ({"tie_break": "coin"}, "tournament.tie_break"),
        ({"variant_code": "nope"}, "variant.unknown"),
        ({"lexicon_id": None}, "tournament.lexicon_required"),
        ({"lexicon_id": 10**9}, "lexicon.unknown"),
        ({"starts_on": datetime.date(2026, 12, 6), "ends_on": datetime.date(2026, 12, 5)},
         "tournament.dates"),
        ({"starts_on": "demain"}, "tournament.dates"),
    ],
)  # fmt: skip
def test_values_outside_the_rules_are_refused(staff, changes, code) -> None:
    t = staff["tournament"]
    _refused(code, actor=staff["head"], tournament_id=t.pk, **changes)
    assert not AuditLog.objects.filter(action="tournament.update").exists()


def test_an_end_before_a_stored_start_is_refused(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    tournament_update(actor=head, tournament_id=t.pk, starts_on=datetime.date(2026, 12, 5))
    _refused("tournament.dates", actor=head, tournament_id=t.pk, ends_on=datetime.date(2026, 1, 1))


def test_the_range_refusal_is_worded_in_french(staff) -> None:
    error = _refused("tournament.range", actor=staff["head"], tournament_id=staff["tournament"].pk,
                     solo_value=500)  # fmt: skip
    with translation.override("fr"):
        assert wording.error_text(error) == "Valeur du solo : la valeur va de 0 à 100."


def test_the_database_holds_the_ranges_and_one_head(staff) -> None:
    t = staff["tournament"]
    for bad in (
        {"solo_value": 101},
        {"solo_min_players": 0},
        {"seconds_per_move": 4000},
        {"language": "de"},
        {"warning_penalty_from": 0},
        {"starts_on": datetime.date(2026, 12, 6), "ends_on": datetime.date(2026, 12, 5)},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.filter(pk=t.pk).update(**bad)  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        ArbiterMembership.objects.filter(user=staff["second"]).update(role="head")


def test_a_drawn_round_fixes_lexicon_and_formula_a_closed_one_the_scoring(
    staff, other_lexicon
) -> None:
    t, head = staff["tournament"], staff["head"]
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    # A game without a round: everything may still change.
    assert tournament_settings_locks(t.pk) == {}
    predrawn = game_create(tournament_id=t.pk, kind="predrawn", predrawn="ESIUHAN\n",
                           variant_code="7sur8", actor=head)  # fmt: skip
    tournament_update(actor=head, tournament_id=t.pk, variant_code="blitz")
    tournament_update(actor=head, tournament_id=t.pk, variant_code="joker")
    # The game without a round follows the tournament's formula; the 7-sur-8 one keeps its own.
    game.refresh_from_db()
    predrawn.refresh_from_db()
    assert (game.variant_code, predrawn.variant_code) == ("joker", "7sur8")
    last = AuditLog.objects.filter(action="tournament.update").last()
    assert last.payload == {"changes": {"variant_code": ["blitz", "joker"]}, "games": [1]}
    rnd = round_draw(game_id=game.pk, actor=head)
    error = _refused("tournament.frozen_started", actor=head, tournament_id=t.pk,
                     lexicon_id=other_lexicon.pk)  # fmt: skip
    assert (error.details["game"], error.details["round"]) == (1, 1)
    with translation.override("fr"):
        assert wording.error_text(error) == (
            "Lexique ne peut plus changer : le coup 1 de la partie 1 a déjà été tiré avec ce "
            "réglage."
        )
    _refused("tournament.frozen_started", actor=head, tournament_id=t.pk, variant_code="blitz")
    # Its current value is no change; the scoring may change until a round is closed.
    tournament_update(actor=head, tournament_id=t.pk, lexicon_id=t.lexicon_id, solo_value=8)
    round_open(round_id=rnd.pk, actor=head)
    round_close(round_id=rnd.pk, actor=head, confirm=True)
    for change in (
        {"solo_value": 9},
        {"solo_min_players": 2},
        {"score_required": True},
        {"warning_penalty_from": 3},
        {"tie_break": "last_game_then_last_moves"},
    ):
        _refused("tournament.frozen_closed", actor=head, tournament_id=t.pk, **change)  # fmt: skip
    # The timer counts for rounds opened later; name, language and public rankings any time.
    tournament_update(actor=head, tournament_id=t.pk, seconds_per_move=120, language="en",
                      public_rankings=True, name="Open renommé")  # fmt: skip
    t.refresh_from_db()
    assert (t.solo_value, t.variant_code, t.lexicon_id) == (8, "joker", staff["lexicon"].pk)
    locks = tournament_settings_locks(t.pk)
    # Whether the event is simultaneous is fixed with the draw, too (its centres close rounds).
    assert set(locks) == {"lexicon_id", "variant_code", "simultaneous", "solo_value",
                          "solo_min_players", "score_required", "warning_penalty_from",
                          "tie_break"}  # fmt: skip


def test_printed_documents_speak_the_tournament_language(staff) -> None:
    seen = []

    @in_tournament_language
    def render(kind, tournament):
        seen.append(translation.get_language())

    t = staff["tournament"]
    with translation.override("fr"):
        t.language = "en"
        render("csv", t)
        t.language = "fr"
        render("csv", tournament=t)
    assert seen == ["en", "fr"]
    assert render_document.__wrapped__  # the one renderer of every document is wrapped


def test_a_word_list_upload_is_head_only_and_its_build_runs_once(staff, monkeypatch) -> None:
    from tournaments.models import LexiconBuild
    from tournaments.services import lexicons

    t, head = staff["tournament"], staff["head"]
    for actor, code in (
        (staff["second"], "access.head_arbiter"),
        (staff["outsider"], "access.arbiter"),
    ):
        with pytest.raises(ServiceError) as info:
            lexicons.lexicon_upload(actor=actor, tournament_id=t.pk, name="x", content=b"AA\n")
        assert info.value.code == code  # fmt: skip
    monkeypatch.setattr(lexicons, "MAX_UPLOAD_BYTES", 4)
    with pytest.raises(ServiceError) as info:
        lexicons.lexicon_upload(actor=head, tournament_id=t.pk, name="x", content=b"AAAAA\n")
    assert (info.value.code, info.value.details) == ("lexicon.upload_size", {"limit_mb": 0})
    monkeypatch.undo()
    # A small gzip that would unpack past the limit, and a damaged one, are refused too.
    monkeypatch.setattr(lexicons, "MAX_WORDS_BYTES", 100)
    bomb = gzip.compress(b"AA\n" * 34)  # 102 bytes once unpacked
    cut = gzip.compress(b"AA\n")[:-6]
    refused = ((bomb, "lexicon.upload_size"), (cut, "wordlist.unreadable"),
               (b"\x1f\x8bnot gzip", "wordlist.unreadable"))  # fmt: skip
    for content, code in refused:
        with pytest.raises(ServiceError) as info:
            lexicons.lexicon_upload(actor=head, tournament_id=t.pk, name="x", content=content)
        assert info.value.code == code
    assert lexicons._unpacked_size(gzip.compress(b"AA\n" * 33)) == 99
    assert not LexiconBuild.objects.exists()
    monkeypatch.undo()
    first = lexicons.lexicon_upload(actor=head, tournament_id=t.pk, name="", content=b"bu\naa\n",
                                    filename="club.txt")  # fmt: skip
    assert first.name == "club"  # the file's name when none is given
    done = lexicons.lexicon_build_run(actor=SYSTEM, build_id=first.pk)
    assert (done.state, done.lexicon.word_count) == ("done", 2)
    audits = AuditLog.objects.count()
    assert lexicons.lexicon_build_run(actor=SYSTEM, build_id=first.pk).lexicon == done.lexicon
    assert AuditLog.objects.count() == audits  # a redelivered task does nothing twice
    # The same words again: the lexicon registered first is reused, its file kept.
    second = lexicons.lexicon_upload(actor=head, tournament_id=t.pk, name="Bis",
                                     content=b"AA\nBU\n")  # fmt: skip
    again = lexicons.lexicon_build_run(actor=SYSTEM, build_id=second.pk)
    assert again.lexicon == done.lexicon and Path(done.lexicon.path).is_file()
    assert lexicons.lexicon_build_run(actor=SYSTEM, build_id=10**9) is None


def test_a_club_list_is_offered_only_to_the_tournament_that_uploaded_it(staff, django_user_model):
    from tournaments.selectors import lexicons_offered
    from tournaments.services import lexicons, tournament_create

    t, head = staff["tournament"], staff["head"]
    build = lexicons.lexicon_upload(actor=head, tournament_id=t.pk, name="ODS du club",
                                    content=b"AA\nBU\n")  # fmt: skip
    club = lexicons.lexicon_build_run(actor=SYSTEM, build_id=build.pk).lexicon
    boss = django_user_model.objects.create_superuser("autre-club", password="x")
    other = tournament_create(name="Autre club", slug="autre", lexicon_id=staff["lexicon"].pk,
                              actor=boss)  # fmt: skip
    assert club in lexicons_offered(t.pk)
    assert club not in lexicons_offered(other.pk) and club not in lexicons_offered(None)
    assert staff["lexicon"] in lexicons_offered(other.pk)
    _refused("lexicon.unknown", actor=boss, tournament_id=other.pk, lexicon_id=club.pk)
    with pytest.raises(ServiceError) as info:
        tournament_create(name="X", slug="x", lexicon_id=club.pk, actor=boss)
    assert info.value.code == "lexicon.unknown"
    tournament_update(actor=head, tournament_id=t.pk, lexicon_id=club.pk)
