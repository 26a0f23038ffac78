"""Projector routes, mounted under /projecteur/."""

from django.urls import path

from tournaments.projector import centre, views

app_name = "projector"
urlpatterns = [
    path("<slug:slug>/", views.page, name="page"),
    path("<slug:slug>/etat/", views.state, name="state"),
    path("<slug:slug>/centre/<int:centre_id>/", centre.page, name="centre"),
    path("<slug:slug>/centre/<int:centre_id>/etat/", centre.state, name="centre_state"),
]
