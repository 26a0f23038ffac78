"""The lexicon as a compiled, minimised GADDAG stored in one flat binary file.

File layout (all integers little-endian; see docs/engine.md)::

    offset 0   8 bytes  magic b"TIRGADDG"
    offset 8   u32      format version (FORMAT_VERSION)
    offset 12  u32      length M of the metadata
    offset 16  M bytes  metadata, UTF-8 JSON: name, source, version, word_count, sha256,
                        automaton facts (kind, nodes, cells)
               zero padding up to a multiple of 8 bytes
    then       u32 n_cells, u32 crc32 of the cells, u64 reserved (0)
    then       n_cells u32 cells (the automaton, root at cell 0, layout in gaddag.h)

Loading reads the file into one ``bytes`` buffer and hands it to the compiled core, which
checks that every edge stays inside the array before anything walks it: no per-node Python
object exists at any time.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from engine import _core
from engine.errors import EngineError

MAGIC = b"TIRGADDG"
FORMAT_VERSION = 1
_HEAD = struct.Struct("<8sII")
_DATA_HEAD = struct.Struct("<IIQ")
_MAX_METADATA = 1 << 20
_IDENTITY_FIELDS = ("name", "source", "version", "word_count", "sha256")


@dataclass(frozen=True)
class LexiconIdentity:
    """What names a lexicon: its label, where it came from, and the hash of its word list.

    ``sha256`` is the hash of the normalised sorted words, one a line with a final newline
    (:func:`engine.lexicon.wordlist.words_sha256`), so it identifies the word list whatever
    file or automaton carries it.
    """

    name: str
    source: str
    version: str
    word_count: int
    sha256: str


def _words_blob(words: Sequence[str]) -> bytes:
    """The words one a line with a final newline; its sha256 is the lexicon's identity."""
    if not words:
        return b""
    try:
        return ("\n".join(words) + "\n").encode("ascii")
    except UnicodeEncodeError as exc:
        raise EngineError(
            "lexicon.words", "A lexicon word holds a character outside the letters A to Z."
        ) from exc


def build_lexicon_file(
    words: Sequence[str], path: str | os.PathLike[str], *, name: str, source: str, version: str
) -> LexiconIdentity:
    """Compile normalised, sorted, distinct words (A–Z, 2–15 letters) into a lexicon file.

    The file is written next to ``path`` under a temporary name then renamed, so a reader
    never sees half a file. Raises :class:`EngineError` (``lexicon.words``) when a word is
    not normalised or the list is not sorted.
    """
    blob = _words_blob(words)
    # Same bytes as wordlist.words_sha256(words): each word then "\n".
    sha256 = hashlib.sha256(blob).hexdigest()
    try:
        cells, word_count, nodes = _core.build_gaddag(blob)
    except ValueError as exc:
        raise EngineError(
            "lexicon.words", f"The word list cannot be compiled: {exc}.", detail=str(exc)
        ) from exc
    identity = LexiconIdentity(
        name=name, source=source, version=version, word_count=word_count, sha256=sha256
    )
    meta = asdict(identity) | {
        "automaton": "gaddag",
        "nodes": nodes,
        "cells": len(cells) // 4,
    }
    meta_bytes = json.dumps(meta, ensure_ascii=False, sort_keys=True).encode("utf-8")
    head = _HEAD.pack(MAGIC, FORMAT_VERSION, len(meta_bytes)) + meta_bytes
    head += b"\0" * (-len(head) % 8)
    data_head = _DATA_HEAD.pack(len(cells) // 4, zlib.crc32(cells), 0)

    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(head)
            out.write(data_head)
            out.write(cells)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return identity


def _corrupt(path: Path, why: str) -> EngineError:
    return EngineError(
        "lexicon.file", f"The lexicon file {path} is not usable: {why}.", path=str(path)
    )


class Lexicon:
    """A loaded lexicon: membership test and the handle the move generator walks."""

    __slots__ = ("identity", "path", "nodes", "_gaddag", "_data")

    def __init__(self, identity: LexiconIdentity, gaddag: _core.Gaddag, data: bytes, path: Path):
        self.identity = identity
        self.path = path
        self.nodes: int = gaddag.n_nodes
        self._gaddag = gaddag
        self._data = data

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Lexicon:
        """Read a file written by :func:`build_lexicon_file`.

        Raises :class:`EngineError` with code ``lexicon.file`` when the file is missing,
        unreadable, truncated, corrupt, or of another format version.
        """
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise EngineError(
                "lexicon.file", f"The lexicon file {path} does not exist.", path=str(path)
            ) from exc
        except OSError as exc:
            raise _corrupt(path, f"it cannot be read ({exc.strerror})") from exc
        if sys.byteorder != "little":  # pragma: no cover - no such machine here
            raise _corrupt(path, "this engine only reads lexicons on little-endian machines")
        if len(data) < _HEAD.size or data[:8] != MAGIC:
            raise _corrupt(path, "it is not a Tirage lexicon file")
        _, fmt, meta_len = _HEAD.unpack_from(data)
        if fmt != FORMAT_VERSION:
            raise _corrupt(
                path,
                f"it has format version {fmt}, this engine reads version {FORMAT_VERSION}; "
                "build it again",
            )
        if meta_len > _MAX_METADATA or _HEAD.size + meta_len > len(data):
            raise _corrupt(path, "its header is truncated")
        try:
            meta = json.loads(data[_HEAD.size : _HEAD.size + meta_len].decode("utf-8"))
            identity = LexiconIdentity(**{key: meta[key] for key in _IDENTITY_FIELDS})
        except (UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            raise _corrupt(path, "its metadata is damaged") from exc
        if not (
            all(isinstance(getattr(identity, k), str) for k in ("name", "source", "version"))
            and isinstance(identity.word_count, int)
            and isinstance(identity.sha256, str)
            and len(identity.sha256) == 64
        ):
            raise _corrupt(path, "its metadata is damaged")
        offset = _HEAD.size + meta_len
        offset += -offset % 8
        if offset + _DATA_HEAD.size > len(data):
            raise _corrupt(path, "it is truncated")
        n_cells, crc, _ = _DATA_HEAD.unpack_from(data, offset)
        offset += _DATA_HEAD.size
        if len(data) != offset + 4 * n_cells:
            raise _corrupt(path, "it is truncated or has trailing bytes")
        cells = memoryview(data)[offset:]
        if zlib.crc32(cells) != crc:
            raise _corrupt(path, "its checksum does not match (damaged file)")
        try:
            gaddag = _core.Gaddag(data, offset, n_cells)
        except ValueError as exc:
            raise _corrupt(path, str(exc)) from exc
        finally:
            cells.release()
        return cls(identity, gaddag, data, path)

    def contains(self, word: str) -> bool:
        """Whether ``word`` (upper-case A–Z, no joker marks) is in the lexicon."""
        return self._gaddag.contains(word)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._gaddag.contains(word)

    def __len__(self) -> int:
        return self.identity.word_count

    @property
    def handle(self) -> _core.Gaddag:
        """The compiled automaton, for :mod:`engine.movegen`."""
        return self._gaddag

    def __repr__(self) -> str:
        ident = self.identity
        return f"<Lexicon {ident.name} {ident.version} ({ident.word_count} words)>"
