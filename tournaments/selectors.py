"""Reads: standings of a game and of a tournament, computed by ``engine.duplicate.totals``
from the current proposal versions and the arbiters' decisions, so nothing derived is ever
stored and left stale; plus the look-ups the console, API and tablets need (player token,
missing slips, open conflicts, batch progress)."""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict

from engine.duplicate.totals import GameResult, Standing, TotalsSettings, game_result
from engine.duplicate.totals import game_standings as engine_game_standings
from engine.duplicate.totals import tournament_standings as engine_tournament_standings
from tournaments import adapter
from tournaments.models import (
    ArbiterMembership,
    AuditLog,
    BatchJob,
    Decision,
    Game,
    Lexicon,
    LexiconBuild,
    ProposalVersion,
    Registration,
    Round,
    SlipConflict,
    Tournament,
)


def game_counted_rounds(game: Game) -> list:
    """Rounds that count: closed, not cancelled, with their top known."""
    return list(game.rounds.filter(state="closed", top_score__isnull=False).order_by("number"))


# A game's figures are recomputed from the rows; every change that can alter them (a
# proposal, a correction, a decision, a close, an arrival) writes an audit row, so the last
# audit id keys a per-process cache: a rankings page, the tablets after a close and the
# projector then share one computation per change.
_OUTCOMES: OrderedDict[tuple, GameResult] = OrderedDict()
_OUTCOMES_LOCK = threading.Lock()
_OUTCOMES_KEPT = 64


def forget_game_outcomes() -> None:
    """Empty the cache (tests that reset the database under a running process)."""
    with _OUTCOMES_LOCK:
        _OUTCOMES.clear()


def last_audit_id() -> int:
    """The newest audit-log id (0 when the log is empty)."""
    return AuditLog.objects.order_by("-id").values_list("id", flat=True).first() or 0


def game_outcomes(game: Game) -> GameResult:
    """Per-player figures of one game (round scores, solos, warnings, total), under the
    game's own formula (a blitz game of a classic tournament penalises from the 6th
    warning), as its printed record is."""
    settings = adapter.totals_settings(game.tournament, adapter.variant(game.variant_code))
    key = (game.pk, game.created_at, last_audit_id(), settings)
    with _OUTCOMES_LOCK:
        cached = _OUTCOMES.get(key)
    if cached is not None:
        return cached
    result = _compute_game_outcomes(game, settings)
    with _OUTCOMES_LOCK:
        _OUTCOMES[key] = result
        while len(_OUTCOMES) > _OUTCOMES_KEPT:
            _OUTCOMES.popitem(last=False)
    return result


def _compute_game_outcomes(game: Game, settings: TotalsSettings) -> GameResult:
    rounds = game_counted_rounds(game)
    registrations = list(Registration.objects.filter(tournament_id=game.tournament_id))
    versions = ProposalVersion.objects.filter(round__in=rounds, is_current=True)
    current = {(v.round_id, v.player_id): v for v in versions}
    warnings: dict[int, list[int]] = defaultdict(list)
    decisions: dict[tuple[int, int], list[Decision]] = defaultdict(list)
    numbers = {r.pk: r.number for r in rounds}
    for d in Decision.objects.filter(round__in=rounds).order_by("created_at", "id"):
        if d.kind == "warning" and d.disciplinary:
            warnings[d.player_id].append(numbers[d.round_id])
        else:
            decisions[(d.round_id, d.player_id)].append(d)
    scores = adapter.game_scores(
        game=game, rounds=rounds, registrations=registrations, current=current,
        warnings=warnings, decisions=decisions,
    )  # fmt: skip
    return game_result(scores, settings)


def game_standings(game: Game) -> tuple[Standing, ...]:
    """The ranking of one game; ``player_id`` is the ``Player`` primary key."""
    return engine_game_standings(game_outcomes(game))


def tournament_standings(
    tournament: Tournament, results: list[GameResult] | None = None
) -> tuple[Standing, ...]:
    """The ranking over every game of the tournament, with its tie-break.

    ``results`` are the games' figures in game order when the caller already computed them
    (a rankings page shows each game too): each game is then computed once per request.
    """
    if results is None:
        results = [game_outcomes(g) for g in tournament.games.order_by("number")]
    return engine_tournament_standings(results, adapter.totals_settings(tournament))


def registration_by_token(token: str) -> Registration | None:
    """The registration whose tablet token is ``token`` (None: unknown or revoked)."""
    if not token:
        return None
    return (
        Registration.objects.select_related("player", "tournament")
        .filter(access_token=token)
        .first()
    )


def missing_slips(rnd: Round) -> list[Registration]:
    """Registrations present on the round (arrived) with no current proposal, by table."""
    game = rnd.game
    have = ProposalVersion.objects.filter(round=rnd, is_current=True).values("player_id")
    regs = (
        Registration.objects.filter(tournament_id=game.tournament_id)
        .exclude(player_id__in=have)
        .select_related("player")
        .order_by("table_number")
    )
    return [r for r in regs if (r.arrival_game, r.arrival_round) <= (game.number, rnd.number)]


def open_conflicts(*, tournament_id: int | None = None, round_id: int | None = None) -> list:
    """Slip conflicts the head arbiter has not settled, oldest first."""
    conflicts = SlipConflict.objects.filter(resolved_at__isnull=True)
    if tournament_id is not None:
        conflicts = conflicts.filter(round__game__tournament_id=tournament_id)
    if round_id is not None:
        conflicts = conflicts.filter(round_id=round_id)
    return list(
        conflicts.select_related("first", "second", "player", "round").order_by("created_at", "id")
    )


