"""Card tables on the site (issue 18): the services, replay of the stored record, refusals.

The expected values come from the rules (docs/cards.md, the seed page 000): a valid move
challenged costs the challenger 10, an invalid one goes back to the mover's hand and counts
as a pass, the 112 cards are always somewhere, and the stored record replays identically
through the engine's own replay (``engine.cards.record.replay``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.cards.deck import full_deck
from engine.cards.players import engine_action
from engine.cards.record import replay
from tournaments import adapter, selectors
from tournaments.access import SYSTEM, CardSeatActor
from tournaments.errors import ServiceError, http_status
from tournaments.models import AuditLog, CardEvent, CardSeat, CardTable
from tournaments.services import SeatSpec, card_table_open, card_turn_play

pytestmark = pytest.mark.django_db


def _open(setup: dict[str, Any], *kinds: str, seed: int = 11) -> CardTable:
    names = iter(["Anne", "Bruno", "Chloé", "David", "Emma", "Farid"])
    seats = [SeatSpec(kind, next(names) if kind == "human" else "") for kind in kinds]
    return card_table_open(
        tournament_id=setup["tournament"].pk, seats=seats, seed=seed, actor=setup["arbiter"]
    )


def _seat(table: CardTable, number: int) -> CardSeatActor:
    return CardSeatActor.of(CardSeat.objects.get(table=table, number=number))


def _fresh(table: CardTable) -> CardTable:
    return CardTable.objects.get(pk=table.pk)


def _accounted(table: CardTable) -> None:
    """The 112 cards are in the deck, the hands, on the table or discarded."""
    live = selectors.card_live(_fresh(table))
    cards = live.game.accounted()
    assert sum(cards.values()) == 112
    assert cards == Counter(full_deck())


def _scripted_human(table: CardTable, seat: int, lexicon: Any, *, challenge_once: list[bool]):
    """The human of seat ``seat``: answers the moves laid (challenging a valid one once),
    and on its turn plays what the strong engine would (a script, not the code under test:
    with seed 2026 it lays Prime cards, a joker and removes words)."""
    table = _fresh(table)
    view = selectors.card_seat_view(table, seat)
    actor = _seat(table, seat)
    if view["can"]["answer"]:
        kind = "challenge" if challenge_once and challenge_once.pop() else "accept"
        return card_turn_play(table_id=table.pk, actor=actor, kind=kind)
    assert view["can"]["play"], view
    live = selectors.card_live(table)
    action = engine_action(live.game.table, view["hand"], view["deck"], lexicon, "strong")
    if action.kind == "play":
        return card_turn_play(
            table_id=table.pk, actor=actor, kind="play", play=action.placed.to_json()
        )
    if action.kind == "exchange":
        return card_turn_play(table_id=table.pk, actor=actor, kind="exchange", cards=action.cards)
    return card_turn_play(table_id=table.pk, actor=actor, kind="pass")


def test_a_whole_game_one_human_two_engines(tournament_setup: dict[str, Any], client) -> None:
    table = _open(tournament_setup, "human", "strong", "weak", seed=2026)
    lexicon = adapter.engine_lexicon(tournament_setup["lexicon"])
    challenge_once = [True]
    challenged: dict[str, Any] = {}
    for _ in range(400):
        table = _fresh(table)
        if table.state == "finished":
            break
        _accounted(table)
        before = selectors.card_public_view(table)
        event = _scripted_human(table, 0, lexicon, challenge_once=challenge_once)
        if event.kind == "challenge":
            challenged = {"before": before, "turn": event.turn}
    table = _fresh(table)
    assert table.state == "finished" and table.finished_at is not None
    _accounted(table)

    # The challenge of an engine's move (always valid: engines play the lexicon's words)
    # cost the human 10 points, and the move stood.
    turn = challenged["turn"]
    assert turn["challenge"] == {"by": 0, "valid": True, "invalid": []}
    assert turn["scores"][0] == challenged["before"]["seats"][0]["score"] - 10

    # The stored record replays identically through the engine (engine choices included).
    record = table.record
    assert record["format"] == "tirage-cards" and record["end"] is not None
    assert [p["level"] for p in record["players"]] == ["human", "strong", "weak"]
    assert replay(record, lexicon) == []
    assert record == adapter.card_record(selectors.card_live(table), table.lexicon.path)
    stored = [e.turn for e in CardEvent.objects.filter(table=table).order_by("number") if e.turn]
    assert stored == record["turns"]
    # The human's moves went through the service with Prime cards on a letter, a joker
    # announced as a letter, and words of the other seats removed.
    mine = [t for t in record["turns"] if t["seat"] == 0 and t["action"] == "play"]
    assert any(t["play"].get("prime") for t in mine)
    assert any(c["joker"] for t in mine for c in t["play"]["cards"])
    assert any(t["removed"] for t in mine)
    # Final scores: the running scores plus the end's adjustments (page, "scores finaux").
    last = record["turns"][-1]["scores"]
    end = record["end"]
    assert end["scores"] == [s + a for s, a in zip(last, end["adjustments"], strict=True)]
    # Over: each seat may now download the record and the printed sheet.
    token = CardSeat.objects.get(table=table, number=0).access_token
    assert client.get(f"/cartes/{token}/partie.json").json() == record
    pdf = client.get(f"/cartes/{token}/partie.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    view = client.get(f"/cartes/{token}/etat/").json()
    assert view["end"]["text"].startswith("Partie terminée") and not view["can"]["play"]
    # Every event was audited; the engines' turns as the system, the human's as a player.
    kinds = Counter(
        AuditLog.objects.filter(object_type="cardtable", object_id=table.pk).values_list(
            "actor_kind", flat=True
        )
    )
    assert kinds["system"] >= 1 and kinds["player"] >= 1 and kinds["user"] == 1
    assert sum(kinds.values()) == CardEvent.objects.filter(table=table).count() + 1


def _first_human_game(setup: dict[str, Any]) -> tuple[CardTable, int, int]:
    table = _open(setup, "human", "human", seed=5)
    first = selectors.card_public_view(_fresh(table))["first"]
    return table, first, 1 - first


def _refused(code: str, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        card_turn_play(**kwargs)
    assert info.value.code == code, info.value
    return info.value


def test_an_invalid_word_challenged_goes_back_to_the_hand(tournament_setup) -> None:
    table, first, other = _first_human_game(tournament_setup)
    view = selectors.card_seat_view(_fresh(table), first)
    letters = [c for c in view["hand"] if c.isalpha()][:2]
    assert len(letters) == 2
    play = {"cards": [{"row": 0, "col": i, "letter": ch} for i, ch in enumerate(letters)]}
    word = "".join(letters)
    lexicon = adapter.engine_lexicon(tournament_setup["lexicon"])
    # Out of turn, a move from the other seat is refused and nothing is stored.
    _refused("turn.not_yours", table_id=table.pk, actor=_seat(table, other), kind="pass")
    assert http_status("turn.not_yours") == 409
    card_turn_play(table_id=table.pk, actor=_seat(table, first), kind="play", play=play)
    waiting = selectors.card_seat_view(_fresh(table), other)
    assert waiting["pending"]["seat"] == first and waiting["can"]["answer"]
    # While the move waits: the mover cannot answer it, nobody plays on.
    _refused("challenge.seat", table_id=table.pk, actor=_seat(table, first), kind="accept")
    _refused("turn.pending", table_id=table.pk, actor=_seat(table, first), kind="pass")
    event = card_turn_play(table_id=table.pk, actor=_seat(table, other), kind="challenge")
    if lexicon.contains(word):  # the seed's first two letters form a word: it stands
        assert event.turn["challenge"]["valid"] and event.turn["scores"][other] == -10
        return
    assert event.turn["challenge"] == {"by": other, "valid": False, "invalid": [word]}
    assert event.turn["score"] == 0 and event.turn["drawn"] == ""
    after = selectors.card_seat_view(_fresh(table), first)
    assert after["hand"] == view["hand"] and after["cells"] == []
    assert after["seats"][other]["score"] == 0 and after["current"] == other


def test_refusals_are_coded(tournament_setup, django_user_model) -> None:
    setup = tournament_setup
    t = setup["tournament"].pk
    outsider = django_user_model.objects.create_user("passant", password="x")
    with pytest.raises(ServiceError) as info:
        card_table_open(tournament_id=t, seats=[SeatSpec("human", "A")] * 2, actor=outsider)
    assert info.value.code == "access.arbiter"
    for seats, code in [
        ([SeatSpec("human", "A")] * 7, "cards.seats"),
        ([SeatSpec("human", "A")], "cards.seats"),
        ([SeatSpec("strong"), SeatSpec("weak")], "cards.no_human"),
        ([SeatSpec("human", " "), SeatSpec("weak")], "cards.seat_name"),
        ([SeatSpec("robot"), SeatSpec("human", "A")], "cards.seat_kind"),
    ]:
        with pytest.raises(ServiceError) as info:
            card_table_open(tournament_id=t, seats=seats, actor=setup["arbiter"])
        assert info.value.code == code
    table, first, other = _first_human_game(setup)
    second = _open(setup, "human", "weak", seed=9)
    me = _seat(table, first)
    _refused("access.card_seat", table_id=second.pk, actor=me, kind="pass")
    _refused("access.card_seat", table_id=table.pk, actor=setup["arbiter"], kind="pass")
    _refused("cards.action", table_id=table.pk, actor=me, kind="resign")
    _refused("cards.move", table_id=table.pk, actor=me, kind="play", play={"cards": "AB"})
    _refused("cards.move", table_id=table.pk, actor=me, kind="play", play=None)
    _refused("play.empty", table_id=table.pk, actor=me, kind="play", play={"cards": []})
    hand = selectors.card_seat_view(_fresh(table), first)["hand"]
    a, b = [c for c in hand if c.isalpha()][:2]
    far = {"cards": [{"row": 3, "col": 3, "letter": a}, {"row": 3, "col": 4, "letter": b}]}
    _refused("play.centre", table_id=table.pk, actor=me, kind="play", play=far)
    gap = {"cards": [{"row": 0, "col": 0, "letter": a}, {"row": 0, "col": 2, "letter": b}]}
    _refused("play.gap", table_id=table.pk, actor=me, kind="play", play=gap)
    _refused("exchange.count", table_id=table.pk, actor=me, kind="exchange", cards="")
    _refused("challenge.nothing", table_id=table.pk, actor=me, kind="challenge")
    assert CardEvent.objects.filter(table=table).count() == 0  # nothing refused was stored
    # An exchange of the first card: the hand keeps 7 cards, the deck its count.
    event = card_turn_play(table_id=table.pk, actor=me, kind="exchange", cards=hand[0])
    assert event.turn["action"] == "exchange" and event.turn["deck"] == 112 - 14
    assert len(selectors.card_seat_view(_fresh(table), first)["hand"]) == 7


def test_no_view_holds_another_seats_hand(tournament_setup) -> None:
    table, first, other = _first_human_game(tournament_setup)
    table = _fresh(table)
    live = selectors.card_live(table)
    public = selectors.card_public_view(table)
    assert "hand" not in public and "hand" not in str(public["turns"])
    mine = selectors.card_seat_view(table, first)
    assert mine["hand"] == live.game.hands[first]
    assert "hands" not in mine and live.game.hands[other] not in str(
        {k: v for k, v in mine.items() if k != "hand"}
    )


def test_system_may_act_for_a_seat_and_engines_follow(tournament_setup) -> None:
    table = _open(tournament_setup, "human", "strong", seed=3)
    view = selectors.card_public_view(_fresh(table))
    if view["current"] == 0 and view["pending"] is None:
        card_turn_play(table_id=table.pk, actor=SYSTEM, seat=0, kind="pass")
        view = selectors.card_public_view(_fresh(table))
    # The engine has laid a move the human must answer (or passed): the human is awaited.
    if view["pending"] is not None:
        assert view["pending"]["seat"] == 1 and view["pending"]["waiting_for"] == [0]
    else:
        assert view["current"] == 0 and view["turns"][0]["seat"] == 1


def test_the_database_holds_the_rules(tournament_setup) -> None:
    """2 to 6 seats, a token exactly for a player's seat, events append-only and once each."""
    from django.db import IntegrityError, transaction

    table = _open(tournament_setup, "human", "weak", seed=8)
    if not CardEvent.objects.filter(table=table).exists():  # the player opens: a pass
        card_turn_play(table_id=table.pk, actor=SYSTEM, seat=0, kind="pass")
    lexicon = tournament_setup["lexicon"]
    with pytest.raises(IntegrityError), transaction.atomic():
        CardTable.objects.create(
            tournament=tournament_setup["tournament"], lexicon=lexicon, seed=1, seats=7
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        CardSeat.objects.create(table=table, number=2, kind="strong", name="X", access_token="t")
    with pytest.raises(IntegrityError), transaction.atomic():
        CardSeat.objects.create(table=table, number=2, kind="human", name="Y")
    with pytest.raises(IntegrityError), transaction.atomic():
        CardSeat.objects.create(table=table, number=0, kind="weak", name="Z")
    with pytest.raises(IntegrityError), transaction.atomic():
        CardTable.objects.filter(pk=table.pk).update(state="finished")  # no record, no time
    event = CardEvent.objects.filter(table=table).first()
    assert event is not None
    with pytest.raises(RuntimeError):
        event.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        CardEvent.objects.create(table=table, number=event.number, seat=0, kind="pass")
    with pytest.raises(IntegrityError), transaction.atomic():
        CardEvent.objects.create(table=table, number=99, seat=0, kind="resign")
