"""Game records of the card game (``tirage-cards`` version 1) and their replay.

A record holds what an arbiter needs to check a game afterwards: the seed, the seats, the
draw for the first player and the deal, then every turn with the hand before it, the action
(cards laid with their squares, the Prime card and its square, cards exchanged), the words
formed and what each scored, the words removed, the challenge, the cards drawn and the
scores after it; then the end and the final adjustments. docs/cards.md describes the fields.

:func:`replay` plays the record again from its seed and recorded actions and lists every
field that comes out different; for an engine seat it also asks the engine again which
action it takes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards.game import EXCHANGE, PASS, PLAY, CardGame, Turn
from engine.cards.players import LEVELS, Action
from engine.cards.rules import Play
from engine.errors import EngineError

FORMAT = "tirage-cards"
VERSION = 1
HUMAN = "human"


def turn_to_json(turn: Turn) -> dict:
    out: dict[str, Any] = {
        "number": turn.number,
        "seat": turn.seat,
        "hand": turn.hand,
        "action": turn.action,
    }
    if turn.action == EXCHANGE:
        out["exchanged"] = turn.exchanged
    if turn.outcome is not None:
        outcome = turn.outcome
        out["play"] = outcome.play.to_json()
        out["words"] = [w.to_json() for w in outcome.words]
        out["bonus"] = outcome.bonus
        out["removed"] = [w.to_json() for w in outcome.removed]
        out["discarded"] = outcome.discarded
    if turn.challenge is not None:
        c = turn.challenge
        out["challenge"] = {"by": c.by, "valid": c.valid, "invalid": list(c.invalid)}
    out["score"] = turn.score
    out["drawn"] = turn.drawn
    out["scores"] = list(turn.scores)
    out["deck"] = turn.deck
    return out


def _end_json(game: CardGame) -> dict | None:
    """The record's ``end`` block: how the game ended and the final adjustments."""
    if game.end is None:
        return None
    return {
        "reason": game.end.reason,
        "out": game.end.out,
        "adjustments": list(game.end.adjustments),
        "scores": list(game.end.scores),
    }


def game_to_record(
    game: CardGame, *, kinds: list[str] | None = None, lexicon_path: str = ""
) -> dict:
    """The record of ``game`` (finished or not). ``kinds``: ``strong``/``weak``/``human``."""
    kinds = kinds or game.levels or [HUMAN] * game.players
    lexicon = None
    if game.lexicon is not None:
        ident = game.lexicon.identity
        lexicon = {
            "name": ident.name,
            "version": ident.version,
            "word_count": ident.word_count,
            "sha256": ident.sha256,
            "path": lexicon_path,
        }
    end = _end_json(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "strict": game.strict,
        "lexicon": lexicon,
        "players": [
            {"seat": seat, "kind": "engine" if kind in LEVELS else HUMAN, "level": kind}
            for seat, kind in enumerate(kinds)
        ],
        "start": {
            "draws": [[[seat, card] for seat, card in rnd.cards] for rnd in game.start_draws],
            "first": game.first,
        },
        "dealt": list(game.dealt),
        "turns": [turn_to_json(turn) for turn in game.history],
        "end": end,
    }


@dataclass(frozen=True, slots=True)
class Difference:
    """A field the replay computes differently (``turn`` 0: the start, -1: the end)."""

    turn: int
    field: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        where = {0: "start", -1: "end"}.get(self.turn, f"turn {self.turn}")
        return f"{where}: {self.field} recorded {self.recorded!r}, recomputed {self.recomputed!r}"


def _bad(message: str) -> EngineError:
    return EngineError("record.format", message)


