"""A game of the card version: seats, the seeded deck, turns, challenges, end and final scores.

The game is a small state machine. A move is first *laid* (:meth:`CardGame.play`): it is
judged and scored at once, and the other players may then challenge it before the mover
draws (:meth:`CardGame.challenge`), or let it stand (:meth:`CardGame.accept`). Passing and
exchanging close the turn at once. Every closed turn is a :class:`Turn` in ``history``; the
game record (:mod:`engine.cards.record`) is written from them.

``strict=True`` makes the engine the arbiter: a move forming a word the lexicon does not
hold is refused outright (``play.invalid_word``) instead of waiting for a challenge. Engine
games use it; a table of people plays with challenges, as the page says.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.bag import Xoshiro256
from engine.cards.deck import (
    DECK_SIZE,
    EXCHANGE_MIN_DECK,
    HAND_SIZE,
    Deck,
    canonical,
    full_deck,
    hand_value,
    is_card,
    start_rank,
)
from engine.cards.rules import Outcome, Play, evaluate, invalid_words
from engine.cards.table import Table
from engine.errors import EngineError

MIN_PLAYERS, MAX_PLAYERS = 2, 6
CHALLENGE_PENALTY = 10

PLAY, PASS, EXCHANGE = "play", "pass", "exchange"


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge of a move: who, whether the move was valid, and the words found invalid."""

    by: int
    valid: bool
    invalid: tuple[str, ...] = ()

    @property
    def penalty(self) -> int:
        return CHALLENGE_PENALTY if self.valid else 0


@dataclass(frozen=True, slots=True)
class Turn:
    """One closed turn: the hand before it, the action, what it scored and what was drawn."""

    number: int
    seat: int
    hand: str
    action: str
    outcome: Outcome | None = None
    exchanged: str = ""
    challenge: Challenge | None = None
    drawn: str = ""
    scores: tuple[int, ...] = ()
    deck: int = 0

    @property
    def score(self) -> int:
        """Points the mover gained (0 for a pass, an exchange or a move challenged off)."""
        if self.outcome is None or (self.challenge and not self.challenge.valid):
            return 0
        return self.outcome.score

    @property
    def counts_as_pass(self) -> bool:
        return self.action == PASS or bool(self.challenge and not self.challenge.valid)


@dataclass(frozen=True, slots=True)
class End:
    """How the game ended and the final adjustments (added to each running score)."""

    reason: str  # "out": a player emptied their hand; "passes": a whole round of passes
    out: int | None
    adjustments: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(slots=True)
class _Pending:
    seat: int
    hand: str
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class StartDraw:
    """One round of the draw for the first player: the seats drawing and their cards."""

    cards: tuple[tuple[int, str], ...]


def _remove(hand: str, cards: str) -> str:
    left = Counter(hand) - Counter(cards)
    return canonical(left.elements())


