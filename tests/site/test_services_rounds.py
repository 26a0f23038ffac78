"""Issue 5: cancelled rounds, stopped games, slip conflicts, recomputation and batches."""

from __future__ import annotations

import pytest

from engine.duplicate import Game as EngineGame
from engine.duplicate import SeededSource, engine_top_finder, get_variant
from engine.lexicon.automaton import Lexicon as EngineLexicon
from tests.scenario import scenario_of
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, AuditLog, BatchJob, ProposalVersion, Round
from tournaments.selectors import batch_progress, game_standings, missing_slips, open_conflicts
from tournaments.services import (
    conflict_resolve,
    game_create,
    game_create_from_prepared,
    game_recompute,
    game_stop,
    predrawn_batch_prepare,
    proposal_submit,
    round_cancel,
    round_close,
    round_draw,
    round_open,
    round_place_top,
    round_recompute,
)
from tournaments.tasks import prepare_game, recompute_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(tournament_setup, django_user_model):
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    ArbiterMembership.objects.update_or_create(user=head, tournament=t, defaults={"role": "head"})
    second = django_user_model.objects.create_user("arbitre-2")
    ArbiterMembership.objects.create(user=second, tournament=t, role="arbiter")
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    return {**tournament_setup, "head": head, "second": second, "game": game}


def test_cancel_voids_points_and_redraws_a_different_rack(staff) -> None:
    game, head = staff["game"], staff["head"]
    anne, bruno, _ = staff["players"]
    r1 = scenario_of(game, head).open_round()
    proposal_submit(round_id=r1.pk, player_id=anne.pk, word="HAINES", reference="H4", actor=SYSTEM)
    scenario_of(game, head).finish(r1)
    r2 = scenario_of(game, head).open_round()
    assert r2.rack == "U+OEE?AF"
    proposal_submit(
        round_id=r2.pk, player_id=bruno.pk, word="AUlOFEE", reference="G6", actor=SYSTEM
    )
    with pytest.raises(ServiceError) as info:
        round_cancel(round_id=r2.pk, reason="Lettre tombée du sac", actor=staff["second"])
    assert info.value.code == "access.head_arbiter"
    with pytest.raises(ServiceError) as info:
        round_cancel(round_id=r1.pk, reason="x", actor=head)  # not the last round
    assert info.value.code == "cancel.not_last"
    result = round_cancel(round_id=r2.pk, reason="Lettre tombée du sac", actor=head)
    cancelled, new = result.cancelled, result.replacement
    assert (cancelled.state, cancelled.cancel_reason) == ("cancelled", "Lettre tombée du sac")
    # All tiles back, the reliquat U included: a fresh rack marked "-", same round number.
    assert new.number == 2 and new.rack.startswith("-") and new.reliquat == ""
    assert new.rack != cancelled.rack
    assert round_cancel(round_id=r2.pk, reason="again", actor=head).replacement is None
    with pytest.raises(ServiceError) as info:  # a cancelled round has no top to place
        round_place_top(round_id=r2.pk, actor=head)
    assert info.value.code == "round.cancelled"
    s = {st.player_id: st.total for st in game_standings(game)}
    # Anne 26 + a solo (10) in round 1; Bruno's 70 went with the cancelled round.
    assert (s[anne.pk], s[bruno.pk]) == (36, 0)
    # The game goes on from the replayed state (cancelled round included in the replay).
    round_open(round_id=new.pk, actor=head)
    done = scenario_of(game, head).finish(new)
    assert done.top_placed_at is not None and done.board_before == r2.board_before
    assert AuditLog.objects.filter(action="round.cancel").count() == 1


def test_cancel_a_placed_round_then_stop_the_game(staff) -> None:
    game, head = staff["game"], staff["head"]
    r1 = scenario_of(game, head).play()
    new = round_cancel(round_id=r1.pk, reason="Top mal annoncé", actor=head).replacement
    assert new.number == 1 and new.board_before == r1.board_before and new.rack != "ESIUHAN"
    opened_round = round_open(round_id=new.pk, actor=head)
    stopped = game_stop(game_id=game.pk, reason="Alerte incendie", actor=head)
    assert stopped.state == "finished" and stopped.end["code"] == "E5"
    opened_round.refresh_from_db()
    assert opened_round.state == "cancelled"  # the undecided round is dropped
    assert game_stop(game_id=game.pk, reason="again", actor=head).end["code"] == "E5"
    with pytest.raises(ServiceError) as info:
        round_draw(game_id=game.pk, actor=head)
    assert info.value.code == "game.over"


