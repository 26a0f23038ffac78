"""Helpers shared by the API views."""

from __future__ import annotations

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

from tournaments.errors import error_body

ERROR = inline_serializer(
    name="Error",
    fields={
        "code": serializers.CharField(help_text="Stable code, e.g. 'round.not_open'."),
        "detail": serializers.CharField(help_text="A sentence saying what went wrong."),
        "params": serializers.DictField(
            help_text="The refusal's details (e.g. the round's number), {} when none."
        ),
        "fields": serializers.DictField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text="Invalid input: the sentences per field name, {} otherwise.",
        ),
    },
)


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an endpoint (all share the error body)."""
    return {code: OpenApiResponse(ERROR, description="Error") for code in statuses}


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


@csrf_exempt  # it changes nothing: a POST to no endpoint gets the same JSON 404
def not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/ that names no endpoint: a JSON 404 like every other API error
    (whatever the method), so clients never have to parse the site's HTML pages."""
    return JsonResponse(
        error_body("not_found", gettext("Cette adresse n'existe pas dans l'API.")),
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
