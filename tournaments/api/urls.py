"""API routes, mounted under /api/."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from tournaments.api.views import TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("", include(router.urls)),
]
