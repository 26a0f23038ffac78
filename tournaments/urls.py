"""URL configuration: home page, admin, language switch, API and its OpenAPI schema."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from tournaments.api import TournamentViewSet
from tournaments.views import HomeView

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/", include(router.urls)),
]
