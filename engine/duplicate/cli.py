"""``python -m engine play`` and ``python -m engine replay``: a whole game top by top.

``engine/cli.py`` calls :func:`add_parsers`. A bad argument or file raises ``EngineError``,
which the engine's ``main`` prints as one sentence with exit status 2; ``replay`` exits 1
when the record does not reproduce and 0 when it does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.duplicate.game import Game, Round
from engine.duplicate.racks import SeededSource
from engine.duplicate.record import game_to_record, load_record, replay
from engine.duplicate.scoresheet import check_totals, rescoring_hook, scoring_settings
from engine.duplicate.top import engine_top_finder
from engine.duplicate.variants import VARIANTS, Variant, get_variant
from engine.errors import EngineError


def _load_lexicon(path: str) -> Any:
    from engine.lexicon.automaton import Lexicon

    if not Path(path).is_file():
        raise EngineError("cli.lexicon", f"The lexicon file {path} does not exist.", path=str(path))
    return Lexicon.load(path)


def sheet_line(rnd: Round, variant: Variant) -> list[str]:
    """The game-sheet lines of one round: its rejected racks, then the round itself."""
    lines = [f"{'':>4}  {d.rack:<12} rejected: {d.message or d.rejected}" for d in rnd.rejections]
    top = rnd.top
    if rnd.status == "void":
        return lines
    if top is None:
        lines.append(f"{rnd.number:>4}  {rnd.rack:<12} cancelled {rnd.cancel_reason}".rstrip())
        return lines
    star = "*" if top.placed in variant.bonuses else " "
    status = "  (cancelled)" if rnd.status == "cancelled" else ""
    lines.append(
        f"{rnd.number:>4}  {rnd.rack:<12} {top.word:<15} {top.coord:>4} {top.score:>4}{star}"
        f" {rnd.cumulative:>6}{status}"
    )
    return lines


def game_sheet(game: Game, title: str = "") -> str:
    """The game sheet (P5): N, rack, top (lowercase = joker), reference, points, total."""
    lines = [title] if title else []
    lines.append(f"{'N':>4}  {'RACK':<12} {'TOP':<15} {'REF':>4} {'PTS':>4}  {'TOTAL':>6}")
    for rnd in game.history:
        lines.extend(sheet_line(rnd, game.variant))
    lines.append(f"Top total: {game.cumulative}")
    if game.end:
        lines.append(game.end.sentence())
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    lexicon = _load_lexicon(args.lexicon)
    game = Game(SeededSource(args.seed), engine_top_finder(lexicon, variant), variant)
    game.play_to_end()
    if args.json:
        path = str(Path(args.lexicon).resolve())  # a hint for replay on this machine
        record = game_to_record(game, lexicon=lexicon.identity, lexicon_path=path)
        print(json.dumps(record, ensure_ascii=False, indent=1))
    else:
        ident = lexicon.identity
        title = f"{variant.name}, seed {args.seed}, lexicon {ident.name} ({ident.sha256[:12]})"
        print(game_sheet(game, title))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.record).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EngineError(
            "cli.record", f"The record file {args.record} does not exist.", path=args.record
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        message = f"The record file {args.record} cannot be read: {exc}."
        raise EngineError("cli.record", message, path=args.record) from None
    record = load_record(text)
    path = args.lexicon or (record.data.get("lexicon") or {}).get("path")
    if not path:
        raise EngineError(
            "cli.lexicon", "The record names no lexicon file: give one with --lexicon LEXFILE."
        )
    if not args.lexicon and not Path(path).is_file():
        beside = Path(args.record).parent / Path(path).name
        path = str(beside) if beside.is_file() else path
    lexicon = _load_lexicon(path)
    finder = engine_top_finder(lexicon, record.variant)
    scoring, totals = scoring_settings(record)
    hook = rescoring_hook(lexicon, scoring)
    diffs = replay(record, finder, lexicon=lexicon.identity, outcome_hook=hook)
    if record.data["players"]:
        diffs += check_totals(record, totals)
    if args.json:
        print(json.dumps([_diff(d) for d in diffs], ensure_ascii=False, default=str))
    else:
        for diff in diffs:
            print(diff)
        if not diffs:
            played = sum(1 for r in record.rounds if r["status"] == "played")
            top = record.data["totals"]["top"]
            print(f"The record reproduces: {played} rounds, top total {top}.")
    return 1 if diffs else 0


def _diff(d: Any) -> dict:
    return {"round": d.round, "field": d.field, "recorded": d.recorded, "recomputed": d.recomputed}


def add_parsers(subparsers: Any) -> None:
    """Register ``play`` and ``replay`` on the engine's sub-command parser."""
    play = subparsers.add_parser("play", help="play a whole seeded game top by top")
    play.add_argument("--lexicon", required=True, help="lexicon file (lexicon build)")
    play.add_argument("--seed", required=True, type=int, help="0 to 2**64-1")
    play.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    play.add_argument("--json", action="store_true", help="print the game record")
    play.set_defaults(handler=cmd_play)
    again = subparsers.add_parser("replay", help="recompute a game record, list differences")
    again.add_argument("record", help="a tirage-game JSON record")
    again.add_argument("--lexicon", help="lexicon file (default: the path the record names)")
    again.add_argument("--json", action="store_true", help="differences as JSON")
    again.set_defaults(handler=cmd_replay)
