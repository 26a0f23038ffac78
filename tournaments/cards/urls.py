"""Card tables: a seat's tablet (``/cartes/<token>/``) and the shared screen."""

from django.urls import path

from tournaments.cards import views

app_name = "cards"
urlpatterns = [
    path("ecran/<int:table_id>/", views.screen, name="screen"),
    path("ecran/<int:table_id>/etat/", views.screen_state, name="screen_state"),
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/etat/", views.state, name="state"),
    path("<str:token>/jouer/", views.act, name="act"),
    path("<str:token>/partie.json", views.record_json, name="record_json"),
    path("<str:token>/partie.pdf", views.record_pdf, name="record_pdf"),
]