def batch_progress(job_id: int) -> dict | None:
    """``{"total", "done", "state", "games": [{"id", "index", "seed", "ready", "rounds",
    "top_total"}]}`` of a batch, or None."""
    job = BatchJob.objects.filter(pk=job_id).first()
    if job is None:
        return None
    games = [
        {"id": g.pk, "index": g.index, "seed": g.seed, "ready": g.prepared_at is not None,
         "rounds": g.rounds, "top_total": g.top_total}
        for g in job.games.order_by("index")
    ]  # fmt: skip
    return {"id": job.pk, "total": job.total, "done": job.done, "state": job.state, "games": games}


def slips_to_review(rnd: Round) -> list[dict]:
    """The round's current slips whose outcome the engine left to the arbiter's judgement
    (``Outcome.review``), waiting ones first, then by table: ``{"registration",
    "version", "outcome", "choice"}`` (``choice`` None while waiting)."""
    versions = ProposalVersion.objects.filter(round=rnd, is_current=True)
    versions = [v for v in versions if (v.outcome_params or {}).get("alternative")]
    if not versions:
        return []
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament_id=rnd.game.tournament_id, player_id__in=[v.player_id for v in versions]
        ).select_related("player")
    }
    taken: dict[int, list[Decision]] = defaultdict(list)
    for d in Decision.objects.filter(round=rnd, kind="review").order_by("created_at", "id"):
        taken[d.player_id].append(d)
    lines = [
        {"registration": regs[v.player_id], "version": v, "outcome": adapter.outcome(v),
         "choice": adapter.review_choice(v, taken[v.player_id])}
        for v in versions if v.player_id in regs
    ]  # fmt: skip
    lines.sort(key=lambda line: (line["choice"] is not None, line["registration"].table_number))
    return lines


# --- Settings and arbiters pages (issue 15; the lead moves these into selectors/) ----------

#: Settings the racks and tops were drawn with: fixed once a round of any game is drawn.
DRAW_SETTINGS = ("lexicon_id", "variant_code")
#: Settings the scores and rankings of a closed round used: fixed once a round is closed.
SCORE_SETTINGS = (
    "solo_value",
    "solo_min_players",
    "score_required",
    "warning_penalty_from",
    "tie_break",
)


def tournament_settings_locks(tournament_id: int) -> dict[str, tuple[str, dict[str, int]]]:
    """The settings that can no longer change, each with the refusal code and the round that
    fixed it (``{"lexicon_id": ("tournament.frozen_started", {"game": 1, "round": 1})}``).

    Changing them would alter games already played: the lexicon and the formula made the
    racks and tops of every drawn round; solos, warnings, score required and tie-break made
    the scores and ranks of every closed one. The rule is here so the settings page (which
    shows them read-only with the reason) and ``tournament_update`` (which refuses them)
    never disagree."""
    rounds = Round.objects.filter(game__tournament_id=tournament_id).exclude(state="cancelled")
    locks: dict[str, tuple[str, dict[str, int]]] = {}
    for fields, code, subset in (
        (DRAW_SETTINGS, "tournament.frozen_started", rounds),
        (SCORE_SETTINGS, "tournament.frozen_closed", rounds.filter(state="closed")),
    ):
        first = subset.order_by("game__number", "number").values("game__number", "number")
        first = first.first()
        if first is not None:
            where = {"game": first["game__number"], "round": first["number"]}
            locks.update({name: (code, where) for name in fields})
    return locks


def default_lexicon() -> Lexicon | None:
    """The registered lexicon built from the site's default file (``TIRAGE_LEXICON``), the
    one a new tournament starts with; None until that file is registered."""
    from django.conf import settings

    return Lexicon.objects.filter(path=str(settings.TIRAGE_LEXICON)).order_by("id").first()


def lexicons_offered(tournament_id: int | None) -> list[Lexicon]:
    """The lexicons a tournament may choose: every registered one but the word lists other
    tournaments uploaded (a club's licensed ODS is not handed to another club on the same
    site), unless this tournament uploaded the same words too or already uses it. A new
    tournament (``None``) is offered none of the uploaded lists."""
    uploaded = LexiconBuild.objects.filter(state="done").values_list("tournament_id", "lexicon_id")
    mine: set[int] = set()
    private: set[int] = set()
    for owner, lexicon_id in uploaded:
        (mine if owner == tournament_id else private).add(lexicon_id)
    if tournament_id is not None:
        current = Tournament.objects.filter(pk=tournament_id).values_list("lexicon_id", flat=True)
        mine |= {pk for pk in current if pk is not None}
    return list(Lexicon.objects.exclude(pk__in=private - mine).order_by("name", "id"))


def lexicon_build_progress(build_id: int) -> dict | None:
    """What the settings page polls for an uploaded word list: ``{"id", "state",
    "progress", "lexicon", "rejected", "error_code"}``, or None."""
    row = LexiconBuild.objects.filter(pk=build_id).values(
        "id", "state", "progress", "lexicon_id", "rejected", "error_code"
    )
    row = row.first()
    if row is None:
        return None
    row["lexicon"] = row.pop("lexicon_id")
    return row


def arbiters_presence(tournament_id: int) -> list[ArbiterMembership]:
    """The tournament's arbiters, head first, each with ``last_seen_at`` and the round they
    last looked at (``last_seen_round`` with its game) for "actif il y a N min, coup N"."""
    return list(
        ArbiterMembership.objects.filter(tournament_id=tournament_id)
        .select_related("user", "last_seen_round__game")
        .order_by("-role", "user__username")
    )
