"""Issue 5 services: access guards, tournaments, arbiters, players, imports, tokens."""

from __future__ import annotations

import io

import openpyxl
import pytest

from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, AuditLog, Player, Registration
from tournaments.selectors import game_standings, registration_by_token
from tournaments.services import (
    arbiter_add,
    game_create,
    player_register,
    players_import,
    proposal_correct,
    proposal_submit,
    registration_arrive,
    registration_token_issue,
    registration_token_revoke,
    round_close,
    round_draw,
    round_open,
    round_place_top,
    tournament_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(tournament_setup, django_user_model):
    """The fixture's tournament with a head arbiter, an arbiter and an outsider."""
    t = tournament_setup["tournament"]
    head = tournament_setup["arbiter"]
    ArbiterMembership.objects.update_or_create(user=head, tournament=t, defaults={"role": "head"})
    arbiter = django_user_model.objects.create_user("arbitre-2")
    ArbiterMembership.objects.create(user=arbiter, tournament=t, role="arbiter")
    outsider = django_user_model.objects.create_user("dehors")
    return {**tournament_setup, "head": head, "second": arbiter, "outsider": outsider}


def test_game_flow_needs_the_head_arbiter(staff) -> None:
    t, head, second, outsider = (
        staff["tournament"],
        staff["head"],
        staff["second"],
        staff["outsider"],
    )
    with pytest.raises(ServiceError) as info:
        game_create(tournament_id=t.pk, seed=7, actor=outsider)
    assert info.value.code == "access.arbiter"
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    for actor, code in ((outsider, "access.arbiter"), (second, "access.head_arbiter")):
        with pytest.raises(ServiceError) as info:
            round_draw(game_id=game.pk, actor=actor)
        assert info.value.code == code
    rnd = round_draw(game_id=game.pk, actor=head)
    with pytest.raises(ServiceError) as info:
        round_open(round_id=rnd.pk, actor=second)
    assert info.value.code == "access.head_arbiter"
    round_open(round_id=rnd.pk, actor=head)
    anne = staff["players"][0]
    # Any arbiter enters slips and corrects; an outsider does neither.
    with pytest.raises(ServiceError) as info:
        proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                        source="arbiter", actor=outsider)  # fmt: skip
    assert info.value.code == "access.arbiter"
    proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                    source="arbiter", actor=second)  # fmt: skip
    with pytest.raises(ServiceError):
        proposal_correct(round_id=rnd.pk, player_id=anne.pk, word="HAIES", reason="x",
                         actor=outsider)  # fmt: skip
    for service, extra in ((round_close, {"confirm": True}), (round_place_top, {})):
        with pytest.raises(ServiceError) as info:
            service(round_id=rnd.pk, actor=second, **extra)
        assert info.value.code == "access.head_arbiter"
        service(round_id=rnd.pk, actor=head, **extra)


def test_tournament_create_makes_the_creator_head(django_user_model, tournament_setup) -> None:
    boss = django_user_model.objects.create_superuser("boss", password="x")
    nobody = django_user_model.objects.create_user("nobody")
    lex = tournament_setup["lexicon"].pk
    with pytest.raises(ServiceError) as info:
        tournament_create(name="Open", slug="open", lexicon_id=lex, actor=nobody)
    assert info.value.code == "access.create"
    t = tournament_create(name="Open de Vichy", slug="vichy", variant_code="blitz",
                          solo_min_players=3, lexicon_id=lex, actor=boss)  # fmt: skip
    assert (t.variant_code, t.solo_min_players) == ("blitz", 3)
    assert ArbiterMembership.objects.get(tournament=t, user=boss).role == "head"
    with pytest.raises(ServiceError) as info:
        tournament_create(name="Autre", slug="vichy", lexicon_id=lex, actor=boss)
    assert info.value.code == "tournament.slug_taken"
    with pytest.raises(ServiceError) as info:
        tournament_create(name="X", slug="x", variant_code="nope", lexicon_id=lex, actor=boss)
    assert info.value.code == "variant.unknown"
    # Without a lexicon the first draw would fail: the creation is refused (issue 15).
    with pytest.raises(ServiceError) as info:
        tournament_create(name="X", slug="x", actor=boss)
    assert info.value.code == "tournament.lexicon_required"
    # Head only adds arbiters (tests/site/test_arbiters.py covers the rest).
    arbiter_add(tournament_id=t.pk, login="nobody", actor=boss)
    with pytest.raises(ServiceError) as info:
        arbiter_add(tournament_id=t.pk, login="someone", actor=nobody)
    assert info.value.code == "access.head_arbiter"


