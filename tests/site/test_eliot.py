"""Eliot's saved games at the site: imported as a pre-drawn game from the console's game
import page (replayed with the tournament's lexicon first), exported as a document of the
registry (console, API, ``manage.py tirage_export``). The hand-written file and its hand
computed tops are those of tests/engine/interop/test_eliot.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from engine.interop.eliot_xml import read_eliot
from tests.engine.interop.test_eliot import HAND_WRITTEN, LAUGHS, first_turn_only
from tests.scenario import GameScenario, new_game
from tournaments.models import ArbiterMembership, Game

pytestmark = pytest.mark.django_db

IMPORT = reverse("console:record_import", args=["open-test"])


@pytest.fixture
def head(client, tournament_setup) -> Any:
    client.force_login(tournament_setup["arbiter"])
    return client


def upload(client: Any, content: bytes | str, name: str = "partie.xml") -> Any:
    data = content.encode("utf-8") if isinstance(content, str) else content
    return client.post(IMPORT, {"file": SimpleUploadedFile(name, data)})


def played_racks_and_tops(game: Game, actor: Any, rounds: int) -> list[tuple[str, str, str, int]]:
    """Draw and place ``rounds`` rounds of the game with the services, as the room would."""
    play = GameScenario(game, actor)
    out = []
    for _ in range(rounds):
        rnd = play.open_round()
        rnd = play.finish(rnd)
        chosen = rnd.top["chosen"]
        out.append((rnd.rack, chosen["coord"], chosen["word"], rnd.top_score))
    return out


def test_the_console_imports_an_eliot_file_and_the_room_draws_the_same_racks(
    head, tournament_setup
) -> None:
    page = head.get(IMPORT)
    assert page.status_code == 200 and "Eliot" in page.content.decode()
    response = upload(head, HAND_WRITTEN.read_bytes())
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get(tournament=tournament_setup["tournament"], number=1)
    assert game.kind == "predrawn" and response["Location"] == reverse("console:game",
                                                                        args=[game.pk])  # fmt: skip
    # Round 2 carries the rejected completion of the reliquat E that stands for Eliot's "-".
    assert game.predrawn.splitlines() == ["WHISKYE", "E+BBCCDD BOUDEXL", "BLU+?MAN"]
    assert played_racks_and_tops(game, tournament_setup["arbiter"], 3) == [
        ("WHISKYE", "H4", "WHISKY", 92),
        ("-BOUDEXL", "9F", "OXYDE", 36),
        ("BLU+?MAN", "K4", "ALBUMeN", 92),
    ]


def test_a_file_that_does_not_replay_is_refused_naming_the_round(head, tournament_setup) -> None:
    text = HAND_WRITTEN.read_text(encoding="utf-8").replace(
        '<GameMove points="92" type="valid" word="ALBUMeN" coord="K4" />',
        '<GameMove points="68" type="valid" word="ALBUMENs" coord="J4" />',
    )
    response = upload(head, text)
    page = response.content.decode()
    assert response.status_code == 400 and 'data-code="eliot.replay"' in page
    assert "Coup 3 : le fichier Eliot donne J4 ALBUMENs 68, Tirage trouve K4 ALBUMeN 92" in page
    assert not Game.objects.filter(tournament=tournament_setup["tournament"]).exists()


def test_a_tied_top_eliot_chose_is_pointed_out_to_the_arbiter(head, tournament_setup) -> None:
    response = upload(head, first_turn_only('word="WHISKY" coord="H7"'))
    assert response.status_code == 302
    page = head.get(response["Location"]).content.decode()
    assert "Coup 1 : Eliot a posé H7 WHISKY, un des tops ex aequo ; choisissez-le." in page


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (LAUGHS, "eliot.doctype"),
        ("<EliotGame format='2'><Game>", "eliot.xml"),
        ("<EliotGame format='3'/>", "eliot.version"),
        (
            HAND_WRITTEN.read_text(encoding="utf-8").replace("arbitration", "training"),
            "eliot.mode",
        ),  # fmt: skip
    ],
)
def test_hostile_or_foreign_files_are_refused_with_their_code(head, content, code) -> None:
    response = upload(head, content)
    page = response.content.decode()
    assert response.status_code == 400 and f'data-code="{code}"' in page


def test_only_the_head_arbiter_imports(client, tournament_setup) -> None:
    helper = get_user_model().objects.create_user("assesseur", password="y")
    ArbiterMembership.objects.create(user=helper, tournament=tournament_setup["tournament"])
    client.force_login(helper)
    assert upload(client, HAND_WRITTEN.read_bytes()).status_code == 403
    assert not Game.objects.exists()


def test_a_game_exports_as_eliot_xml_everywhere_and_imports_back(
    head, tournament_setup, tmp_path
) -> None:
    arbiter = tournament_setup["arbiter"]
    play = new_game(tournament_setup, seed=1)
    first = played_racks_and_tops(play.game, arbiter, 10)  # a joker in round 1, a rejection in 9
    url = reverse("console:document", args=["open-test", "eliot"])
    response = head.get(url, {"partie": "1"})
    assert response.status_code == 200 and response["Content-Type"] == "application/xml"
    assert response["Content-Disposition"].endswith('open-test-partie-1.eliot.xml"')
    eliot = read_eliot(response.content)
    assert [t.rack for t in eliot.turns] == [r for r, *_ in first]
    assert [(t.game_move.coord, t.game_move.word, t.game_move.points) for t in eliot.turns] == [
        (c, w, s) for _, c, w, s in first
    ]
    assert (
        'data-kind="eliot"'
        in head.get(reverse("console:documents", args=["open-test"])).content.decode()
    )
    # The API and the command give the same file.
    api = APIClient()
    api.force_authenticate(arbiter)
    by_api = api.get("/api/tournaments/open-test/documents/eliot", {"game": 1},
                     HTTP_ACCEPT="application/xml")  # fmt: skip
    assert by_api.status_code == 200 and by_api.content == response.content
    out = tmp_path / "p1.eliot.xml"
    call_command("tirage_export", "eliot", "--tournament", "open-test", "--game", "1",
                 "-o", str(out))  # fmt: skip
    assert out.read_bytes() == response.content
    # Back in: a second game whose racks and tops are the first one's.
    assert upload(head, response.content).status_code == 302
    again = Game.objects.get(tournament=tournament_setup["tournament"], number=2)
    assert played_racks_and_tops(again, arbiter, 10) == first


def test_a_cancelled_round_cannot_go_to_eliot(head, tournament_setup) -> None:
    from tournaments.services import round_cancel

    play = new_game(tournament_setup, seed=1)
    rnd = play.finish(play.open_round())
    round_cancel(round_id=rnd.pk, reason="Erreur de tirage", actor=tournament_setup["arbiter"])
    response = head.get(reverse("console:document", args=["open-test", "eliot"]), {"partie": "1"})
    assert response.status_code == 400
    assert 'data-code="eliot.cancelled"' in response.content.decode()


def test_the_players_moves_go_to_eliot(head, tournament_setup) -> None:
    """Seed 7's first rack, ESIUHAN: HAINES H4 is the top, 26 (H 4 on the DL H4 = 8, + 1+1+
    1+1+1 = 13, doubled by H8); HAINE H4 is 24 ((8+1+1+1+1) x 2); XYZ is no word."""
    anne, bruno, chloe = tournament_setup["players"]
    play = new_game(tournament_setup, seed=7)
    r1 = play.open_round()
    play.propose(r1, anne, "HAINES", "H4", 26)
    play.propose(r1, bruno, "HAINE", "H4", 24)
    play.propose(r1, chloe, "XYZ", "H8", 3)
    play.finish(r1)
    body = head.get(reverse("console:document", args=["open-test", "eliot"]), {"partie": "1"})
    eliot = read_eliot(body.content)
    assert [(p.id, p.name, p.table) for p in eliot.players] == [
        (anne.pk, "Anne", 1), (bruno.pk, "Bruno", 2), (chloe.pk, "Chloé", 3)
    ]  # fmt: skip
    moves = {pid: (m.type, m.word, m.coord, m.points) for pid, m in eliot.turns[0].players}
    assert moves == {
        anne.pk: ("valid", "HAINES", "H4", 26),
        bruno.pk: ("valid", "HAINE", "H4", 24),
        chloe.pk: ("invalid", "XYZ", "H8", 0),
    }
