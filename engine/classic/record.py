"""The classic game record and its replay.

Schema ``{"format": "tirage-classic", "version": 1}`` (documented in docs/classic.md):

* ``settings`` (:meth:`Settings.to_json`), ``source`` ``{"kind": "seeded", "seed": N}``,
  ``lexicon``: the identity (name, source, version, word_count, sha256, optional ``path``
  hint) or ``null``; ``players``: one JSON object per seat, in seating order (``name``,
  ``level``: ``best``, ``weak`` or ``human``), kept as given.
* ``opening``: the draw for first player (``rounds`` of ``{"player", "tile"}``, ``first``,
  ``order``: the seats in playing order); ``racks``: each seat's first rack in draw order.
* ``turns``: every turn (:meth:`Turn.to_json`): ``number``, ``player``, ``rack`` (before the
  turn), ``action`` (``play``, ``exchange``, ``pass``, ``lost``), ``move`` (``coord``,
  ``word`` — lowercase letters are jokers —, ``score``, ``placed``) or ``null``,
  ``exchanged``, ``drawn``, ``score``, ``challenge`` (``by``, ``valid``, ``invalid_words``,
  ``penalty``, ``lose_turn``) or ``null``, ``scores`` (every seat after the turn), ``bag``.
* ``end``: ``{"reason": "out" | "blocked", "player": seat | null}`` or ``null`` while the
  game goes on; ``adjustments``: per seat ``remaining``, ``before``, ``minus``, ``plus``,
  ``final``; ``totals``: per seat ``score`` (final) and ``rank`` (1 = winner, ties share).

Replay redraws from the seed, applies each recorded action and compares every recomputed
field; it stops at the first difference, since everything after it follows from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.classic.game import ACTIONS, Game, Turn
from engine.classic.settings import MAX_PLAYERS, MIN_PLAYERS, Settings
from engine.errors import EngineError
from engine.lexicon import identity_json

FORMAT = "tirage-classic"
VERSION = 1


def game_to_record(
    game: Game,
    *,
    players: Sequence[Mapping] = (),
    lexicon: Any = None,
    lexicon_path: str | None = None,
) -> dict:
    """The record of a game so far; ``players`` describes each seat (default: "Joueur N")."""
    seats = [dict(p) for p in players] or [
        {"name": f"Joueur {i + 1}", "level": "human"} for i in range(game.players)
    ]
    if len(seats) != game.players:
        raise ValueError("one player description per seat")  # caller bug
    end = game.end
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": game.settings.to_json(),
        "source": {"kind": "seeded", "seed": game.seed},
        "lexicon": identity_json(lexicon, lexicon_path),
        "players": seats,
        "opening": {**game.opening.to_json(), "order": list(game.order)},
        "racks": list(game.initial_racks),
        "turns": [t.to_json() for t in game.turns],
        "end": end.to_json() if end else None,
        "adjustments": [a.to_json() for a in end.adjustments] if end else [],
        "totals": [
            {"player": i, "score": score, "rank": rank}
            for i, (score, rank) in enumerate(zip(end.finals, end.ranks, strict=True))
        ]
        if end
        else [],
    }


# -- import --------------------------------------------------------------------------------
def _fail(message: str, code: str = "field") -> EngineError:
    return EngineError(f"record.{code}", message)


def _get(obj: Any, key: str, kind: type | tuple, where: str, *, nullable: bool = False) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _fail(f"The record lacks '{key}' in {where}.")
    value = obj[key]
    if value is None and nullable:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _fail(f"'{key}' in {where} has the wrong type ({value!r}).")
    return value


def _check_turn(data: Any, i: int, players: int) -> None:
    where = f"turn entry {i + 1}"
    number = _get(data, "number", int, where)
    if number != i + 1:
        raise _fail(f"{where}: turns are numbered 1, 2, 3… in order, not {number}.")
    where = f"turn {number}"
    if _get(data, "action", str, where) not in ACTIONS:
        raise _fail(f"{where}: the action is one of {', '.join(ACTIONS)}.")
    player = _get(data, "player", int, where)
    if not 0 <= player < players:
        raise _fail(f"{where}: there is no player {player}.")
    for key in ("rack", "exchanged", "drawn"):
        _get(data, key, str, where)
    _get(data, "score", int, where)
    move = _get(data, "move", dict, where, nullable=True)
    if data["action"] == "play":
        if move is None:
            raise _fail(f"{where}: a play has a move.")
        _get(move, "coord", str, f"{where}, move")
        _get(move, "word", str, f"{where}, move")
    if data["action"] == "exchange" and not data["exchanged"]:
        raise _fail(f"{where}: an exchange names the tiles put back.")
    challenge = _get(data, "challenge", dict, where, nullable=True)
    if challenge is not None:
        by = _get(challenge, "by", int, f"{where}, challenge")
        if not 0 <= by < players:
            raise _fail(f"{where}: there is no player {by} to challenge.")
    scores = _get(data, "scores", list, where)
    if len(scores) != players or not all(type(s) is int for s in scores):
        raise _fail(f"{where}: 'scores' holds one whole number per player.")


@dataclass(frozen=True, slots=True)
class ClassicRecord:
    """A validated record. ``data`` is the JSON as read."""

    data: Mapping[str, Any]
    settings: Settings

    @property
    def players(self) -> list[dict]:
        return self.data["players"]

    @property
    def turns(self) -> list[dict]:
        return self.data["turns"]

    @property
    def seed(self) -> int:
        return self.data["source"]["seed"]

    def to_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, indent=1)


def load_record(data: str | bytes | Mapping) -> ClassicRecord:
    """Read and validate a record; every problem is an ``EngineError`` coded ``record.*``."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise _fail(f"The record is not valid JSON ({exc}).", "json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(f"This is not a classic game record ('format': '{FORMAT}').", "format")
    if (version := data.get("version")) != VERSION:
        raise _fail(f"This record is version {version!r}; this program reads version 1.", "version")
    settings = Settings.from_json(_get(data, "settings", dict, "the record"))
    source = _get(data, "source", dict, "the record")
    if _get(source, "kind", str, "the source") != "seeded":
        raise _fail(f"The tile source '{source['kind']}' cannot be replayed.", "source")
    seed = _get(source, "seed", int, "the source")
    if not 0 <= seed < 2**64:
        raise _fail(f"The seed {seed} is not between 0 and 2**64 - 1.", "source")
    _get(data, "lexicon", dict, "the record", nullable=True)
    players = _get(data, "players", list, "the record")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or not all(
        isinstance(p, dict) for p in players
    ):
        raise _fail(f"'players' holds {MIN_PLAYERS} to {MAX_PLAYERS} JSON objects, one per seat.")
    _get(data, "opening", dict, "the record")
    _get(data, "racks", list, "the record")
    for i, turn in enumerate(_get(data, "turns", list, "the record")):
        _check_turn(turn, i, len(players))
    end = _get(data, "end", dict, "the record", nullable=True)
    if end is not None:
        _get(end, "reason", str, "the end")
    _get(data, "adjustments", list, "the record")
    _get(data, "totals", list, "the record")
    return ClassicRecord(data, settings)


