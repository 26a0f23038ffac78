"""Issue 16, centres: a simultaneous event's centres, their arbiters' scope, each centre's
close of a round, the moyenne per centre and the solos over the whole event.

Hand-computed values only (../shared/rules/duplicate.md §4.5, §4.6). The game is seed 7
(racks ESIUHAN, U+OEE?AF), as tests/site/test_services_decisions.py plays it: AUE is not a
word (0), HAINES H4 is 26, FAcE G6 20, FEAUtES 9B 11, AUE at I7 would be 13.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.scenario import simultaneous_seeded_game
from tournaments.errors import ServiceError
from tournaments.models import (
    ArbiterMembership,
    AuditLog,
    CentreClose,
    Player,
    ProposalVersion,
    Registration,
)
from tournaments.models.choices import RoundState
from tournaments.selectors import game_standings
from tournaments.services import (
    arbiter_add,
    arbiter_centre_set,
    centre_close,
    centre_create,
    centre_update,
    decision_moyenne,
    decision_warning,
    player_register,
    players_import,
    proposal_correct,
    proposal_submit,
    registration_arrive,
    registration_centre_set,
    round_close,
    round_reopen,
    tournament_update,
)
from tournaments.services.proposals import proposal_late

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(tournament_setup, django_user_model):
    """A simultaneous event: centre A (Anne, Chloé, Denis) and centre B (Bruno), one head
    arbiter per centre (``arb_a``, ``arb_b``), solos paid from 4 players."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True, solo_min_players=4)
    a = centre_create(tournament_id=t.pk, name="Centre A", club="Club de Lyon",
                      address="1 place Bellecour", actor=head)  # fmt: skip
    b = centre_create(tournament_id=t.pk, name="Centre B", club="Club de Montréal",
                      time_zone="America/Montreal", actor=head)  # fmt: skip
    anne, bruno, chloe = tournament_setup["players"]
    denis = Player.objects.create(name="Denis")
    Registration.objects.create(tournament=t, player=denis, table_number=4)
    for player, centre in ((anne, a), (bruno, b), (chloe, a), (denis, a)):
        reg = Registration.objects.get(tournament=t, player=player)
        registration_centre_set(registration_id=reg.pk, centre_id=centre.pk, actor=head)
    arb_a = arbiter_add(actor=head, tournament_id=t.pk, login="arbitre-a", centre_id=a.pk,
                        centre_head=True).membership.user  # fmt: skip
    arb_b = arbiter_add(actor=head, tournament_id=t.pk, login="arbitre-b", centre_id=b.pk,
                        centre_head=True).membership.user  # fmt: skip
    return {
        "tournament": t, "head": head, "a": a, "b": b, "arb_a": arb_a, "arb_b": arb_b,
        "players": (anne, bruno, chloe, denis),
        "play": simultaneous_seeded_game(tournament_setup, seed=7),
    }  # fmt: skip


