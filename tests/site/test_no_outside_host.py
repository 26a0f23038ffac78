"""Nothing is loaded from another host (no CDN: scripts, styles, fonts, images), and the
tablet and projector run no inline script nor inline event handler (CSP script-src 'self').

Every page a person opens is fetched and its resource references read; every stylesheet
and script the site serves is read for ``url(...)`` and ``@import`` of another host.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.scenario import new_game
from tournaments.access import SYSTEM
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

# A resource reference: src=, href= of <link>, srcset, poster, CSS url() and @import.
_TAGS = "script|link|img|iframe|source|video|audio|embed|object|use|image"
_TAG = re.compile(rf"<({_TAGS})\b[^>]*>", re.I)
_ATTR = re.compile(
    r"""\b(src|href|srcset|poster|data|xlink:href)\s*=\s*["']?\s*([^"'\s>]+)""", re.I
)
_CSS = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])\s*([^"')\s]+)""", re.I)
_OUTSIDE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)


def outside_references(text: str) -> list[str]:
    found = []
    for tag in _TAG.finditer(text):
        found += [value for _, value in _ATTR.findall(tag.group(0)) if _OUTSIDE.match(value)]
    found += [value for value in _CSS.findall(text) if _OUTSIDE.match(value)]
    return found


def test_the_checker_sees_what_a_cdn_looks_like() -> None:
    page = """<link rel="stylesheet" href="https://cdn.example/x.css"><script
      src="//cdn.example/x.js"></script><style>@import "https://fonts.example/f.css";
      b { background: url(http://img.example/a.png) }</style><a href="https://fisf.net">FISF</a>
      <script src="/static/tablet.js"></script><img src="data:image/png;base64,AA">"""
    assert outside_references(page) == [
        "https://cdn.example/x.css", "//cdn.example/x.js", "https://fonts.example/f.css",
        "http://img.example/a.png"]  # fmt: skip


@pytest.fixture
def pages(tournament_setup: dict[str, Any], client: Client) -> list[str]:
    from tests.site.test_tablet import issue_token

    tournament = tournament_setup["tournament"]
    play = new_game(tournament_setup, seed=7, actor=SYSTEM)
    game, rnd = play.game, play.open_round()
    token = issue_token(Registration.objects.filter(tournament=tournament).first())
    return [
        "/", "/api/docs/", "/api/docs/?script=", "/arbitre/connexion/",
        f"/tablette/{token}/", f"/projecteur/{tournament.slug}/",
        "/arbitre/", f"/arbitre/tournoi/{tournament.slug}/", f"/arbitre/partie/{game.pk}/",
        f"/arbitre/tour/{rnd.pk}/saisie/", f"/arbitre/tour/{rnd.pk}/arbitrage/",
        f"/arbitre/tournoi/{tournament.slug}/classement/",
        f"/arbitre/tournoi/{tournament.slug}/joueurs/",
    ]  # fmt: skip


def test_no_page_references_another_host(client: Client, tournament_setup, pages) -> None:
    client.force_login(tournament_setup["arbiter"])
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        assert outside_references(text) == [], url
        # The assets the page loads from the site: none reaches out either.
        for asset in re.findall(r"""(?:src|href)=["'](/static/[^"'?]+)""", text):
            path = finders.find(asset.removeprefix("/static/"))
            assert path, asset
            if asset.endswith(".css"):
                assert outside_references(Path(path).read_text()) == [], asset


def test_every_site_stylesheet_stays_on_the_site() -> None:
    folder = Path(finders.find("tournaments/tablet.css")).parent
    for css in folder.glob("*.css"):
        assert outside_references(css.read_text()) == [], css.name


def test_tablet_and_projector_run_no_inline_script(client: Client, pages) -> None:
    for url in [u for u in pages if u.startswith(("/tablette/", "/projecteur/"))]:
        text = client.get(url).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", text, re.I):
            assert "src=" in tag or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"""\son[a-z]+\s*=\s*["']""", text, re.I), url
        assert "javascript:" not in text.lower(), url
