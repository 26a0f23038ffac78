"""Card tables in the arbiter console, mounted under /arbitre/cartes/."""

from django.urls import path

from tournaments.cards import console

app_name = "cards_console"
urlpatterns = [
    path("tournoi/<slug:slug>/", console.tables, name="tables"),
    path("tournoi/<slug:slug>/joueurs/", console.players_setting, name="players_setting"),
    path("table/<int:table_id>/", console.table, name="table"),
    path("table/<int:table_id>/fermer/", console.close, name="close"),
    path("table/<int:table_id>/laisser-passer/", console.settle, name="settle"),
    path("table/<int:table_id>/partie.json", console.record_json, name="record_json"),
    path("table/<int:table_id>/partie.pdf", console.record_pdf, name="record_pdf"),
]
