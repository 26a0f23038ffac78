"""Rankings read a table at a time (issue 16, item 2): the console page of a large event
shows one table, a hundred lines a page, with a table picker and a search by name or
table; the API answers slices; both read the stored totals, and every table equals the
whole ranking the printed sheets build (the checker runs after each test's games too).

130 players (Anne, Bruno, Chloé at tables 1–3 and 127 more), seed 7 on the conformance
list (tests/site/test_game_services.py): round 1 top H4 HAINES 26, round 2 top G6 AUlOFEE
70. Round 1: Anne and Bruno play HAINES (26 each, shared: no solo). Round 2: Anne alone
plays AUlOFEE (70), the only score above 0 among 130 present players: a solo, 10 (solos
paid from 3 players, the fixture). By hand, top total 26 + 70 = 96: Anne 26 + 70 + 10 =
106 (négatif +10, 106/96 = 110,42 %), Bruno 26 (-70, 27,08 %), the 128 others 0 (-96),
ranked 3rd ex aequo in registration order (Chloé, then tables 4 to 130).
"""

from __future__ import annotations

import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.scenario import add_players, new_game
from tournaments import selectors
from tournaments.models import Player, Tournament
from tournaments.selectors.ranking_check import ranking_differences

pytestmark = pytest.mark.django_db


def _name(table: int) -> str:
    """A name without digits, so that a search by table number finds only that table."""
    return f"Joueur {chr(97 + table // 26)}{chr(97 + table % 26)}"


@pytest.fixture
def event(client, tournament_setup) -> dict[str, Any]:
    setup = tournament_setup
    tournament = setup["tournament"]
    anne, bruno, chloe = setup["players"]
    more = add_players(tournament, [_name(t) for t in range(4, 131)], first_table=4)
    for table, player in enumerate(more, start=4):
        # Séries: even tables 1A (série 1), odd tables 2; categories: Vermeil from table 100.
        player.series = "1A" if table % 2 == 0 else "2"
        player.category = "Vermeil" if table >= 100 else ""
    Player.objects.bulk_update(more, ["series", "category"])
    Player.objects.filter(pk=bruno.pk).update(series="1B")
    play = new_game(setup)
    play.play({anne: ("HAINES", "H4", None), bruno: ("HAINES", "H4", None)})
    play.play({anne: ("AUlOFEE", "G6", None)})
    client.force_login(setup["arbiter"])
    return {**setup, "client": client, "game": play.game}


