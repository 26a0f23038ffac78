"""``python -m engine cards play`` and ``python -m engine cards replay``: the card game.

``engine/cli.py`` calls :func:`add_parsers`. A bad argument or file raises ``EngineError``,
which the engine's ``main`` prints as one sentence with exit status 2; ``replay`` exits 1
with the first difference when the record does not reproduce, 0 when it does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.cards.game import CardGame
from engine.cards.match import play_engine_game
from engine.cards.players import LEVELS, STRONG
from engine.cards.record import game_to_record, load_record, replay
from engine.cli_files import load_lexicon, read_text, record_lexicon
from engine.errors import EngineError


def _levels(text: str | None, players: int) -> list[str]:
    if not text:
        return [STRONG] * players
    levels = [part.strip() for part in text.split(",")]
    if len(levels) != players or any(level not in LEVELS for level in levels):
        raise EngineError(
            "cli.levels",
            f"--levels lists one level per player ({players}), each strong or weak.",
        )
    return levels


def summary(game: CardGame) -> str:
    """A short game sheet: one line a turn, then the final scores."""
    lines = [f"Seed {game.seed}, {game.players} players, seat {game.first + 1} starts."]
    for turn in game.history:
        what = turn.action
        if turn.outcome is not None:
            words = ", ".join(f"{w.word.text} {w.score}" for w in turn.outcome.words)
            prime = f" prime {turn.outcome.play.prime}" if turn.outcome.play.prime else ""
            gone = len(turn.outcome.removed)
            what = f"{words}{prime}" + (f" (removes {gone})" if gone else "")
        elif turn.action == "exchange":
            what = f"exchange {turn.exchanged}"
        scores = " ".join(f"{s:4d}" for s in turn.scores)
        lines.append(f"{turn.number:3d} P{turn.seat + 1} {turn.hand:<8} {what:<40} {scores}")
    if game.end:
        lines.append(f"End ({game.end.reason}): adjustments {list(game.end.adjustments)}")
        lines.append(f"Final scores: {list(game.end.scores)}")
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    lexicon = load_lexicon(args.lexicon)
    game = play_engine_game(args.players, args.seed, lexicon, _levels(args.levels, args.players))
    if args.json:
        path = str(Path(args.lexicon).resolve())
        print(json.dumps(game_to_record(game, lexicon_path=path), ensure_ascii=False, indent=1))
    else:
        print(summary(game))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    data = load_record(read_text(args.record, "record", "cli.record"))
    named = (data.get("lexicon") or {}).get("path")
    lexicon = load_lexicon(record_lexicon(args.lexicon, named, args.record))
    diffs = replay(data, lexicon)
    if diffs:
        print(diffs[0])
        return 1
    final = (data.get("end") or {}).get("scores")
    print(f"The record reproduces: {len(data['turns'])} turns, final scores {final}.")
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``cards play`` and ``cards replay`` on the engine's sub-command parser."""
    cards = subparsers.add_parser("cards", help="the card game: engine games and replays")
    commands = cards.add_subparsers(dest="cards_command", required=True)
    play = commands.add_parser("play", help="play a whole seeded game between engine players")
    play.add_argument("--lexicon", required=True, help="lexicon file (lexicon build)")
    play.add_argument("--players", required=True, type=int, help="2 to 6")
    play.add_argument("--seed", required=True, type=int, help="0 to 2**64-1")
    play.add_argument("--levels", help="one level per player, e.g. strong,weak (default strong)")
    play.add_argument("--json", action="store_true", help="print the tirage-cards record")
    play.set_defaults(handler=cmd_play)
    again = commands.add_parser("replay", help="recompute a card game record")
    again.add_argument("record", help="a tirage-cards JSON record")
    again.add_argument("--lexicon", help="lexicon file (default: the path the record names)")
    again.set_defaults(handler=cmd_replay)
