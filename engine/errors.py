"""Errors raised by the engine.

Every refusal the engine makes is a *user* error: it carries a stable ``code`` (so the site
can map it to a 4xx and translate it) and a human sentence. A broken invariant inside the
engine is a plain exception (a bug), never an ``EngineError``.
"""

from __future__ import annotations


class EngineError(ValueError):
    """A refusal with a machine code and a sentence a player or arbiter can read."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {self.message!r})"
