"""Sealed games and their release schedule (issue 16, item 1; docs/simultaneous.md).

The racks are those of the hand-written Eliot file (tests/data/eliot/hand-written.xml) as a
pre-drawn text, whose tops were worked out by hand in tests/engine/interop/test_eliot.py
(rules T4): WHISKYE → H4 WHISKY 92; then the reliquat E completed with consonants is
rejected (E+BBCCDD, fewer than 2 vowels) and BOUDEXL kept → 9F OXYDE 36; BLU+?MAN → K4
ALBUMeN 92."""

from __future__ import annotations

import base64
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.scenario import new_predrawn_game, scenario_of
from tournaments import seal_crypto
from tournaments.access import SYSTEM
from tournaments.checks import seal_key_check
from tournaments.errors import ServiceError, http_status
from tournaments.models import AuditLog, Game, Round, RoundState, SealedGame, SealedRound
from tournaments.services import round_draw, tournament_update
from tournaments.services.games import game_create
from tournaments.services.lifecycle import round_cancel
from tournaments.services.release import (
    Schedule,
    release_advance,
    release_schedule_set,
    release_sweep,
    round_release,
)
from tournaments.services.sealing import game_seal
from tournaments.wording import error_text

pytestmark = pytest.mark.django_db

TEXT = "WHISKYE\nE+BBCCDD BOUDEXL\nBLU+?MAN\n"


def sealed_game(setup: dict[str, Any], **schedule: Any) -> Game:
    game = new_predrawn_game(setup, TEXT, sealed=True).game
    if schedule:
        release_schedule_set(game_id=game.pk, schedule=Schedule(**schedule),
                             actor=setup["arbiter"])  # fmt: skip
    return game


