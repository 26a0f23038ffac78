"""The arbiter's decisions on one player's round (rules §4.3-4.5, §5.8), as plain values.

A judged proposal (:func:`engine.duplicate.proposals.score_proposal`) is what the rulebook
says by itself; the arbiter may then settle a slip it left to him (``review``: keep the
default or take the alternative) and take decisions: a warning, a 5-point penalty, a zero,
a moyenne. :func:`counted_outcome` turns the judged outcome into the one that counts, so
the site's standings, a game record and its replay all apply the same rules in the same
order. Disciplinary warnings leave the round alone: they only count as warnings
(:class:`engine.duplicate.totals.GameScores` ``disciplinary``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.duplicate.proposals import PENALTY, Outcome, Proposal, make_outcome
from engine.errors import EngineError

#: Decisions that change a round's outcome; "solo", "correction" and "review" rows leave
#: it alone (a review is applied first, by :func:`reviewed`).
KINDS = ("warning", "penalty", "zero", "moyenne", "solo", "correction", "review")
REVIEW_CHOICES = ("default", "alternative")


@dataclass(frozen=True, slots=True)
class ArbiterDecision:
    """One decision: ``kind`` (:data:`KINDS`), the arbiter's ``reason``; ``disciplinary``
    for a warning that stacks on anything (§4.3); ``points`` taken off by a penalty (5,
    §4.4); ``score`` the average a moyenne pays and ``params`` what it was computed from
    (word, reference, invalid words, the player's own value, the group's size, the cap)."""

    kind: str
    reason: str = ""
    disciplinary: bool = False
    points: int = PENALTY
    score: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise EngineError("decision.kind", f"'{self.kind}' is not an arbiter's decision.")
        if self.disciplinary and self.kind != "warning":
            raise EngineError("decision.disciplinary", "Only a warning is disciplinary.")
        if self.kind == "moyenne" and self.score is None:
            raise EngineError("decision.moyenne_score", "A moyenne keeps the score it pays.")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def to_json(self) -> dict[str, Any]:
        """The decision as a game record stores it."""
        data: dict[str, Any] = {"kind": self.kind, "reason": self.reason}
        if self.disciplinary:
            data["disciplinary"] = True
        if self.kind == "penalty":
            data["points"] = self.points
        if self.score is not None:
            data["score"] = self.score
        if self.params:
            data["params"] = dict(self.params)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ArbiterDecision:
        return cls(
            kind=str(data.get("kind", "")),
            reason=str(data.get("reason", "")),
            disciplinary=bool(data.get("disciplinary", False)),
            points=int(data.get("points", PENALTY)),
            score=data.get("score"),
            params=data.get("params") or {},
        )


def reviewed(outcome: Outcome, choice: str | None) -> Outcome:
    """The outcome that counts once the arbiter settled a slip left to his judgement: the
    alternative if he chose it, else the rulebook's default (also while it waits)."""
    if choice == "alternative" and outcome.alternative is not None:
        return outcome.alternative
    return outcome


def apply_decision(base: Outcome, decision: ArbiterDecision) -> Outcome:
    """``base`` once ``decision`` is applied:

    * warning (not disciplinary): the round becomes a warning with the same score, unless
      it already is one or is a zero or a penalty (one warning per round, never on top of
      a penalty or a zero, §5.8);
    * penalty: ``points`` off what was paid (floored at 0), the raw score kept for solos;
    * zero: 0 points (the arbiter's own zero, e.g. an illegible slip);
    * moyenne: the average kept in the decision, paid as a valid move (§4.5).
    Disciplinary warnings, solos, corrections and reviews leave the outcome alone."""
    params = {"word": base.word, "reference": base.reference, "reason": decision.reason}
    kind, where = decision.kind, (base.words, base.reference, base.word)
    if kind == "warning" and not decision.disciplinary and base.kind == "valid":
        return Outcome("warning", base.score, base.raw_score, "warning.arbiter", decision.reason,
                       params, *where)  # fmt: skip
    if kind == "penalty":
        score = max(0, base.score - decision.points)
        return Outcome("penalty", score, base.raw_score, "penalty.arbiter", decision.reason,
                       {**params, "claimed": base.score}, *where)  # fmt: skip
    if kind == "zero":
        return Outcome("zero", 0, 0, "zero.arbiter", decision.reason, params, *where)
    if kind == "moyenne":
        score = decision.score or 0
        given = {k: v for k, v in decision.params.items() if k != "score"}
        return make_outcome("valid", "moyenne", score, score, **given)
    return base


