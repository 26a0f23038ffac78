"""Helpers shared by the API views."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

from django.http import JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.errors import ServiceError

ERROR = inline_serializer(
    name="Error",
    fields={
        "code": serializers.CharField(help_text="Stable code, e.g. 'round.not_open'."),
        "detail": serializers.CharField(help_text="A sentence saying what went wrong."),
        "params": serializers.DictField(required=False),
        "fields": serializers.DictField(
            required=False, child=serializers.ListField(child=serializers.CharField())
        ),
    },
)


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an endpoint (all share the error body)."""
    return {code: OpenApiResponse(ERROR, description="Error") for code in statuses}


def service(name: str) -> Callable[..., Any]:
    """A service by name: exported by ``tournaments.services``, else found in one of its
    modules; one not written yet is a 404 with a code (``api.unavailable``), never a 500."""
    function = getattr(services, name, None)
    if function is None:
        for module in pkgutil.iter_modules(services.__path__):
            candidate = getattr(
                importlib.import_module(f"{services.__name__}.{module.name}"), name, None
            )
            if callable(candidate):
                function = candidate
                break
    if function is None:
        raise ServiceError("api.unavailable", f"This server has no '{name}' service yet.")
    return function


def has_service(name: str) -> bool:
    try:
        service(name)
    except ServiceError:
        return False
    return True


def client_device(request: Any) -> str:
    return str(request.META.get("HTTP_USER_AGENT", ""))[:200]


def validated(serializer_class: type[serializers.Serializer], request: Any) -> dict[str, Any]:
    """The request body validated by ``serializer_class`` (400 with fields otherwise)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class ApiView(APIView):
    """Base view: no DRF permission gate (each view checks the tournament's rules itself,
    after reading the object, so an outsider gets a 403 with a code and not a bare 401)."""

    permission_classes: list = []


def call(service_name: str, /, **kwargs: Any) -> Any:
    """Call the service ``service_name`` with the keyword arguments it declares (the optional ones
    it does not know are dropped, so the API follows a service's signature as it grows)."""
    function = service(service_name)
    params = inspect.signature(function).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        kwargs = {k: v for k, v in kwargs.items() if k in params}
    return function(**kwargs)


@csrf_exempt  # it changes nothing: a POST to no endpoint gets the same JSON 404
def not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/ that names no endpoint: a JSON 404 like every other API error
    (whatever the method), so clients never have to parse the site's HTML pages."""
    return JsonResponse(
        {"code": "not_found", "detail": gettext("Cette adresse n'existe pas dans l'API.")},
        status=404,
        json_dumps_params={"ensure_ascii": False},
    )


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema; its refusals (401/403) are JSON ``{code, detail}`` like every
    API error, not an error body rendered as an OpenAPI document."""

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response