def refusal(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value


# --- encryption --------------------------------------------------------------------------


def test_a_line_seals_and_unseals_bound_to_its_game_and_round(settings) -> None:
    settings.TIRAGE_SEAL_KEY = seal_crypto.generate_key()
    kid, key = seal_crypto.sealing_key()
    token = seal_crypto.seal_line("E+BBCCDD BOUDEXL", key=key, game_id=7, number=2)
    assert "BOUDEXL" not in token and token.startswith("v1:")
    assert seal_crypto.unseal_line(token, sealed_with=kid, game_id=7, number=2) == (
        "E+BBCCDD BOUDEXL"
    )
    # The same token read as another round or another game's: refused, not decrypted.
    for game_id, number in ((7, 3), (8, 2)):
        with pytest.raises(ServiceError) as caught:
            seal_crypto.unseal_line(token, sealed_with=kid, game_id=game_id, number=number)
        error = caught.value
        assert error.code == "seal.corrupt" and http_status(error.code) == 409


def test_a_wrong_key_is_named_as_such(settings, tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    settings.TIRAGE_SEAL_KEY = seal_crypto.generate_key()  # not the key that sealed it
    error = refusal(lambda: round_release(game_id=game.pk, number=1, actor=SYSTEM))
    assert error.code == "seal.key" and http_status(error.code) == 409
    text = error_text(error)
    assert text.startswith("La clé de scellement du serveur n'est pas celle")
    assert "WHISKYE" not in text and not SealedRound.objects.filter(released_at__isnull=False)
    # A key rotation: the new key first, the old one still listed, opens the old seal.
    old = game.seal.key_id
    settings.TIRAGE_SEAL_KEY = ""
    derived = seal_crypto.seal_keys()[0]
    assert seal_crypto.key_id(derived) == old
    settings.TIRAGE_SEAL_KEY = ",".join(
        [seal_crypto.generate_key(), base64.urlsafe_b64encode(derived).decode()]
    )
    assert round_release(game_id=game.pk, number=1, actor=SYSTEM).rack == "WHISKYE"


def test_production_refuses_to_seal_without_a_key(settings, tournament_setup) -> None:
    settings.PRODUCTION, settings.TIRAGE_SEAL_KEY = True, ""
    error = refusal(lambda: sealed_game(tournament_setup))
    assert error.code == "seal.no_key" and not Game.objects.exists()
    settings.TIRAGE_SEAL_KEY = "not a key"
    assert refusal(lambda: sealed_game(tournament_setup)).code == "seal.key_format"


# --- the sealed game ---------------------------------------------------------------------


def test_a_sealed_game_keeps_no_rack_in_clear(tournament_setup) -> None:
    game = sealed_game(tournament_setup)
    game.refresh_from_db()
    assert game.kind == "predrawn" and game.predrawn == ""
    seal = SealedGame.objects.get(game=game)
    lines = list(seal.rounds.order_by("number"))
    assert seal.lines == 3 and [line.number for line in lines] == [1, 2, 3]
    assert all(line.text == "" and line.released_at is None for line in lines)
    stored = " ".join(line.token for line in lines) + str(
        list(AuditLog.objects.values_list("payload", flat=True))
    )
    for rack in ("WHISKYE", "BBCCDD", "BOUDEXL", "BLU", "MAN"):
        assert rack not in stored


def test_a_simultaneous_events_predrawn_game_is_always_sealed(tournament_setup) -> None:
    """Issue 16: in a simultaneous event the pre-drawn racks stay hidden from every centre's
    arbiters, so a pre-drawn game is sealed even when the organiser did not tick it."""
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    tournament_update(actor=head, tournament_id=t.pk, simultaneous=True)
    game = new_predrawn_game(tournament_setup, TEXT, sealed=False).game
    game.refresh_from_db()
    assert game.predrawn == ""
    assert SealedGame.objects.get(game=game).lines == 3


def test_an_existing_predrawn_game_is_sealed_before_its_first_draw(tournament_setup) -> None:
    arbiter = tournament_setup["arbiter"]
    game = game_create(tournament_id=tournament_setup["tournament"].pk, kind="predrawn",
                       predrawn=TEXT, actor=arbiter)  # fmt: skip
    seal = game_seal(game_id=game.pk, actor=arbiter)
    assert seal.lines == 3 and Game.objects.get(pk=game.pk).predrawn == ""
    assert game_seal(game_id=game.pk, actor=arbiter).pk == seal.pk  # again: no-op
    seeded = game_create(tournament_id=tournament_setup["tournament"].pk, actor=arbiter)
    assert refusal(lambda: game_seal(game_id=seeded.pk, actor=arbiter)).code == "seal.state"


def test_nobody_draws_a_sealed_round_by_hand(tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    for actor in (tournament_setup["arbiter"], SYSTEM):
        error = refusal(lambda actor=actor: round_draw(game_id=game.pk, actor=actor))
        assert error.code == "release.hand_draw" and http_status(error.code) == 409
    assert not Round.objects.exists()


# --- releases ----------------------------------------------------------------------------


def test_a_release_before_its_time_is_refused_with_its_time(tournament_setup) -> None:
    at = timezone.now() + timedelta(hours=1)
    game = sealed_game(tournament_setup, starts_at=at, interval=120)
    error = refusal(lambda: round_release(game_id=game.pk, number=1, actor=SYSTEM))
    assert error.code == "release.early" and http_status(error.code) == 409
    local = timezone.localtime(at)
    assert error_text(error) == (
        f"Le coup 1 sera dévoilé le {local:%d/%m/%Y} à {local:%H:%M:%S}, pas avant."
    )
    assert not Round.objects.exists() and not SealedRound.objects.filter(text__gt="")
    unscheduled = sealed_game(tournament_setup)
    error = refusal(lambda: round_release(game_id=unscheduled.pk, number=1, actor=SYSTEM))
    assert error.code == "release.unscheduled"
    error = refusal(lambda: round_release(game_id=game.pk, number=4, actor=SYSTEM))
    assert error.code == "release.unknown" and http_status(error.code) == 404


def test_a_release_is_idempotent_and_draws_with_the_top(tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    first = round_release(game_id=game.pk, number=1, actor=SYSTEM)
    again = round_release(game_id=game.pk, number=1, actor=SYSTEM)
    assert first is not None and again is not None and first.pk == again.pk
    assert Round.objects.filter(game=game).count() == 1
    # Hand computation (module docstring): WHISKYE, top H4 WHISKY 92, drawn not opened.
    assert (first.rack, first.state, first.top_score) == ("WHISKYE", RoundState.DRAWN, 92)
    assert (first.top["chosen"]["coord"], first.top["chosen"]["word"]) == ("H4", "WHISKY")
    assert AuditLog.objects.filter(action="round.release").count() == 1
    # Round 2's line stays sealed: its time has not come.
    line2 = SealedRound.objects.get(sealed_id=game.pk, number=2)
    assert line2.released_at is None and line2.text == ""
    assert refusal(lambda: round_release(game_id=game.pk, number=2, actor=SYSTEM)).code == (
        "release.early"
    )


def test_a_round_released_before_the_previous_top_is_placed_waits_for_it(
    tournament_setup, django_capture_on_commit_callbacks, eager_celery
) -> None:
    start = timezone.now() - timedelta(seconds=30)
    game = sealed_game(tournament_setup, starts_at=start, interval=10, auto_open=True)
    rnd = round_release(game_id=game.pk, number=1, actor=SYSTEM)
    assert rnd is not None and rnd.state == RoundState.OPEN  # auto_open
    # Round 2 is due, but round 1's top is not placed: released, not drawn.
    assert round_release(game_id=game.pk, number=2, actor=SYSTEM) is None
    assert SealedRound.objects.get(sealed_id=game.pk, number=2).text == "E+BBCCDD BOUDEXL"
    play = scenario_of(game, tournament_setup["arbiter"])
    play.close(rnd)
    with django_capture_on_commit_callbacks(execute=True):
        play.place(rnd)  # queues release_sweep_game, run eagerly at commit
    second = Round.objects.get(game=game, number=2)
    # The rejected completion of the reliquat E, then BOUDEXL: 9F OXYDE 36 (hand computed).
    assert second.rack == "-BOUDEXL" and second.top_score == 36
    assert second.rejections[0]["rejected"] == "minimum"
    assert second.state == RoundState.OPEN


def test_the_sweep_releases_what_is_due_once(tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    drawn = release_sweep(actor=SYSTEM)
    assert [(r.game_id, r.number, r.rack) for r in drawn] == [(game.pk, 1, "WHISKYE")]
    assert (
        release_sweep(actor=SYSTEM) == [] and release_advance(game_id=game.pk, actor=SYSTEM) is None
    )
    assert Round.objects.filter(game=game).count() == 1


def test_schedule_rules(tournament_setup) -> None:
    arbiter, now = tournament_setup["arbiter"], timezone.now()
    game = sealed_game(tournament_setup)
    times = (now + timedelta(minutes=5), now + timedelta(minutes=4), now + timedelta(minutes=9))

    def set_(**kwargs: Any) -> Any:
        return release_schedule_set(game_id=game.pk, schedule=Schedule(**kwargs), actor=arbiter)

    assert refusal(lambda: set_(times=times)).code == "release.order"
    assert refusal(lambda: set_(times=times[:2])).code == "release.times"
    assert refusal(lambda: set_(starts_at=now)).code == "release.schedule"
    assert refusal(lambda: set_(starts_at=now, interval=86400 * 3)).code == "release.span"
    seal = set_(times=(times[0], times[2], times[2] + timedelta(minutes=1)))
    assert seal.interval is None and seal.starts_at == times[0]
    got = list(SealedRound.objects.filter(sealed=seal).order_by("number")
               .values_list("release_at", flat=True))  # fmt: skip
    assert got == [times[0], times[2], times[2] + timedelta(minutes=1)]


def test_a_sealed_round_is_not_cancelled(tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    rnd = round_release(game_id=game.pk, number=1, actor=SYSTEM)
    assert rnd is not None
    error = refusal(lambda: round_cancel(round_id=rnd.pk, reason="erreur", actor=SYSTEM))
    assert error.code == "release.cancel" and Round.objects.get(pk=rnd.pk).state == "drawn"


def test_the_sweep_command_prints_each_round_drawn(tournament_setup) -> None:
    game = sealed_game(tournament_setup, starts_at=timezone.now() - timedelta(seconds=5),
                       interval=3600)  # fmt: skip
    out = StringIO()
    call_command("tirage_release_sweep", stdout=out)
    assert out.getvalue() == f"partie {game.pk} : coup 1 dévoilé et tiré\n"
    out = StringIO()
    call_command("tirage_release_sweep", stdout=out)
    assert out.getvalue() == ""


def test_check_deploy_warns_without_a_seal_key_in_production(settings) -> None:
    settings.PRODUCTION, settings.TIRAGE_SEAL_KEY = True, ""
    assert [w.id for w in seal_key_check()] == ["tirage.W002"]
    settings.TIRAGE_SEAL_KEY = seal_crypto.generate_key()
    assert seal_key_check() == []
    settings.PRODUCTION, settings.TIRAGE_SEAL_KEY = False, ""
    assert seal_key_check() == []


def test_only_a_predrawn_game_is_created_sealed(tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    error = refusal(lambda: game_create(tournament_id=t.pk, sealed=True, actor=head))
    assert error.code == "seal.kind" and http_status(error.code) == 400
    assert error_text(error) == "Seule une partie prétirée peut être scellée."
