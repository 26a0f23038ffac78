"""Card tables: a seat's tablet (``/cartes/<token>/``), the shared screen, and the
players' page opening tables (``/cartes/joueur/<registration token>/``)."""

from django.urls import path

from tournaments.cards import players, views

app_name = "cards"
urlpatterns = [
    path("ecran/<int:table_id>/", views.screen, name="screen"),
    path("ecran/<int:table_id>/etat/", views.screen_state, name="screen_state"),
    # A player opens tables from their (duplicate) tablet link: tournaments/cards/players.py
    path("joueur/<str:token>/", players.tables, name="player_tables"),
    path("joueur/<str:token>/fermer/<int:table_id>/", players.close, name="player_close"),
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/etat/", views.state, name="state"),
    path("<str:token>/jouer/", views.act, name="act"),
    path("<str:token>/partie.json", views.record_json, name="record_json"),
    path("<str:token>/partie.pdf", views.record_pdf, name="record_pdf"),
]
