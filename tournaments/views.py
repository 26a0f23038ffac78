"""Public pages."""

from __future__ import annotations

from django.views.generic import ListView

from tournaments.models import Tournament


class HomeView(ListView):
    """Home page: the list of tournaments, newest first."""

    model = Tournament
    template_name = "home.html"
    context_object_name = "tournaments"
