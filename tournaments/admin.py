"""Admin registration; arbiters log in here (account created by ``tirage_setup``)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.models import Tournament
from tournaments.services import request_touch


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournament list with a manual "recompute" action that goes through Celery."""

    list_display = ["name", "slug", "created_at", "last_computed_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at", "last_computed_at"]
    actions = ["recompute"]
    #: Changed only on the console's settings page (``tournament_update``: audited, and
    #: refusing what games already played depend on), never here.
    SETTINGS = ["lexicon", "variant_code", "seconds_per_move", "warning_before_end",
                "warning_penalty_from", "solo_value", "solo_min_players", "score_required",
                "tie_break", "public_rankings", "starts_on", "ends_on", "language"]  # fmt: skip

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> list:
        """A tournament's settings are read-only here once it exists (issue 15)."""
        fields = list(super().get_readonly_fields(request, obj))
        return fields + self.SETTINGS if obj is not None else fields

    @admin.action(description=_("Relancer le calcul"))
    def recompute(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        """Queue one background computation per selected tournament."""
        ids = list(queryset.values_list("pk", flat=True))
        for tournament_id in ids:
            request_touch(tournament_id)
        text = ngettext("%(count)d calcul demandé.", "%(count)d calculs demandés.", len(ids))
        self.message_user(request, text % {"count": len(ids)}, messages.SUCCESS)
