"""What a submission needs besides the rules: the round read for judging, the round read
under a *shared* lock, and the per-round cache of judgements (issue 16, item 3).

Judgements. Most of a round's proposals repeat a few moves (the top, the sous-tops), and
judging one (board and rack parsed, the engine's checks, lexicon look-ups) is a large part
of a submission. :func:`judged` keeps each outcome judged on time in this process, keyed
by everything the outcome depends on: the round (id, number, rack, board text, top score
and chosen top), the game's variant, the tournament's ``score_required`` and lexicon
(sha256), and the proposal (word, reference, claimed score, source). A redraw, a board
change, a top placed or re-computed, a settings change or another lexicon gives another key,
so a stale judgement can never be served; entries of old rounds simply age out (the cache
is bounded and emptied when full). Nothing of it reaches a player: the cache only saves
the server from judging the same move twice; what an answer may say while the round is
open is decided by the serializers exactly as before. One cache per process is enough
(each web process judges each distinct move of a round once); a shared Redis copy would
cost a network round trip per submission to save a judgement that costs less.

The shared lock. PostgreSQL's ``FOR SHARE`` on the round row: submissions take it
together (none waits for another), while ``round_close`` and every other round change take
``FOR UPDATE`` (``rounds.locked_round``), which waits for the submissions in flight and
makes new ones wait until it commits. Lateness is then decided against the stored close
time (``proposals.proposal_late``).
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import connection

from engine.duplicate.proposals import Outcome, automatic_claim
from tournaments import adapter
from tournaments.models import Round

#: Judgements kept per process before the cache is emptied (a round's distinct moves are
#: a few hundred at most; several rounds' worth fit).
CACHE_SIZE = 4096

_CACHE: dict[tuple, Outcome] = {}
_CACHE_LOCK = threading.Lock()
#: Judgements served from the cache / computed, for the benchmarks and the tests.
STATS = {"hits": 0, "misses": 0}


def judging_round(round_id: int) -> Round | None:
    """The round with its game, tournament and lexicon, read without a lock (judging an
    open round needs no lock: its board, rack and top do not change while it is open)."""
    rounds = Round.objects.select_related("game__tournament__lexicon").filter(pk=round_id)
    return rounds.order_by("pk").first()  # not the model's ordering (joins to sort one row)


def judgement_key(rnd: Round, *, word: str, reference: str, claimed: int | None,
                  source: str) -> tuple:  # fmt: skip
    """Everything an on-time judgement of this proposal depends on (see the docstring)."""
    game = rnd.game
    tournament = game.tournament
    lexicon = tournament.lexicon
    chosen = (rnd.top or {}).get("chosen") or {}
    return (
        rnd.pk, rnd.number, rnd.rack, rnd.board_before, rnd.top_score,
        chosen.get("coord"), chosen.get("word"), game.variant_code,
        tournament.score_required, lexicon.sha256 if lexicon else None,
        word, reference, claimed, source,
    )  # fmt: skip


def judged(key: tuple, judge: Any) -> Outcome:
    """The outcome cached under ``key``, else ``judge()`` (which may raise: a refusal is
    never cached), kept for the next submission of the same move."""
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            STATS["hits"] += 1
            return cached
    outcome: Outcome = judge()
    with _CACHE_LOCK:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = outcome
        STATS["misses"] += 1
    return outcome


def forget_judgements() -> None:
    """Empty this process's cache (tests)."""
    with _CACHE_LOCK:
        _CACHE.clear()
        STATS.update(hits=0, misses=0)


def shared_round(round_id: int, judging: Round) -> Round | None:
    """The round row read again under a shared lock (``FOR SHARE``), carrying the game,
    tournament and lexicon of ``judging`` (the unlocked read of the same round a moment
    before: the ids, numbers and variant they give do not change). ``None`` when the row
    is gone. Without row locks (SQLite) the read is plain: writes are serialised there."""
    lock = " FOR SHARE" if connection.features.has_select_for_update else ""
    table = connection.ops.quote_name(Round._meta.db_table)
    rows = list(Round.objects.raw(f"SELECT * FROM {table} WHERE id = %s{lock}", [round_id]))  # noqa: S608
    if not rows:
        return None
    rnd = rows[0]
    if rnd.game_id == judging.game_id:
        rnd.game = judging.game
    return rnd


def tablet_score(rnd: Round | None, *, reference: str, word: str) -> int | None:
    """``proposals.tablet_claim`` on a round already read (the submission's unlocked read)."""
    if rnd is None or not rnd.rack:
        return None
    game = rnd.game
    var = adapter.variant(game.variant_code)
    return automatic_claim(
        board=adapter.board(rnd.board_before),
        rack=adapter.rack(rnd.rack),
        reference=reference,
        word=word,
        settings=adapter.scoring_settings(game.tournament, var),
    )
