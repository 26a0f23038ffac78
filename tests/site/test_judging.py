"""Judging on the site as an FISF arbiter does (issue 12): the game's own formula for live
standings, the 16-player threshold counted on the game's players, score required by
default, and the console's review list of the slips the rulebook leaves to the arbiter."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.scenario import GameScenario, new_game
from tournaments import services
from tournaments.models import Registration
from tournaments.selectors import game_outcomes, slips_to_review
from tournaments.services.registry import registration_arrive

pytestmark = pytest.mark.django_db

SEED = 7  # round 1: ESIUHAN, top H4 HAINES 26 (tests/site/test_game_services.py)


def play_round(play: GameScenario, slips: dict) -> None:
    """One round through the scenario, its top computed before the slips: an empty word or
    reference is the chosen top's, a callable score is the test's own from the top's score."""
    rnd = play.open_round(top=True)
    chosen = rnd.top["chosen"]
    play.hand_in(rnd, {
        player: (word or chosen["word"], reference or chosen["coord"],
                 score(rnd.top_score) if callable(score) else score)
        for player, (word, reference, score) in slips.items()
    })  # fmt: skip
    play.finish(rnd)


def test_live_standings_use_the_games_formula(tournament_setup) -> None:
    # A blitz game in a standard tournament: four wrong scores (the top word, top + 1
    # claimed) are four warnings, which cost nothing before the 6th in blitz (§4.3).
    setup = tournament_setup
    anne = setup["players"][0]
    tournament = setup["tournament"]
    tournament.score_required = True
    tournament.save()
    play = new_game(setup, seed=SEED, variant_code="blitz")
    game = play.game
    for _ in range(4):
        play_round(play, {anne: ("", "", lambda top: top + 1)})
    result = game_outcomes(game)
    a = result.player(anne.pk)
    assert (a.warnings, a.warning_penalty) == (4, 0)
    assert a.total == result.top_total + a.solo_bonus  # solos: the others handed in nothing
    # The same four warnings in a standard game of that tournament: the 4th costs 5.
    standard = new_game(setup, seed=SEED)
    for _ in range(4):
        play_round(standard, {anne: ("", "", lambda top: top + 1)})
    assert game_outcomes(standard.game).player(anne.pk).warning_penalty == 5


def test_solo_threshold_counts_the_players_of_the_game(tournament_setup) -> None:
    # The fixture pays solos from 3 players. Chloé arrives at round 2: round 1 has two
    # players present, but the game has three, so Anne's round-1 solo earns 10 (§4.6).
    setup = tournament_setup
    anne, bruno, chloe = setup["players"]
    play = new_game(setup, seed=SEED)
    game = play.game
    reg = Registration.objects.get(player=chloe)
    registration_arrive(registration_id=reg.pk, game_number=1, round_number=2,
                        actor=setup["arbiter"])  # fmt: skip
    # Round 1 (ESIUHAN): Anne the top H4 HAINES 26, Bruno H4 HAIES: H4 (DL) 8 + A 1 + I 1
    # + E 1 + S 1 = 12, ×2 on H8 = 24.
    play_round(play, {anne: ("", "", 26), bruno: ("HAIES", "H4", 24)})
    result = game_outcomes(game)
    assert (result.counted, result.entrants) == ((2,), 3)
    assert result.player(anne.pk).solo_bonus == 10
    assert result.player(anne.pk).total == 36


