"""Arbiter console routes, mounted under /arbitre/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournaments.console import views

app_name = "console"
urlpatterns = [
    path(
        "connexion/",
        auth_views.LoginView.as_view(template_name="console/login.html"),
        name="login",
    ),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.index, name="index"),
    path("tournoi/<slug:slug>/", views.tournament, name="tournament"),
    path("tournoi/<slug:slug>/parties/", views.game_create, name="game_create"),
    path("tournoi/<slug:slug>/classement/", views.rankings, name="rankings"),
    path("tournoi/<slug:slug>/joueurs/", views.players, name="players"),
    path("partie/<int:game_id>/", views.game, name="game"),
    path("partie/<int:game_id>/etat/", views.game_status, name="game_status"),
    path("partie/<int:game_id>/tirage/", views.draw, name="draw"),
    path("tour/<int:round_id>/ouvrir/", views.round_open, name="round_open"),
    path("tour/<int:round_id>/fermer/", views.round_close, name="round_close"),
    path("tour/<int:round_id>/placer/", views.round_place, name="round_place"),
    path("tour/<int:round_id>/saisie/", views.slips, name="slips"),
    path("tour/<int:round_id>/correction/", views.correction, name="correction"),
]
