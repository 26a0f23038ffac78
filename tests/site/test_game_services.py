"""A duplicate game driven through the services alone (embedded profile, SQLite)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import AuditLog, ProposalVersion, Round
from tournaments.models.choices import RoundState
from tournaments.selectors import game_standings, tournament_standings
from tournaments.services import (
    game_create,
    proposal_correct,
    proposal_submit,
    round_close,
    round_compute_top,
    round_draw,
    round_open,
    round_place_top,
)
from tournaments.tasks import compute_top

pytestmark = pytest.mark.django_db

# Seed 7 on the conformance list: the racks and tops every replay must find again.
SEED = 7
EXPECTED = [("ESIUHAN", "H4", "HAINES", 26), ("U+OEE?AF", "G6", "AUlOFEE", 70),
            ("YPUNASE", "13C", "PAYES", 45)]  # fmt: skip


def test_three_round_game_totals_by_hand(tournament_setup) -> None:
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    play = new_game(setup, seed=SEED)
    game = play.game

    def submit(rnd, player, word, ref, score, key):
        return play.propose(rnd, player, word, ref, score, client_key=key)

    # Round 1: Anne and Bruno find the top; Chloé hands in after the deadline.
    r1 = play.open_round()
    assert (r1.rack, r1.number) == ("ESIUHAN", 1)
    assert submit(r1, anne, "HAINES", "H4", 26, "a1").outcome.score == 26
    assert submit(r1, bruno, "HAINES", "H4", 26, "b1").outcome.score == 26
    Round.objects.filter(pk=r1.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    late = submit(r1, chloe, "HAINES", "H4", 26, "c1")
    assert (late.outcome.code, late.outcome.score, late.version.late) == ("zero.late", 0, True)
    play.finish(r1)

    # Round 2: only Anne scores (a solo); Bruno's word is refused; Chloé hands nothing in.
    r2 = play.open_round()
    assert (r2.rack, r2.reliquat) == ("U+OEE?AF", "U")
    assert submit(r2, anne, "AUlOFEE", "G6", 70, "a2").outcome.score == 70
    zero = submit(r2, bruno, "FOUEE", "G6", 20, "b2").outcome
    assert (zero.kind, zero.score) == ("zero", 0)
    play.finish(r2)

    # Round 3: everyone plays the top; no score required, so a wrong one costs nothing.
    r3 = play.open_round()
    assert r3.rack == "YPUNASE"
    for player, key in ((anne, "a3"), (bruno, "b3"), (chloe, "c3")):
        assert submit(r3, player, "PAYES", "13C", 44 if player == bruno else 45, key)
    play.finish(r3)

    rounds = list(game.rounds.order_by("number"))
    assert [(r.rack, r.top["chosen"]["coord"], r.top["chosen"]["word"], r.top_score)
            for r in rounds] == EXPECTED  # fmt: skip
    assert all(r.state == RoundState.CLOSED and r.top_placed_at for r in rounds)
    assert len(rounds[0].top["tied"]) == 2 and rounds[0].top["best"][0]["score"] == 26

    standings = {s.player_id: s for s in game_standings(game)}
    # Anne 26 + 70 + 45 + solo 10 = 151; Bruno 26 + 0 + 45 = 71; Chloé 0 + 0 + 45 = 45.
    assert {p.pk: standings[p.pk].total for p in (anne, bruno, chloe)} == {
        anne.pk: 151, bruno.pk: 71, chloe.pk: 45}  # fmt: skip
    assert [standings[p.pk].rank for p in (anne, bruno, chloe)] == [1, 2, 3]
    assert standings[anne.pk].negatif_text == "+10" and standings[anne.pk].solos == 1
    assert standings[chloe.pk].negatif == 45 - 141
    assert [s.total for s in tournament_standings(setup["tournament"])] == [151, 71, 45]
    actions = list(AuditLog.objects.values_list("action", flat=True))
    assert actions.count("round.draw") == 3 and actions.count("proposal.submit") == 8


def test_two_current_versions_are_refused_by_the_database(tournament_setup) -> None:
    anne = tournament_setup["players"][0]
    rnd = new_game(tournament_setup, seed=SEED).open_round()
    first = proposal_submit(
        round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4", actor=SYSTEM
    )
    twin = first.version
    twin.pk, twin.version = None, 2
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save()
    assert ProposalVersion.objects.filter(round=rnd, is_current=True).count() == 1


def test_same_client_key_returns_the_stored_proposal(tournament_setup) -> None:
    anne = tournament_setup["players"][0]
    rnd = new_game(tournament_setup, seed=SEED).open_round()
    args = dict(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                claimed_score=26, client_key="tablet-1:r1", actor=SYSTEM)  # fmt: skip
    first = proposal_submit(**args)
    again = proposal_submit(**args)
    assert again.replayed and not first.replayed
    assert again.version.pk == first.version.pk and again.outcome.score == 26
    assert ProposalVersion.objects.filter(round=rnd, player=anne).count() == 1
    with pytest.raises(ServiceError) as info:
        proposal_submit(**{**args, "word": "HAIES"})
    assert info.value.code == "proposal.key_reused"


def test_tablet_after_close_is_late_but_the_arbiter_enters_a_slip(tournament_setup) -> None:
    anne, bruno, _ = tournament_setup["players"]
    arbiter = tournament_setup["arbiter"]
    rnd = new_game(tournament_setup, seed=SEED).open_round()
    round_close(round_id=rnd.pk, actor=arbiter)
    tablet = proposal_submit(
        round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4", actor=SYSTEM
    )
    assert tablet.outcome.code == "zero.late"
    slip = proposal_submit(round_id=rnd.pk, player_id=bruno.pk, word="HAINES", reference="H4",
                           source="arbiter", actor=arbiter, ip="10.0.0.7")  # fmt: skip
    assert (slip.outcome.score, slip.version.ip) == (26, "10.0.0.7")
    assert slip.version.entered_by == arbiter


def test_claimed_score_above_the_top_is_a_wrong_score(tournament_setup) -> None:
    # §4.3: not a refusal (that would tell the player the top) but the exact score of the
    # written place, with a warning once scores are required.
    anne = tournament_setup["players"][0]
    rnd = new_game(tournament_setup, seed=SEED).open_round()
    result = proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                             claimed_score=99, actor=SYSTEM)  # fmt: skip
    assert (result.outcome.code, result.outcome.score) == ("ok", 26)  # scores not required
    tournament_setup["tournament"].__class__.objects.update(score_required=True)
    again = proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                            claimed_score=99, actor=SYSTEM)  # fmt: skip
    assert (again.outcome.code, again.outcome.score) == ("warning.score_wrong", 26)
    assert ProposalVersion.objects.filter(claimed_score=99).count() == 2


def test_correction_is_a_new_version_with_its_reason(tournament_setup) -> None:
    anne = tournament_setup["players"][0]
    arbiter = tournament_setup["arbiter"]
    rnd = new_game(tournament_setup, seed=SEED).open_round()
    proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAIES", reference="H4", actor=SYSTEM)
    with pytest.raises(ServiceError, match="why"):
        proposal_correct(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reason=" ",
                         actor=arbiter)  # fmt: skip
    fixed = proposal_correct(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                             reason="Mot mal recopié par la tablette", actor=arbiter)  # fmt: skip
    versions = list(ProposalVersion.objects.filter(round=rnd, player=anne).order_by("version"))
    assert [(v.version, v.is_current, v.source) for v in versions] == [
        (1, False, "tablet"), (2, True, "arbiter")]  # fmt: skip
    assert fixed.outcome.score == 26 and versions[1].reason.startswith("Mot mal")


def test_typed_rack_refused_is_recorded_as_a_rejection(tournament_setup) -> None:
    arbiter = tournament_setup["arbiter"]
    game = game_create(tournament_id=tournament_setup["tournament"].pk, kind="manual", actor=SYSTEM)
    with pytest.raises(ServiceError) as info:
        round_draw(game_id=game.pk, letters="BCDFGHA", actor=arbiter)
    assert info.value.code == "rack.minimum" and "needs 2 vowels" in info.value.message
    game.refresh_from_db()
    assert [d["rejected"] for d in game.pending_draws] == ["minimum"]
    with pytest.raises(ServiceError) as info:
        round_draw(game_id=game.pk, letters="AB1", actor=arbiter)
    assert info.value.code == "rack.character"
    rnd = round_draw(game_id=game.pk, letters="ESIUHAN", actor=arbiter)
    assert rnd.rack == "-ESIUHAN" and rnd.rejections[0]["new"] == "BCDFGHA"
    game.refresh_from_db()
    assert game.pending_draws == []
    assert AuditLog.objects.filter(action="round.rack_rejected").count() == 1


def test_state_order_is_enforced(tournament_setup) -> None:
    arbiter = tournament_setup["arbiter"]
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=SEED, actor=SYSTEM)
    rnd = round_draw(game_id=game.pk, actor=arbiter)
    with pytest.raises(ServiceError) as info:
        round_draw(game_id=game.pk, actor=arbiter)
    assert info.value.code == "draw.pending"
    with pytest.raises(ServiceError) as info:
        round_close(round_id=rnd.pk, actor=arbiter)
    assert info.value.code == "round.not_open"
    round_open(round_id=rnd.pk, actor=arbiter)
    with pytest.raises(ServiceError) as info:
        round_place_top(round_id=rnd.pk, actor=arbiter)
    assert info.value.code == "round.not_closed"
    round_close(round_id=rnd.pk, actor=arbiter)
    round_close(round_id=rnd.pk, actor=arbiter)  # a retried request changes nothing
    assert AuditLog.objects.filter(action="round.close").count() == 1
    with pytest.raises(ServiceError) as info:
        round_place_top(round_id=rnd.pk, coord="8D", word="HAINES", actor=arbiter)
    assert info.value.code == "top.not_allowed"  # T2: the first top is horizontal
    with pytest.raises(ServiceError) as info:
        round_place_top(round_id=rnd.pk, coord="H4", word="HAIES", actor=arbiter)
    assert info.value.code == "top.not_tied"
    placed = round_place_top(round_id=rnd.pk, coord="H4", word="HAINES", actor=arbiter)
    assert placed.chosen_by == "arbiter" and placed.next_reliquat == "U"


def test_compute_top_is_queued_on_commit_and_idempotent(
    tournament_setup, django_capture_on_commit_callbacks, eager_celery
) -> None:
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=SEED, actor=SYSTEM)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        rnd = round_draw(game_id=game.pk, actor=SYSTEM)
    assert len(callbacks) == 1  # the eager task ran
    rnd.refresh_from_db()
    assert rnd.top_score == 26 and rnd.computed_at is not None
    stamp = rnd.computed_at
    assert compute_top(rnd.pk) == 26
    assert round_compute_top(round_id=rnd.pk, actor=SYSTEM).computed_at == stamp
    assert AuditLog.objects.filter(action="round.top_computed").count() == 1
    assert compute_top(rnd.pk + 1000) is None
