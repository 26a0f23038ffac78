"""URL configuration, by audience: public pages, the arbiter console, the API, the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from tournaments.views import HomeView

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("arbitre/", include("tournaments.console.urls")),
    path("api/", include("tournaments.api.urls")),
    path("tablette/", include("tournaments.tablet.urls")),
    path("projecteur/", include("tournaments.projector.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
# Django's admin only when the deployment asks for it (TIRAGE_ADMIN, off in production).
if settings.TIRAGE_ADMIN:
    urlpatterns.append(path("admin/", admin.site.urls))
