"""A real Celery worker on Redis computes the tops of a 20-round game and prepares a batch
of pre-drawn games; every figure is checked against the engine run directly in the test."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from engine.duplicate import Game as EngineGame
from engine.duplicate import SeededSource, engine_top_finder, get_variant
from engine.lexicon.automaton import Lexicon as EngineLexicon
from tournaments.access import SYSTEM
from tournaments.models import ArbiterMembership, BatchJob, Round
from tournaments.selectors import batch_progress
from tournaments.services import (
    game_create,
    predrawn_batch_prepare,
    round_close,
    round_draw,
    round_open,
    round_place_top,
)

pytestmark = pytest.mark.integration
ROUNDS = 20


def wait_until(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.mark.django_db(transaction=True)
def test_worker_computes_twenty_tops(celery_worker, tournament_setup, conformance_lexicon_file):
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    ArbiterMembership.objects.update_or_create(user=head, tournament=t, defaults={"role": "head"})
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    var = get_variant("standard")
    lexicon = EngineLexicon.load(conformance_lexicon_file)
    direct = EngineGame(SeededSource(7), engine_top_finder(lexicon, var), var)
    for number in range(1, ROUNDS + 1):
        rnd = round_draw(game_id=game.pk, actor=head)  # queues compute_top on commit
        rnd = wait_until(
            lambda pk=rnd.pk: Round.objects.filter(pk=pk, computed_at__isnull=False).first(),
            f"the worker's top of round {number}",
        )
        expected = direct.draw()
        chosen = expected.choice.chosen
        assert (rnd.number, rnd.rack) == (number, expected.rack)
        assert rnd.top_score == expected.choice.score
        assert (rnd.top["chosen"]["coord"], rnd.top["chosen"]["word"]) == (
            str(chosen.reference), chosen.word)  # fmt: skip
        assert len(rnd.top["tied"]) == len(expected.choice.tied)
        round_open(round_id=rnd.pk, actor=head)
        round_close(round_id=rnd.pk, actor=head, confirm=True)
        round_place_top(round_id=rnd.pk, actor=head)
        direct.place()
    assert game.rounds.filter(top_placed_at__isnull=False).count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_worker_prepares_a_batch(celery_worker, tournament_setup, conformance_lexicon_file):
    lexicon_row = tournament_setup["lexicon"]
    job = predrawn_batch_prepare(count=3, seed_base=11, variant="standard",
                                 lexicon_id=lexicon_row.pk, actor=SYSTEM)  # fmt: skip
    wait_until(lambda: BatchJob.objects.get(pk=job.pk).state == "done", "3/3", timeout=180)
    progress = batch_progress(job.pk)
    assert (progress["done"], progress["total"]) == (3, 3)
    var = get_variant("standard")
    lexicon = EngineLexicon.load(conformance_lexicon_file)
    for prepared in job.games.order_by("index"):
        direct = EngineGame(SeededSource(prepared.seed), engine_top_finder(lexicon, var), var)
        direct.play_to_end()
        recorded = [r for r in prepared.record["rounds"] if r["status"] == "played"]
        assert [r["rack"] for r in recorded] == [r.rack for r in direct.played]
        assert [r["top"]["score"] for r in recorded] == [r.top.score for r in direct.played]
        assert prepared.top_total == direct.cumulative
