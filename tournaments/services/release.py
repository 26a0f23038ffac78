"""Releasing a sealed game's rounds at their scheduled times (issue 16, item 1;
docs/simultaneous.md "Sealed games and release times").

A round of a sealed game is **released** when its time has come: its line alone is
decrypted and kept (``SealedRound.text``), and the round is **drawn** from it as soon as the
previous top is placed (at once when it already is), its top computed, and opened if the
game says so (``SealedGame.auto_open``). Three paths run the same idempotent work, so a lost
message never blocks a round:

* the ``release_round`` task, queued with an ETA for every line when the schedule is set;
* the sweep (``release_sweep``): ``manage.py tirage_release_sweep`` from a systemd timer or
  cron, the worker at start-up, and, in the embedded profile (eager tasks, no ETA), the
  console's game screen when a release is due;
* placing a top (``round_place_top`` queues ``release_sweep_game``): the next round, if
  already released, is drawn then.

A release before its time is refused (``release.early``, 409); nobody draws a sealed round
by hand (``release.hand_draw``). Audit rows name the round, never its rack.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tournaments import seal_crypto
from tournaments.access import SYSTEM, Actor, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import Game, GameState, Round, RoundState, SealedGame, SealedRound
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_record
from tournaments.services.games import draw_next
from tournaments.services.rounds import round_compute_top, round_open

logger = logging.getLogger(__name__)

#: The longest schedule accepted: a game's rounds are released within two days.
MAX_SPAN = timedelta(days=2)
#: A schedule starts at most this far ahead (and at most MAX_SPAN in the past).
HORIZON = timedelta(days=400)


@dataclass(frozen=True, slots=True)
class Schedule:
    """What ``release_schedule_set`` was given: the first release, then either a fixed
    ``interval`` (seconds) or the ``times`` of every line, and ``auto_open``."""

    starts_at: datetime | None = None
    interval: int | None = None
    times: tuple[datetime, ...] = ()
    auto_open: bool = False


def _locked(game_id: int) -> tuple[Game, SealedGame]:
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    seal = SealedGame.objects.filter(game=game).first()
    if seal is None:
        raise ServiceError("release.not_sealed", f"Game {game.number} is not sealed.")
    return game, seal


def _times(schedule: Schedule, lines: int) -> list[datetime]:
    if schedule.times:
        if len(schedule.times) != lines:
            raise ServiceError(
                "release.times", f"The game has {lines} rounds to schedule.", count=lines
            )
        return list(schedule.times)
    if schedule.starts_at is None or not schedule.interval:
        raise ServiceError("release.schedule", "A schedule needs a start and an interval.")
    if schedule.interval < 1:
        raise ServiceError("release.schedule", "The interval is at least one second.")
    step = timedelta(seconds=schedule.interval)
    try:
        return [schedule.starts_at + i * step for i in range(lines)]
    except OverflowError:
        raise ServiceError("release.span", "The schedule is out of range.") from None


def release_schedule_set(*, game_id: int, schedule: Schedule, actor: Actor) -> SealedGame:
    """Set when each round of a sealed game is released (head arbiter). Released rounds
    keep their time; the others take the new one, in strictly increasing order, after the
    last released one. Every unreleased round's ``release_round`` is queued for its time."""
    with transaction.atomic():
        game, seal = _locked(game_id)
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if game.state == GameState.FINISHED:
            raise ServiceError("game.over", "The game is over.")
        lines = list(SealedRound.objects.select_for_update().filter(sealed=seal))
        wanted, now = _times(schedule, len(lines)), timezone.now()
        if not now - MAX_SPAN <= wanted[0] <= now + HORIZON or wanted[-1] - wanted[0] > MAX_SPAN:
            raise ServiceError("release.span", "A game's rounds are released within two days.")
        pairs = zip(lines, wanted, strict=True)
        # A released line keeps its time (always set: it was released because it was due).
        times = [line.release_at or t if line.released_at else t for line, t in pairs]
        for n, (before, after) in enumerate(zip(times, times[1:], strict=False), start=2):
            if after <= before:
                raise ServiceError(
                    "release.order", f"Round {n} is not released after round {n - 1}.", round=n
                )
        for line, at in zip(lines, times, strict=True):
            if line.released_at is None and line.release_at != at:
                line.release_at = at
                line.save(update_fields=["release_at"])
            if line.released_at is None:
                queue_after_commit("tournaments.release_round", game.pk, line.number, eta=at)
        seal.starts_at, seal.auto_open = times[0], schedule.auto_open
        seal.interval = None if schedule.times else schedule.interval
        seal.save(update_fields=["starts_at", "interval", "auto_open"])
        audit_record(actor=actor, action="release.schedule", obj=game,
                     starts_at=times[0].isoformat(), interval=seal.interval,
                     auto_open=seal.auto_open, last=times[-1].isoformat())  # fmt: skip
        return seal


def _early(line: SealedRound, now: datetime) -> ServiceError:
    if line.release_at is None:
        return ServiceError(
            "release.unscheduled", f"Round {line.number} has no release time.", round=line.number
        )
    local = timezone.localtime(line.release_at)
    seconds = int((line.release_at - now).total_seconds()) + 1
    return ServiceError(
        "release.early",
        f"Round {line.number} is released at {local:%Y-%m-%d %H:%M:%S}.",
        round=line.number,
        date=f"{local:%d/%m/%Y}",
        time=f"{local:%H:%M:%S}",
        seconds=seconds,
    )


