"""Judging on the site as an FISF arbiter does (issue 12): the game's own formula for live
standings, the 16-player threshold counted on the game's players, score required by
default, and the console's review list of the slips the rulebook leaves to the arbiter."""

from __future__ import annotations

import pytest

from tournaments.models import Registration
from tournaments.selectors import game_outcomes
from tournaments.services import (
    game_create,
    proposal_submit,
    round_close,
    round_compute_top,
    round_draw,
    round_open,
    round_place_top,
)
from tournaments.services.registry import registration_arrive

pytestmark = pytest.mark.django_db

SEED = 7  # round 1: ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py)


def play_round(game, arbiter, slips: dict) -> None:
    """Draw, open, hand in ``{player: (word, reference, score or callable(top))}``, close,
    place the top."""
    rnd = round_draw(game_id=game.pk, actor=arbiter)
    rnd = round_open(round_id=rnd.pk, actor=arbiter)
    rnd = round_compute_top(round_id=rnd.pk)
    for player, (word, reference, score) in slips.items():
        chosen = rnd.top["chosen"]
        word, reference = word or chosen["word"], reference or chosen["coord"]
        score = score(rnd.top_score) if callable(score) else score
        proposal_submit(round_id=rnd.pk, player_id=player.pk, word=word, reference=reference,
                        claimed_score=score)  # fmt: skip
    round_close(round_id=rnd.pk, actor=arbiter)
    round_place_top(round_id=rnd.pk, actor=arbiter)


def test_live_standings_use_the_games_formula(tournament_setup) -> None:
    # A blitz game in a classic tournament: four wrong scores (the top word, top + 1
    # claimed) are four warnings, which cost nothing before the 6th in blitz (§4.3).
    setup = tournament_setup
    anne = setup["players"][0]
    tournament = setup["tournament"]
    tournament.score_required = True
    tournament.save()
    game = game_create(tournament_id=tournament.pk, seed=SEED, variant_code="blitz")
    for _ in range(4):
        play_round(game, setup["arbiter"], {anne: ("", "", lambda top: top + 1)})
    result = game_outcomes(game)
    a = result.player(anne.pk)
    assert (a.warnings, a.warning_penalty) == (4, 0)
    assert a.total == result.top_total + a.solo_bonus  # solos: the others handed in nothing
    # The same four warnings in a classic game of that tournament: the 4th costs 5.
    classic = game_create(tournament_id=tournament.pk, seed=SEED)
    for _ in range(4):
        play_round(classic, setup["arbiter"], {anne: ("", "", lambda top: top + 1)})
    assert game_outcomes(classic).player(anne.pk).warning_penalty == 5


def test_solo_threshold_counts_the_players_of_the_game(tournament_setup) -> None:
    # The fixture pays solos from 3 players. Chloé arrives at round 2: round 1 has two
    # players present, but the game has three, so Anne's round-1 solo earns 10 (§4.6).
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    game = game_create(tournament_id=setup["tournament"].pk, seed=SEED)
    reg = Registration.objects.get(player=chloe)
    registration_arrive(registration_id=reg.pk, game_number=1, round_number=2,
                        actor=setup["arbiter"])  # fmt: skip
    # Round 1 (ESIUHAN): Anne the top H4 HAINES 26, Bruno H4 HAIES: H4 (DL) 8 + A 1 + I 1
    # + E 1 + S 1 = 12, ×2 on H8 = 24.
    play_round(game, setup["arbiter"], {anne: ("", "", 26), bruno: ("HAIES", "H4", 24)})
    result = game_outcomes(game)
    assert (result.counted, result.entrants) == ((2,), 3)
    assert result.player(anne.pk).solo_bonus == 10
    assert result.player(anne.pk).total == 36
