"""Card table pages (issue 18): the console, a seat's tablet, the shared screen, downloads.

French pages, 4xx with a reason on bad input, and a seat never reads another seat's hand
through any URL or JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tournaments import selectors
from tournaments.models import CardSeat, CardTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter_client(client: Client, tournament_setup: dict[str, Any]) -> Client:
    client.force_login(tournament_setup["arbiter"])
    return client


def _open(client: Client, setup: dict[str, Any], **seats: str) -> CardTable:
    form = {"name": "Table du jeudi"}
    form.update(seats)
    answer = client.post(f"/arbitre/cartes/tournoi/{setup['tournament'].slug}/", form)
    assert answer.status_code == 302, answer.content.decode()[:500]
    return CardTable.objects.get(pk=int(answer["Location"].rstrip("/").split("/")[-1]))


def _tokens(table: CardTable) -> dict[int, str]:
    return {
        s.number: s.access_token
        for s in CardSeat.objects.filter(table=table)
        if s.access_token is not None
    }


def test_the_console_opens_a_table_and_hands_out_the_links(arbiter_client, tournament_setup):
    page = arbiter_client.get(f"/arbitre/cartes/tournoi/{tournament_setup['tournament'].slug}/")
    assert page.status_code == 200 and "Ouvrir une table" in page.content.decode()
    table = _open(
        arbiter_client,
        tournament_setup,
        kind_0="human",
        name_0="Anne <b>",
        kind_1="human",
        name_1="Bruno",
        kind_2="strong",
    )
    assert table.seats == 3
    body = arbiter_client.get(f"/arbitre/cartes/table/{table.pk}/").content.decode()
    for token in _tokens(table).values():
        assert f"/cartes/{token}/" in body
    assert "Anne &lt;b&gt;" in body and "adversaire moteur fort" in body
    assert "data:image/svg+xml;base64," in body  # the QR codes, drawn here
    record = arbiter_client.get(f"/arbitre/cartes/table/{table.pk}/partie.json")
    assert record.status_code == 200 and record.json()["format"] == "tirage-cards"
    pdf = arbiter_client.get(f"/arbitre/cartes/table/{table.pk}/partie.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_console_refuses_bad_tables_with_a_reason(arbiter_client, tournament_setup):
    slug = tournament_setup["tournament"].slug
    one = arbiter_client.post(
        f"/arbitre/cartes/tournoi/{slug}/", {"kind_0": "human", "name_0": "A"}
    )
    assert one.status_code == 400
    assert "Une table de cartes a de 2 à 6 places." in one.content.decode()
    engines = arbiter_client.post(
        f"/arbitre/cartes/tournoi/{slug}/", {"kind_0": "strong", "kind_1": "weak"}
    )
    assert engines.status_code == 400
    assert "au moins un joueur sur tablette" in engines.content.decode()
    bad = arbiter_client.post(f"/arbitre/cartes/tournoi/{slug}/", {"kind_0": "robot"})
    assert bad.status_code == 400
    assert arbiter_client.get("/arbitre/cartes/table/999999/").status_code == 404


def test_an_outsider_gets_no_console_page(client, tournament_setup, django_user_model):
    table = _table(tournament_setup)
    client.force_login(django_user_model.objects.create_user("curieux", password="x"))
    assert (
        client.get(f"/arbitre/cartes/tournoi/{tournament_setup['tournament'].slug}/").status_code
        == 403
    )
    assert client.get(f"/arbitre/cartes/table/{table.pk}/").status_code == 403
    assert client.get(f"/arbitre/cartes/table/{table.pk}/partie.json").status_code == 403


def _table(setup: dict[str, Any]) -> CardTable:
    from tournaments.services import SeatSpec, card_table_open

    seats = [SeatSpec("human", "Anne"), SeatSpec("human", "Bruno"), SeatSpec("weak")]
    return card_table_open(
        tournament_id=setup["tournament"].pk, seats=seats, seed=4, actor=setup["arbiter"]
    )


def test_a_seat_reads_only_its_own_hand(client: Client, tournament_setup) -> None:
    table = _table(tournament_setup)
    tokens = _tokens(table)
    live = selectors.card_live(CardTable.objects.get(pk=table.pk))
    for seat, token in tokens.items():
        page = client.get(f"/cartes/{token}/")
        html = page.content.decode()
        assert page.status_code == 200 and 'lang="fr"' in html and "Poser" in html
        assert "<script>" not in html
        state = client.get(f"/cartes/{token}/etat/")
        data = state.json()
        assert data["you"] == seat
        # The only hand in the answer is the seat's own (a move laid shows on the table).
        assert (
            len(data["hand"])
            + len(
                data["pending"]["cards"]
                if data["pending"] and data["pending"]["seat"] == seat
                else []
            )
            <= 7
        )
        own = live.game.hands[seat]
        assert all(ch in own for ch in data["hand"])
        others = [s for s in range(table.seats) if s != seat]
        text = json.dumps({k: v for k, v in data.items() if k != "hand"})
        assert "hand" not in text and "drawn" not in text and "exchanged" not in text
        assert all("hand" not in seat_row for seat_row in data["seats"]) and others
        # Nothing but 304 while nothing changed.
        again = client.get(f"/cartes/{token}/etat/", headers={"If-None-Match": state["ETag"]})
        assert again.status_code == 304
        # The record (it holds every hand) is for after the game.
        for name in ("partie.json", "partie.pdf"):
            early = client.get(f"/cartes/{token}/{name}")
            assert early.status_code == 409
            assert "une fois la partie terminée" in early.json()["message"]
    screen = client.get(f"/cartes/ecran/{table.pk}/etat/").json()
    assert "hand" not in screen and "you" not in screen


def test_bad_input_gets_a_reason(client: Client, tournament_setup) -> None:
    table = _table(tournament_setup)
    tokens = _tokens(table)
    view = selectors.card_public_view(CardTable.objects.get(pk=table.pk))
    idle = next(s for s in tokens if s != view["current"])  # out of turn, or awaited
    url = f"/cartes/{tokens[idle]}/jouer/"
    cases = [
        (b"not json", 400, "cards.move"),
        (b"[1, 2]", 400, "cards.move"),
        (json.dumps({"kind": "dance"}).encode(), 400, "cards.action"),
        (json.dumps({"kind": "pass"}).encode(), 409, None),
        (json.dumps({"kind": "play", "play": {"cards": "x"}}).encode(), 400, "cards.move"),
        (json.dumps({"kind": "exchange", "cards": 12}).encode(), 400, "exchange.count"),
    ]
    for body, status, code in cases:
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == status, (body, answer.content)
        data = answer.json()
        assert data["message"] and not data["message"].startswith(("The ", "Only ", "Unknown"))
        if code:
            assert data["code"] == code
    unknown = client.post("/cartes/inconnu/jouer/", b"{}", content_type="application/json")
    assert unknown.status_code == 404 and "n'est pas valable" in unknown.json()["message"]
    assert client.get("/cartes/inconnu/").status_code == 404
    assert client.get("/cartes/inconnu/etat/").status_code == 404
    assert client.get("/cartes/ecran/999999/").status_code == 404
    assert client.get("/cartes/ecran/999999/etat/").status_code == 404
    assert client.get(f"/cartes/{tokens[idle]}/jouer/").status_code == 405


def test_a_turn_through_the_tablet(client: Client, tournament_setup) -> None:
    table = _table(tournament_setup)
    tokens = _tokens(table)
    view = selectors.card_public_view(CardTable.objects.get(pk=table.pk))
    if view["pending"]:  # the engine opened: both players let its move stand
        for seat in view["pending"]["waiting_for"]:
            answer = client.post(
                f"/cartes/{tokens[seat]}/jouer/",
                {"kind": "accept"},
                content_type="application/json",
            )
            assert answer.status_code == 201
        view = selectors.card_public_view(CardTable.objects.get(pk=table.pk))
    me = view["current"]
    answer = client.post(
        f"/cartes/{tokens[me]}/jouer/", {"kind": "pass"}, content_type="application/json"
    )
    assert answer.status_code == 201
    data = answer.json()
    assert data["you"] == me
    passed = [t for t in data["turns"] if t["seat"] == me and t["action"] == "pass"]
    assert passed and passed[0]["text"] == f"{['Anne', 'Bruno'][me]} passe."
    screen = client.get(f"/cartes/ecran/{table.pk}/")
    assert screen.status_code == 200 and "cards_screen" in screen.content.decode()


def test_the_arbiter_lets_a_waiting_move_stand(arbiter_client, tournament_setup) -> None:
    from tournaments.access import SYSTEM
    from tournaments.models import AuditLog
    from tournaments.services import card_turn_play

    table = _table(tournament_setup)
    url = f"/arbitre/cartes/table/{table.pk}/laisser-passer/"
    view = selectors.card_public_view(CardTable.objects.get(pk=table.pk))
    if view["pending"] is None:  # a player opens: they lay two cards on the centre
        me = view["current"]
        hand = selectors.card_seat_view(CardTable.objects.get(pk=table.pk), me)["hand"]
        a, b = [c for c in hand if c.isalpha()][:2]
        play = {"cards": [{"row": 0, "col": 0, "letter": a}, {"row": 0, "col": 1, "letter": b}]}
        card_turn_play(table_id=table.pk, actor=SYSTEM, seat=me, kind="play", play=play)
    waiting = selectors.card_public_view(CardTable.objects.get(pk=table.pk))["pending"]
    assert waiting and waiting["waiting_for"]
    page = arbiter_client.get(f"/arbitre/cartes/table/{table.pk}/").content.decode()
    assert "Laisser passer le coup pour eux" in page
    assert arbiter_client.post(url).status_code == 302
    after = selectors.card_public_view(CardTable.objects.get(pk=table.pk))
    assert after["pending"] is None or after["pending"]["seat"] != waiting["seat"]
    by_arbiter = AuditLog.objects.filter(
        object_type="cardtable", action="cards.accept", actor=tournament_setup["arbiter"]
    )
    assert by_arbiter.count() == len(waiting["waiting_for"])
    if after["pending"] is None:
        nothing = arbiter_client.post(url)
        assert nothing.status_code == 409 and "Aucun coup" in nothing.content.decode()
    assert arbiter_client.get(url).status_code == 405
