"""One way for the tests to build a game: the real services, called as an arbiter would.

Every test that needs rounds on the board used to carry its own copy of "draw, open, hand
in, close, place the top"; they all go through here::

    play = new_game(tournament_setup, seed=7)        # game_create, as the head arbiter
    r1 = play.open_round()                           # round_draw + round_open
    play.propose(r1, anne, "HAINES", "H4", 26)       # proposal_submit (a tablet's move)
    play.finish(r1)                                  # round_close + round_place_top
    play.play({anne: ("HAINES", "H4", 26)})          # a whole round in one call
    r3 = play.open_round(top=True)                   # + round_compute_top, before the slips
    play.hand_in(r3, {anne: ("PAYES", "13C", None)}) # several slips at once
    other = scenario_of(game, arbiter)               # a game made elsewhere, its own actor

``tests/site/test_scenario_builder.py`` fails on a helper or fixture of another test module
that chains two round services or more: extend this module instead of copying it.

Every game built here is checked when the test ends (issue 16): its stored figures, what the
rankings read, must equal the engine's recomputation from the proposals
(``tournaments.selectors.figures_check``, as ``manage.py tirage_standings_check`` runs it),
so every test that plays a game also proves stored = recomputed.

This module only drives the services: it never computes a score, a total or a rank. The
values a test expects stay in the test, worked out by hand from the rules
(../shared/rules/) or from the conformance data.

Who acts: the tournament's head arbiter (``tournament_setup["arbiter"]``), or ``SYSTEM``
(a worker or a command) for the tests that exercise the site without an arbiter. The actor
is always passed explicitly (issue 20: services take ``actor`` as a required keyword).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments import live_versions
from tournaments.access import SYSTEM
from tournaments.models import Game, Player, Registration, Round, Tournament
from tournaments.models.choices import GameKind, RoundState
from tournaments.services import (
    centre_close,
    game_create,
    proposal_submit,
    round_close,
    round_compute_top,
    round_draw,
    round_open,
    round_place_top,
)
from tournaments.services.centre_state import open_centres
from tournaments.services.proposals import ProposalResult
from tournaments.services.registry import registration_token_issue

#: The test being run (set by tests/conftest.py) and the games it built, checked at its end.
TEST_ITEM: Any = None
BUILT: list[int] = []


def check_built_games() -> None:
    """Stored figures = recomputed figures for every game the test built (a test failure
    listing the differences, in French, otherwise)."""
    from tournaments.models import Game
    from tournaments.selectors.figures_check import figures_differences

    games = Game.objects.filter(pk__in=BUILT).select_related("tournament").order_by("pk")
    BUILT.clear()
    differences = figures_differences(games)
    assert not differences, "stored figures differ:\n" + "\n".join(differences)


def _built(game: Game) -> None:
    if not BUILT and TEST_ITEM is not None:
        TEST_ITEM.addfinalizer(check_built_games)  # runs before the database goes away
    BUILT.append(game.pk)


HEAD_ARBITER: Any = object()  # new_game's default: the setup's head arbiter
SEED = 7  # the hand-checked game of tests/site/test_game_services.py

# ``{player: (word, reference, claimed score or None)}``: the slips of one round.
Slips = Mapping[Any, tuple[str, str, int | None]]


@dataclass
class GameScenario:
    """A game being played: its rows and who drives it."""

    game: Game
    actor: Any

    def draw(self, letters: str | None = None) -> Round:
        """The next rack, by the game's source (or ``letters`` for a manual game)."""
        return round_draw(game_id=self.game.pk, letters=letters, actor=self.actor)

    def open_round(self, letters: str | None = None, *, top: bool = False) -> Round:
        """Draw the next rack and open the round (the clock starts); with ``top``, the top
        is computed now, as the worker would, so the test can read it before the slips."""
        rnd = round_open(round_id=self.draw(letters).pk, actor=self.actor)
        return self.compute_top(rnd) if top else rnd

    def open(self, rnd: Round) -> Round:
        return round_open(round_id=rnd.pk, actor=self.actor)

    def close(self, rnd: Round) -> Round:
        """Close the round; in a simultaneous event, every centre still open closes it (the
        last one's close closes the round, ``centre_close``)."""
        for centre in open_centres(rnd):
            centre_close(round_id=rnd.pk, centre_id=centre.pk, actor=self.actor, confirm=True)
        return round_close(round_id=rnd.pk, actor=self.actor, confirm=True)

    def close_centre(self, rnd: Round, centre: Any, *, actor: Any = None) -> Round:
        """One centre of a simultaneous event closes the round (``actor``: its head)."""
        return centre_close(round_id=rnd.pk, centre_id=centre.pk, actor=actor or self.actor,
                            confirm=True)  # fmt: skip

    def place(self, rnd: Round) -> Round:
        """Lay the top on the board (the round must be closed)."""
        return round_place_top(round_id=rnd.pk, actor=self.actor)

    def finish(self, rnd: Round) -> Round:
        """Close the round and place its top: the board is ready for the next draw."""
        self.close(rnd)
        return self.place(rnd)

    def compute_top(self, rnd: Round) -> Round:
        """The top, computed now rather than by the worker (as the system does)."""
        return round_compute_top(round_id=rnd.pk, actor=SYSTEM)

    def propose(
        self,
        rnd: Round,
        player: Any,
        word: str,
        reference: str = "",
        score: int | None = None,
        **extra: Any,
    ) -> ProposalResult:
        """A player's move, as a tablet sends it (``extra``: client_key, source, late…).

        The tablet's sender is the system here (a test stands for the player's token); an
        arbiter's slip (``source="arbiter"``) is entered by the scenario's actor."""
        if "actor" not in extra:
            extra["actor"] = self.actor if extra.get("source") == "arbiter" else SYSTEM
        return proposal_submit(
            round_id=rnd.pk,
            player_id=player.pk,
            word=word,
            reference=reference,
            claimed_score=score,
            **extra,
        )

    def hand_in(self, rnd: Round, slips: Slips) -> None:
        """Every slip of ``slips`` handed in on the open round ``rnd``."""
        for player, (word, reference, score) in slips.items():
            self.propose(rnd, player, word, reference, score)

    def past_deadline(self, rnd: Round) -> None:
        """Move the round's deadline one second into the past (time is up, still open). A
        write outside the services: it tells the polls' versions itself (live_versions)."""
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        live_versions.changed(tournaments=[self.game.tournament_id])

    def play(self, slips: Slips | None = None, *, top: bool = False) -> Round:
        """One whole round: draw, open (``top``: compute it now), hand in ``slips``, close,
        place the top."""
        rnd = self.open_round(top=top)
        self.hand_in(rnd, slips or {})
        return self.finish(rnd)

    def last_round(self) -> Round | None:
        """The last round drawn, whatever its state."""
        return self.game.rounds.order_by("-number").first()

    def current_round(self) -> Round | None:
        """The last round drawn (cancelled ones aside)."""
        return self.game.rounds.exclude(state=RoundState.CANCELLED).order_by("-number").first()