def counted_outcome(
    judged: Outcome, *, review: str | None = None, decisions: Sequence[ArbiterDecision] = ()
) -> Outcome:
    """The outcome that counts for a round: the arbiter's review of ``judged`` first, then
    his ``decisions`` in the order they were taken."""
    result = reviewed(judged, review)
    for decision in decisions:
        result = apply_decision(result, decision)
    return result


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's round as the arbiter left it: the ``proposal`` handed in (None: no
    slip), its ``judged`` outcome, his ``review`` choice and his ``decisions`` in order."""

    proposal: Proposal | None
    judged: Outcome
    review: str | None = None
    decisions: tuple[ArbiterDecision, ...] = ()

    @property
    def counted(self) -> Outcome:
        return counted_outcome(self.judged, review=self.review, decisions=self.decisions)

    @property
    def disciplinary(self) -> int:
        return disciplinary_count(self.decisions)


def disciplinary_count(decisions: Sequence[ArbiterDecision]) -> int:
    """How many disciplinary warnings ``decisions`` hold (each one counts, §4.3)."""
    return sum(1 for d in decisions if d.disciplinary)


def apply_moyenne(
    *, earlier: Outcome, later: Outcome, others: Sequence[Outcome], cap: int | None = None
) -> Outcome:
    """The arbiter's "moyenne" (§4.5): a player replays (or re-forms as a cross-word) an
    invalid word before being told of the first zero; the later round scores the average
    of ``others`` (the other players of the same arbiter on that round, zeros included,
    other moyennes excluded), rounded down and capped at the player's own proposal
    (``cap``, else the later outcome's ``proposed_score``).

    Refused, with a coded error, unless both outcomes are invalid-word zeros sharing a word
    and the later one has no other invalid word: never for placement or letter errors.
    """
    if earlier.code != "zero.invalid_word" or later.code != "zero.invalid_word":
        raise EngineError(
            "moyenne.not_invalid_word",
            "A moyenne only replaces a repeated zero for an invalid word, never a placement "
            "or letter error.",
        )
    repeated = [w for w in later.invalid_words if w in earlier.invalid_words]
    if not repeated:
        raise EngineError("moyenne.different_word", "The later move repeats no refused word.")
    if len(repeated) != len(later.invalid_words):
        raise EngineError(
            "moyenne.other_fault", "The later move also forms another invalid word: 0 stands."
        )
    pool = [o.score for o in others if o.code != "moyenne"]
    if not pool:
        raise EngineError("moyenne.no_group", "No other player's score to average.")
    cap = later.proposed_score if cap is None else cap
    if cap is None:
        raise EngineError("moyenne.no_cap", "The value of the player's own move is unknown.")
    score = min(sum(pool) // len(pool), cap)
    return make_outcome(
        "valid",
        "moyenne",
        score,
        score,
        word=later.word,
        reference=later.reference,
        invalid_words=repeated,
        proposed=later.proposed_score,
        average_of=len(pool),
        cap=cap,
    )


def moyenne_decision(outcome: Outcome, *, reason: str, **extra: Any) -> ArbiterDecision:
    """The decision that keeps a moyenne computed by :func:`apply_moyenne` (``extra``:
    what the caller adds, e.g. the earlier round's id)."""
    params = {
        "word": outcome.word,
        "reference": outcome.reference,
        "invalid_words": list(outcome.invalid_words),
        "proposed": outcome.proposed_score,
        "average_of": outcome.params["average_of"],
        "cap": outcome.params["cap"],
        **extra,
    }
    return ArbiterDecision("moyenne", reason, score=outcome.score, params=params)