def load_record(text: str) -> dict:
    """Parse and check the shape of a record; a bad one raises ``record.format``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(f"The record is not JSON (line {exc.lineno}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"The file is not a {FORMAT} record.")
    if data.get("version") != VERSION:
        raise _bad(f"This engine reads {FORMAT} version {VERSION}, not {data.get('version')!r}.")
    checks = {
        "seed": int,
        "strict": bool,
        "players": list,
        "start": dict,
        "dealt": list,
        "turns": list,
    }
    for key, kind in checks.items():
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data[key], bool)):
            raise _bad(f"The record's field '{key}' is missing or not a {kind.__name__}.")
    for i, turn in enumerate(data["turns"], start=1):
        if not isinstance(turn, dict) or turn.get("action") not in (PLAY, PASS, EXCHANGE):
            raise _bad(f"Turn {i} of the record has no action play, pass or exchange.")
        if not isinstance(turn.get("seat"), int):
            raise _bad(f"Turn {i} of the record names no seat.")
        if turn["action"] == PLAY and not isinstance(turn.get("play"), dict):
            raise _bad(f"Turn {i} of the record is a play without its cards.")
        if turn["action"] == EXCHANGE and not isinstance(turn.get("exchanged"), str):
            raise _bad(f"Turn {i} of the record is an exchange without its cards.")
    for seat in data["players"]:
        if not isinstance(seat, Mapping) or seat.get("level") not in (*LEVELS, HUMAN):
            raise _bad("Each player of the record has a level: strong, weak or human.")
    return data


def recorded_action(turn: Mapping) -> Action:
    try:
        if turn["action"] == PLAY:
            return Action(PLAY, Play.from_json(turn["play"]))
    except (KeyError, TypeError, ValueError, IndexError):
        raise _bad(f"Turn {turn.get('number')} of the record has malformed cards.") from None
    if turn["action"] == EXCHANGE:
        return Action(EXCHANGE, cards=turn["exchanged"])
    return Action(PASS)


def _challenger(turn: Mapping) -> int:
    challenge = turn["challenge"]
    by = challenge.get("by") if isinstance(challenge, Mapping) else None
    if not isinstance(by, int) or isinstance(by, bool):
        raise _bad(f"Turn {turn.get('number')} of the record has a challenge without its seat.")
    return by


def _first_diff(number: int, recorded: Mapping, recomputed: Mapping) -> list[Difference]:
    for key in sorted(set(recorded) | set(recomputed)):
        if recorded.get(key) != recomputed.get(key):
            return [Difference(number, key, recorded.get(key), recomputed.get(key))]
    return []


def replay(data: dict, lexicon) -> list[Difference]:
    """Play ``data`` again; the differences found, stopping at the first turn that differs."""
    from engine.cards.match import action_of, apply

    players = len(data["players"])
    try:
        game = CardGame(players, data["seed"], lexicon=lexicon, strict=data["strict"])
    except EngineError as exc:
        raise _bad(f"The record cannot start a game: {exc}") from None
    start = {"draws": [[[s, c] for s, c in r.cards] for r in game.start_draws], "first": game.first}
    diffs = _first_diff(
        0, {**data["start"], "dealt": data["dealt"]}, {**start, "dealt": game.dealt}
    )
    if diffs:
        return diffs
    levels = [seat["level"] for seat in data["players"]]
    for recorded in data["turns"]:
        number = recorded.get("number", game.turn_number)
        if game.over:
            return [Difference(number, "turn", recorded, "the game is over")]
        action = recorded_action(recorded)
        if levels[recorded["seat"] % players] in LEVELS and recorded["seat"] == game.current:
            mine = action_of(game, game.current, levels[game.current])
            if mine != action:
                return [Difference(number, "action", _action_json(action), _action_json(mine))]
        try:
            if recorded["seat"] != game.current:
                raise EngineError("turn.not_yours", f"seat {game.current} is to play")
            if action.kind == PLAY and recorded.get("challenge"):
                by = _challenger(recorded)
                game.play(recorded["seat"], action.placed)
                turn = game.challenge(by)
            else:
                turn = apply(game, recorded["seat"], action)
        except EngineError as exc:
            return [Difference(number, "action", _action_json(action), f"refused: {exc}")]
        diffs = _first_diff(number, recorded, turn_to_json(turn))
        if diffs:
            return diffs
    end = _end_json(game)
    if data.get("end") != end:
        return [Difference(-1, "end", data.get("end"), end)]
    return []


def _action_json(action: Action) -> dict:
    out: dict[str, Any] = {"action": action.kind}
    if action.play is not None:
        out["play"] = action.play.to_json()
    if action.cards:
        out["exchanged"] = action.cards
    return out
