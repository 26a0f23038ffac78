"""A classic player's tablet page, mounted under /tablette/ by the classic family
(``tournaments.families.classic``), beside duplicate's tablet routes."""

from django.urls import path

from tournaments.tablet import classic

app_name = "classic_tablet"
urlpatterns = [
    path("<str:token>/classique/", classic.page, name="page"),
    path("<str:token>/classique/feuille/", classic.sheet, name="sheet"),
]
