"""Files the family command lines read (``play``, ``replay``, ``judge`` of every family):
one way to open a lexicon, read a record and find the lexicon a record names, so every
family refuses a missing or unreadable file with the same codes and sentences (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import EngineError


def load_lexicon(path: str) -> Any:
    """The lexicon file at ``path``; ``cli.lexicon`` when there is none."""
    from engine.lexicon.automaton import Lexicon

    if not Path(path).is_file():
        raise EngineError("cli.lexicon", f"The lexicon file {path} does not exist.", path=str(path))
    return Lexicon.load(path)


def read_text(path: str, what: str, code: str = "cli.file") -> str:
    """A UTF-8 text file (``what`` names it in the sentence); ``code`` when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EngineError(code, f"The {what} file {path} does not exist.", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        message = f"The {what} file {path} cannot be read: {exc}."
        raise EngineError(code, message, path=path) from None


def record_lexicon(given: str | None, named: str | None, record_path: str) -> str:
    """The lexicon to replay a record with: ``given`` (``--lexicon``), else the path the
    record ``named``, else a file of that name beside the record (a record copied with its
    lexicon to another machine)."""
    if given:
        return given
    if not named:
        raise EngineError(
            "cli.lexicon", "The record names no lexicon file: give one with --lexicon LEXFILE."
        )
    if not Path(named).is_file():
        beside = Path(record_path).parent / Path(named).name
        if beside.is_file():
            return str(beside)
    return named
