"""The arbiter console, driven through the Django test client alone (embedded profile).

Seed 7 on the conformance list gives the racks and tops below (tests/site/test_game_services):
round 1 ESIUHAN, top H4 HAINES 26 (8D HAINES ties, but the rules keep H4); round 2 U+OEE?AF,
top G6 AUlOFEE 70; round 3 YPUNASE, top 13C PAYES 45. Top total: 26 + 70 + 45 = 141."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.models import ArbiterMembership, Game, ProposalVersion, Round, Tournament
from tournaments.tasks import compute_top

pytestmark = pytest.mark.django_db

JSON = {"accept": "application/json"}


@pytest.fixture
def console(client, tournament_setup) -> dict[str, Any]:
    """The fixture tournament with its arbiter made head arbiter, logged in through the
    console's own login page; players get a club, series and category."""
    setup = tournament_setup
    ArbiterMembership.objects.update_or_create(
        user=setup["arbiter"], tournament=setup["tournament"], defaults={"role": "head"}
    )
    for player, (club, series, category) in zip(
        setup["players"],
        [("Paris", "1A", "Senior"), ("Lyon", "2", "Vermeil"), ("Paris", "2", "Senior")],
        strict=True,
    ):
        player.club, player.series, player.category = club, series, category
        player.save()
    response = client.post(reverse("console:login"), {"username": "arbitre-test", "password": "x"})
    assert response.status_code == 302 and response["Location"] == reverse("console:index")
    return {**setup, "client": client}


def _game_page(client, game_id: int) -> str:
    response = client.get(reverse("console:game", args=[game_id]))
    assert response.status_code == 200
    return response.content.decode()


def _slip(client, rnd: Round, line: str, status: int = 200) -> dict[str, Any]:
    response = client.post(reverse("console:slips", args=[rnd.pk]), {"line": line}, headers=JSON)
    assert response.status_code == status, response.content
    return response.json()


def _current_round(game: Game) -> Round:
    return game.rounds.exclude(state="cancelled").order_by("-number").first()


