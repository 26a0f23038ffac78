"""Console routes of classic tournaments, mounted under /arbitre/classique/ by the classic
family (``tournaments.families.classic``)."""

from django.urls import path

from tournaments.console import classic

app_name = "classic"
urlpatterns = [
    path("<slug:slug>/", classic.event, name="event"),
    path("<slug:slug>/division/<int:division>/ronde/<int:number>/", classic.round_page,
         name="round"),
    path("<slug:slug>/division/<int:division>/ronde/<int:number>/desapparier/",
         classic.round_unpair, name="round_unpair"),
]  # fmt: skip