def test_slip_conflicts_between_arbiters(staff) -> None:
    game, head, second = staff["game"], staff["head"], staff["second"]
    anne, bruno, chloe = staff["players"]
    rnd = scenario_of(game, head).open_round()
    round_close(round_id=rnd.pk, actor=head)
    assert [r.player_id for r in missing_slips(rnd)] == [anne.pk, bruno.pk, chloe.pk]

    def slip(arbiter, word, ref="H4", score=26):
        return proposal_submit(
            round_id=rnd.pk, player_id=anne.pk, word=word, reference=ref,
            claimed_score=score, source="arbiter", actor=arbiter,
        )  # fmt: skip

    first = slip(head, "HAINES")
    assert slip(second, "HAINES").replayed  # same content: no new version
    other = slip(second, "HAIES", score=22)
    assert other.conflict is not None and not other.version.is_current
    assert slip(second, "HAIES", score=22).replayed  # entered again: still one conflict
    assert [c.pk for c in open_conflicts(round_id=rnd.pk)] == [other.conflict.pk]
    assert ProposalVersion.objects.get(round=rnd, player=anne, is_current=True) == first.version
    assert [r.player_id for r in missing_slips(rnd)] == [bruno.pk, chloe.pk]
    with pytest.raises(ServiceError) as info:
        conflict_resolve(conflict_id=other.conflict.pk, keep_version_id=other.version.pk,
                         actor=second)  # fmt: skip
    assert info.value.code == "access.head_arbiter"
    conflict_resolve(conflict_id=other.conflict.pk, keep_version_id=other.version.pk, actor=head)
    current = ProposalVersion.objects.get(round=rnd, player=anne, is_current=True)
    assert current.pk == other.version.pk and open_conflicts(round_id=rnd.pk) == []
    # The same arbiter changing their own slip is a plain new version, no conflict.
    again = slip(second, "HAINES")
    assert again.conflict is None and again.version.is_current


def test_round_and_game_recompute_restore_what_the_engine_says(staff) -> None:
    game, head = staff["game"], staff["head"]
    anne = staff["players"][0]
    rnd = scenario_of(game, head).open_round()
    proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4", actor=SYSTEM)
    scenario_of(game, head).finish(rnd)
    assert not round_recompute(round_id=rnd.pk, actor=head).changed  # nothing differs
    # Simulate a stale judgement (e.g. made with another word list).
    ProposalVersion.objects.filter(round=rnd).update(outcome_score=3, outcome_code="ok")
    result = round_recompute(round_id=rnd.pk, actor=head, reason="Mot contesté")
    assert result.outcomes == [(1, anne.pk, "ok 3", "ok 26")]
    versions = ProposalVersion.objects.filter(round=rnd, player=anne).order_by("version")
    assert [(v.version, v.is_current, v.outcome_score) for v in versions] == [
        (1, False, 3), (2, True, 26)]  # fmt: skip
    assert recompute_round(rnd.pk) == 0  # the task: idempotent
    Round.objects.filter(pk=rnd.pk).update(top_score=20)
    with pytest.raises(ServiceError):
        game_recompute(game_id=game.pk, reason="  ", actor=head)
    fixed = game_recompute(game_id=game.pk, reason="Changement de lexique", actor=head)
    assert fixed.tops == [(1, "top_score", 20, 26)]
    assert Round.objects.get(pk=rnd.pk).top_score == 26
    assert not game_recompute(game_id=game.pk, reason="again", actor=head).changed


def test_batch_of_predrawn_games(
    staff, django_capture_on_commit_callbacks, eager_celery, conformance_lexicon_file
) -> None:
    t, head, lexicon = staff["tournament"], staff["head"], staff["lexicon"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = predrawn_batch_prepare(tournament_id=t.pk, count=2, seed_base=7, variant="standard",
                                     lexicon_id=lexicon.pk, actor=head)  # fmt: skip
    assert len(callbacks) == 2
    progress = batch_progress(job.pk)
    assert (progress["done"], progress["total"], progress["state"]) == (2, 2, "done")
    first = job.games.get(index=0)
    assert prepare_game(first.pk) == first.top_total  # skipped: counted once
    assert BatchJob.objects.get(pk=job.pk).done == 2
    # The record matches a direct engine game from the same seed.
    var = get_variant("standard")
    eg = EngineGame(
        SeededSource(7), engine_top_finder(EngineLexicon.load(conformance_lexicon_file), var), var
    )
    eg.play_to_end()
    assert first.record["totals"]["top"] == eg.cumulative == first.top_total
    assert first.predrawn.splitlines()[:2] == ["ESIUHAN", "U+OEE?AF"]
    # A pre-drawn game from it deals the same racks.
    game = game_create_from_prepared(tournament_id=t.pk, prepared_game_id=first.pk, actor=head)
    r1 = scenario_of(game, head).play()
    r2 = round_draw(game_id=game.pk, actor=head)
    assert (game.kind, r1.rack, r2.rack) == ("predrawn", "ESIUHAN", "U+OEE?AF")
