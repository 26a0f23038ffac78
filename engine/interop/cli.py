"""``python -m engine eliot import FILE`` (an Eliot saved game → a ``tirage-game`` record
on stdout, replayed with ``--lexicon``) and ``python -m engine eliot export FILE`` (a
record → Eliot XML on stdout). Bad input: ``EngineError``, one sentence, exit 2;
``import`` exits 1 when the file's tops or points differ from ours (listed on stderr), the
record being printed all the same."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli_files import load_lexicon, read_text
from engine.duplicate.record import load_record
from engine.duplicate.top import engine_top_finder
from engine.errors import EngineError
from engine.interop.eliot import eliot_from_record, record_from_eliot, variant_of
from engine.interop.eliot_xml import MAX_BYTES, read_eliot, write_eliot


def _read_bytes(path: str) -> bytes:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_BYTES:
            raise EngineError(
                "eliot.too_big", f"The file is larger than {MAX_BYTES} bytes.", max=MAX_BYTES
            )
        return file.read_bytes()
    except FileNotFoundError:
        raise EngineError("cli.file", f"The file {path} does not exist.", path=path) from None
    except OSError as exc:
        message = f"The file {path} cannot be read: {exc}."
        raise EngineError("cli.file", message, path=path) from None


def cmd_import(args: argparse.Namespace) -> int:
    game = read_eliot(_read_bytes(args.file))
    if not args.lexicon:
        raise EngineError(
            "cli.lexicon", "The tops are searched again: give a lexicon with --lexicon LEXFILE."
        )
    lexicon = load_lexicon(args.lexicon)
    result = record_from_eliot(game, engine_top_finder(lexicon, variant_of(game)), lexicon)
    print(json.dumps(result.record, ensure_ascii=False, indent=1))
    for diff in result.differences:
        print(diff, file=sys.stderr)
    return 1 if result.differences else 0


def cmd_export(args: argparse.Namespace) -> int:
    record = load_record(read_text(args.file, "record", "cli.record"))
    sys.stdout.write(write_eliot(eliot_from_record(record)).decode("utf-8"))
    return 0


def add_parsers(commands: argparse._SubParsersAction) -> None:
    eliot = commands.add_parser("eliot", help="read or write Eliot's saved-game XML")
    sub = eliot.add_subparsers(dest="eliot_command", required=True)
    imp = sub.add_parser("import", help="an Eliot saved game as a tirage-game record")
    imp.add_argument("file")
    imp.add_argument("--lexicon", help="lexicon file the tops are searched with")
    imp.set_defaults(handler=cmd_import)
    exp = sub.add_parser("export", help="a tirage-game record as an Eliot saved game")
    exp.add_argument("file")
    exp.set_defaults(handler=cmd_export)
