"""A player opens a card table from their tablet link (issue 18): the page
``/cartes/joueur/<registration token>/``, the bounds (the arbiters' setting, tables in
play per player and per tournament, tables an hour), closing a table (its opener or an
arbiter), and the audit naming the player."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.access import SYSTEM, PlayerActor
from tournaments.errors import ServiceError
from tournaments.models import (
    AuditLog,
    CardSeat,
    CardTable,
    CardTableState,
    Registration,
    Tournament,
)
from tournaments.services import (
    SeatSpec,
    card_settings_set,
    card_table_close,
    card_table_open,
    card_turn_play,
)
from tournaments.services import card_tables as rules
from tournaments.services.registry import registration_token_issue

pytestmark = pytest.mark.django_db


def _registrations(setup: dict[str, Any]) -> list[Registration]:
    rows = Registration.objects.filter(tournament=setup["tournament"]).order_by("table_number")
    return list(rows.select_related("player"))


def _token(registration: Registration) -> str:
    return registration_token_issue(registration_id=registration.pk, actor=SYSTEM)


def _page(token: str) -> str:
    return f"/cartes/joueur/{token}/"


def _player_open(registration: Registration, *kinds: str) -> CardTable:
    seats = [SeatSpec("human", registration.player.name)]
    seats += [SeatSpec(k, "Invité" if k == "human" else "") for k in kinds or ("strong",)]
    return card_table_open(
        tournament_id=registration.tournament_id,
        seats=seats,
        actor=PlayerActor.of(registration),
        seed=3,
    )


def test_a_player_opens_a_table_and_gets_every_seat_link(client: Client, tournament_setup):
    anne = _registrations(tournament_setup)[0]
    token = _token(anne)
    page = client.get(_page(token))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Mes tables de cartes" in body and "Ouvrir une table" in body and "Anne" in body
    answer = client.post(
        _page(token),
        {"name": "Soirée <i>", "kind_1": "human", "name_1": "Zoé", "kind_2": "weak"},
    )
    assert answer.status_code == 302 and answer["Location"] == _page(token)
    table = CardTable.objects.get(opened_by=anne)
    seats = list(CardSeat.objects.filter(table=table).order_by("number"))
    # Seat 1 is the player who opened it; then the seats named on the form, in order.
    assert [(s.kind, s.name) for s in seats] == [
        ("human", "Anne"),
        ("human", "Zoé"),
        ("weak", "adversaire moteur faible"),
    ]
    assert table.created_by is None and table.lexicon == tournament_setup["tournament"].lexicon
    body = client.get(_page(token)).content.decode()
    assert "Soirée &lt;i&gt;" in body and "data:image/svg+xml;base64," in body
    for seat in seats[:2]:
        assert f"/cartes/{seat.access_token}/" in body
    # The seat links work: the opener's tablet shows their hand.
    view = client.get(f"/cartes/{seats[0].access_token}/etat/").json()
    assert view["you"] == 0 and len(view["hand"]) == 7
    # The audit says a player opened it, and which one.
    row = AuditLog.objects.get(action="cards.table_open", object_id=table.pk)
    assert row.actor_kind == "player" and row.actor is None
    assert row.payload["registration"] == anne.pk


def test_the_duplicate_tablet_links_to_the_players_page(client: Client, tournament_setup):
    token = _token(_registrations(tournament_setup)[0])
    assert _page(token) in client.get(f"/tablette/{token}/").content.decode()


def test_an_unknown_token_gets_a_404_page(client: Client, tournament_setup):
    answer = client.get(_page("nope"))
    assert answer.status_code == 404 and "pas valable" in answer.content.decode()
    assert client.post(_page("nope"), {"kind_1": "strong"}).status_code == 404


def test_a_bad_form_is_refused_with_a_reason(client: Client, tournament_setup):
    token = _token(_registrations(tournament_setup)[0])
    # Only the opener: one seat.
    alone = client.post(_page(token), {"name": "Seul"})
    assert alone.status_code == 400
    assert "Une table de cartes a de 2 à 6 places." in alone.content.decode()
    nameless = client.post(_page(token), {"kind_1": "human", "name_1": " "})
    assert nameless.status_code == 400 and "Donnez le nom" in nameless.content.decode()
    assert not CardTable.objects.exists()


def test_the_arbiters_may_forbid_players_to_open_tables(client: Client, tournament_setup):
    anne = _registrations(tournament_setup)[0]
    token = _token(anne)
    arbiter = tournament_setup["arbiter"]
    tid = tournament_setup["tournament"].pk
    card_settings_set(tournament_id=tid, actor=arbiter, players_may_open=False)
    body = client.get(_page(token)).content.decode()
    assert "n'ont pas permis aux joueurs" in body and "Ouvrir la table" not in body
    refused = client.post(_page(token), {"kind_1": "strong"})
    assert refused.status_code == 403 and "n'ont pas permis" in refused.content.decode()
    # An arbiter still opens tables; a player may not change the setting.
    with pytest.raises(ServiceError) as error:
        card_settings_set(tournament_id=tid, actor=PlayerActor.of(anne), players_may_open=True)
    assert error.value.code == "access.arbiter"
    card_settings_set(tournament_id=tid, actor=arbiter, players_may_open=True)
    assert client.post(_page(token), {"kind_1": "strong"}).status_code == 302
    assert AuditLog.objects.filter(action="cards.settings").count() == 2


def test_the_console_setting_and_the_close_button(client: Client, tournament_setup):
    anne = _registrations(tournament_setup)[0]
    table = _player_open(anne)
    client.force_login(tournament_setup["arbiter"])
    slug = tournament_setup["tournament"].slug
    body = client.get(f"/arbitre/cartes/tournoi/{slug}/").content.decode()
    assert "Ne plus le permettre" in body and "Anne" in body and "Fermer la table" in body
    answer = client.post(f"/arbitre/cartes/tournoi/{slug}/joueurs/", {"players_may_open": "0"})
    assert answer.status_code == 302
    assert "Le permettre" in client.get(f"/arbitre/cartes/tournoi/{slug}/").content.decode()
    # The arbiter closes the player's table: it takes no more action, the pages say so.
    assert client.post(f"/arbitre/cartes/table/{table.pk}/fermer/").status_code == 302
    table.refresh_from_db()
    assert table.state == CardTableState.CLOSED and table.finished_at is not None
    again = client.post(f"/arbitre/cartes/table/{table.pk}/fermer/")
    assert again.status_code == 409 and "plus en jeu" in again.content.decode()
    row = AuditLog.objects.get(action="cards.table_close", object_id=table.pk)
    assert row.actor_kind == "user" and row.actor == tournament_setup["arbiter"]


def test_a_closed_table_takes_no_action(client: Client, tournament_setup):
    anne = _registrations(tournament_setup)[0]
    table = _player_open(anne, "human")
    card_table_close(table_id=table.pk, actor=PlayerActor.of(anne))
    token = CardSeat.objects.get(table=table, number=0).access_token
    view = client.get(f"/cartes/{token}/etat/").json()
    assert view["table"]["closed"] and view["table"]["over"] and view["current"] is None
    assert not any(view["can"].values())
    answer = client.post(
        f"/cartes/{token}/jouer/", {"kind": "pass"}, content_type="application/json"
    )
    assert answer.status_code == 409 and answer.json()["code"] == "card_table.state"
    with pytest.raises(ServiceError) as error:
        card_turn_play(table_id=table.pk, actor=SYSTEM, kind="pass", seat=0)
    assert error.value.code == "card_table.state"


def test_only_the_opener_or_an_arbiter_closes_a_table(client: Client, tournament_setup):
    anne, bruno, _ = _registrations(tournament_setup)
    table = _player_open(anne)
    with pytest.raises(ServiceError) as error:
        card_table_close(table_id=table.pk, actor=PlayerActor.of(bruno))
    assert error.value.code == "access.card_close"
    answer = client.post(f"/cartes/joueur/{_token(bruno)}/fermer/{table.pk}/")
    assert answer.status_code == 403
    arbiter_table = card_table_open(
        tournament_id=anne.tournament_id,
        seats=[SeatSpec("human", "A"), SeatSpec("strong")],
        actor=tournament_setup["arbiter"],
    )
    with pytest.raises(ServiceError):
        card_table_close(table_id=arbiter_table.pk, actor=PlayerActor.of(anne))
    token = _token(anne)
    assert client.post(f"/cartes/joueur/{token}/fermer/{table.pk}/").status_code == 302
    table.refresh_from_db()
    assert table.state == CardTableState.CLOSED
    row = AuditLog.objects.get(action="cards.table_close", object_id=table.pk)
    assert row.actor_kind == "player" and row.payload["registration"] == anne.pk
    body = client.get(_page(token)).content.decode()
    assert "fermée" in body and f"/cartes/joueur/{token}/fermer/{table.pk}/" not in body


def test_the_caps_on_tables_opened_by_players(tournament_setup, monkeypatch):
    anne, bruno, chloe = _registrations(tournament_setup)
    # Per player: PLAYER_OPEN_MAX (2) tables in play; closing one frees a place.
    first = _player_open(anne)
    _player_open(anne)
    with pytest.raises(ServiceError) as error:
        _player_open(anne)
    assert error.value.code == "cards.player_tables" and error.value.details["limit"] == 2
    card_table_close(table_id=first.pk, actor=PlayerActor.of(anne))
    _player_open(anne)
    # Per hour: PLAYER_OPENED_PER_HOUR, whatever became of the tables (3 opened so far).
    monkeypatch.setattr(rules, "PLAYER_OPENED_PER_HOUR", 3)
    CardTable.objects.filter(opened_by=anne).update(
        state=CardTableState.CLOSED, finished_at=timezone.now()
    )
    with pytest.raises(ServiceError) as error:
        _player_open(anne)
    assert error.value.code == "cards.player_rate"
    CardTable.objects.filter(opened_by=anne).update(
        created_at=timezone.now() - timedelta(hours=1, minutes=1)
    )
    _player_open(anne)  # an hour later
    # Per tournament: TOURNAMENT_OPEN_MAX tables in play opened by players (3 here).
    monkeypatch.setattr(rules, "TOURNAMENT_OPEN_MAX", 3)
    _player_open(bruno)
    _player_open(bruno)
    with pytest.raises(ServiceError) as error:
        _player_open(chloe)
    assert error.value.code == "cards.tournament_tables"
    # An arbiter is never capped.
    card_table_open(
        tournament_id=anne.tournament_id,
        seats=[SeatSpec("human", "A"), SeatSpec("weak")],
        actor=tournament_setup["arbiter"],
    )


def test_a_withdrawn_or_foreign_player_opens_nothing(tournament_setup):
    anne = _registrations(tournament_setup)[0]
    Registration.objects.filter(pk=anne.pk).update(
        withdrawn_game=1, withdrawn_round=1, withdrawn_reason="malade"
    )
    anne.refresh_from_db()
    with pytest.raises(ServiceError) as error:
        _player_open(anne)
    assert error.value.code == "registration.withdrawn"
    other = Tournament.objects.create(
        name="Autre", slug="autre", lexicon=tournament_setup["lexicon"]
    )
    there = Registration.objects.create(
        tournament=other, player=tournament_setup["players"][1], table_number=1
    )
    with pytest.raises(ServiceError) as error:
        card_table_open(
            tournament_id=anne.tournament_id,
            seats=[SeatSpec("human", "B"), SeatSpec("weak")],
            actor=PlayerActor.of(there),
        )
    assert error.value.code == "access.card_open"


def test_the_new_pages_are_french_and_english_one_setting_away(client: Client, tournament_setup):
    from tests.site.test_french_everywhere import leaks, page_text

    anne = _registrations(tournament_setup)[0]
    # The fixture's name, "Open de test", is user data that reads as English to the checker.
    Tournament.objects.filter(pk=anne.tournament_id).update(name="Tournoi du club")
    token = _token(anne)
    table = _player_open(anne, "human")
    slug = tournament_setup["tournament"].slug
    pages = {_page(token): client.get(_page(token)).content.decode()}
    client.force_login(tournament_setup["arbiter"])
    for url in (f"/arbitre/cartes/tournoi/{slug}/", f"/arbitre/cartes/table/{table.pk}/"):
        pages[url] = client.get(url).content.decode()
    found = []
    for url, body in pages.items():
        title, text = page_text(body)
        found += leaks(f"{url} <title>", title) + leaks(url, text)
    assert not found, "\n".join(found)
    # The room's language set to English: the player's page is English.
    Tournament.objects.filter(pk=anne.tournament_id).update(language="en")
    english = client.get(_page(token)).content.decode()
    assert "My card tables" in english and "Close the table" in english
