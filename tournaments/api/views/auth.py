"""Arbiter API tokens: exchange a username and password for a DRF token."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from tournaments.api import serializers as s
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError


class TokenView(ApiView):
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"

    @extend_schema(
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer, **errors(400, 401, 429)},
        tags=["auth"],
    )
    def post(self, request: Any) -> Response:
        """Return the arbiter's API token (created on first use), for
        ``Authorization: Token <token>``."""
        data = validated(s.TokenRequestSerializer, request)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            raise ServiceError("auth.credentials", "Wrong username or password.")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