def new_game(
    setup: Mapping[str, Any],
    *,
    seed: int = SEED,
    actor: Any = HEAD_ARBITER,
    tournament: Tournament | None = None,
    variant_code: str | None = None,
) -> GameScenario:
    """A seeded game on ``setup``'s tournament (or ``tournament``), in the tournament's
    variant (or ``variant_code``), driven by its head arbiter, or by ``actor`` when given
    (``SYSTEM`` for a worker or a command)."""
    who = setup["arbiter"] if actor is HEAD_ARBITER else actor
    target = tournament or setup["tournament"]
    game = game_create(tournament_id=target.pk, seed=seed, variant_code=variant_code, actor=who)
    _built(game)
    return GameScenario(game, who)


def simultaneous_seeded_game(
    setup: Mapping[str, Any], *, seed: int = SEED, actor: Any = HEAD_ARBITER
) -> GameScenario:
    """A seeded game in ``setup``'s simultaneous tournament, for the tests of centres that
    play the hand-checked seed-7 racks with a drawn-on-demand round (a sealed game would
    only be drawn by its release schedule). The site refuses it
    (``game.simultaneous_seeded``, tests/site/test_centre_guards.py): it is created with
    the tournament's flag cleared in the database and set back after, as an event created
    before that refusal would hold it."""
    tournament = setup["tournament"]
    Tournament.objects.filter(pk=tournament.pk).update(simultaneous=False)
    try:
        return new_game(setup, seed=seed, actor=actor)
    finally:
        Tournament.objects.filter(pk=tournament.pk).update(simultaneous=True)


def new_predrawn_game(
    setup: Mapping[str, Any], text: str, *, sealed: bool = False, actor: Any = HEAD_ARBITER
) -> GameScenario:
    """A pre-drawn game of ``text`` (one line a round) on ``setup``'s tournament; ``sealed``:
    its racks encrypted until each round's release (docs/simultaneous.md)."""
    who = setup["arbiter"] if actor is HEAD_ARBITER else actor
    game = game_create(tournament_id=setup["tournament"].pk, kind=GameKind.PREDRAWN,
                       predrawn=text, sealed=sealed, actor=who)  # fmt: skip
    _built(game)
    return GameScenario(game, who)


def scenario_of(game: Game, actor: Any) -> GameScenario:
    """A game created elsewhere (by another actor, or before the test), driven by ``actor``."""
    return GameScenario(game, actor)


def add_players(tournament: Tournament, names: list[str], *, first_table: int) -> list[Player]:
    """Players registered at the tables that follow (``first_table`` for the first name)."""
    players = Player.objects.bulk_create([Player(name=name) for name in names])
    Registration.objects.bulk_create(
        [
            Registration(tournament=tournament, player=player, table_number=table)
            for table, player in enumerate(players, start=first_table)
        ]
    )
    return players


def tablet_tokens(tournament: Tournament, *, actor: Any) -> list[str]:
    """A fresh tablet link token for every registration, in table order."""
    registrations = Registration.objects.filter(tournament=tournament).order_by("table_number")
    return [tablet_token(reg, actor=actor) for reg in registrations]


def tablet_token(registration: Registration, *, actor: Any) -> str:
    """A fresh tablet link token for one registration, issued by the service."""
    return registration_token_issue(registration_id=registration.pk, actor=actor)
