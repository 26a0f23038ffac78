"""Projector routes, mounted under /projecteur/."""

from django.urls import path

from tournaments.projector import views

app_name = "projector"
urlpatterns = [
    path("<slug:slug>/", views.page, name="page"),
    path("<slug:slug>/etat/", views.state, name="state"),
]
