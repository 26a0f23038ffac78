"""Classic tournaments on the site: the services (formula, divisions, pairing, results,
versions, constraints) and the console pages, with figures worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import (
    ArbiterMembership,
    AuditLog,
    ClassicResult,
    ClassicSeat,
    ClassicTable,
    DivisionEntry,
)
from tournaments.services import classic as svc
from tournaments.services import player_register

pytestmark = pytest.mark.django_db

NAMES = ["Anne", "Bruno", "Chloé", "David", "Emma", "Farid"]


@pytest.fixture
def classic(tournament_setup) -> dict[str, Any]:
    """The fixture tournament made classic (Swiss, 3 rounds), six players in division A in
    seeding order Anne, Bruno, Chloé, David, Emma, Farid."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    for name in NAMES[3:]:
        player_register(tournament_id=t.pk, name=name, actor=head)
    svc.classic_event_create(tournament_id=t.pk, rounds_planned=3, actor=head)
    division = selectors.divisions(t)[0]
    entries = svc.division_entries_add(division_id=division.pk, actor=head)
    by_name = {e.registration.player.name: e for e in entries}
    return {**tournament_setup, "division": division, "entries": by_name}


def _tables(rnd) -> list[tuple[int, str, str | None]]:  # type: ignore[no-untyped-def]
    return [(x.table.number, x.first, x.second) for x in selectors.classic_tables(rnd)]


def _enter(rnd, scores: dict[int, tuple[int, int]], actor) -> None:  # type: ignore[no-untyped-def]
    for x in selectors.classic_tables(rnd):
        first, second = scores[x.table.number]
        svc.classic_result_enter(
            table_id=x.table.pk, score_first=first, score_second=second, actor=actor
        )


def test_a_swiss_tournament_of_three_rounds(classic) -> None:
    head, division = classic["arbiter"], classic["division"]
    assert [e.registration.player.name for e in selectors.division_entries(division)] == NAMES
    r1 = svc.classic_round_pair(division_id=division.pk, actor=head)
    # Round 1, one score group of six folded: 1-4, 2-5, 3-6; nobody started yet, so the
    # better seeded starts.
    assert _tables(r1) == [(1, "Anne", "David"), (2, "Bruno", "Emma"), (3, "Chloé", "Farid")]
    with pytest.raises(ServiceError) as err:
        svc.classic_round_pair(division_id=division.pk, actor=head)
    assert err.value.code == "classic.round_incomplete"
    _enter(r1, {1: (420, 380), 2: (350, 400), 3: (390, 390)}, head)
    # After round 1: Emma 1 win +50, Anne 1 win +40, Chloé and Farid ½ (0), David 0 −40,
    # Bruno 0 −50.
    standings = selectors.division_standings(division, selectors.classic_event(division.tournament))
    assert [(s.name, s.wins, s.spread) for s in standings] == [
        ("Emma", "1", 50),
        ("Anne", "1", 40),
        ("Chloé", "½", 0),
        ("Farid", "½", 0),
        ("David", "0", -40),
        ("Bruno", "0", -50),
    ]
    assert standings[2].rank == standings[3].rank == 3  # equal on everything: shared
    r2 = svc.classic_round_pair(division_id=division.pk, actor=head)
    # Emma-Anne (the 1-win group), Chloé-Farid met: Chloé floats to David, Farid to Bruno.
    # Who starts: Anne started round 1 and Emma did not: Emma starts. Chloé started, David
    # not: David starts. Farid did not start, Bruno did: Farid starts.
    assert _tables(r2) == [(1, "Emma", "Anne"), (2, "David", "Chloé"), (3, "Farid", "Bruno")]
    _enter(r2, {1: (400, 410), 2: (300, 450), 3: (380, 381)}, head)
    r3 = svc.classic_round_pair(division_id=division.pk, actor=head)
    pairs = [{a, b} for _, a, b in _tables(r3)]
    met = [{a, b} for rnd in (r1, r2) for _, a, b in _tables(rnd)]
    assert all(p not in met for p in pairs) and len(pairs) == 3
    with pytest.raises(ServiceError) as err:
        _enter(r3, {1: (1, 0), 2: (1, 0), 3: (1, 0)}, head)
        svc.classic_round_pair(division_id=division.pk, actor=head)
    assert err.value.code == "classic.rounds_done"
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {
        "classic.create",
        "division.entries_add",
        "classic.round_pair",
        "classic.result",
    } <= actions


