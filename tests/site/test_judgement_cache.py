"""The per-round cache of judgements (issue 16, item 3; tournaments/services/judgements.py).

Seed 7, round 1: rack ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py). The same
move from two players is judged once; anything the judgement depends on, changed, gives
another key, so a stale judgement is never served; a refusal is never cached.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.scenario import new_game
from tournaments.errors import ServiceError
from tournaments.models import Round
from tournaments.services import judgements

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(tournament_setup: dict[str, Any]) -> Any:
    judgements.forget_judgements()
    yield new_game(tournament_setup, seed=7)
    judgements.forget_judgements()


def test_the_same_move_is_judged_once_per_round(play, tournament_setup) -> None:
    anne, bruno, chloe = tournament_setup["players"]
    rnd = play.open_round(top=True)
    first = play.propose(rnd, anne, "HAINES", "H4", 26)
    assert judgements.STATS == {"hits": 0, "misses": 1}
    second = play.propose(rnd, bruno, "HAINES", "H4", 26)
    assert judgements.STATS == {"hits": 1, "misses": 1}
    # The same outcome as judged for Anne: the top, 26 points.
    assert second.outcome == first.outcome and second.outcome.score == 26
    # Another claimed score is another judgement (a wrong score is judged as such).
    play.propose(rnd, chloe, "HAINES", "H4", 25)
    assert judgements.STATS == {"hits": 1, "misses": 2}


def test_a_changed_round_never_gets_a_stale_judgement(play, tournament_setup) -> None:
    anne = tournament_setup["players"][0]
    rnd = play.open_round(top=True)
    play.propose(rnd, anne, "HAINES", "H4", 26)
    key = judgements.judgement_key(
        judgements.judging_round(rnd.pk), word="HAINES", reference="H4", claimed=26,
        source="tablet",
    )  # fmt: skip
    # Rack, board, top score, chosen top, the tournament's score setting: each is in the key.
    Round.objects.filter(pk=rnd.pk).update(rack="EEIUHAN")
    changed = judgements.judging_round(rnd.pk)
    assert (
        judgements.judgement_key(
            changed, word="HAINES", reference="H4", claimed=26, source="tablet"
        )
        != key
    )
    Round.objects.filter(pk=rnd.pk).update(rack=rnd.rack, board_before="x" + rnd.board_before)
    changed = judgements.judging_round(rnd.pk)
    assert (
        judgements.judgement_key(
            changed, word="HAINES", reference="H4", claimed=26, source="tablet"
        )
        != key
    )
    Round.objects.filter(pk=rnd.pk).update(board_before=rnd.board_before, top_score=30)
    changed = judgements.judging_round(rnd.pk)
    assert (
        judgements.judgement_key(
            changed, word="HAINES", reference="H4", claimed=26, source="tablet"
        )
        != key
    )
    Round.objects.filter(pk=rnd.pk).update(top_score=rnd.top_score)
    tournament = tournament_setup["tournament"]
    tournament.score_required = not tournament.score_required
    tournament.save(update_fields=["score_required"])
    changed = judgements.judging_round(rnd.pk)
    assert (
        judgements.judgement_key(
            changed, word="HAINES", reference="H4", claimed=26, source="tablet"
        )
        != key
    )


def test_a_refusal_is_not_cached(play, tournament_setup) -> None:
    anne, bruno = tournament_setup["players"][:2]
    rnd = play.open_round(top=True)
    for player in (anne, bruno):
        with pytest.raises(ServiceError):
            play.propose(rnd, player, "HAIN3S", "H4", 26)  # word.character: letters only
    assert judgements.STATS["hits"] == 0