def _release_due(game: Game, seal: SealedGame, upto: int, actor: Actor) -> None:
    """Decrypt the lines up to ``upto`` (in order) that are due and not released yet; the
    first one not due stops (and refuses when it is ``upto`` itself)."""
    now = timezone.now()
    lines = SealedRound.objects.select_for_update().filter(sealed=seal, number__lte=upto)
    for line in lines.order_by("number"):
        if line.released_at is not None:
            continue
        if line.release_at is None or line.release_at > now:
            raise _early(line, now)
        line.text = seal_crypto.unseal_line(
            line.token, sealed_with=seal.key_id, game_id=game.pk, number=line.number
        )
        line.released_at = now
        line.save(update_fields=["text", "released_at"])
        audit_record(actor=actor, action="round.release", obj=game, round=line.number)


def _draw_ready(game_id: int, actor: Actor) -> Round | None:
    """Draw the next round if its line is released and the previous top placed; its top
    is computed at once and it opens if the game says so. None when it must wait."""
    with transaction.atomic():
        game, seal = _locked(game_id)
        if game.state == GameState.FINISHED:
            return None
        rounds = list(game.rounds.exclude(state=RoundState.CANCELLED).order_by("number"))
        lines = {ln.number: ln for ln in SealedRound.objects.filter(sealed=seal)}
        for rnd in rounds:  # a draw whose link was lost (a crash between the two)
            line = lines.get(rnd.number)
            if line is not None and line.round_id is None and line.released_at is not None:
                SealedRound.objects.filter(pk=line.pk).update(round=rnd)
        nxt = lines.get(len(rounds) + 1)
        if nxt is None or nxt.released_at is None:
            return None
        if rounds and rounds[-1].top_placed_at is None:
            return None
    try:
        rnd = draw_next(game_id=game_id, letters=None, actor=actor, release=True)
    except ServiceError as error:
        if error.code in ("draw.pending", "game.over"):  # another path drew it meanwhile
            return None
        raise
    SealedRound.objects.filter(pk=nxt.pk).update(round=rnd)
    rnd = round_compute_top(round_id=rnd.pk, actor=SYSTEM)
    if seal.auto_open:
        rnd = round_open(round_id=rnd.pk, actor=SYSTEM)
    return rnd


def round_release(*, game_id: int, number: int, actor: Actor) -> Round | None:
    """Release round ``number`` of a sealed game (the system, or its head arbiter once the
    time has come): decrypt its line (and any earlier one due and not released), then draw
    it if the previous top is placed. Returns the round once drawn, None while it waits for
    the previous top. Running it again changes nothing (idempotent). Before its time:
    ``release.early``."""
    with transaction.atomic():
        game, seal = _locked(game_id)
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if not 1 <= number <= seal.lines:
            raise ServiceError(
                "release.unknown", f"The sealed game has no round {number}.", round=number
            )
        _release_due(game, seal, number, actor)
    _draw_ready(game_id, actor)
    line = SealedRound.objects.select_related("round").get(sealed=seal, number=number)
    return line.round


def release_advance(*, game_id: int, actor: Actor) -> Round | None:
    """Release every line of the game that is due and draw the next round if it may be:
    the sweep's work for one game. Returns the round drawn now, if any."""
    with transaction.atomic():
        game, seal = _locked(game_id)
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if game.state == GameState.FINISHED:
            return None
        now = timezone.now()
        due = SealedRound.objects.filter(sealed=seal, release_at__lte=now)
        last = due.order_by("-number").values_list("number", flat=True).first()
        if last is not None:
            _release_due(game, seal, last, actor)
    return _draw_ready(game_id, actor)


def release_sweep(*, actor: Actor) -> list[Round]:
    """Advance every playing sealed game with a line due and not drawn (the system: the
    timer's command, the worker at start-up). A game that fails (a missing key, a line
    the rules refuse) is logged by its code and the others go on."""
    due = SealedRound.objects.filter(
        release_at__lte=timezone.now(),
        round__isnull=True,
        sealed__game__state=GameState.PLAYING,
    )
    drawn = []
    for game_id in sorted(set(due.values_list("sealed_id", flat=True))):
        try:
            rnd = release_advance(game_id=game_id, actor=actor)
        except ServiceError as error:
            logger.error("release sweep: game %s refused: %s", game_id, error.code)
            continue
        if rnd is not None:
            drawn.append(rnd)
    return drawn


def release_requeue(*, actor: Actor) -> int:
    """Queue ``release_round`` again for every scheduled line not released yet (a worker
    starting after Redis lost its messages); a line queued twice is released once."""
    lines = SealedRound.objects.filter(
        released_at__isnull=True,
        release_at__isnull=False,
        sealed__game__state=GameState.PLAYING,
    ).values_list("sealed_id", "number", "release_at")
    count = 0
    for game_id, number, at in lines:
        queue_after_commit("tournaments.release_round", game_id, number, eta=at)
        count += 1
    return count