def test_a_bye_and_a_forfeit(classic) -> None:
    head, division, e = classic["arbiter"], classic["division"], classic["entries"]
    svc.division_entry_set_active(entry_id=e["Farid"].pk, active=False, actor=head)
    r1 = svc.classic_round_pair(division_id=division.pk, actor=head)
    lines = selectors.classic_tables(r1)
    # Five players, fold 1-3, 2-4 (index 5//2), Emma (lowest, no bye yet) has the bye.
    assert [(x.first, x.second) for x in lines] == [
        ("Anne", "Chloé"),
        ("Bruno", "David"),
        ("Emma", None),
    ]
    with pytest.raises(ServiceError) as err:
        svc.classic_result_enter(
            table_id=lines[2].table.pk, score_first=1, score_second=0, actor=head
        )
    assert err.value.code == "classic.bye_result"
    svc.classic_result_enter(table_id=lines[0].table.pk, forfeit="second", actor=head)
    svc.classic_result_enter(
        table_id=lines[1].table.pk, score_first=300, score_second=300, actor=head
    )
    event = selectors.classic_event(division.tournament)
    rows = {s.name: s for s in selectors.division_standings(division, event)}
    # Forfeit: Anne wins +50, Chloé loses −50; the bye: a win, +50; a tie: ½ each.
    assert (rows["Anne"].wins, rows["Anne"].spread) == ("1", 50)
    assert (rows["Chloé"].wins, rows["Chloé"].spread) == ("0", -50)
    assert (rows["Emma"].wins, rows["Emma"].spread, rows["Emma"].byes) == ("1", 50, 1)
    assert rows["Bruno"].wins == rows["David"].wins == "½"
    assert rows["Farid"].games == 0 and not rows["Farid"].active


def test_results_are_versions_and_a_correction_needs_its_reason(classic) -> None:
    head, division = classic["arbiter"], classic["division"]
    r1 = svc.classic_round_pair(division_id=division.pk, actor=head)
    table = selectors.classic_tables(r1)[0].table
    svc.classic_result_enter(table_id=table.pk, score_first=400, score_second=300, actor=head)
    with pytest.raises(ServiceError) as err:
        svc.classic_result_enter(table_id=table.pk, score_first=300, score_second=400, actor=head)
    assert err.value.code == "classic.reason_required"
    svc.classic_result_enter(
        table_id=table.pk, score_first=300, score_second=400, reason="scores inversés", actor=head
    )
    versions = list(ClassicResult.objects.filter(table=table).order_by("version"))
    assert [(v.version, v.score_first, v.entered_by) for v in versions] == [
        (1, 400, head),
        (2, 300, head),
    ]
    line = selectors.classic_tables(r1)[0]
    assert line.versions == 2 and line.result.score_second == 400


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"score_first": 400}, "classic.scores_missing"),
        ({"score_first": 400, "score_second": 9000}, "classic.score_range"),
        ({"forfeit": "first", "score_first": 1}, "classic.forfeit_scores"),
        ({"forfeit": "both"}, "classic.forfeit"),
    ],
)
def test_bad_results_are_refused(classic, kwargs, code) -> None:
    head = classic["arbiter"]
    r1 = svc.classic_round_pair(division_id=classic["division"].pk, actor=head)
    table = selectors.classic_tables(r1)[0].table
    with pytest.raises(ServiceError) as err:
        svc.classic_result_enter(table_id=table.pk, actor=head, **kwargs)
    assert err.value.code == code
    assert not ClassicResult.objects.exists()


