"""The projector's classic view, mounted under /projecteur/ by the classic family
(``tournaments.families.classic``), beside duplicate's projector routes."""

from django.urls import path

from tournaments.projector import classic

app_name = "classic_projector"
urlpatterns = [
    path("<slug:slug>/classique/", classic.page, name="page"),
]
