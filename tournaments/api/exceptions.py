"""One error shape for the whole API (``tournaments.errors.error_body``) and a 4xx:
``{"code": ..., "detail": sentence, "params": {...}, "fields": {...}}``.

The ``detail`` of a ``ServiceError`` is its wording (``tournaments.wording``) in the
request's language (French by default, ``Accept-Language: en`` for English); the ``code``
stays the stable key clients branch on, ``params`` carries its details.

``ServiceError`` codes map to a status by ``tournaments.errors.http_status``, the map the
console and the tablets use too: ``access.*`` is 403, an unknown object 404, a refusal
because of the current state of a round, game or proposal 409, anything else 400. DRF's own
errors (validation, malformed JSON, authentication, 404/403/405, throttling) keep their
status and get a code too; validation errors list the fields (``"fields": {name:
[sentences]}``), throttling says when to retry (``"params": {"retry_after": seconds}``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.errors import ServiceError, error_body, http_status
from tournaments.wording import error_text


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
        return error_body("invalid", detail, fields=fields)
    return error_body("invalid", fields[0] if fields else "Invalid input.")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: a ``ServiceError`` or a DRF error becomes a 4xx body
    with a code and a sentence; anything else is a bug and propagates (logged, 500)."""
    if isinstance(exc, ServiceError):
        body = error_body(exc.code, error_text(exc), params=_plain(exc.details))
        code = http_status(exc.code)
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
    params = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        params["retry_after"] = math.ceil(exc.wait)
    response.data = error_body(str(code), str(detail), params=params)
    return response
