"""``python -m engine play``, ``replay`` and ``judge``: a whole game top by top, and any
bulletin of it judged as the site judges it.

``engine/cli.py`` calls :func:`add_parsers`. A bad argument or file raises ``EngineError``,
which the engine's ``main`` prints as one sentence with exit status 2; ``replay`` exits 1
when the record does not reproduce and 0 when it does; ``judge`` prints one JSON line per
slip and exits 0.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.board import Rack
from engine.cli_files import load_lexicon, read_text, record_lexicon
from engine.duplicate.game import Game, Round
from engine.duplicate.proposals import Outcome, Proposal, score_proposal
from engine.duplicate.racks import SeededSource
from engine.duplicate.record import (
    GameRecord,
    game_to_record,
    load_record,
    move_from_json,
    replay,
    replay_game,
)
from engine.duplicate.scoresheet import check_totals, rescoring_hook, scoring_settings
from engine.duplicate.top import engine_top_finder
from engine.duplicate.variants import STANDARD, VARIANTS, Variant, canonical_code, get_variant
from engine.errors import EngineError


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
    lexicon = load_lexicon(args.lexicon)
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
    record = load_record(read_text(args.record, "record"))
    named = (record.data.get("lexicon") or {}).get("path")
    lexicon = load_lexicon(record_lexicon(args.lexicon, named, args.record))
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


def parse_slip(text: str, *, late: bool = False, connecting: str = "",
               illegible: bool = False) -> Proposal:  # fmt: skip
    """A typed bulletin: ``REF WORD [SCORE]``, ``-`` (or nothing) for no reference, a
    lowercase letter for a circled joker; several solutions on one bulletin are separated
    by ``|``. Raises ``EngineError`` (``cli.slip``) with one sentence otherwise."""
    parts = [p.split() for p in (text or "").split("|")]
    if not all(parts):
        raise EngineError("cli.slip", f"'{text}' is not a slip: write REF WORD [SCORE].")
    solutions = []
    for tokens in parts:
        reference = ""
        if len(tokens) > 1 and (tokens[0] == "-" or not tokens[0].isalpha()):
            reference = "" if tokens[0] == "-" else tokens[0]
            tokens = tokens[1:]
        score = None
        if len(tokens) == 2 and tokens[1].isdigit():
            score = int(tokens[1])
            tokens = tokens[:1]
        if len(tokens) != 1 or not tokens[0].isalpha():
            raise EngineError(
                "cli.slip",
                f"'{text}' is not a slip: write REF WORD [SCORE], e.g. 'G3 MENA 19' or "
                "'- MENA 19' without a reference.",
            )
        solutions.append(Proposal(tokens[0], reference, score, "arbiter", late))
    first = solutions[0]
    return Proposal(first.word, first.reference, first.claimed_score, "arbiter", late,
                    connecting, illegible, tuple(solutions[1:]))  # fmt: skip


def round_position(record: GameRecord, number: int, finder: Any) -> tuple[Game, dict]:
    """The game replayed up to the played round ``number``, its rack drawn and its top
    pending: the board and rack that round's bulletins are judged on. The record's rounds
    before it go through the one replayer (``record.replay_game``), which follows each
    recorded top even where this lexicon finds another (placed as ``"record"``)."""
    rounds, found = [], None
    for rec in record.rounds:
        if rec["status"] == "void":
            break
        if rec["number"] == number and rec["status"] == "played":
            rounds.append({**rec, "status": "pending", "players": []})
            found = rec
            break
        rounds.append({**rec, "players": []})
    if found is None:
        played = [r["number"] for r in record.rounds if r["status"] == "played"]
        span = f"1 to {max(played)}" if played else "none"
        message = f"The record has no played round {number} (rounds: {span})."
        raise EngineError("cli.round", message, round=number)
    partial = GameRecord({**record.data, "rounds": rounds}, record.variant)
    game, _ = replay_game(partial, finder, through_end=False)
    pending = game.pending
    if pending is None or pending.number != number or pending.rack != found["rack"]:
        drawn = pending.rack if pending is not None else "no rack"
        raise EngineError(
            "cli.record", f"Round {number} does not replay: the record's rack is "
            f"{found['rack']}, the replay draws {drawn}.",
        )  # fmt: skip
    return game, found


def outcome_line(outcome: Outcome) -> dict[str, Any]:
    """The JSON line ``judge`` prints for one slip."""
    alternative = outcome.alternative
    return {
        "kind": outcome.kind,
        "code": outcome.code,
        "score": outcome.score,
        "raw_score": outcome.raw_score,
        "review": outcome.review or None,
        "words": list(outcome.words),
        "invalid_words": list(outcome.invalid_words),
        "reference": outcome.reference,
        "alternative": {"kind": alternative.kind, "code": alternative.code,
                        "score": alternative.score} if alternative else None,
    }  # fmt: skip


def cmd_judge(args: argparse.Namespace) -> int:
    if bool(args.slip) == bool(args.slips):
        raise EngineError("cli.slip", "Give one slip with --slip or a file with --slips.")
    flags = dict(late=args.late, connecting=args.connecting or "", illegible=args.illegible)
    if args.slip:
        slips = [parse_slip(args.slip, **flags)]
    else:
        slips = []
        for n, line in enumerate(read_text(args.slips, "slips").splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                try:
                    slips.append(parse_slip(line, **flags))
                except EngineError as exc:
                    raise EngineError("cli.slip", f"Line {n} of {args.slips}: {exc}") from None
    record = load_record(read_text(args.record, "record"))
    variant = record.variant
    if args.variant and args.variant != variant.code:
        other = get_variant(args.variant)
        if other.rack_size != variant.rack_size:
            raise EngineError(
                "cli.variant", f"The record is a {variant.name} game ({variant.rack_size}-tile "
                f"racks); {other.name} racks hold {other.rack_size} tiles.",
            )  # fmt: skip
        variant = other
    lexicon = load_lexicon(args.lexicon)
    game, rec = round_position(record, args.round, engine_top_finder(lexicon, record.variant))
    scoring, _ = scoring_settings(record)
    scoring = replace(scoring, bonuses=variant.bonuses, max_tiles=variant.max_tiles)
    top = move_from_json(rec["top"], f"round {args.round}")
    if game.pending is None:  # round_position stops with the round drawn
        raise RuntimeError(f"round {args.round} is not drawn")
    number = game.pending.number
    for proposal in slips:
        outcome = score_proposal(
            board=game.board, rack=Rack(game.rack), round_number=number,
            top_score=top.score, proposal=proposal, lexicon=lexicon,
            settings=scoring, top_move=(top.coord, top.word),
        )  # fmt: skip
        print(json.dumps(outcome_line(outcome), ensure_ascii=False))
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``play``, ``replay`` and ``judge`` on the engine's sub-command parser."""
    play = subparsers.add_parser("play", help="play a whole seeded game top by top")
    play.add_argument("--lexicon", required=True, help="lexicon file (lexicon build)")
    play.add_argument("--seed", required=True, type=int, help="0 to 2**64-1")
    play.add_argument("--variant", default=STANDARD.code, type=canonical_code,
                      choices=sorted(VARIANTS),
                      help=f"the formula (default: {STANDARD.code})")  # fmt: skip
    play.add_argument("--json", action="store_true", help="print the game record")
    play.set_defaults(handler=cmd_play)
    again = subparsers.add_parser("replay", help="recompute a game record, list differences")
    again.add_argument("record", help="a tirage-game JSON record")
    again.add_argument("--lexicon", help="lexicon file (default: the path the record names)")
    again.add_argument("--json", action="store_true", help="differences as JSON")
    again.set_defaults(handler=cmd_replay)
    judge = subparsers.add_parser(
        "judge", help="judge a bulletin of a recorded game as the site does (one JSON line)"
    )
    judge.add_argument("--lexicon", required=True, help="lexicon file (lexicon build)")
    judge.add_argument("--record", required=True, help="a tirage-game JSON record (play --json)")
    judge.add_argument("--round", required=True, type=int, help="the round's number")
    judge.add_argument("--slip", help="'REF WORD [SCORE]' ('-' for no reference, '|' between "
                       "several solutions, lowercase = circled joker)")  # fmt: skip
    judge.add_argument("--slips", help="a file of slips, one per line")
    judge.add_argument("--late", action="store_true", help="handed in after the end")
    judge.add_argument("--variant", type=canonical_code, choices=sorted(VARIANTS),
                       help="this formula's scoring (default: the record's)")  # fmt: skip
    judge.add_argument("--connecting", help="connecting letters written instead of or beside "
                       "the reference")  # fmt: skip
    judge.add_argument("--illegible", action="store_true", help="the arbiter could not read it")
    judge.set_defaults(handler=cmd_judge)
