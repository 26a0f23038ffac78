"""URL configuration, by audience: public pages, the arbiter console, the API, the admin;
then the audiences a game family brings (``tournaments.families``: duplicate's tablets
and projector)."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from tournaments import families
from tournaments.views import HomeView, favicon

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("arbitre/", include("tournaments.console.urls")),
    path("api/", include("tournaments.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    *families.urlpatterns(),
]
# Django's admin only when the deployment asks for it (TIRAGE_ADMIN, off in production).
if settings.TIRAGE_ADMIN:
    urlpatterns.append(path("admin/", admin.site.urls))