def _rows(page: str) -> list[tuple[str, str, str]]:
    """(rank cell, name, total) of every ranking row of a page, in order."""
    out = []
    for row in re.findall(r'<tr data-player="\d+">(.*?)</tr>', page, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        out.append((cells[0], cells[1], cells[5]))
    return out


def _get(client, **query: str) -> str:
    response = client.get(reverse("console:rankings", args=["open-test"]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_a_large_event_shows_one_table_a_hundred_lines_a_page(event) -> None:
    client = event["client"]
    page = _get(client)
    rows = _rows(page)
    assert len(rows) == 100 and "Par série" not in page and "Page 1 sur 2" in page
    assert rows[:4] == [("1", "Anne", "106"), ("2", "Bruno", "26"), ("3 ex", "Chloé", "0"),
                        ("3 ex", _name(4), "0")]  # fmt: skip
    assert "110,42" in page and "+10" in page and "top 96" in page
    # Page 2: lines 101 to 130, tables 101 to 130 (line k is table k from Chloé on).
    rows = _rows(_get(client, page="2"))
    assert len(rows) == 30 and rows[0] == ("3 ex", _name(101), "0") and rows[-1][1] == _name(130)
    # The picker lists the groups (série 1 holds 1A and 1B), categories included.
    assert '<option value="series-1">Série 1</option>' in page
    assert '<option value="category-Vermeil">Catégorie Vermeil</option>' in page
    assert '<option value="series-">Non classés</option>' in page


def test_a_group_table_ranks_within_the_group(event) -> None:
    client = event["client"]
    # Série 1: Bruno (26), then the 64 even tables at 0, 2nd ex aequo; the overall rank
    # shows in the last column.
    rows = _rows(_get(client, table="series-1"))
    assert rows[:2] == [("1", "Bruno", "26"), ("2 ex", _name(4), "0")] and len(rows) == 65
    # Non classés (no series): Anne 1st, Chloé 2nd.
    assert _rows(_get(client, table="series-")) == [("1", "Anne", "106"), ("2", "Chloé", "0")]
    vermeil = _rows(_get(client, table="category-Vermeil"))
    assert len(vermeil) == 31 and vermeil[0] == ("1 ex", _name(100), "0")


def test_the_search_finds_a_player_by_name_or_table(event) -> None:
    client = event["client"]
    assert _rows(_get(client, q="brU")) == [("2", "Bruno", "26")]
    page = _get(client, q="3")  # table 3: Chloé, still 3rd ex aequo of the whole ranking
    assert _rows(page) == [("3 ex", "Chloé", "0")] and "1 ligne pour « 3 »" in page
    assert _rows(_get(client, q="personne")) == []
    assert _rows(_get(client, table="series-1", q="bruno")) == [("1", "Bruno", "26")]
    hostile = _get(client, q='<script>"')
    assert "<script>" not in hostile.split("<main", 1)[-1]


def test_an_unknown_table_is_refused_in_french(event) -> None:
    response = event["client"].get(reverse("console:rankings", args=["open-test"]),
                                   {"table": "nowhere"})  # fmt: skip
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        'data-code="query.table"' in page and "Ce tableau du classement n&#x27;existe pas" in page
    )


def test_the_api_answers_slices_and_a_bounded_default(event, monkeypatch) -> None:
    client = event["client"]
    url = "/api/tournaments/open-test/rankings/"
    whole = client.get(url).json()
    assert whole["count"] == 130 and len(whole["standings"]) == 130  # ≤ 500: every line
    part = client.get(url, {"offset": "1", "limit": "2"}).json()
    assert [(s["name"], s["rank"], s["total"]) for s in part["standings"]] == [
        ("Bruno", 2, 26), ("Chloé", 3, 0)]  # fmt: skip
    game = client.get("/api/tournaments/open-test/games/1/rankings/", {"limit": "1"}).json()
    assert game["count"] == 130 and game["standings"][0]["total"] == 106
    # A ranking longer than API_LINES (50 here) answers API_PAGE lines (20 here) without
    # limit; a slice asked for is answered as asked.
    monkeypatch.setattr(selectors, "API_LINES", 50)
    monkeypatch.setattr(selectors, "API_PAGE", 20)
    assert len(client.get(url).json()["standings"]) == 20
    capped = client.get(url, {"offset": "120"}).json()
    assert capped["count"] == 130 and len(capped["standings"]) == 10
    past = client.get(url, {"offset": "1000"}).json()
    assert (past["count"], past["standings"]) == (130, [])
    assert len(client.get(url, {"limit": "60"}).json()["standings"]) == 60


def test_pages_equal_the_whole_ranking_and_read_no_proposal(event) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = event["tournament"]
    with CaptureQueriesContext(connection) as queries:
        page = selectors.ranking_page(tournament, offset=0, limit=3)
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert 'FROM "tournaments_proposalversion"' not in sql and "tournaments_decision" not in sql
    assert [(line.rank, line.total, line.ex_aequo) for line in page.lines] == [
        (1, 106, False), (2, 26, False), (3, 0, True)]  # fmt: skip
    assert page.count == 130 and page.lines[0].game_totals == (106,)
    assert ranking_differences(tournament) == []
    # Québec tie-break (last game, then its last rounds): taken from the whole ranking,
    # same lines. Among the 0s nothing breaks the tie; Anne and Bruno are apart anyway.
    Tournament.objects.filter(pk=tournament.pk).update(tie_break="last_game_then_last_moves")
    tournament.refresh_from_db()
    assert ranking_differences(tournament) == []
    ranks = [line.rank for line in selectors.ranking_page(tournament, limit=3).lines]
    assert ranks == [1, 2, 3]


def test_a_player_registered_behind_the_services_back_is_ranked_all_the_same(event) -> None:
    """Stored lines missing (a player added through Django's admin after the games were
    played): the pages take the whole ranking instead, as ``game_outcomes`` recomputes;
    the checker's repair then writes the missing lines."""
    tournament = event["tournament"]
    (late,) = add_players(tournament, ["Zoé"], first_table=131)
    page = selectors.ranking_page(tournament, offset=129, limit=5)
    # Zoé scored nothing: 3rd ex aequo with the 128 others, last in registration order.
    assert page.count == 131 and [(line.player.name, line.rank) for line in page.lines] == [
        (_name(130), 3), ("Zoé", 3)]  # fmt: skip
    assert selectors.ranking_page(tournament, offset=500, limit=5).lines == ()
    call_command("tirage_standings_check", "--repair", stdout=io.StringIO())
    assert selectors.ranking_page(tournament, offset=130, limit=1).lines[0].player.name == "Zoé"
    assert ranking_differences(tournament) == []


def test_groups_and_searches_are_ranked_by_the_database(event, monkeypatch) -> None:
    """With the stored figures whole, no table builds the whole order in Python (the
    fallback): a group's table and a search are filtered after the database's ranks."""
    from tournaments.selectors import ranking_pages

    def whole(_self):
        raise AssertionError("the whole order was built in Python")

    monkeypatch.setattr(ranking_pages.RankingReader, "overall", property(whole))
    tournament = event["tournament"]
    reader = selectors.RankingReader(tournament)
    série = reader.page(selectors.RankingTable("series", "1"), limit=2)
    assert série.count == 65 and série.group_ranks == ((1, False), (2, True))
    assert [(line.player.name, line.rank) for line in série.lines] == [("Bruno", 2), (_name(4), 3)]
    found = reader.page(selectors.RankingTable("overall"), search="chlo")
    assert (found.count, found.found, found.lines[0].rank) == (130, 1, 3)


def _token(player: Player) -> str:
    from tournaments.access import SYSTEM
    from tournaments.models import Registration
    from tournaments.services.registry import registration_token_issue

    reg = Registration.objects.get(player=player, tournament__slug="open-test")
    return registration_token_issue(registration_id=reg.pk, actor=SYSTEM)


def test_a_players_results_read_their_own_stored_line(event, monkeypatch) -> None:
    """A tablet's results (its page and ``GET /api/player/results/``) read the player's
    stored line and one count of the higher totals, never the game's whole standings:
    with those made to fail, the figures by hand of the module's docstring."""
    from rest_framework.test import APIClient

    from tournaments.selectors import player_lines

    def whole(*_args: object) -> None:
        raise AssertionError("the game's whole standings were built")

    monkeypatch.setattr(player_lines, "game_outcomes", whole)
    monkeypatch.setattr(player_lines, "game_ranking", whole)
    anne, bruno, chloe = event["players"]
    lines = {}
    for player in (anne, bruno, chloe):
        reg = player.registrations.get()
        (mine,) = selectors.player_standings(reg)
        lines[player.name] = mine.line
        assert (mine.game.number, mine.top_total) == (1, 96)
    assert [(x.rank, x.total, x.negatif_text, x.ex_aequo, x.solos) for x in lines.values()] == [
        (1, 106, "+10", False, 1), (2, 26, "-70", False, 0), (3, 0, "-96", True, 0)]  # fmt: skip
    assert str(lines["Anne"].percent) == "110.42" and str(lines["Bruno"].percent) == "27.08"

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Player {_token(anne)}")
    (game,) = api.get("/api/player/results/").json()["games"]
    assert game["top_total"] == 96 and [r["score"] for r in game["rounds"]] == [26, 70]
    standing = game["standing"]
    assert (standing["rank"], standing["total"], standing["negatif_text"], standing["percent"]) == (
        1, 106, "+10", "110.42")  # fmt: skip
    tablet = event["client"].get(f"/tablette/{_token(chloe)}/resultats/").json()
    assert (tablet["rank"], tablet["total"], tablet["negatif"]) == (3, 0, "-96")
    assert [r["score"] for r in tablet["rounds"]] == [0, 0]


def test_a_stale_game_is_read_the_long_way_with_the_same_lines(event) -> None:
    """Stored lines not whole (a player added behind the services' back): the player's
    line comes from the recomputed ranking, same figures."""
    (late,) = add_players(event["tournament"], ["Zoé"], first_table=131)
    (mine,) = selectors.player_standings(late.registrations.get())
    assert mine.line is not None
    line = mine.line
    assert (line.rank, line.total, line.ex_aequo, mine.rounds) == (3, 0, True, (0, 0))
    anne = event["players"][0].registrations.get()
    assert selectors.player_standings(anne)[0].line.rank == 1
    call_command("tirage_standings_check", "--repair", stdout=io.StringIO())


def test_the_projector_and_exports_read_the_stored_rows(event, monkeypatch) -> None:
    """The projector's ranking, the tablets' live results and the CSV export read the
    stored figures: with the recomputation from the proposals made to fail, they show the
    figures by hand."""
    from tournaments.reports.tables import ranking_csv
    from tournaments.selectors import outcomes

    def recomputed(*_args: object) -> None:
        raise AssertionError("recomputed from the proposal rows")

    monkeypatch.setattr(outcomes, "computed_game_outcomes", recomputed)
    selectors.forget_game_outcomes()
    state = event["client"].get("/projecteur/open-test/etat/").json()
    assert [(r["rank"], r["name"], r["total"], r["negatif"]) for r in state["ranking"][:3]] == [
        (1, "Anne", 106, "+10"), (2, "Bruno", 26, "-70"), (3, "Chloé", 0, "-96")]  # fmt: skip
    assert len(state["ranking"]) == state["ranking_count"] == 130  # 200 lines by default
    live = event["client"].get(f"/tablette/{_token(event['players'][1])}/etat/").json()
    assert (live["results"]["total"], live["results"]["rank"]) == (26, 2)
    rows = ranking_csv(selectors.results_data(event["tournament"])).content.decode("utf-8-sig")
    lines = rows.splitlines()
    first = lines[1].split(";")
    assert first[:4] + first[8:10] == ["1", "", "1", "Anne", "106", "10"]
    assert lines[3].split(";")[:4] == ["3", "ex", "3", "Chloé"] and len(lines) == 131


def test_the_projector_carries_its_top_lines_and_the_count(event, settings, monkeypatch) -> None:
    """``TIRAGE_PROJECTOR_LINES`` = 5: the state carries the first five lines of the game
    (by hand: Anne 1st 106 +10, Bruno 2nd 26 -70, then Chloé and tables 4 and 5 3rd ex
    aequo at 0, -96) and the count of all 130, read from the stored rows."""
    from tournaments.selectors import outcomes

    def recomputed(*_args: object) -> None:
        raise AssertionError("recomputed from the proposal rows")

    monkeypatch.setattr(outcomes, "computed_game_outcomes", recomputed)
    selectors.forget_game_outcomes()
    settings.TIRAGE_PROJECTOR_LINES = 5
    state = event["client"].get("/projecteur/open-test/etat/").json()
    assert [(r["rank"], r["name"], r["total"], r["negatif"]) for r in state["ranking"]] == [
        (1, "Anne", 106, "+10"), (2, "Bruno", 26, "-70"), (3, "Chloé", 0, "-96"),
        (3, _name(4), 0, "-96"), (3, _name(5), 0, "-96")]  # fmt: skip
    assert state["ranking_count"] == 130


def test_the_apis_standings_are_the_serializers(event) -> None:
    """The API writes a ranking's lines by hand (``standings_data``, no DRF field object
    per line): the same JSON as ``StandingSerializer``, which the schema names."""
    from tournaments.api.serializers import StandingSerializer, standings_data

    lines = selectors.ranking_page(event["tournament"], limit=4).lines
    assert [line.percent for line in lines[:3]] == [Decimal("110.42"), Decimal("27.08"), 0]
    assert standings_data(lines) == [dict(StandingSerializer(x).data) for x in lines]
