"""Console routes of classic tournaments, mounted under /arbitre/classique/ by the classic
family (``tournaments.families.classic``)."""

from django.urls import path

from tournaments.console import classic, score_sheets

app_name = "classic"
urlpatterns = [
    path("<slug:slug>/", classic.event, name="event"),
    path("<slug:slug>/division/<int:division>/ronde/<int:number>/", classic.round_page,
         name="round"),
    path("<slug:slug>/division/<int:division>/ronde/<int:number>/desapparier/",
         classic.round_unpair, name="round_unpair"),
    path("<slug:slug>/feuilles/", score_sheets.sheets, name="sheets"),
    path("<slug:slug>/feuilles/<int:number>/", score_sheets.sheet, name="sheet"),
    path("<slug:slug>/feuilles/<int:number>/pdf/", score_sheets.sheet_pdf, name="sheet_pdf"),
]  # fmt: skip
