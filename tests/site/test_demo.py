"""``tournaments.services.demo_create``: the demo tournament ``make run`` opens on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db.models import F

from tournaments.access import SYSTEM
from tournaments.models import (
    ArbiterMembership,
    AuditLog,
    Game,
    ProposalVersion,
    Registration,
    Round,
    Tournament,
)
from tournaments.selectors import game_standings
from tournaments.services import demo_create
from tournaments.services.demo import DEMO_SEED, PLAYED_ROUNDS, PLAYERS

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    models = (Tournament, Registration, Game, Round, ProposalVersion, AuditLog)
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def arbiter(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("arbitre", password="arbitre")


@pytest.fixture
def demo(conformance_lexicon_file: Path, arbiter: Any) -> Tournament:
    return demo_create(lexicon_path_or_lexicon=conformance_lexicon_file, actor=arbiter)


def test_twenty_players_at_tables_with_tablet_tokens(demo: Tournament) -> None:
    assert (demo.slug, demo.name) == ("demo", "Tournoi de démonstration")
    regs = list(demo.registrations.select_related("player").order_by("table_number"))
    assert len(regs) == len(PLAYERS) == 20
    assert [r.table_number for r in regs] == list(range(1, 21))
    assert all(r.access_token for r in regs)
    assert len({r.access_token for r in regs}) == 20
    players = [r.player for r in regs]
    assert all(p.name and p.club and p.licence and p.series for p in players)
    assert len({p.licence for p in players}) == 20
    categories = {p.category for p in players}
    assert {"Vermeil", "Diamant", "Junior", ""} <= categories
    assert {"2A", "3B", "4C", "5A", "6B", "7"} == {p.series for p in players}


def test_the_arbiter_directs_on_the_free_lexicon(demo: Tournament, arbiter: Any) -> None:
    assert ArbiterMembership.objects.get(tournament=demo, user=arbiter).role == "head"
    assert not demo.lexicon.official
    assert "liste libre et non officielle" in demo.lexicon.label
    assert demo.lexicon.label in demo.description


def test_one_game_four_rounds_placed_and_the_fifth_drawn(demo: Tournament) -> None:
    game = demo.games.get()
    assert (game.number, game.kind, game.seed, game.state) == (1, "seeded", DEMO_SEED, "playing")
    rounds = list(game.rounds.order_by("number"))
    assert [r.number for r in rounds] == list(range(1, PLAYED_ROUNDS + 2))
    for rnd in rounds[:PLAYED_ROUNDS]:
        assert rnd.state == "closed" and rnd.top_placed_at is not None and rnd.top_score
        assert rnd.top["best"], "the sous-tops the players' moves were taken from"
    last = rounds[-1]
    assert last.state == "drawn" and last.opened_at is None and last.deadline is None
    assert last.top is not None and last.top_score is not None and last.top_placed_at is None


def test_proposals_come_through_the_service_with_varied_outcomes(demo: Tournament) -> None:
    versions = ProposalVersion.objects.filter(round__game__tournament=demo)
    assert versions.count() == AuditLog.objects.filter(action="proposal.submit").count()
    assert {v.source for v in versions} == {"tablet"}
    assert not versions.filter(round__number=PLAYED_ROUNDS + 1).exists()
    per_round = {n: versions.filter(round__number=n).count() for n in range(1, PLAYED_ROUNDS + 1)}
    assert all(15 <= n <= 20 for n in per_round.values()), per_round
    assert sum(per_round.values()) < 20 * PLAYED_ROUNDS, "some slips are missing"
    tops = versions.filter(outcome_score=F("round__top_score")).count()
    assert 0 < tops < versions.count(), "some players play the top, others do not"
    for action in ("round.draw", "round.open", "round.close", "round.place_top"):
        assert AuditLog.objects.filter(action=action).exists(), action
    assert AuditLog.objects.filter(action="registration.token_issue").count() == 20


def test_totals_are_consistent(demo: Tournament) -> None:
    game = demo.games.get()
    standings = game_standings(game)
    assert len(standings) == 20
    top_total = sum(r.top_score for r in game.rounds.filter(state="closed"))
    for s in standings:
        assert s.total <= top_total + s.solos * demo.solo_value, s
    assert standings[0].total >= standings[-1].total
    assert any(s.total < top_total for s in standings)


def test_second_call_changes_nothing(
    demo: Tournament, conformance_lexicon_file: Path, arbiter: Any
) -> None:
    before = counts()
    again = demo_create(lexicon_path_or_lexicon=conformance_lexicon_file, actor=arbiter)
    assert again.pk == demo.pk
    assert counts() == before


def test_a_lexicon_row_and_no_actor_work_too(conformance_lexicon_file: Path) -> None:
    from tournaments.services import lexicon_register

    lexicon = lexicon_register(path=conformance_lexicon_file, actor=SYSTEM)
    demo = demo_create(lexicon_path_or_lexicon=lexicon, actor=SYSTEM)
    assert demo.lexicon_id == lexicon.pk
    assert not ArbiterMembership.objects.filter(tournament=demo).exists()
    assert demo.registrations.count() == 20