# -- replay --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Difference:
    """The first field where the record and the recomputation disagree (``turn`` 0: the
    game as a whole)."""

    turn: int
    field: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        where = f"turn {self.turn}" if self.turn else "game"
        return f"{where}: {self.field}: recorded {self.recorded!r}, recomputed {self.recomputed!r}"

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "field": self.field,
            "recorded": self.recorded,
            "recomputed": self.recomputed,
        }


def _first_diff(turn: int, path: str, recorded: Any, mine: Any) -> Difference | None:
    """The first differing leaf of two JSON values, named by a dotted path."""
    if isinstance(recorded, dict) and isinstance(mine, dict):
        for key in list(recorded) + [k for k in mine if k not in recorded]:
            here = f"{path}.{key}" if path else key
            if diff := _first_diff(turn, here, recorded.get(key), mine.get(key)):
                return diff
        return None
    if isinstance(recorded, list) and isinstance(mine, list) and len(recorded) == len(mine):
        for i, (a, b) in enumerate(zip(recorded, mine, strict=True)):
            if diff := _first_diff(turn, f"{path}[{i}]", a, b):
                return diff
        return None
    return None if recorded == mine else Difference(turn, path, recorded, mine)


def _apply(game: Game, rec: Mapping) -> Turn | str:
    """Carry out one recorded action; a refusal comes back as its sentence."""
    challenge = rec["challenge"]
    try:
        if rec["action"] == "play":
            by = challenge["by"] if challenge else None
            return game.play(rec["move"]["coord"], rec["move"]["word"], challenged_by=by)
        if rec["action"] == "exchange":
            return game.exchange(rec["exchanged"])
        if rec["action"] == "pass":
            return game.pass_turn()
    except EngineError as exc:
        return f"refused ({exc.code}): {exc}"
    seat = game.current
    return "the game is over" if seat is None else f"player {seat + 1} to move, no turn lost"


def replay(record: ClassicRecord, *, lexicon: Any = None) -> Difference | None:
    """Replay a record with ``lexicon`` (which settles its challenges): the first difference
    between the record and the recomputation, or ``None`` when it reproduces exactly."""
    recorded_lexicon = record.data.get("lexicon") or {}
    identity = getattr(lexicon, "identity", None)  # a word-list stand-in has none
    if identity is not None and recorded_lexicon:
        mine = (identity_json(identity) or {}).get("sha256")
        if mine != recorded_lexicon.get("sha256"):
            return Difference(0, "lexicon.sha256", recorded_lexicon.get("sha256"), mine)
    game = Game(len(record.players), record.seed, record.settings, lexicon=lexicon)
    fresh = game_to_record(game, players=record.players)
    for key in ("opening", "racks"):
        if diff := _first_diff(0, key, record.data[key], fresh[key]):
            return diff
    for rec in record.turns:
        n = rec["number"]
        if game.end is not None:
            return Difference(n, "end", None, game.end.reason)
        if len(game.turns) < n:
            if rec["player"] != game.current:
                return Difference(n, "player", rec["player"], game.current)
            result = _apply(game, rec)
            if isinstance(result, str):
                return Difference(n, "action", rec["action"], result)
        if len(game.turns) < n:  # a turn applied by a seat whose turn was lost
            return Difference(n, "number", n, len(game.turns))
        if diff := _first_diff(n, "", rec, game.turns[n - 1].to_json()):
            return diff
    if len(game.turns) > len(record.turns):  # a trailing lost turn the record lacks
        extra = game.turns[len(record.turns)]
        return Difference(extra.number, "action", None, extra.action)
    final = game_to_record(game, players=record.players)
    for key in ("end", "adjustments", "totals"):
        if diff := _first_diff(0, key, record.data[key], final[key]):
            return diff
    return None
