"""Content-Security-Policy on every answer (docs/security.md).

The policy (``settings.TIRAGE_CSP``) allows scripts, styles, images and connections from
this site only, and no inline script, inline style or event-handler attribute: an HTML
injection that escaped the templates' escaping could still not run. Every page's script
is a static file (``tournaments/static``); the API docs use drf-spectacular's split view,
whose script is a separate same-site request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    """Adds ``Content-Security-Policy`` unless a view set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "TIRAGE_CSP", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