def test_the_database_refuses_a_player_twice_in_a_round_and_a_result_without_scores(
    classic,
) -> None:
    r1 = svc.classic_round_pair(division_id=classic["division"].pk, actor=classic["arbiter"])
    seat = ClassicSeat.objects.filter(round=r1).first()
    other = ClassicTable.objects.filter(round=r1).exclude(pk=seat.table_id).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        ClassicSeat.objects.create(round=r1, entry=seat.entry, table=other)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClassicResult.objects.create(table=other, version=1, score_first=1, source="arbiter")
    with pytest.raises(IntegrityError), transaction.atomic():
        DivisionEntry.objects.create(
            division=classic["division"], registration=seat.entry.registration, seed=99
        )


def test_rights_pairing_is_the_head_arbiters_results_any_arbiters(
    classic, django_user_model
) -> None:
    t, division = classic["tournament"], classic["division"]
    helper = django_user_model.objects.create_user("aide", password="x")
    ArbiterMembership.objects.create(user=helper, tournament=t, role="arbiter")
    with pytest.raises(ServiceError) as err:
        svc.classic_round_pair(division_id=division.pk, actor=helper)
    assert err.value.code == "access.head_arbiter"
    r1 = svc.classic_round_pair(division_id=division.pk, actor=SYSTEM)
    table = selectors.classic_tables(r1)[0].table
    svc.classic_result_enter(table_id=table.pk, score_first=1, score_second=0, actor=helper)
    outsider = django_user_model.objects.create_user("passant", password="x")
    with pytest.raises(ServiceError) as err:
        svc.classic_result_enter(
            table_id=table.pk, score_first=1, score_second=0, reason="x", actor=outsider
        )
    assert err.value.code == "access.arbiter"


def test_manual_pairing_and_unpairing(classic) -> None:
    head, division, e = classic["arbiter"], classic["division"], classic["entries"]
    manual = [
        (e["Anne"].pk, e["Bruno"].pk),
        (e["Chloé"].pk, e["David"].pk),
        (e["Emma"].pk, e["Farid"].pk),
    ]
    r1 = svc.classic_round_pair(division_id=division.pk, manual=manual, actor=head)
    assert r1.system == "manual"
    assert [(a, b) for _, a, b in _tables(r1)] == [
        ("Anne", "Bruno"),
        ("Chloé", "David"),
        ("Emma", "Farid"),
    ]
    with pytest.raises(ServiceError) as err:
        svc.classic_round_pair(division_id=division.pk, manual=manual[:2], actor=head)
    assert err.value.code in ("pairing.manual", "classic.round_incomplete")
    svc.classic_round_unpair(round_id=r1.pk, actor=head)
    assert not selectors.classic_rounds(division)
    bad = [(e["Anne"].pk, e["Bruno"].pk), (e["Chloé"].pk, None)]
    with pytest.raises(ServiceError) as err:
        svc.classic_round_pair(division_id=division.pk, manual=bad, actor=head)
    assert err.value.code == "pairing.manual"


def test_a_tournament_with_duplicate_games_cannot_become_classic(tournament_setup) -> None:
    from tests.scenario import new_game

    new_game(tournament_setup)
    with pytest.raises(ServiceError) as err:
        svc.classic_event_create(
            tournament_id=tournament_setup["tournament"].pk, actor=tournament_setup["arbiter"]
        )
    assert err.value.code == "classic.has_games"


