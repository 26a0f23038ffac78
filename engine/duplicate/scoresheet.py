"""Players in a game record: their proposals, outcomes and totals, and how replay rechecks them.

:mod:`engine.duplicate.record` stores each round's ``players`` as plain JSON and leaves their
meaning to this module, so the record format stays independent of the scoring rules while a
replay still recomputes every outcome (with :func:`score_proposal`) and every total (with
:func:`game_result`) and reports any difference.

A player entry of a round is ``{"player": ID, "proposal": {...} | null, "outcome": {...} |
null, "override": bool}`` plus, for a slip the rulebook leaves to the arbiter, ``"review":
{"reason", "choice"}``, and the arbiter's ``"decisions"`` (a list of
:meth:`ArbiterDecision.to_json`, when there are any): ``proposal`` null means no slip was
handed in, ``outcome`` null means the player was absent for that round; ``outcome`` is the
one that counts (:func:`engine.duplicate.decisions.counted_outcome`: the review, then the
decisions), so the totals are computed from the outcomes the record shows. ``override``
marks an outcome set by hand that replay keeps instead of recomputing (older records); a
replay judges the slip again and applies the recorded review and decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, overload

from engine.board import Rack
from engine.duplicate.decisions import ArbiterDecision, counted_outcome, disciplinary_count
from engine.duplicate.game import Game
from engine.duplicate.proposals import (
    Outcome,
    Proposal,
    ScoringSettings,
    make_outcome,
    score_proposal,
)
from engine.duplicate.record import Difference, GameRecord, OutcomeHook
from engine.duplicate.totals import GameResult, GameScores, TotalsSettings, game_result
from engine.errors import EngineError

OUTCOME_FIELDS = ("kind", "score", "raw_score", "code")


def proposal_json(proposal: Proposal | None) -> dict | None:
    """A proposal as the record stores it; the paper-only fields only when used."""
    if proposal is None:
        return None
    data: dict[str, Any] = {
        "word": proposal.word,
        "reference": proposal.reference,
        "claimed_score": proposal.claimed_score,
        "source": proposal.source,
        "late": proposal.late,
    }
    if proposal.connecting:
        data["connecting"] = proposal.connecting
    if proposal.illegible:
        data["illegible"] = True
    if proposal.others:
        data["others"] = [proposal_json(p) for p in proposal.others]
    return data


@overload
def proposal_from_json(data: Mapping) -> Proposal: ...
@overload
def proposal_from_json(data: None) -> None: ...
def proposal_from_json(data: Mapping | None) -> Proposal | None:
    if data is None:
        return None
    return Proposal(
        word=data.get("word", ""),
        reference=data.get("reference", ""),
        claimed_score=data.get("claimed_score"),
        source=data.get("source", "tablet"),
        late=bool(data.get("late", False)),
        connecting=data.get("connecting", ""),
        illegible=bool(data.get("illegible", False)),
        others=tuple(proposal_from_json(p) for p in data.get("others") or ()),
    )


def outcome_json(outcome: Outcome | None) -> dict | None:
    """The recorded fields of an outcome; ``review`` only on a slip left to the arbiter."""
    if outcome is None:
        return None
    data = {name: getattr(outcome, name) for name in OUTCOME_FIELDS}
    if outcome.review:
        data["review"] = outcome.review
    return data


def outcome_from_json(data: Mapping | None) -> Outcome | None:
    if data is None:
        return None
    return make_outcome(data["kind"], data["code"], data["score"], data["raw_score"])


def player_entry(
    player: str,
    proposal: Proposal | None,
    outcome: Outcome | None,
    *,
    override: bool = False,
    review: str | None = None,
    decisions: tuple[ArbiterDecision, ...] = (),
) -> dict:
    """One player's line in a round of the record. ``outcome`` is the judged one (before
    any review); ``review`` the arbiter's choice on it, recorded when the outcome asks for
    one; ``decisions`` the arbiter's, in order. The recorded outcome is the one that counts
    after both (:func:`counted_outcome`)."""
    counted = counted_outcome(outcome, review=review, decisions=decisions) if outcome else None
    entry: dict[str, Any] = {
        "player": player,
        "proposal": proposal_json(proposal),
        "outcome": outcome_json(counted),
        "override": override,
    }
    if outcome is not None and outcome.review:
        entry["review"] = {"reason": outcome.review, "choice": review}
    if decisions:
        entry["decisions"] = [d.to_json() for d in decisions]
    return entry


def entry_decisions(entry: Mapping) -> tuple[ArbiterDecision, ...]:
    """The arbiter's decisions of a record's player entry (none in older records)."""
    try:
        return tuple(ArbiterDecision.from_json(d) for d in entry.get("decisions") or ())
    except (TypeError, ValueError, AttributeError) as exc:
        message = f"A recorded decision cannot be read ({exc})."
        raise EngineError("record.decision", message) from None


def rescoring_hook(lexicon: Any, settings: ScoringSettings | None = None) -> OutcomeHook:
    """A replay hook recomputing each handed-in proposal on the board before its round."""

    def hook(game: Game, rec: Mapping, entry: Mapping) -> Mapping | None:
        if entry.get("override") or entry.get("outcome") is None:
            return None
        proposal = proposal_from_json(entry.get("proposal")) or Proposal()
        pending = game.pending
        if pending is None:  # replay calls the hook on the round it just drew
            raise RuntimeError("a rescoring hook called between rounds")
        chosen = pending.top_choice.chosen
        try:
            outcome = score_proposal(
                board=game.board,
                rack=Rack(game.rack),
                round_number=rec["number"],
                top_score=pending.top_choice.score,
                proposal=proposal,
                lexicon=lexicon,
                settings=settings,
                top_move=(chosen.coord, chosen.word),
            )
        except EngineError as exc:
            return {"outcome": f"refused: {exc.code}"}
        choice = (entry.get("review") or {}).get("choice")
        counted = counted_outcome(outcome, review=choice, decisions=entry_decisions(entry))
        again: dict[str, Any] = {"outcome": outcome_json(counted)}
        if outcome.review or entry.get("review"):
            review = {"reason": outcome.review, "choice": choice}
            again["review"] = review if outcome.review else None
        return again

    return hook


def game_scores(record: GameRecord) -> GameScores:
    """The judged game of a record: tops and outcomes of the rounds actually played."""
    played = [r for r in record.rounds if r["status"] == "played"]
    players = [p["id"] for p in record.data["players"]]
    per_player: dict[str, list[Outcome | None]] = {p: [] for p in players}
    disciplinary: dict[str, list[int]] = {p: [] for p in players}
    for rnd in played:
        entries = {e["player"]: e for e in rnd["players"]}
        for player in players:
            entry = entries.get(player)
            per_player[player].append(outcome_from_json(entry["outcome"]) if entry else None)
            count = disciplinary_count(entry_decisions(entry)) if entry else 0
            disciplinary[player] += [rnd["number"]] * count
    arrivals = {p["id"]: p["arrival"] for p in record.data["players"] if p.get("arrival")}
    return GameScores(
        tops=tuple(r["top"]["score"] for r in played),
        players={p: tuple(o) for p, o in per_player.items()},
        arrivals=arrivals,
        disciplinary={p: tuple(rs) for p, rs in disciplinary.items() if rs},
    )


def totals_json(result: GameResult) -> list[dict]:
    """Per-player totals as the record stores them."""
    return [
        {
            "player": p.player_id,
            "total": p.total,
            "solos": list(p.solo_rounds),
            "solo_bonus": p.solo_bonus,
            "warnings": p.warnings,
            "warning_penalty": p.warning_penalty,
            "penalties": p.penalties,
        }
        for p in result.players
    ]


def check_totals(record: GameRecord, settings: TotalsSettings | None = None) -> list[Difference]:
    """Recompute the players' totals from the recorded outcomes and list the differences."""
    settings = settings or TotalsSettings.from_variant(record.variant)
    recomputed = {t["player"]: t for t in totals_json(game_result(game_scores(record), settings))}
    recorded = {t["player"]: t for t in record.data["totals"]["players"]}
    diffs = []
    for player in sorted(set(recorded) | set(recomputed), key=str):
        if recorded.get(player) != recomputed.get(player):
            diffs.append(
                Difference(
                    0, f"totals.players[{player}]", recorded.get(player), recomputed.get(player)
                )
            )
    return diffs


def scoring_json(scoring: ScoringSettings, totals: TotalsSettings) -> dict:
    """The event's scoring settings, stored in the record so a replay judges alike."""
    return {
        "score_required": scoring.score_required,
        "warning_penalty_from": totals.warning_penalty_from,
        "warning_penalty": totals.warning_penalty,
        "solo_value": totals.solo_value,
        "solo_min_players": totals.solo_min_players,
        "solo_players": totals.solo_players,
    }


def scoring_settings(record: GameRecord) -> tuple[ScoringSettings, TotalsSettings]:
    """The settings a record was judged with (the rulebook's defaults when it names none:
    score required, the variant's warning threshold)."""
    variant = record.variant
    data = dict(record.data.get("scoring") or {})
    scoring = ScoringSettings(
        score_required=bool(data.pop("score_required", True)),
        bonuses=variant.bonuses,
        max_tiles=variant.max_tiles,
    )
    try:
        totals = TotalsSettings.from_variant(variant, **data)
    except TypeError:
        raise EngineError(
            "record.scoring", f"The record's scoring settings are not understood: {sorted(data)}."
        ) from None
    return scoring, totals
