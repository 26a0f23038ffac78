"""Command line of the engine: lexicons, tops and move checks.

Other tools and checks call it, so its options and output formats are kept stable. Bad
arguments or files exit with status 2 and one sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from engine.board import Board, Rack
from engine.cards import cli as cards_cli
from engine.classic import cli as classic_cli
from engine.duplicate import cli as duplicate_cli
from engine.errors import EngineError
from engine.interop import cli as interop_cli

if TYPE_CHECKING:
    from engine.lexicon.automaton import Lexicon

#: ``check`` exit statuses (docs/engine.md); 2 is any bad input, as for every command.
CHECK_VALID, CHECK_REFUSED, CHECK_NOT_IN_LEXICON = 0, 1, 3


class CliError(Exception):
    """A usage or input problem: printed as one sentence, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse prints usage + exits 2; keep one sentence
        raise CliError(f"{message} (see '{self.prog} --help').")


def _lexicon(path: str) -> Lexicon:
    from engine.lexicon.automaton import Lexicon

    return Lexicon.load(path)


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"The {what} file {path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"The {what} file {path} cannot be read: {exc}.") from None


def _write_identity(identity: Any) -> None:
    for field in ("name", "source", "version", "word_count", "sha256"):
        print(f"{field}: {getattr(identity, field)}")


def cmd_lexicon_build(args: argparse.Namespace) -> int:
    from engine.lexicon.automaton import build_lexicon_file
    from engine.lexicon.wordlist import WordListError, read_word_list

    started = time.perf_counter()
    try:
        words = read_word_list(args.words)
    except FileNotFoundError:
        raise CliError(f"The word list {args.words} does not exist.") from None
    except WordListError as exc:
        raise CliError(str(exc)) from None
    for rejected in words.rejected:
        print(
            f"{args.words}:{rejected.line_no}: {rejected.text!r} {rejected.reason}", file=sys.stderr
        )
    if not words.words:
        raise CliError(f"The word list {args.words} holds no usable word.")
    identity = build_lexicon_file(
        words.words,
        args.output,
        name=args.name or Path(args.words).name.split(".")[0],
        source=args.source or str(args.words),
        version=args.version,
    )
    _write_identity(identity)
    print(f"rejected lines: {len(words.rejected)}")
    print(f"built in {time.perf_counter() - started:.1f} s: {args.output}")
    return 0


def cmd_lexicon_build_default(args: argparse.Namespace) -> int:
    from engine.lexicon import hunspell
    from engine.lexicon.automaton import build_lexicon_file

    started = time.perf_counter()
    words = hunspell.default_word_list()
    identity = build_lexicon_file(
        words.words,
        args.output,
        name=hunspell.DEFAULT_NAME,
        source=hunspell.DEFAULT_SOURCE,
        version=hunspell.DEFAULT_VERSION,
    )
    _write_identity(identity)
    print(f"built in {time.perf_counter() - started:.1f} s: {args.output}")
    return 0


def cmd_lexicon_info(args: argparse.Namespace) -> int:
    _write_identity(_lexicon(args.lexfile).identity)
    return 0


