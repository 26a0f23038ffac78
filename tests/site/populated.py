"""A populated tournament for the tests that look at everything a user reads.

The seed-7 game on the conformance word list (racks and tops checked by hand in
tests/site/test_game_services.py):

    round 1  ESIUHAN   HAINES  H4  26
    round 2  U+OEE?AF  AUlOFEE G6  70   (scrabble)
    round 3  YPUNASE   PAYES  13C  45
    round 4  drawn and open (the tablets and the projector show a live round)

Four players, so every kind of line appears somewhere:

* Anne (table 1, 2A, Vermeil): the three tops, the only one on round 2 (a solo), and on
  round 3 a wrong score written (47 for 45): a warning.
* Bruno (table 2, 4B, Émeraude): round 1 typed 8D by mistake then corrected two rounds
  later to H4 by the arbiter; round 2 FOUEE, not in the list (zero); round 3 a disciplinary
  warning and a 5-point penalty from the arbiter.
* Chloé (table 3, 2B, Junior): round 1 handed in after the end (zero), round 2 no slip
  (zero, no bulletin), round 3 the top then an arbiter's zero.
* Denis (table 4, 1A, Senior): arrives at round 2 (round 1 counts zero, late arrival);
  round 2 HAINES at A1, a placement error (zero).
"""

from __future__ import annotations

from typing import Any

from tests.scenario import new_game
from tournaments.models import ArbiterMembership, Game, Player, Registration, Tournament
from tournaments.services import (
    decision_penalty,
    decision_warning,
    decision_zero,
    player_register,
    proposal_correct,
    registration_arrive,
    registration_token_issue,
)

#: (club, series, category) of Anne, Bruno, Chloé; Denis is registered by the scenario.
PROFILES = (
    ("Rennes", "2A", "Vermeil"),
    ("Brest", "4B", "Émeraude"),
    ("Nantes", "2B", "Junior"),
)


def populate(setup: dict[str, Any]) -> dict[str, Any]:
    """Play the scenario above on ``tournament_setup``; returns the setup with ``game``,
    ``players`` (four), ``rounds`` (four) and ``tokens`` (player id → tablet token)."""
    tournament, arbiter = setup["tournament"], setup["arbiter"]
    # Scores required (the federation's default), so a wrong score is a warning; a name
    # without English words, so a leak is never confused with the tournament's name.
    Tournament.objects.filter(pk=tournament.pk).update(
        name="Tournoi de l'Ouest", slug="ouest", score_required=True
    )
    tournament.refresh_from_db()
    ArbiterMembership.objects.update_or_create(
        user=arbiter, tournament=tournament, defaults={"role": "head"}
    )
    anne, bruno, chloe = setup["players"]
    for player, (club, series, category) in zip(setup["players"], PROFILES, strict=True):
        Player.objects.filter(pk=player.pk).update(club=club, series=series, category=category)
    denis_reg = player_register(
        tournament_id=tournament.pk,
        name="Denis",
        club="Rennes",
        series="1A",
        category="Senior",
        actor=arbiter,
    )
    denis = denis_reg.player
    registration_arrive(registration_id=denis_reg.pk, game_number=1, round_number=2, actor=arbiter)
    players = [anne, bruno, chloe, denis]
    tokens = {
        reg.player_id: registration_token_issue(registration_id=reg.pk, actor=arbiter)
        for reg in Registration.objects.filter(tournament=tournament)
    }
    scenario = new_game(setup, seed=7)
    game = scenario.game

    r1 = scenario.open_round()
    scenario.propose(r1, anne, "HAINES", "H4", 26)
    scenario.propose(r1, bruno, "HAINES", "4H", 26)
    scenario.past_deadline(r1)
    scenario.propose(r1, chloe, "HAINES", "H4", 26)  # after the end: zero
    scenario.finish(r1)
    r2 = scenario.open_round()
    scenario.propose(r2, anne, "AUlOFEE", "G6", 70)
    scenario.propose(r2, bruno, "FOUEE", "G6", 20)
    scenario.propose(r2, denis, "HAINES", "A1", 30)
    scenario.finish(r2)
    r3 = scenario.open_round()
    scenario.propose(r3, anne, "PAYES", "13C", 47)
    for player in (bruno, chloe, denis):
        scenario.propose(r3, player, "PAYES", "13C", 45)
    proposal_correct(round_id=r1.pk, player_id=bruno.pk, word="HAINES", reference="H4",
                     claimed_score=26, reason="Référence mal recopiée", actor=arbiter)  # fmt: skip
    decision_warning(round_id=r3.pk, player_id=bruno.pk, reason="Téléphone sonné en salle",
                     disciplinary=True, actor=arbiter)  # fmt: skip
    decision_penalty(round_id=r3.pk, player_id=bruno.pk, reason="Bulletin raturé", actor=arbiter)
    decision_zero(round_id=r3.pk, player_id=chloe.pk, reason="Deux mots sur le bulletin",
                  actor=arbiter)  # fmt: skip
    scenario.finish(r3)
    r4 = scenario.open_round()
    scenario.propose(r4, anne, "PAYES", "13C", 45)
    game = Game.objects.get(pk=game.pk)
    rounds = [r1, r2, r3, r4]
    return {**setup, "tournament": tournament, "game": game, "players": players,
            "rounds": rounds, "tokens": tokens}  # fmt: skip
