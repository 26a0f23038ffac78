"""Where a request came from: the proxy's X-Forwarded-For entry only when behind our proxy."""

from django.test import RequestFactory

from tournaments.http import client_ip


def test_client_ip_trusts_forwarded_for_only_behind_the_proxy(settings) -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.7"
    )
    settings.TIRAGE_BEHIND_PROXY = False
    assert client_ip(request) == "127.0.0.1"
    settings.TIRAGE_BEHIND_PROXY = True
    # The client may send any X-Forwarded-For; our proxy appends the address it saw, last.
    assert client_ip(request) == "192.0.2.7"
