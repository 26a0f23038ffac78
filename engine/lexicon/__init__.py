"""Lexicons: word lists compiled into the automaton the move generator walks.

:func:`identity_json` is here, beside the lexicon, because every game family's record names
the lexicon it was played with the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def identity_json(identity: Any, path: str | None = None) -> dict | None:
    """A lexicon identity (object or dict) as record JSON; ``path`` is a hint for replays."""
    if identity is None:
        return None
    fields = ("name", "source", "version", "word_count", "sha256")
    get = identity.get if isinstance(identity, Mapping) else lambda k: getattr(identity, k)
    out = {k: get(k) for k in fields}
    if path:
        out["path"] = str(path)
    return out
