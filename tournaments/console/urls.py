"""Arbiter console routes, mounted under /arbitre/."""

app_name = "console"
urlpatterns: list = []