def test_centres_need_a_simultaneous_event_and_valid_fields(tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    with pytest.raises(ServiceError) as info:
        centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    assert info.value.code == "centre.not_simultaneous"
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
    with pytest.raises(ServiceError) as info:
        centre_create(tournament_id=t.pk, name="Lyon", time_zone="Mars/Olympus", actor=head)
    assert info.value.code == "centre.time_zone"
    lyon = centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    with pytest.raises(ServiceError) as info:
        centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    assert info.value.code == "centre.name_taken"
    lyon = centre_update(centre_id=lyon.pk, name="Lyon 3e", club="Club", actor=head,
                         time_zone="Europe/Paris")  # fmt: skip
    assert (lyon.name, lyon.club) == ("Lyon 3e", "Club")
    assert AuditLog.objects.filter(action__in=["centre.create", "centre.update"]).count() == 2


def test_a_centre_arbiter_acts_only_on_their_centre(event) -> None:
    anne, bruno, _chloe, _denis = event["players"]
    arb_a = event["arb_a"]
    rnd = event["play"].open_round()
    # Their own centre's player: accepted.
    mine = proposal_submit(round_id=rnd.pk, player_id=anne.pk, word="HAINES", reference="H4",
                           claimed_score=26, source="arbiter", actor=arb_a)  # fmt: skip
    assert mine.version.outcome_score == 26
    # Centre B's player: refused, for a slip, a correction, a decision and a late arrival.
    calls = [
        lambda: proposal_submit(round_id=rnd.pk, player_id=bruno.pk, word="HAINES",
                                reference="H4", source="arbiter", actor=arb_a),
        lambda: proposal_correct(round_id=rnd.pk, player_id=bruno.pk, word="HAINES",
                                 reference="H4", reason="lu de travers", actor=arb_a),
        lambda: decision_warning(round_id=rnd.pk, player_id=bruno.pk, reason="bruit",
                                 actor=arb_a),
        lambda: registration_arrive(
            registration_id=Registration.objects.get(player=bruno).pk, game_number=1,
            round_number=2, actor=arb_a),
    ]  # fmt: skip
    for call in calls:
        with pytest.raises(ServiceError) as info:
            call()
        assert info.value.code == "access.centre"
    assert not ProposalVersion.objects.filter(player=bruno).exists()
    event["play"].finish(rnd)


def test_a_centre_arbiter_registers_in_their_centre(event) -> None:
    arb_a, b = event["arb_a"], event["b"]
    t = event["tournament"]
    reg = player_register(tournament_id=t.pk, name="Émile", actor=arb_a)
    assert reg.centre_id == event["a"].pk
    with pytest.raises(ServiceError) as info:
        player_register(tournament_id=t.pk, name="Fanny", centre_id=b.pk, actor=arb_a)
    assert info.value.code == "access.centre"
    # The import's ``centre`` column names a centre; the old format (no column) still reads.
    content = "nom;licence;centre\nGaston;L1;centre b\nHélène;L2;\n".encode()
    done = players_import(tournament_id=t.pk, filename="j.csv", content=content,
                          actor=event["head"])  # fmt: skip
    assert [r.centre_id for r in done.registrations] == [b.pk, None]
    with pytest.raises(ServiceError) as info:
        players_import(tournament_id=t.pk, filename="j.csv", actor=event["head"],
                       content="nom;licence;centre\nIrène;L3;Nulle part\n".encode())  # fmt: skip
    assert info.value.code == "import.rows"
    assert info.value.details["errors"][0].code == "import.centre"


def test_each_centre_closes_and_lateness_follows_its_close(event) -> None:
    anne, bruno, _chloe, _denis = event["players"]
    play, a, b = event["play"], event["a"], event["b"]
    rnd = play.open_round()
    # Centre B's arbiter may not close centre A; a clock still running needs a confirmation.
    with pytest.raises(ServiceError) as info:
        centre_close(round_id=rnd.pk, centre_id=a.pk, actor=event["arb_b"], confirm=True)
    assert info.value.code == "access.centre_head"
    with pytest.raises(ServiceError) as info:
        centre_close(round_id=rnd.pk, centre_id=a.pk, actor=event["arb_a"])
    assert info.value.code == "centre.time_left"
    play.close_centre(rnd, a, actor=event["arb_a"])
    # Centre A closed: Anne's tablet move is late; centre B still plays: Bruno's is on time.
    late = play.propose(rnd, anne, "HAINES", "H4", 26)
    on_time = play.propose(rnd, bruno, "HAINES", "H4", 26)
    assert (late.version.late, on_time.version.late) == (True, False)
    assert (late.version.outcome_score, on_time.version.outcome_score) == (0, 26)
    # The round as a whole waits for centre B: the head arbiter cannot close it yet.
    with pytest.raises(ServiceError) as info:
        round_close(round_id=rnd.pk, actor=event["head"], confirm=True)
    assert info.value.code == "round.centres_open"
    assert info.value.details["centres"] == "Centre B"
    rnd = play.close_centre(rnd, b, actor=event["arb_b"])
    assert rnd.state == RoundState.CLOSED
    assert CentreClose.objects.filter(round=rnd).count() == 2
    # Reopened: every centre plays again (no centre's close stands), then both close again.
    round_reopen(round_id=rnd.pk, seconds=60, actor=event["head"])
    assert not CentreClose.objects.filter(round=rnd).exists()
    assert AuditLog.objects.filter(action="centre.reopen").count() == 2
    rnd = play.close(rnd)
    assert rnd.state == RoundState.CLOSED
    play.place(rnd)
    # Bruno 26 and a solo (Anne's late move 0, Chloé and Denis nothing; 4 entrants): 36.
    assert {s.player_id: s.total for s in game_standings(play.game)}[bruno.pk] == 36


def test_a_move_after_its_centres_close_stays_late_when_judged_after_the_rounds_close(
    event,
) -> None:
    """A tablet move that reached the server after its centre closed, but was judged only
    once the last centre had closed the round (it waited for that close's lock), is late:
    its centre had collected its slips before it arrived (docs/rules-choices.md)."""
    anne, bruno, _chloe, _denis = event["players"]
    play, a, b = event["play"], event["a"], event["b"]
    rnd = play.open_round()
    play.close_centre(rnd, a, actor=event["arb_a"])
    arrived = timezone.now()  # after centre A's close, before the round's
    rnd = play.close_centre(rnd, b, actor=event["arb_b"])
    assert rnd.state == RoundState.CLOSED and rnd.closed_at > arrived
    anne_reg = Registration.objects.get(player=anne)
    bruno_reg = Registration.objects.get(player=bruno)
    assert proposal_late(rnd, anne_reg, source="tablet", late=False, arrived=arrived) is True
    # Centre B was still playing at that moment: its player's move is on time.
    assert proposal_late(rnd, bruno_reg, source="tablet", late=False, arrived=arrived) is False
    play.place(rnd)


def test_moyenne_per_centre_and_solos_over_the_whole_event(event) -> None:
    anne, bruno, chloe, _denis = event["players"]
    play = event["play"]
    r1 = play.play({anne: ("AUE", "H8", None), bruno: ("HAINES", "H4", 26)})
    r2 = play.play(
        {anne: ("AUE", "I7", None), bruno: ("FAcE", "G6", 20), chloe: ("FEAUtES", "9B", 11)},
    )  # Denis hands nothing in: 0
    decision = decision_moyenne(round_id=r2.pk, player_id=anne.pk, earlier_round_id=r1.pk,
                                reason="AUE rejoué", actor=event["arb_a"])  # fmt: skip
    # §4.5, the players of the same arbiter group, here centre A: Chloé 11, Denis 0
    # → ⌊11 / 2⌋ = 5 (the whole event would give ⌊(20 + 11 + 0) / 3⌋ = 10), cap 13.
    assert (decision.score, decision.params["average_of"]) == (5, 2)
    totals = {s.player_id: s for s in game_standings(play.game)}
    assert totals[anne.pk].total == 5
    # §4.6 over the whole event: 4 entrants ≥ 4, so Bruno's two solos pay 10 each
    # (centre B alone has 1 player and would pay none): 26 + 20 + 2 × 10 = 66.
    assert totals[bruno.pk].total == 66


def test_a_centre_arbiter_handed_the_head_role_directs_every_centre(event) -> None:
    from tournaments.services import arbiter_handover

    t, arb_a = event["tournament"], event["arb_a"]
    arbiter_handover(actor=event["head"], tournament_id=t.pk, user_id=arb_a.pk)
    m = ArbiterMembership.objects.get(tournament=t, user=arb_a)
    assert (m.role, m.centre_id, m.centre_head) == ("head", None, False)
    with pytest.raises(ServiceError) as info:  # the head belongs to no centre
        arbiter_centre_set(tournament_id=t.pk, user_id=arb_a.pk, centre_id=event["a"].pk,
                           actor=arb_a)  # fmt: skip
    assert info.value.code == "centre.head_role"


def test_a_centre_in_use_is_kept_but_the_tournament_deletes_whole(tournament_setup) -> None:
    """A centre with players or arbiters cannot be deleted on its own (they would silently
    lose it: an arbiter would then see every centre); the tournament deletes with all."""
    from django.db.models import RestrictedError

    from tournaments.models import Centre, Tournament

    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
    lyon = centre_create(tournament_id=t.pk, name="Lyon", actor=head)
    reg = Registration.objects.filter(tournament=t).first()
    registration_centre_set(registration_id=reg.pk, centre_id=lyon.pk, actor=head)
    arbiter_add(actor=head, tournament_id=t.pk, login="arbitre-lyon", centre_id=lyon.pk)
    with pytest.raises(RestrictedError):
        Centre.objects.filter(pk=lyon.pk).delete()
    Tournament.objects.filter(pk=t.pk).delete()
    assert not Centre.objects.exists()


def test_a_simultaneous_event_without_centres_closes_as_one_room(tournament_setup) -> None:
    """Ticked « simultané » but no centre yet: nothing waits, the round closes as usual and
    the game screen keeps its « Fermer » button."""
    from django.test import Client
    from django.urls import reverse

    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
    play = simultaneous_seeded_game(tournament_setup, seed=7)
    rnd = play.open_round()
    client = Client()
    client.force_login(head)
    page = client.get(reverse("console:game", args=[play.game.pk])).content.decode()
    assert 'id="close-form"' in page and 'id="centres"' not in page
    assert play.finish(rnd).top_placed_at is not None
