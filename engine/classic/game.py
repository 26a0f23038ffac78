"""A classic game: 2 to 4 players take turns on one board, each with their own rack.

`Game` owns the mutable state (board, seeded bag, racks, scores) and hands out immutable
`Turn` values; after every turn the 102 tiles are all on the board, in the bag or on a rack
(:meth:`Game.accounting`). A turn is a play, an exchange or a pass; a play may be
challenged by another player in the same call, which settles it at once:

* word invalid (any word the play forms is not in the lexicon): the tiles go back to the
  rack, the play scores 0 and the turn is lost (page 003);
* word valid: the play stands and the challenger gets the sanction the settings chose
  before the game — nothing, the loss of their next turn, or a number of points.

An unchallenged play stands even when a word is invalid (page 003, "Velour"): only a
challenge consults the lexicon, so nothing here reveals a word's validity otherwise.

The game ends when a player plays their last tile with the bag empty ("out"), or when,
``pass_rounds`` (2) rounds running, no turn left a tile on the board ("blocked"): passes,
exchanges, plays withdrawn after a challenge and turns lost to a challenge all count, as
page 003 calls each of them "passer son tour" (docs/classic.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from engine.bag import Bag, Xoshiro256, canonical
from engine.board import Board, Rack
from engine.check import check_move
from engine.classic.endgame import Adjustment, adjust, rack_value, ranks
from engine.classic.opening import OpeningDraw, draw_first_player
from engine.classic.settings import MAX_PLAYERS, MIN_PLAYERS, Settings
from engine.errors import EngineError
from engine.moves import Move, move_to_json, new_tiles, rack_tiles_used
from engine.tiles import COUNTS

TOTAL_TILES = sum(COUNTS.values())
ACTIONS = ("play", "exchange", "pass", "lost")


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge of the turn's play: who challenged, whether every word was valid, the
    words found invalid, and the valid-word sanction applied to the challenger."""

    by: int
    valid: bool
    invalid_words: tuple[str, ...] = ()
    penalty: int = 0
    lose_turn: bool = False

    def to_json(self) -> dict:
        return {
            "by": self.by,
            "valid": self.valid,
            "invalid_words": list(self.invalid_words),
            "penalty": self.penalty,
            "lose_turn": self.lose_turn,
        }


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn. ``rack`` is the player's rack before it (canonical order); ``move`` the
    play (kept when withdrawn after a challenge, with its score then 0 in ``score``);
    ``exchanged`` the tiles put back; ``drawn`` the tiles drawn after it, in draw order;
    ``scores`` every player's score once the turn (and a challenge penalty) is counted."""

    number: int
    player: int
    rack: str
    action: str
    move: Move | None = None
    exchanged: str = ""
    drawn: str = ""
    score: int = 0
    challenge: Challenge | None = None
    scores: tuple[int, ...] = ()
    bag: int = 0

    @property
    def on_board(self) -> bool:
        """Whether the turn left tiles on the board (the blocked-game count restarts)."""
        return self.action == "play" and (self.challenge is None or self.challenge.valid)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "player": self.player,
            "rack": self.rack,
            "action": self.action,
            "move": move_to_json(self.move) if self.move else None,
            "exchanged": self.exchanged,
            "drawn": self.drawn,
            "score": self.score,
            "challenge": self.challenge.to_json() if self.challenge else None,
            "scores": list(self.scores),
            "bag": self.bag,
        }


@dataclass(frozen=True, slots=True)
class End:
    """How the game ended (``out``: ``player`` went out; ``blocked``), the adjustments and
    each player's place (1 = winner, equal places for ex æquo)."""

    reason: str
    player: int | None
    adjustments: tuple[Adjustment, ...]
    ranks: tuple[int, ...]

    @property
    def finals(self) -> tuple[int, ...]:
        return tuple(a.final for a in self.adjustments)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)

    def to_json(self) -> dict:
        return {"reason": self.reason, "player": self.player}

    def sentence(self) -> str:
        if self.reason == "out" and self.player is not None:
            return f"Game over: player {self.player + 1} played their last tile, the bag empty."
        return "Game over: blocked, every player passed twice in a row."


