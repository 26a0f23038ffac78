"""The one error type services raise for a user's mistake; views map it to a 4xx.

A broken invariant is not a ``ServiceError``: it is a bug, raised as a plain exception and
logged. Engine refusals (``EngineError``) are wrapped with their code unchanged, so the site
translates one vocabulary of codes."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError


class ServiceError(Exception):
    """A refusal with a stable ``code`` and a sentence the arbiter or player can read."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    @classmethod
    def from_engine(cls, error: EngineError) -> ServiceError:
        """Keep the engine's code, sentence and details."""
        return cls(error.code, error.message, **error.details)

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"
