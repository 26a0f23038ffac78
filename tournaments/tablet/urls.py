"""Player tablet routes, mounted under /tablette/."""

from django.urls import path

from tournaments.tablet import views

app_name = "tablet"
urlpatterns = [
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/etat/", views.state, name="state"),
    path("<str:token>/apercu/", views.preview, name="preview"),
    path("<str:token>/envoi/", views.submit, name="submit"),
    path("<str:token>/resultats/", views.results, name="results"),
]