def test_player_register_takes_the_next_free_table(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    Registration.objects.filter(tournament=t, table_number=2).delete()
    reg = player_register(tournament_id=t.pk, name="Denis", licence="L-4", club="Vichy",
                          series="3", category="V", birth_year=1950, actor=head)  # fmt: skip
    assert reg.table_number == 2  # the hole left by table 2
    assert player_register(tournament_id=t.pk, name="Eve", actor=head).table_number == 4
    with pytest.raises(ServiceError) as info:
        player_register(tournament_id=t.pk, name="Fanny", table=4, actor=head)
    assert info.value.code == "registration.table_taken"
    with pytest.raises(ServiceError) as info:
        player_register(tournament_id=t.pk, name="Denis bis", licence="L-4", actor=head)
    assert info.value.code == "registration.duplicate"
    with pytest.raises(ServiceError):
        player_register(tournament_id=t.pk, name="Gus", actor=staff["outsider"])


CSV = (
    "Nom;Licence;Club;Série;Catégorie;Année\n"
    "Denis Durand;L-10;Vichy;3;V;1950\n"
    "Émile Martin;L-11;Paris;1A;S;1990\n"
)


def test_csv_import_with_french_headers(staff) -> None:
    t = staff["tournament"]
    result = players_import(tournament_id=t.pk, filename="joueurs.csv",
                            content=("\ufeff" + CSV).encode(), actor=staff["second"])  # fmt: skip
    assert result.created == 2
    assert [(r.player.name, r.table_number) for r in result.registrations] == [
        ("Denis Durand", 4), ("Émile Martin", 5)]  # fmt: skip
    emile = Player.objects.get(licence="L-11")
    assert (emile.series, emile.category, emile.birth_year) == ("1A", "S", 1990)
    assert AuditLog.objects.filter(action="players.import").count() == 1


def test_csv_import_is_all_or_nothing_with_row_errors(staff) -> None:
    t = staff["tournament"]
    content = b"name,licence,club,table\nA,L-1,X,\nB,L-2,X,9\n,L-3,X,\nC,,X,\nD,L-2,X,9\n"
    with pytest.raises(ServiceError) as info:
        players_import(tournament_id=t.pk, filename="p.csv", content=content,
                       actor=staff["head"])  # fmt: skip
    errors = info.value.details["errors"]
    assert info.value.code == "import.rows"
    assert [(e.row, e.code) for e in errors] == [
        (4, "import.name_missing"), (5, "import.licence_missing"),
        (6, "import.licence_twice"), (6, "import.table_taken")]  # fmt: skip
    assert errors[1].message == "ligne 5 : licence manquante"
    assert Registration.objects.filter(tournament=t).count() == 3  # nothing imported


def test_xlsx_import(staff) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Name", "Licence", "Club", "Series", "Category", "Table"])
    sheet.append(["Denis", "L-20", "Vichy", "2", "V", 12])
    sheet.append([None, None, None, None, None, None])
    data = io.BytesIO()
    book.save(data)
    result = players_import(tournament_id=staff["tournament"].pk, filename="j.XLSX",
                            content=data.getvalue(), actor=staff["head"])  # fmt: skip
    assert [(r.player.licence, r.table_number) for r in result.registrations] == [("L-20", 12)]


def test_tokens_issue_reissue_and_revoke(staff) -> None:
    reg = Registration.objects.get(tournament=staff["tournament"], table_number=1)
    first = registration_token_issue(registration_id=reg.pk, actor=staff["head"])
    assert len(first) >= 40 and registration_by_token(first).pk == reg.pk
    second = registration_token_issue(registration_id=reg.pk, actor=staff["second"])
    assert second != first and registration_by_token(first) is None
    registration_token_revoke(registration_id=reg.pk, actor=staff["head"])
    assert registration_by_token(second) is None and registration_by_token("") is None
    assert not AuditLog.objects.filter(payload__icontains=second).exists()
    with pytest.raises(ServiceError):
        registration_token_issue(registration_id=reg.pk, actor=staff["outsider"])


def test_late_arrival_zeroes_earlier_rounds(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    anne, bruno, chloe = staff["players"]
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    for word, ref in (("HAINES", "H4"), ("AUlOFEE", "G6")):
        rnd = round_open(round_id=round_draw(game_id=game.pk, actor=head).pk, actor=head)
        for p in (anne, chloe):
            proposal_submit(round_id=rnd.pk, player_id=p.pk, word=word, reference=ref, actor=SYSTEM)
        round_close(round_id=rnd.pk, actor=head, confirm=True)
        round_place_top(round_id=rnd.pk, actor=head)
    reg = Registration.objects.get(tournament=t, player=chloe)
    registration_arrive(registration_id=reg.pk, game_number=1, round_number=2, actor=head)
    totals = {s.player_id: s.total for s in game_standings(game)}
    # Anne 26 + 70, plus round 1's solo (26 against Bruno's 0; Chloé not arrived yet):
    # the game has 3 players, the fixture's solo threshold (§4.6, issue 12) -> +10.
    # Chloé arrived for round 2: 0 + 70; Bruno nothing.
    assert (totals[anne.pk], totals[chloe.pk], totals[bruno.pk]) == (106, 70, 0)