def test_review_list_accept_and_change_replayed_from_the_record(
    tournament_setup, client, conformance_lexicon_file
) -> None:
    """Round 2 of seed 7 (rack U+OEE?AF, HAINES on H4–H9). Bruno's paper slip reads
    G4 FAUvE 23: written there, F lands over the H of H4 (FH, AA, UI, VN, EE: invalid
    pairs). G5 FAUvE is worth the 23 written: F 4 + A 1 + U (G7, DL) 2 + v 0 + E (G9, DL)
    2 = 9, crosses FA 5, AI 2, UN 3, vE 1, ES 3 = 14, total 23. Default (§4.4): 23 − 5 =
    18, flagged "fallacieux"; the arbiter may turn it into the zero instead."""
    from engine.duplicate.record import load_record, replay
    from engine.duplicate.scoresheet import rescoring_hook, scoring_settings
    from engine.duplicate.top import engine_top_finder
    from engine.lexicon.automaton import Lexicon
    from tournaments.selectors import game_record

    setup = tournament_setup
    anne, bruno, _ = setup["players"]
    arbiter = setup["arbiter"]
    play = new_game(setup, seed=SEED)
    game = play.game
    play_round(play, {anne: ("", "", 26)})
    rnd = play.open_round(top=True)
    assert (rnd.rack, rnd.top_score) == ("U+OEE?AF", 70)
    slip = play.propose(rnd, bruno, "FAUvE", "G4", 23, source="arbiter")
    outcome = slip.outcome
    assert (outcome.code, outcome.score, outcome.raw_score, outcome.reference) == (
        "penalty.wrong_reference", 18, 23, "G5")  # fmt: skip
    assert outcome.review == "fallacieux"
    assert (outcome.alternative.code, outcome.alternative.score) == ("zero.invalid_word", 0)

    [line] = slips_to_review(rnd)
    assert (line["registration"].player, line["choice"]) == (bruno, None)
    client.force_login(arbiter)
    page = client.get(reverse("console:decisions", args=[rnd.pk])).content.decode()
    assert "Bulletins à revoir" in page and 'data-key="v"' in page and 'data-key="m"' in page
    assert "Raccordement fallacieux possible" in page
    # The API shows arbiters the same: the default, the reason, the other outcome.
    [listed] = [p for p in client.get(f"/api/rounds/{rnd.pk}/proposals/").json()
                if p["player"] == bruno.pk]  # fmt: skip
    shown = listed["outcome"]
    assert (shown["code"], shown["score"]) == ("penalty.wrong_reference", 18)
    assert listed["outcome"]["review"] == "fallacieux"
    assert listed["outcome"]["alternative"] == {
        "kind": "zero", "score": 0, "raw_score": 0, "code": "zero.invalid_word"}  # fmt: skip
    url = reverse("console:review", args=[rnd.pk, slip.version.pk])
    assert client.post(url, {"choice": "alternative"}).status_code == 302
    play.finish(rnd)
    assert game_outcomes(game).player(bruno.pk).rounds == (0, 0)
    page = client.get(reverse("console:decisions", args=[rnd.pk])).content.decode()
    assert 'data-key="v"' not in page  # nothing waits any more
    assert client.post(url, {"choice": "nonsense"}).status_code == 400

    # The record carries the review; replaying it judges the slip again and applies it.
    record = game_record(game)
    entry = next(e for e in record["rounds"][1]["players"] if e["player"] == str(bruno.pk))
    assert entry["review"] == {"reason": "fallacieux", "choice": "alternative"}
    assert entry["outcome"]["code"] == "zero.invalid_word"
    loaded, lexicon = load_record(record), Lexicon.load(conformance_lexicon_file)
    scoring = scoring_settings(loaded)[0]
    finder = engine_top_finder(lexicon, loaded.variant)
    assert replay(loaded, finder, outcome_hook=rescoring_hook(lexicon, scoring)) == []

    # Back to the default: the last review counts.
    services.decision_review(round_id=rnd.pk, player_id=bruno.pk, version_id=slip.version.pk,
                             choice="default", actor=arbiter)  # fmt: skip
    assert game_outcomes(game).player(bruno.pk).rounds == (0, 18)


def test_issue_rows_through_the_console_slip_entry(tournament_setup, client) -> None:
    """The issue's rows typed by an arbiter on round 2 of seed 1 (values by hand in
    tests/engine/duplicate/test_bulletin_table.py), scores required."""
    setup = tournament_setup
    setup["tournament"].__class__.objects.update(score_required=True)
    anne, bruno, _ = setup["players"]
    play = new_game(setup, seed=1)
    play_round(play, {anne: ("", "", 68)})
    rnd = play.open_round(top=True)
    assert (rnd.rack, rnd.top_score) == ("NANMEEE", 21)
    client.force_login(setup["arbiter"])
    rows = {
        "2 G4 MENA 19": ("penalty.wrong_reference", 14),
        "2 - MENA 19": ("penalty.missing_reference", 14),
        "2 2G AMENE 20": ("warning.inverted_reference", 20),
        "2 G9 MANNE 15": ("warning.score_wrong", 14),
        "2 G3 MENA 25": ("warning.score_wrong", 19),
        "2 G6 AMENEE 20": ("warning.score_wrong", 21),
    }
    for line, expected in rows.items():
        response = client.post(reverse("console:slips", args=[rnd.pk]), {"line": line},
                               headers={"Accept": "application/json"})  # fmt: skip
        assert response.status_code == 200, response.content
        entry = response.json()["entry"]
        assert (entry["code"], entry["score"]) == expected, line
    assert entry["reason"].startswith("AMENEE en G6 vaut 21")
    # Only the chosen top word needs no correction slip (§5.9).
    params = bruno.proposals.get(is_current=True).outcome_params
    assert params["slip_optional"] is True