def test_full_game_through_the_console(console, django_capture_on_commit_callbacks) -> None:
    client, tournament = console["client"], console["tournament"]
    anne, bruno, chloe = console["players"]

    index = client.get(reverse("console:index")).content.decode()
    assert "Open de test" in index
    dashboard = client.get(reverse("console:tournament", args=["open-test"])).content.decode()
    assert "3 joueurs inscrits" in dashboard

    response = client.post(reverse("console:game_create", args=["open-test"]),
                           {"kind": "seeded", "seed": "7"})  # fmt: skip
    game = Game.objects.get(tournament=tournament)
    assert response["Location"] == reverse("console:game", args=[game.pk])
    assert "Aucun coup tiré." in _game_page(client, game.pk)

    # Round 1. The top task is queued on commit: until it lands the page and the status
    # endpoint say "calcul en cours"; then the status changes (new ETag) and shows the top.
    status_url = reverse("console:game_status", args=[game.pk])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("console:draw", args=[game.pk]))
    assert response.status_code == 302
    page = _game_page(client, game.pk)
    assert "Calcul du top en cours" in page and ">E</span>" in page
    before = client.get(status_url)
    assert before.json()["round"]["top_ready"] is False
    assert len(callbacks) == 1  # compute_top queued on commit
    compute_top(_current_round(game).pk)  # the worker runs it (here, in-process)
    after = client.get(status_url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.json()["round"]["top"] == {"coord": "H4", "word": "HAINES", "score": 26,
                                            "placed": 6}  # fmt: skip
    page = _game_page(client, game.pk)
    assert "H4 HAINES</strong> — 26" in page and "Calcul du top en cours" not in page

    r1 = _current_round(game)
    assert client.post(reverse("console:round_open", args=[r1.pk])).status_code == 302
    page = _game_page(client, game.pk)
    assert 'id="countdown" data-deadline="' in page and "Bulletins reçus" in page
    assert _slip(client, r1, "1 H4 HAINES 26")["entry"]["score"] == 26
    bruno_r1 = _slip(client, r1, "2 8D HAINES 26")  # the tied top, vertical: 26 too
    assert bruno_r1["entry"] | {} and bruno_r1["entry"]["score"] == 26
    assert [m["table"] for m in bruno_r1["missing"]] == [3]
    zero = _slip(client, r1, "3 H4 HAINSE 26")["entry"]
    assert (zero["kind"], zero["score"]) == ("zero", 0) and "HAINSE" in zero["reason"]
    slips_page = client.get(reverse("console:slips", args=[r1.pk])).content.decode()
    assert zero["reason"].replace("'", "&#x27;") in slips_page
    assert "Aucun bulletin manquant." in slips_page
    assert (
        client.post(reverse("console:round_close", args=[r1.pk]), {"confirm": "1"}).status_code
        == 302
    )
    page = _game_page(client, game.pk)
    assert "Tops ex aequo" in page and "non retenu par la règle" in page
    # Asking for the tied top the rules refuse: a 400 with the engine's sentence.
    refused = client.post(reverse("console:round_place", args=[r1.pk]), {"choice": "8D HAINES"})
    assert refused.status_code == 400 and 'class="error"' in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("console:round_place", args=[r1.pk]))  # default: H4
    assert response.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("console:draw", args=[game.pk])).status_code == 302

    # Round 2: Anne and Bruno find the top; Chloé's slip is first entered wrong (a second
    # F the rack lacks), corrected during round 3 to G9 AUlOFEE, 67.
    r2 = _current_round(game)
    assert (r2.number, r2.rack) == (2, "U+OEE?AF")
    page = _game_page(client, game.pk)
    assert '<td class="ld tile last" title="H4">H</td>' in page  # round 1's top, highlighted
    client.post(reverse("console:round_open", args=[r2.pk]))
    assert _slip(client, r2, "1 G6 AUlOFEE 70")["entry"]["score"] == 70
    assert _slip(client, r2, "2 AUlOFEE G6 70")["entry"]["score"] == 70  # word first works too
    wrong = _slip(client, r2, "3 G9 AUlOFEF")["entry"]
    assert (wrong["kind"], wrong["score"]) == ("zero", 0)
    assert client.get(status_url).json()["round"]["received"] == 3
    client.post(reverse("console:round_close", args=[r2.pk]), {"confirm": "1"})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("console:round_place", args=[r2.pk]), {"next": "1"})
    assert response.status_code == 302

    # Round 3: Anne and Chloé play the top, Bruno the sous-top 12A PAYEUSE, 42.
    r3 = _current_round(game)
    assert (r3.number, r3.rack) == (3, "YPUNASE")
    page = _game_page(client, game.pk)
    assert '<td class="tile joker last" title="G8">l</td>' in page  # joker shown lowercase
    client.post(reverse("console:round_open", args=[r3.pk]))
    for line, score in (("1 13C PAYES 45", 45), ("2 12A PAYEUSE 42", 42), ("3 13C PAYES", 45)):
        assert _slip(client, r3, line)["entry"]["score"] == score
    fix = {"round_number": "2", "line": "3 G9 AUlOFEE 67", "reason": "Bulletin mal recopié"}
    response = client.post(reverse("console:correction", args=[r3.pk]), fix)
    assert response.status_code == 302
    fixed = ProposalVersion.objects.get(round=r2, player=chloe, is_current=True)
    assert (fixed.version, fixed.outcome_score, fixed.reason) == (2, 67, "Bulletin mal recopié")
    client.post(reverse("console:round_close", args=[r3.pk]), {"confirm": "1"})
    client.post(reverse("console:round_place", args=[r3.pk]))
    assert all(r.top_placed_at for r in game.rounds.all())

    # By hand: top total 26 + 70 + 45 = 141. Anne played the top every round: 141, négatif 0,
    # 100 %. Bruno 26 + 70 + 42 = 138 (−3). Chloé 0 (HAINSE) + 67 (corrected) + 45 = 112
    # (−29). No solo: every round's best score is shared.
    response = client.get(reverse("console:rankings", args=["open-test"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<meta http-equiv="refresh"' in page  # the game is still playing
    totals = {p.pk: _row_total(page, p.pk) for p in (anne, bruno, chloe)}
    assert totals == {anne.pk: ("141", "0", "100,00"), bruno.pk: ("138", "-3", "97,87"),
                      chloe.pk: ("112", "-29", "79,43")}  # fmt: skip
    assert page.index("<td>Anne</td>") < page.index("<td>Bruno</td>") < page.index("<td>Chloé</td>")
    # Séries 1–7 (1A is in série 1, rules K6); one game: the general ranking only.
    assert "top 141" in page and "Série 1</summary>" in page and "Catégorie Vermeil" in page
    assert "Série 1A" not in page and page.count('<table class="list ranking">') == 1


def _row_total(page: str, player_id: int) -> tuple[str, str, str]:
    """(score, négatif, % of top) from the first ranking row of the player (the general one)."""
    row = page.split(f'<tr data-player="{player_id}">', 1)[1].split("</tr>", 1)[0]
    cells = [c.split(">", 1)[1].split("<", 1)[0] for c in row.split('<td class="num')[1:4]]
    return tuple(cells)


# --- Access ---------------------------------------------------------------------------------


def test_anonymous_is_sent_to_the_login_page(client, tournament_setup) -> None:
    for url in (reverse("console:index"), reverse("console:tournament", args=["open-test"]),
                reverse("console:rankings", args=["open-test"])):  # fmt: skip
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('console:login')}?next={url}"
    login = client.get(reverse("console:login"))
    assert login.status_code == 200 and "Connexion des arbitres" in login.content.decode()


def test_arbiter_of_another_tournament_gets_403(client, console) -> None:
    game = Game.objects.create(tournament=console["tournament"], number=1, kind="seeded", seed=7)
    other = Tournament.objects.create(name="Autre", slug="autre")
    outsider = get_user_model().objects.create_user("autre-arbitre", password="y")
    ArbiterMembership.objects.create(user=outsider, tournament=other, role="head")
    client.force_login(outsider)
    assert "Open de test" not in client.get(reverse("console:index")).content.decode()
    for url in (reverse("console:tournament", args=["open-test"]),
                reverse("console:game", args=[game.pk]),
                reverse("console:game_status", args=[game.pk]),
                reverse("console:rankings", args=["open-test"]),
                reverse("console:players", args=["open-test"])):  # fmt: skip
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("console:draw", args=[game.pk])).status_code == 403
    assert not game.rounds.exists()


def test_plain_arbiter_enters_slips_but_does_not_direct(client, console) -> None:
    game = Game.objects.create(tournament=console["tournament"], number=1, kind="seeded", seed=7)
    helper = get_user_model().objects.create_user("assesseur", password="y")
    ArbiterMembership.objects.create(user=helper, tournament=console["tournament"])
    client.force_login(helper)
    assert client.get(reverse("console:game", args=[game.pk])).status_code == 200
    assert client.post(reverse("console:draw", args=[game.pk])).status_code == 403


# --- Bad input ------------------------------------------------------------------------------


def test_typed_rack_refused_keeps_the_letters_and_says_the_rule(console) -> None:
    client = console["client"]
    client.post(reverse("console:game_create", args=["open-test"]), {"kind": "manual"})
    game = Game.objects.get(tournament=console["tournament"])
    response = client.post(reverse("console:draw", args=[game.pk]), {"letters": "BCDFGHA"})
    page = response.content.decode()
    assert response.status_code == 400
    # Worded from the refusal's code (the engine's English sentence is not shown).
    assert "pas le minimum de voyelles et de consonnes" in page
    assert 'data-code="rack.minimum"' in page and "needs 2 vowels" not in page
    assert 'value="BCDFGHA"' in page  # nothing lost
    assert "BCDFGHA" in page.split("Rejet", 1)[1]  # the rejection is listed
    response = client.post(reverse("console:draw", args=[game.pk]), {"letters": "AB1"})
    assert response.status_code == 400 and 'value="AB1"' in response.content.decode()
    assert client.post(reverse("console:draw", args=[game.pk]),
                       {"letters": "ESIUHAN"}).status_code == 302  # fmt: skip
    assert _current_round(game).rack == "-ESIUHAN"


def test_malformed_slip_lines_are_400_with_a_sentence(console) -> None:
    client = console["client"]
    client.post(reverse("console:game_create", args=["open-test"]), {"kind": "seeded", "seed": 7})
    game = Game.objects.get(tournament=console["tournament"])
    client.post(reverse("console:draw", args=[game.pk]))
    rnd = _current_round(game)
    # Not open yet: the service's refusal, as JSON; a conflict with the round's state (409).
    assert "n'est pas ouvert" in _slip(client, rnd, "1 H4 HAINES", status=409)["error"]
    client.post(reverse("console:round_open", args=[rnd.pk]))
    cases = {
        "douze H4 HAINES": "numéro de table",
        "1 HAINES": "référence",
        "1 Z4 HAINES": "référence",
        "1 H4 HAINES vingt": "score",
        "1 H4 HAI1NES": "n'est pas un mot",
        "": "Ligne vide",
    }
    for line, words in cases.items():
        data = _slip(client, rnd, line, status=400)
        assert data["ok"] is False and words in data["error"], (line, data)
    # Nobody at table 9: the one table look-up's code and status, as in the API.
    data = _slip(client, rnd, "9 H4 HAINES", status=404)
    assert data["code"] == "table.unknown" and "table 9" in data["error"], data
    assert not ProposalVersion.objects.exists()
    # A claimed score above the top is a wrong score (§4.3), stored and judged: no refusal.
    assert _slip(client, rnd, "1 H4 HAINES 99")["ok"] is True
    # Plain POST (no JS): the page again, status 400, the line kept in the input.
    response = client.post(reverse("console:slips", args=[rnd.pk]), {"line": "12 MOT"})
    page = response.content.decode()
    assert response.status_code == 400 and 'value="12 MOT"' in page and 'class="error"' in page
    # A correction without its reason is refused, what was typed kept.
    response = client.post(reverse("console:correction", args=[rnd.pk]),
                           {"round_number": "1", "line": "1 H4 HAINES", "reason": ""})  # fmt: skip
    assert response.status_code == 400 and 'value="1 H4 HAINES"' in response.content.decode()
    # A plain POST that works redirects back to the entry page, which lists it.
    response = client.post(reverse("console:slips", args=[rnd.pk]), {"line": "1 H4 HAINES 26"})
    assert response.status_code == 302
    assert "HAINES 26" in client.get(response["Location"]).content.decode()


def test_status_is_304_on_an_unchanged_etag(console) -> None:
    client = console["client"]
    game = Game.objects.create(tournament=console["tournament"], number=1, kind="seeded", seed=7)
    url = reverse("console:game_status", args=[game.pk])
    first = client.get(url)
    assert first.status_code == 200 and json.loads(first.content)["round"] is None
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    client.post(reverse("console:draw", args=[game.pk]))
    changed = client.get(url, headers={"if-none-match": first["ETag"]})
    assert changed.status_code == 200 and changed.json()["round"]["number"] == 1


# --- Players and tournaments ----------------------------------------------------------------


def test_players_by_hand_and_by_file(console) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client, url = console["client"], reverse("console:players", args=["open-test"])
    page = client.get(url).content.decode()
    assert "<td>1</td><td>Anne</td>" in page
    response = client.post(url, {"name": "Denis", "club": "Nice", "table_number": ""})
    assert response.status_code == 302
    assert "Denis est inscrit à la table 4." in client.get(url).content.decode()
    taken = client.post(url, {"name": "Emma", "table_number": "2"})
    assert taken.status_code == 409 and 'value="Emma"' in taken.content.decode()  # table taken
    good = SimpleUploadedFile("joueurs.csv", b"nom;licence\nFanny;L-6\nGilles;L-7\n")
    response = client.post(url, {"action": "import", "file": good})
    assert response.status_code == 302
    assert "<td>6</td><td>Gilles</td>" in client.get(url).content.decode()
    bad = SimpleUploadedFile("joueurs.csv", b"nom;licence\nHugo;L-8\n;L-9\n")
    response = client.post(url, {"action": "import", "file": bad})
    page = response.content.decode()
    assert response.status_code == 400 and "Ligne 3" in page and "nom manquant" in page
    assert "Hugo" not in page.split("<table", 1)[1].split("</table>", 1)[0]


def test_superuser_creates_a_tournament_and_becomes_its_head(client, tournament_setup) -> None:
    boss = get_user_model().objects.create_superuser("chef", password="z")
    client.force_login(boss)
    lexicon = tournament_setup["lexicon"].pk
    response = client.post(reverse("console:index"),
                           {"name": "Open d'été", "slug": "ete", "lexicon": lexicon})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == "/arbitre/tournoi/ete/"
    assert ArbiterMembership.objects.filter(user=boss, tournament__slug="ete").exists()
    again = client.post(reverse("console:index"), {"name": "", "slug": "ete"})
    assert again.status_code == 400
