"""Issue 5: the arbiter's decisions and how the standings apply them (hand-checked)."""

from __future__ import annotations

import pytest

from tests.scenario import new_game
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, AuditLog, Decision, Player, Registration
from tournaments.selectors import game_standings
from tournaments.services import (
    decision_moyenne,
    decision_penalty,
    decision_warning,
    decision_zero,
    registration_withdraw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game4(tournament_setup, django_user_model):
    """Seed 7 (racks ESIUHAN, U+OEE?AF) with four players; Denis at table 4."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    ArbiterMembership.objects.update_or_create(user=head, tournament=t, defaults={"role": "head"})
    denis = Player.objects.create(name="Denis")
    Registration.objects.create(tournament=t, player=denis, table_number=4)
    play = new_game(tournament_setup, seed=7)
    return {
        "game": play.game,
        "play": play,
        "head": head,
        "players": [*tournament_setup["players"], denis],
    }


def totals(game):
    return {s.player_id: s for s in game_standings(game)}


def test_moyenne_is_the_floor_of_the_others_average(game4) -> None:
    game, head = game4["game"], game4["head"]
    anne, bruno, chloe, denis = game4["players"]
    # Round 1: Anne's AUE is not a word (0); round 2 she plays AUE again at I7 (worth 13).
    r1 = game4["play"].play({anne: ("AUE", "H8", None), bruno: ("HAINES", "H4", 26)})
    r2 = game4["play"].play(
        {anne: ("AUE", "I7", None), bruno: ("FAcE", "G6", 20), chloe: ("FEAUtES", "9B", 11)},
    )  # Denis hands nothing in: 0
    # fmt: skip
    before = totals(game)[anne.pk].total
    assert before == 0
    with pytest.raises(ServiceError) as info:
        decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                         reason="", actor=head)  # fmt: skip
    assert info.value.code == "decision.reason"
    with pytest.raises(ServiceError) as info:  # Bruno's round 2 is no repeated invalid word
        decision_moyenne(round_id=r2.pk, player_id=bruno.pk, earlier_round_id=r1.pk,
                         reason="moyenne", actor=head)  # fmt: skip
    assert info.value.code == "moyenne.not_invalid_word"
    decision = decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                                reason="AUE rejoué, pas prévenue", actor=head)  # fmt: skip
    # Others: Bruno 20, Chloé 11, Denis 0 → ⌊31 / 3⌋ = 10, under the cap of 13.
    assert (decision.score, decision.params["cap"], decision.params["average_of"]) == (10, 13, 3)
    assert totals(game)[anne.pk].total == 10
    assert totals(game)[anne.pk].penalties == 0
    assert AuditLog.objects.filter(action="decision.moyenne").count() == 1
    with pytest.raises(ServiceError) as info:
        decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                         reason="encore", actor=head)  # fmt: skip
    assert info.value.code == "moyenne.twice"


def test_moyenne_leaves_out_a_player_withdrawn_before_the_round(game4) -> None:
    """§4.5 averages "the other players ... on that move": a player withdrawn before the
    round plays no move there, so he is no 0 in the average (he is not on the round)."""
    head = game4["head"]
    anne, bruno, chloe, denis = game4["players"]
    r1 = game4["play"].play({anne: ("AUE", "H8", None), bruno: ("HAINES", "H4", 26)})
    reg = Registration.objects.get(player=denis)
    registration_withdraw(registration_id=reg.pk, game_number=game4["game"].number,
                          round_number=2, reason="malaise", actor=head)  # fmt: skip
    r2 = game4["play"].play(
        {anne: ("AUE", "I7", None), bruno: ("FAcE", "G6", 20), chloe: ("FEAUtES", "9B", 11)},
    )
    decision = decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                                reason="AUE rejoué", actor=head)  # fmt: skip
    # Others on round 2: Bruno 20, Chloé 11 → ⌊31 / 2⌋ = 15, over the cap: 13 (AUE I7).
    # With Denis counted as a 0 it would be ⌊31 / 3⌋ = 10.
    assert (decision.score, decision.params["average_of"]) == (13, 2)


def test_penalty_zero_and_warnings_in_the_totals(game4) -> None:
    game, head = game4["game"], game4["head"]
    anne, bruno, chloe, denis = game4["players"]
    r1 = game4["play"].play({p: ("HAINES", "H4", 26) for p in (anne, bruno, chloe, denis)})
    decision_penalty(round_id=r1.pk, player_id=anne.pk, reason="Bulletin raturé", actor=head)
    decision_zero(round_id=r1.pk, player_id=bruno.pk, reason="Bulletin illisible", actor=head)
    decision_warning(round_id=r1.pk, player_id=chloe.pk, reason="Score oublié", actor=head)
    for _ in range(4):  # disciplinary warnings stack: the 4th costs 5 (the 5th too)
        decision_warning(round_id=r1.pk, player_id=denis.pk, reason="Bavardage",
                         disciplinary=True, actor=head)  # fmt: skip
    s = totals(game)
    assert (s[anne.pk].total, s[anne.pk].penalties) == (21, 1)  # 26 − 5
    assert s[bruno.pk].total == 0
    assert (s[chloe.pk].total, s[chloe.pk].warnings) == (26, 1)  # a warning costs nothing yet
    assert (s[denis.pk].total, s[denis.pk].warnings) == (21, 4)  # 4th warning: −5
    assert Decision.objects.count() == 7
    assert AuditLog.objects.filter(action__startswith="decision.").count() == 7


def test_decisions_need_a_reason_an_arbiter_and_a_registered_player(game4, django_user_model):
    head = game4["head"]
    anne = game4["players"][0]
    r1 = game4["play"].play({anne: ("HAINES", "H4", 26)})
    outsider = django_user_model.objects.create_user("x")
    with pytest.raises(ServiceError) as info:
        decision_zero(round_id=r1.pk, player_id=anne.pk, reason="x", actor=outsider)
    assert info.value.code == "access.arbiter"
    with pytest.raises(ServiceError) as info:
        decision_penalty(round_id=r1.pk, player_id=anne.pk, reason="  ", actor=head)
    assert info.value.code == "decision.reason"
    stranger = Player.objects.create(name="Inconnu")
    with pytest.raises(ServiceError) as info:
        decision_zero(round_id=r1.pk, player_id=stranger.pk, reason="x", actor=head)
    assert info.value.code == "player.not_registered"