class CardGame:
    """A game for 2 to 6 seats from one seed. Mutable; the only place a deck lives."""

    def __init__(self, players: int, seed: int, *, lexicon=None, strict: bool = False) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            players = -1
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise EngineError(
                "cards.players",
                f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players.",
                min=MIN_PLAYERS,
                max=MAX_PLAYERS,
            )
        if strict and lexicon is None:
            raise ValueError("a strict game needs a lexicon")  # caller bug
        self.players = players
        self.seed = seed
        self.lexicon = lexicon
        self.strict = strict
        self.rng = Xoshiro256(seed)
        self.deck = Deck.full()
        self.start_draws, self.first = self._draw_first_player()
        self.hands = [""] * players
        self.dealt: list[str] = [""] * players
        for seat in self.order():
            self.hands[seat] = canonical(self.deck.draw(self.rng, HAND_SIZE))
            self.dealt[seat] = self.hands[seat]
        self.scores = [0] * players
        self.table = Table()
        self.discard: Counter[str] = Counter()
        self.history: list[Turn] = []
        self.current = self.first
        self.passes = 0
        self.end: End | None = None
        self.pending: _Pending | None = None
        #: Who plays each seat (``strong``/``weak`` engine or ``human``), for the record.
        self.levels: list[str] | None = None

    # -- setting up ---------------------------------------------------------------------
    def _draw_first_player(self) -> tuple[tuple[StartDraw, ...], int]:
        """Each seat draws a card, nearest to A starts; tied seats draw again; all go back."""
        seats = list(range(self.players))
        rounds = []
        while True:
            drawn = [(seat, self.deck.draw(self.rng, 1)) for seat in seats]
            self.deck.add(card for _, card in drawn)
            rounds.append(StartDraw(tuple(drawn)))
            best = min(start_rank(card) for _, card in drawn)
            seats = [seat for seat, card in drawn if start_rank(card) == best]
            if len(seats) == 1:
                return tuple(rounds), seats[0]

    def order(self) -> list[int]:
        """Seats in playing order, from the first player."""
        return [(self.first + i) % self.players for i in range(self.players)]

    # -- state --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def turn_number(self) -> int:
        return len(self.history) + 1

    def accounted(self) -> Counter:
        """Every card, wherever it is: deck, hands, table, discard (must be the 112)."""
        total = self.deck.counts()
        for hand in self.hands:
            total.update(hand)
        total.update(self.table.cards())
        total.update(self.discard)
        return total

    def check_accounts(self) -> None:
        """Raise (a bug, not a refusal) unless the 112 cards are all accounted for."""
        total = self.accounted()
        if total != Counter(full_deck()) or sum(total.values()) != DECK_SIZE:
            raise AssertionError(f"cards not accounted for: {total - Counter(full_deck())}")

    def _expect_turn(self, seat: int) -> None:
        if self.end is not None:
            raise EngineError("game.over", "The game is over.")
        if self.pending is not None:
            raise EngineError(
                "turn.pending",
                "The last move may still be challenged: accept or challenge it first.",
            )
        if seat != self.current:
            raise EngineError(
                "turn.not_yours",
                f"It is seat {self.current}'s turn.",
                current=self.current,
            )

    # -- actions ------------------------------------------------------------------------
    def play(self, seat: int, play: Play) -> Outcome:
        """Lay a move; it stands once :meth:`accept` or :meth:`challenge` closes the turn."""
        self._expect_turn(seat)
        outcome = evaluate(self.table, self.hands[seat], play, seat)
        if self.strict and invalid_words(outcome, self.lexicon):
            raise EngineError("play.invalid_word", "A word the move forms is not in the lexicon.")
        self.pending = _Pending(seat, self.hands[seat], outcome)
        return outcome

    def accept(self) -> Turn:
        """Nobody challenges: the move stands and the mover draws back to seven."""
        pending = self._take_pending()
        return self._commit(pending, None)

    def challenge(self, by: int) -> Turn:
        """Seat ``by`` challenges the move just laid, before the mover draws.

        An invalid word sends the cards back to the mover's hand and the turn is a pass; a
        valid move stands and costs the challenger 10 points.
        """
        if self.pending is None:
            raise EngineError("challenge.nothing", "No move is waiting to be challenged.")
        if not (isinstance(by, int) and 0 <= by < self.players) or by == self.pending.seat:
            raise EngineError(
                "challenge.seat", "Only another seat of the table may challenge this move."
            )
        if self.lexicon is None:
            raise EngineError(
                "challenge.lexicon", "This game has no lexicon to settle a challenge."
            )
        bad = tuple(w.letters for w in invalid_words(self.pending.outcome, self.lexicon))
        pending = self._take_pending()
        verdict = Challenge(by, not bad, bad)
        if bad:
            return self._close(
                Turn(0, pending.seat, pending.hand, PLAY, pending.outcome, challenge=verdict)
            )
        self.scores[by] -= CHALLENGE_PENALTY
        return self._commit(pending, verdict)

    def pass_turn(self, seat: int) -> Turn:
        self._expect_turn(seat)
        return self._close(Turn(0, seat, self.hands[seat], PASS))

    def exchange(self, seat: int, cards: str) -> Turn:
        """Give back 1 to 7 cards, draw as many, then the given cards go back into the deck."""
        self._expect_turn(seat)
        if any(not is_card(c) for c in cards) or not 1 <= len(cards) <= HAND_SIZE:
            raise EngineError("exchange.count", "An exchange gives back 1 to 7 cards of the hand.")
        if len(self.deck) < EXCHANGE_MIN_DECK:
            raise EngineError(
                "exchange.deck",
                f"No exchange: fewer than {EXCHANGE_MIN_DECK} cards are left in the deck.",
                deck=len(self.deck),
            )
        hand = self.hands[seat]
        short = Counter(cards) - Counter(hand)
        if short:
            raise EngineError(
                "exchange.not_in_hand",
                f"The hand does not hold {canonical(short.elements())}.",
            )
        kept = _remove(hand, cards)
        drawn = self.deck.draw(self.rng, len(cards))
        self.deck.add(cards)
        self.hands[seat] = canonical(kept + drawn)
        return self._close(Turn(0, seat, hand, EXCHANGE, exchanged=canonical(cards), drawn=drawn))

    # -- closing a turn -----------------------------------------------------------------
    def _take_pending(self) -> _Pending:
        if self.pending is None:
            raise EngineError("challenge.nothing", "No move is waiting to be challenged.")
        pending, self.pending = self.pending, None
        return pending

    def _commit(self, pending: _Pending, verdict: Challenge | None) -> Turn:
        outcome = pending.outcome
        seat = pending.seat
        self.table = outcome.table
        self.discard.update(outcome.discarded)
        if outcome.play.prime:
            self.discard.update(outcome.play.prime)
        self.scores[seat] += outcome.score
        left = _remove(pending.hand, outcome.play.hand_cards())
        drawn = self.deck.draw(self.rng, HAND_SIZE - len(left))
        self.hands[seat] = canonical(left + drawn)
        turn = Turn(0, seat, pending.hand, PLAY, outcome, challenge=verdict, drawn=drawn)
        return self._close(turn)

    def _close(self, turn: Turn) -> Turn:
        self.passes = self.passes + 1 if turn.counts_as_pass else 0
        turn = Turn(
            self.turn_number,
            turn.seat,
            turn.hand,
            turn.action,
            turn.outcome,
            turn.exchanged,
            turn.challenge,
            turn.drawn,
            tuple(self.scores),
            len(self.deck),
        )
        self.history.append(turn)
        if not self.deck and not self.hands[turn.seat]:
            self._finish(out=turn.seat)
        elif self.passes >= self.players:
            self._finish(out=None)
        else:
            self.current = (turn.seat + 1) % self.players
        return turn

    def _finish(self, out: int | None) -> None:
        """Final scores (page, "Calcul des scores finaux"); Prime cards count 10 and 20."""
        left = [hand_value(hand) for hand in self.hands]
        adjustments = [-value for value in left]
        if out is not None:
            adjustments[out] = sum(left)
        final = tuple(s + a for s, a in zip(self.scores, adjustments, strict=True))
        self.end = End("out" if out is not None else "passes", out, tuple(adjustments), final)
