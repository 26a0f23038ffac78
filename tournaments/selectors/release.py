"""A sealed game's release schedule as the console and the API show it: when each round is
released, whether it is, whether it is drawn, and the next release. Never a line's text:
the racks of a released round are read from its ``Round`` like any other round's
(docs/simultaneous.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from tournaments.models import Game, SealedGame, SealedRound
from tournaments.models.release import is_sealed as is_sealed_game

__all__ = ["ReleaseLine", "ReleaseSchedule", "is_sealed_game", "release_schedule"]


@dataclass(frozen=True, slots=True)
class ReleaseLine:
    """One sealed round: its number, release time, whether released and drawn."""

    number: int
    release_at: datetime | None
    released: bool
    drawn: bool


@dataclass(frozen=True, slots=True)
class ReleaseSchedule:
    """A sealed game's schedule; ``next_line`` is the first round not released yet and
    ``seconds_left`` the whole seconds until its time (0 when due, None when unscheduled)."""

    lines: tuple[ReleaseLine, ...]
    starts_at: datetime | None
    interval: int | None
    auto_open: bool
    key_id: str
    next_line: ReleaseLine | None
    seconds_left: int | None

    @property
    def released(self) -> int:
        return sum(1 for line in self.lines if line.released)

    @property
    def due(self) -> bool:
        """A line is due and not drawn yet: the sweep has work (it may still have to wait
        for the previous top)."""
        now = timezone.now()
        return any(
            not line.drawn and line.release_at is not None and line.release_at <= now
            for line in self.lines
        )


def release_schedule(game: Game) -> ReleaseSchedule | None:
    """The schedule of a sealed game, None for any other game."""
    seal = SealedGame.objects.filter(game_id=game.pk).first()
    if seal is None:
        return None
    rows = SealedRound.objects.filter(sealed=seal).order_by("number")
    lines = tuple(
        ReleaseLine(number, at, released is not None, round_id is not None)
        for number, at, released, round_id in rows.values_list(
            "number", "release_at", "released_at", "round_id"
        )
    )
    nxt = next((line for line in lines if not line.released), None)
    left = None
    if nxt is not None and nxt.release_at is not None:
        left = max(0, math.ceil((nxt.release_at - timezone.now()).total_seconds()))
    return ReleaseSchedule(lines, seal.starts_at, seal.interval, seal.auto_open, seal.key_id,
                           nxt, left)  # fmt: skip