class Game:
    """One seeded classic game between ``players`` seats (0-based, in seating order).

    ``lexicon`` (anything with ``contains(word)``) judges challenges; a game without one
    refuses challenges.
    """

    def __init__(
        self,
        players: int,
        seed: int,
        settings: Settings | None = None,
        *,
        lexicon: Any = None,
    ) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise EngineError(
                "classic.players",
                f"A classic game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.",
                players=players,
            )
        self.players = players
        self.seed = seed
        self.settings = settings or Settings()
        self.lexicon = lexicon
        self._rng = Xoshiro256(seed)
        self._bag = Bag.full()
        self.board = Board()
        self.opening: OpeningDraw = draw_first_player(players, self._bag, self._rng)
        self.order = self.opening.order(players)
        racks = [""] * players
        for seat in self.order:
            racks[seat] = self._bag.draw(self._rng, self.settings.rack_size)
        self.initial_racks: tuple[str, ...] = tuple(racks)
        self._racks = [canonical(r) for r in racks]
        self._scores = [0] * players
        self._turns: list[Turn] = []
        self._position = 0  # index into self.order of the player to move
        self._scoreless = 0  # turns in a row that left nothing on the board
        self._lost: Counter[int] = Counter()  # turns to lose (valid-word challenges)
        self.end: End | None = None

    # -- state ---------------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        """The player to move, ``None`` once the game is over."""
        return None if self.end else self.order[self._position]

    @property
    def bag(self) -> str:
        return self._bag.tiles()

    @property
    def racks(self) -> tuple[str, ...]:
        return tuple(self._racks)

    @property
    def scores(self) -> tuple[int, ...]:
        """Scores so far (before the end adjustments; see ``end.finals``)."""
        return tuple(self._scores)

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(self._turns)

    def unseen(self, player: int) -> str:
        """The tiles ``player`` cannot see: the bag and the other racks (canonical order)."""
        others = "".join(r for i, r in enumerate(self._racks) if i != player)
        return canonical(self._bag.tiles() + others)

    def accounting(self) -> dict[str, int]:
        """Where the 102 tiles are; ``total`` is always 102."""
        parts = {"board": self.board.tile_count(), "bag": len(self._bag)}
        parts.update({f"rack{i + 1}": len(r) for i, r in enumerate(self._racks)})
        return {**parts, "total": sum(parts.values())}

    # -- turns ---------------------------------------------------------------------------
    def play(self, coord: str, word: str, *, challenged_by: int | None = None) -> Turn:
        """Play ``word`` at ``coord`` (lowercase letters are jokers), challenged or not.

        A placement that does not fit the board or the rack raises ``EngineError`` and
        changes nothing; the player may try again.
        """
        player = self._mover()
        rack = self._racks[player]
        if challenged_by is not None:
            self._check_challenger(challenged_by, player)
        checked = check_move(
            self.board,
            Rack(rack),
            coord,
            word,
            lexicon=self.lexicon if challenged_by is not None else None,
            bonuses=self.settings.bonuses,
        )
        move = Move(checked.reference, checked.word, checked.score, checked.placed)
        if challenged_by is not None and checked.invalid_words:
            refused = Challenge(challenged_by, False, checked.invalid_words)
            return self._finish(Turn(0, player, rack, "play", move, challenge=refused))
        challenge = None
        if challenged_by is not None:
            penalty = self.settings.challenge_points if self.settings.challenge == "points" else 0
            lose = self.settings.challenge == "lose_turn"
            challenge = Challenge(challenged_by, True, (), penalty, lose)
            self._scores[challenged_by] -= penalty
            self._lost[challenged_by] += int(lose)
        used = rack_tiles_used(self.board, move)
        self.board = self.board.with_tiles(new_tiles(self.board, move))
        left = Counter(rack)
        left.subtract(used)
        drawn = self._bag.draw(self._rng, self.settings.rack_size - (len(rack) - move.placed))
        self._racks[player] = canonical(list((+left).elements()) + list(drawn))
        self._scores[player] += move.score
        turn = Turn(0, player, rack, "play", move, drawn=drawn, score=move.score)
        return self._finish(turn, challenge=challenge)

    def exchange(self, tiles: str) -> Turn:
        """Put ``tiles`` back in exchange for as many new ones (bag of at least 7 tiles):
        the new tiles are drawn first, then the old ones go back (page 002)."""
        player = self._mover()
        rack = self._racks[player]
        wanted = Rack.parse(tiles).tiles
        if not wanted:
            raise EngineError("exchange.empty", "Name the tiles to exchange.")
        if Counter(wanted) - Counter(rack):
            raise EngineError(
                "exchange.tiles",
                f"The rack {rack} does not hold every tile of {canonical(wanted)}.",
                rack=rack,
                tiles=wanted,
            )
        minimum = self.settings.exchange_minimum
        if len(self._bag) < minimum:
            raise EngineError(
                "exchange.bag_low",
                f"Exchanging needs at least {minimum} tiles in the bag; it holds {len(self._bag)}.",
                minimum=minimum,
                bag=len(self._bag),
            )
        drawn = self._bag.draw(self._rng, len(wanted))
        self._bag.add(wanted)
        left = Counter(rack)
        left.subtract(wanted)
        self._racks[player] = canonical(list((+left).elements()) + list(drawn))
        turn = Turn(0, player, rack, "exchange", exchanged=canonical(wanted), drawn=drawn)
        return self._finish(turn)

    def pass_turn(self) -> Turn:
        """Pass: nothing placed, nothing drawn."""
        player = self._mover()
        return self._finish(Turn(0, player, self._racks[player], "pass"))

    # -- internals -----------------------------------------------------------------------
    def _mover(self) -> int:
        if self.end:
            raise EngineError("game.over", self.end.sentence())
        return self.order[self._position]

    def _check_challenger(self, by: Any, player: int) -> None:
        if self.lexicon is None:
            raise EngineError(
                "challenge.no_lexicon", "This game has no lexicon to settle a challenge."
            )
        if not isinstance(by, int) or isinstance(by, bool) or not 0 <= by < self.players:
            raise EngineError("challenge.player", f"There is no player {by!r} to challenge.")
        if by == player:
            raise EngineError("challenge.own", "A player cannot challenge their own play.")

    def _finish(self, turn: Turn, *, challenge: Challenge | None = None) -> Turn:
        """Number and record the turn, then end the game or move on (losing turns owed)."""
        challenge = challenge or turn.challenge
        done = replace(
            turn,
            number=len(self._turns) + 1,
            challenge=challenge,
            scores=tuple(self._scores),
            bag=len(self._bag),
        )
        self._turns.append(done)
        if done.on_board:
            self._scoreless = 0
            if not self._racks[done.player] and not len(self._bag):
                self._close("out", done.player)
                return done
        else:
            self._scoreless += 1
        self._advance()
        return done

    def _advance(self) -> None:
        while not self._blocked():
            self._position = (self._position + 1) % self.players
            seat = self.order[self._position]
            if not self._lost[seat]:
                return
            self._lost[seat] -= 1
            self._scoreless += 1
            number, rack = len(self._turns) + 1, self._racks[seat]
            scores = tuple(self._scores)
            self._turns.append(Turn(number, seat, rack, "lost", scores=scores, bag=len(self._bag)))
        self._close("blocked", None)

    def _blocked(self) -> bool:
        return self._scoreless >= self.settings.pass_rounds * self.players

    def _close(self, reason: str, player: int | None) -> None:
        left = [rack_value(r) for r in self._racks]
        adjustments = adjust(self._scores, left, player, self._racks)
        finals = [a.final for a in adjustments]
        places = ranks(finals, [len(r) for r in self._racks], self.settings.tie_break)
        self.end = End(reason, player, adjustments, places)
