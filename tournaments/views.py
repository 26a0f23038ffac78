"""Public pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.generic import ListView

from tournaments import selectors


class HomeView(ListView):
    """Home page: the list of tournaments, newest first."""

    template_name = "home.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> Any:
        return selectors.tournaments_all()


#: The site's icon: a letter tile (the brand's green, a white T). Browsers ask every site for
#: /favicon.ico; without it each first page of each device logged a 404.
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="5" fill="#0b6e4f"/>'
    '<text x="16" y="24" font-family="sans-serif" font-size="22" font-weight="bold" '
    'fill="#fff" text-anchor="middle">T</text></svg>'
)


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """The icon browsers ask for at /favicon.ico (SVG, which they all read)."""
    return HttpResponse(ICON, content_type="image/svg+xml")
