"""Read-only REST API (documented by drf-spectacular at /api/schema/)."""

from __future__ import annotations

from rest_framework import serializers, viewsets

from tournaments.models import Tournament


class TournamentSerializer(serializers.ModelSerializer):
    """Public fields of a tournament."""

    class Meta:
        model = Tournament
        fields = ["slug", "name", "description", "created_at", "last_computed_at"]


class TournamentViewSet(viewsets.ReadOnlyModelViewSet):
    """List and retrieve tournaments by slug."""

    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
