"""Each web process's snapshot of a tournament's playing round, for the queued submissions
(issue 16, item 3): the round with its game, tournament and lexicon, kept as long as the
tournament's live version (``live_versions``, one Redis ``GET``) has not changed. Every
change of a round, of the tournament's settings or of its lexicon is audited and bumps
that version after its commit, so a snapshot is never older than the last committed
change a request could have seen. With the cache down, the round is read each time."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from tournaments import live_versions, selectors
from tournaments.models import Round
from tournaments.models.choices import RoundState

_snapshots: dict[int, tuple[Any, Round | None]] = {}
_lock = threading.Lock()
#: Tournaments kept per process before the snapshots are dropped.
LIMIT = 256


def _read(tournament_id: int) -> Round | None:
    rnd = selectors.playing_round(tournament_id)
    if rnd is not None:
        _ = rnd.game.tournament.lexicon  # loaded now, kept with the snapshot
    return rnd


def playing_round(tournament_id: int) -> Round | None:
    """``selectors.playing_round`` from this process's snapshot when still current."""
    version = live_versions.tournament_version(tournament_id)
    if version is None:
        return _read(tournament_id)
    return playing_round_at(tournament_id, version)


def playing_round_at(tournament_id: int, version: Any) -> Round | None:
    """As :func:`playing_round`, the tournament's live version read by the caller (before
    this call; the submissions' fast lane reads it with the player's, in one round trip)."""
    with _lock:
        held = _snapshots.get(tournament_id)
    if held is not None and held[0] == version:
        return held[1]
    rnd = _read(tournament_id)
    with _lock:
        if len(_snapshots) >= LIMIT:
            _snapshots.clear()
        _snapshots[tournament_id] = (version, rnd)
    return rnd


def queueable(rnd: Round | None, named: int | None = None) -> Round | None:
    """``rnd`` (the playing round, from a snapshot) when a move into it may take the queued
    path: open, its top known, and the round the move names (``named``, if any) is this
    one. None: the synchronous path judges it at once (a late move, a closed round, another
    round named, no round). The one rule of both ways in (``api.views.player`` and the
    submissions' fast lane, ``tournaments.proposal_lane``)."""
    if rnd is None or rnd.state != RoundState.OPEN or rnd.top_score is None:
        return None
    if named is not None and named != rnd.pk:
        return None
    return rnd


def forget() -> None:
    """Drop the snapshots (tests)."""
    with _lock:
        _snapshots.clear()
        _closes.clear()


#: (round id, centre id) → (the centre's live version read before, its close time or None).
_closes: dict[tuple[int, int], tuple[Any, datetime | None]] = {}


def centre_closed_at(round_id: int, centre_id: int | None, version: Any = None) -> datetime | None:
    """When the player's centre closed the round (None: still playing, or no centre), from
    this process's memory while the centre's live version (``live_versions.centre_key``,
    read **before**; by this call when not given) is unchanged: every close of a centre
    and every undoing of one is audited and bumps it after its commit. The queued paths
    send a move of a closed centre to ``proposal_submit``, which judges it late
    (``proposals.proposal_late``); this only routes, it decides nothing."""
    if not centre_id:
        return None
    if version is None:
        version = live_versions.centre_version(centre_id)
    if version is None:  # the cache down: the row each time
        return selectors.centre_close_at(round_id, centre_id)
    key = (round_id, centre_id)
    with _lock:
        held = _closes.get(key)
    if held is not None and held[0] == version:
        return held[1]
    closed_at = selectors.centre_close_at(round_id, centre_id)
    with _lock:
        if len(_closes) >= LIMIT * 64:
            _closes.clear()
        _closes[key] = (version, closed_at)
    return closed_at