def test_settings_are_checked_and_audited(classic) -> None:
    t, head = classic["tournament"], classic["arbiter"]
    svc.classic_event_update(
        tournament_id=t.pk,
        pairing_system="initial_fontes",
        fontes_rounds=3,
        tie_breaks=["points", "head_to_head"],
        actor=head,
    )
    event = selectors.classic_event(t)
    assert (event.pairing_system, event.tie_breaks) == ("initial_fontes", "points,head_to_head")
    for changes, code in [
        ({"fontes_rounds": 2}, "pairing.fontes_rounds"),
        ({"bye_spread": 5000}, "classic.setting_range"),
        ({"tie_breaks": ["coin"]}, "settings.tie_breaks"),
        ({"colour": 1}, "classic.setting_unknown"),
    ]:
        with pytest.raises(ServiceError) as err:
            svc.classic_event_update(tournament_id=t.pk, actor=head, **changes)
        assert err.value.code == code
    row = AuditLog.objects.filter(action="classic.update").get()
    assert row.payload["before"]["pairing_system"] == "swiss"


# --- The console -----------------------------------------------------------------------


@pytest.fixture
def logged(client, classic) -> dict[str, Any]:
    client.force_login(classic["arbiter"])
    return {**classic, "client": client}


def test_console_pairs_a_round_and_takes_results_line_by_line(logged) -> None:
    client, t = logged["client"], logged["tournament"]
    page = client.get(reverse("classic:event", args=[t.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Division A" in body and "Apparier la ronde 1" in body and "système suisse" in body
    response = client.post(
        reverse("classic:event", args=[t.slug]), {"action": "pair", "division": "1"}
    )
    url = reverse("classic:round", args=[t.slug, 1, 1])
    assert response.status_code == 302 and response["Location"] == url
    body = client.get(url).content.decode()
    assert "Anne" in body and "David" in body and "en attente" in body
    assert client.post(url, {"line": "1 420 380"}).status_code == 302
    assert client.post(url, {"line": "2 forfait 2"}).status_code == 302
    bad = client.post(url, {"line": "2 zéro"})
    assert bad.status_code == 400 and "Ligne illisible" in bad.content.decode()
    again = client.post(url, {"line": "1 400 380"})
    assert again.status_code == 400 and "motif" in again.content.decode()
    assert 'value="1 400 380"' in again.content.decode()  # what was typed is kept
    assert client.post(url, {"line": "1 400 380", "reason": "erreur"}).status_code == 302
    unknown = client.post(url, {"line": "9 1 0"})
    assert unknown.status_code == 404
    body = client.get(url).content.decode()
    assert "400 – 380" in body and "forfait du second" in body and "v2" in body
    early = client.post(
        reverse("classic:event", args=[t.slug]), {"action": "pair", "division": "1"}
    )
    assert early.status_code == 409 and "Il manque des résultats" in early.content.decode()


def test_console_makes_a_tournament_classic_and_changes_settings(client, tournament_setup) -> None:
    t = tournament_setup["tournament"]
    client.force_login(tournament_setup["arbiter"])
    url = reverse("classic:event", args=[t.slug])
    assert "Passer en formule classique" in client.get(url).content.decode()
    response = client.post(
        url, {"action": "create", "pairing_system": "round_robin", "rounds_planned": "3"}
    )
    assert response.status_code == 302
    assert selectors.classic_event(t).pairing_system == "round_robin"
    assert client.post(url, {"action": "fill", "division": "1"}).status_code == 302
    assert len(selectors.division_entries(selectors.divisions(t)[0])) == 3
    settings = {
        "action": "settings",
        "pairing_system": "swiss",
        "rounds_planned": "5",
        "fontes_rounds": "4",
        "bye_halves": "2",
        "bye_spread": "50",
        "forfeit_spread": "50",
        "tie_break_1": "points",
        "seed": "0",
    }
    refused = client.post(url, settings)
    assert refused.status_code == 400 and "nombre impair" in refused.content.decode()
    assert client.post(url, {**settings, "fontes_rounds": "3"}).status_code == 302
    assert selectors.classic_event(t).tie_breaks == "points"
    assert client.post(url, {"action": "division", "name": "B"}).status_code == 302
    assert [d.name for d in selectors.divisions(t)] == ["A", "B"]


def test_console_classic_pages_are_for_arbiters(client, classic, django_user_model) -> None:
    t = classic["tournament"]
    outsider = django_user_model.objects.create_user("passant", password="x")
    client.force_login(outsider)
    assert client.get(reverse("classic:event", args=[t.slug])).status_code == 403
    client.logout()
    assert client.get(reverse("classic:event", args=[t.slug])).status_code == 302  # login


# --- Results on the players' tablets -----------------------------------------------------


def _token(classic, name: str) -> str:  # type: ignore[no-untyped-def]
    from tournaments.services import registration_token_issue

    reg = classic["entries"][name].registration
    return registration_token_issue(registration_id=reg.pk, actor=classic["arbiter"])


def _report(client, token: str, mine: str, theirs: str, status: int = 302):  # type: ignore[no-untyped-def]
    url = reverse("classic_tablet:page", args=[token])
    response = client.post(url, {"mine": mine, "theirs": theirs})
    assert response.status_code == status, response.content.decode()
    return client.get(url).content.decode()


def test_both_players_report_and_the_second_confirms(client, classic) -> None:
    r1 = svc.classic_round_pair(division_id=classic["division"].pk, actor=classic["arbiter"])
    anne, david = _token(classic, "Anne"), _token(classic, "David")
    page = client.get(reverse("classic_tablet:page", args=[anne])).content.decode()
    assert "Adversaire : David" in page and "vous commencez" in page
    body = _report(client, anne, "420", "380")
    assert "votre adversaire doit le confirmer" in body
    assert (
        "saisissez-le à votre tour"
        in client.get(reverse("classic_tablet:page", args=[david])).content.decode()
    )
    body = _report(client, david, "380", "420")  # David's own score first
    assert "Résultat enregistré" in body and "380 – 420" in body
    result = ClassicResult.objects.get(table__round=r1, table__number=1)
    assert (result.score_first, result.score_second, result.source) == (420, 380, "tablet")
    assert result.entered_by is None
    assert AuditLog.objects.filter(action="classic.report", actor_kind="player").count() == 2
    again = client.post(reverse("classic_tablet:page", args=[anne]), {"mine": "1", "theirs": "0"})
    assert again.status_code == 409  # recorded: only an arbiter corrects it now


def test_a_mismatch_goes_to_the_arbiter(client, classic) -> None:
    r1 = svc.classic_round_pair(division_id=classic["division"].pk, actor=classic["arbiter"])
    bruno, emma = _token(classic, "Bruno"), _token(classic, "Emma")
    _report(client, bruno, "350", "400")
    body = _report(client, emma, "410", "350")  # Emma says 410, Bruno said she had 400
    assert "autre résultat" in body
    line = [x for x in selectors.classic_tables(r1) if x.table.number == 2][0]
    assert line.mismatch and line.result is None
    client.force_login(classic["arbiter"])
    page = client.get(reverse("classic:round", args=[classic["tournament"].slug, 1, 1]))
    assert "désaccord des tablettes" in page.content.decode()
    svc.classic_result_enter(
        table_id=line.table.pk, score_first=350, score_second=400, actor=classic["arbiter"]
    )
    assert not [x for x in selectors.classic_tables(r1) if x.mismatch]


def test_a_tablet_reports_only_its_own_table(client, classic) -> None:
    svc.classic_round_pair(division_id=classic["division"].pk, actor=classic["arbiter"])
    anne = _token(classic, "Anne")
    bad = client.post(reverse("classic_tablet:page", args=[anne]), {"mine": "x", "theirs": "1"})
    assert bad.status_code == 400 and "deux joueurs" in bad.content.decode()
    table2 = ClassicTable.objects.get(round__number=1, number=2)
    from tournaments.access import PlayerActor
    from tournaments.services.classic_reports import classic_report_submit

    reg = classic["entries"]["Anne"].registration
    with pytest.raises(ServiceError) as err:
        classic_report_submit(
            table_id=table2.pk, score_mine=1, score_theirs=0, actor=PlayerActor.of(reg)
        )
    assert err.value.code == "access.not_at_table"
    assert client.get(reverse("classic_tablet:page", args=["nope"])).status_code == 404