def _positions(path: str) -> Iterator[tuple[int, dict]]:
    for number, line in enumerate(_read_text(path, "positions").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            data["board"], data["rack"]  # noqa: B018 - presence check
        except (json.JSONDecodeError, TypeError, KeyError):
            raise CliError(
                f"Line {number} of {path} is not a position: a JSON object with 'board' "
                "(15 strings) and 'rack' is expected."
            ) from None
        yield number, data


def _move_json(move: Any) -> dict:
    return {"coord": move.coord, "word": move.word, "score": move.score}


def cmd_top(args: argparse.Namespace) -> int:
    from engine.movegen import best_moves, find_top, generate_moves

    lexicon = _lexicon(args.lexicon)
    if args.positions:
        if args.board or args.rack:
            raise CliError("Give either --positions or --board with --rack, not both.")
        for number, data in _positions(args.positions):
            try:
                board = Board.from_lines(data["board"])
                rack = Rack.parse(data["rack"])
            except EngineError as exc:
                raise CliError(f"Line {number} of {args.positions}: {exc}") from None
            started = time.perf_counter()
            if args.all:
                moves = generate_moves(board, rack, lexicon)
                elapsed = time.perf_counter() - started
                score = moves[0].score if moves else 0
                tops = [m for m in moves if m.score == score] if moves else []
                count: int | None = len(moves)
            else:
                top = find_top(board, rack, lexicon, count_moves=args.count)
                elapsed = time.perf_counter() - started
                score, tops, count = top.score, list(top.moves), top.n_moves
            out = {
                "id": data.get("id", str(number)),
                "top_score": score,
                "top_moves": [_move_json(m) for m in tops],
                "n_moves": count,
                "ms": round(elapsed * 1000, 3),
            }
            if args.n:
                out["best"] = [_move_json(m) for m in best_moves(board, rack, lexicon, args.n)]
            print(json.dumps(out, ensure_ascii=False))
        return 0
    board, rack = _board_and_rack(args)
    if args.all:
        moves = generate_moves(board, rack, lexicon)
    else:
        moves = best_moves(board, rack, lexicon, args.n or 10)
    if not moves:
        print("No legal move.")
    for move in moves:
        print(f"{move.score:4d}  {move.coord:4s} {move.word}")
    return 0


def _board_and_rack(args: argparse.Namespace) -> tuple[Board, Rack]:
    if not args.rack:
        raise CliError("--rack is required (letters, '?' for a joker).")
    try:
        board = Board.from_text(_read_text(args.board, "board")) if args.board else Board()
        return board, Rack.parse(args.rack)
    except EngineError as exc:
        raise CliError(str(exc)) from None


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0: placement, score and words fine; 3: placement and score fine but a word is
    not in the lexicon; 1: the placement is refused (``move.*``); 2: bad input."""
    from engine.check import check_move

    board, rack = _board_and_rack(args)
    parts = args.move.split()
    if len(parts) < 2:
        raise CliError(f"--move '{args.move}' should be a reference then a word, e.g. 'H4 MOT'.")
    lexicon = _lexicon(args.lexicon) if args.lexicon else None
    try:
        move = check_move(board, rack, " ".join(parts[:-1]), parts[-1], lexicon=lexicon)
    except EngineError as exc:
        if not exc.code.startswith("move."):  # an unreadable reference or word: bad input
            raise CliError(str(exc)) from None
        print(f"refused ({exc.code}): {exc}")
        return CHECK_REFUSED
    print(f"{move.coord} {move.word}: {move.score} points, {move.placed} tiles placed")
    for word in move.words:
        print(f"  {word.reference} {word.word} {word.score}")
    if move.joker_inferred:
        print(f"  joker read as {', '.join(move.jokers_as)} (lowest-scoring reading)")
    if move.invalid_words and lexicon is not None:  # only a lexicon finds invalid words
        print(f"invalid ({', '.join(move.invalid_words)} not in {lexicon.identity.name})")
        return CHECK_NOT_IN_LEXICON
    return CHECK_VALID


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    lexicon = commands.add_parser("lexicon", help="build or describe a lexicon file")
    lex_commands = lexicon.add_subparsers(dest="lexicon_command", required=True)
    build = lex_commands.add_parser("build", help="build a lexicon from a word list")
    build.add_argument("words", help="UTF-8 text or .gz, one word a line")
    build.add_argument("-o", "--output", required=True)
    build.add_argument("--name")
    build.add_argument("--source")
    build.add_argument("--version", default="1")
    build.set_defaults(handler=cmd_lexicon_build)
    default = lex_commands.add_parser("build-default", help="build the free default lexicon")
    default.add_argument("-o", "--output", required=True)
    default.set_defaults(handler=cmd_lexicon_build_default)
    info = lex_commands.add_parser("info", help="print a lexicon's identity")
    info.add_argument("lexfile")
    info.set_defaults(handler=cmd_lexicon_info)

    top = commands.add_parser("top", help="find the top of positions or of one board")
    top.add_argument("--lexicon", required=True)
    top.add_argument("--positions", help="JSON lines with board and rack")
    top.add_argument("--board", help="board file, 15 lines of 15 characters")
    top.add_argument("--rack")
    top.add_argument("--all", action="store_true", help="enumerate every legal move")
    top.add_argument("--n", type=int, default=0, help="also list the N best moves")
    top.add_argument(
        "--count",
        action="store_true",
        help="also count every legal move (n_moves; slower: no pruning)",
    )
    top.set_defaults(handler=cmd_top)

    check = commands.add_parser("check", help="check and score one move")
    check.add_argument("--lexicon")
    check.add_argument("--board")
    check.add_argument("--rack", required=True)
    check.add_argument("--move", required=True, help="reference and word, e.g. 'H4 MOT'")
    check.set_defaults(handler=cmd_check)

    duplicate_cli.add_parsers(commands)  # play, replay, judge: beside the rules library
    cards_cli.add_parsers(commands)  # cards play, cards replay: beside the card rules
    classic_cli.add_parsers(commands)  # classic play, classic replay
    interop_cli.add_parsers(commands)  # eliot import, eliot export
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        return args.handler(args)
    except (CliError, EngineError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head`: stop quietly
        sys.stderr.close()
        return 0
