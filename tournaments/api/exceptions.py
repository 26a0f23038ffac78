"""One error shape for the whole API: ``{"code": ..., "detail": sentence}`` and a 4xx.

The ``detail`` of a ``ServiceError`` is its wording (``tournaments.wording``) in the
request's language (French by default, ``Accept-Language: en`` for English); the ``code``
stays the stable key clients branch on.

``ServiceError`` codes map to a status by their family: ``access.*`` is 403, an unknown
object 404, a refusal because of the state of a round, game or proposal 409, anything else
400. DRF's own errors (validation, malformed JSON, authentication) keep their status and
get a code too; validation errors also list the fields (``"fields": {name: [sentences]}``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.errors import ServiceError
from tournaments.wording import error_text

# Refusals caused by the current state of something, not by the request itself.
CONFLICT_CODES = frozenset(
    {
        "draw.pending",
        "game.over",
        "proposal.key_reused",
        "round.not_closed",
        "round.not_drawn",
        "round.not_open",
        "round.state",
        "round.top_placed",
        "round.cancelled",
    }
)
CONFLICT_SUFFIXES = (".state", ".conflict", ".already", ".exists", ".duplicate", "_taken")
NOT_FOUND_SUFFIXES = (".unknown", ".not_found", ".unavailable")
# A per-game document asked for the whole tournament (or the reverse): no such document.
NOT_FOUND_CODES = frozenset({"document.game_required", "document.whole_tournament"})
# Wrong credentials on the token exchange: 401, like any refused authentication.
UNAUTHORIZED_CODES = frozenset({"auth.credentials"})


def service_status(code: str) -> int:
    """The HTTP status of a ``ServiceError`` code."""
    if code.startswith("access."):
        return status.HTTP_403_FORBIDDEN
    if code in UNAUTHORIZED_CODES:
        return status.HTTP_401_UNAUTHORIZED
    if code.endswith(NOT_FOUND_SUFFIXES) or code in NOT_FOUND_CODES:
        return status.HTTP_404_NOT_FOUND
    if code in CONFLICT_CODES or code.endswith(CONFLICT_SUFFIXES):
        return status.HTTP_409_CONFLICT
    return status.HTTP_400_BAD_REQUEST


def _plain(value: Any) -> Any:
    """JSON-safe copy of an error's details (numbers, strings, lists and dicts only)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return str(value)


def _flatten(detail: Any) -> dict[str, list[str]] | list[str]:
    if isinstance(detail, dict):
        return {str(k): _sentences(v) for k, v in detail.items()}
    return _sentences(detail)


def _sentences(detail: Any) -> list[str]:
    if isinstance(detail, dict):
        return [f"{k}: {s}" for k, v in detail.items() for s in _sentences(v)]
    if isinstance(detail, list | tuple):
        return [s for item in detail for s in _sentences(item)]
    return [str(detail)]


def _validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    fields = _flatten(exc.detail)
    if isinstance(fields, dict):
        first_field, sentences = next(iter(fields.items()), ("", ["Invalid input."]))
        sentence = sentences[0] if sentences else "Invalid input."
        detail = sentence if first_field == "non_field_errors" else f"{first_field}: {sentence}"
        return {"code": "invalid", "detail": detail, "fields": fields}
    return {"code": "invalid", "detail": fields[0] if fields else "Invalid input."}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: a ``ServiceError`` or a DRF error becomes a 4xx body
    with a code and a sentence; anything else is a bug and propagates (logged, 500)."""
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"code": exc.code, "detail": error_text(exc)}
        if exc.details:
            body["params"] = _plain(exc.details)
        code = service_status(exc.code)
        headers = {"WWW-Authenticate": "Token"} if code == 401 else None
        return Response(body, status=code, headers=headers)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc)
        return response
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.default_detail)
    response.data = {"code": str(code), "detail": str(detail)}
    return response
