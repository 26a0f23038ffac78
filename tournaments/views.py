"""Public pages."""

from __future__ import annotations

from typing import Any

from django.views.generic import ListView

from tournaments import selectors


class HomeView(ListView):
    """Home page: the list of tournaments, newest first."""

    template_name = "home.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> Any:
        return selectors.tournaments_all()
