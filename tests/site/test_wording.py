"""Users read refusals and outcomes in French (English on request): ``tournaments.wording``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from engine.board import Board, Rack
from engine.check import check_move
from engine.duplicate.proposals import REASONS
from engine.errors import EngineError
from tournaments import wording
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError

ROOT = Path(__file__).resolve().parents[2]

# Every literal code given to an error, and the codes the engine builds from a prefix.
_LITERAL = re.compile(r"\b(?:EngineError|ServiceError)\(\s*\"([a-z_]+\.[a-z_.]+)\"")
_RECORD = re.compile(r"\b_fail\(\s*\"([a-z_]+)\"")  # engine.duplicate.record: "record.<code>"
_REJECTED = re.compile(r"\brejected\(\s*\"([a-z_]+)\"")  # engine.duplicate.game: "rack.<code>"
_OUTCOME = re.compile(r"\b(?:make_outcome|Outcome)\(\s*\"[a-z]+\",[^\"\n]*\"([a-z_.]+)\"")


def _sources() -> list[Path]:
    return [p for d in ("engine", "tournaments") for p in sorted((ROOT / d).rglob("*.py"))]


def _error_codes() -> set[str]:
    codes: set[str] = set()
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        codes |= set(_LITERAL.findall(text))
        codes |= {f"record.{c}" for c in _RECORD.findall(text)}
        codes |= {f"rack.{c}" for c in _REJECTED.findall(text)}
    return codes


def _outcome_codes() -> set[str]:
    codes = set(REASONS)
    for path in _sources():
        codes |= set(_OUTCOME.findall(path.read_text(encoding="utf-8")))
    return codes


def _refusal(call: Any) -> EngineError:
    with pytest.raises(EngineError) as info:
        call()
    return info.value


# --- Coverage: a new code without wording fails here ---------------------------------------


def test_the_scan_finds_the_codes() -> None:
    codes = _error_codes()
    assert {"move.letters", "reference.row", "round.not_open", "record.json"} <= codes
    assert {"rack.minimum", "rack.repeat", "rack.no_move", "auth.credentials"} <= codes
    assert len(codes) > 100


def test_every_error_code_has_a_french_template() -> None:
    missing = sorted(_error_codes() - set(wording.ERRORS))
    assert not missing, f"add these codes to an ERRORS table of tournaments/wording/: {missing}"


def test_every_outcome_code_has_a_reason_and_a_label() -> None:
    codes = _outcome_codes()
    assert {"ok", "zero.invalid_word", "penalty.arbiter"} <= codes
    assert not sorted(codes - set(wording.OUTCOMES)), "add them to wording.OUTCOMES"
    assert not sorted(codes - set(wording.OUTCOME_LABELS)), "add them to OUTCOME_LABELS"


def test_the_last_template_of_each_code_needs_no_detail() -> None:
    for code, templates in wording.ERRORS.items():
        assert templates, code
        assert "%(" not in str(templates[-1]), code


def test_templates_are_french_and_translated_to_english() -> None:
    lost = []
    for code, templates in wording.ERRORS.items():
        for template in templates:
            with translation.override("fr"):
                french = str(template)
            with translation.override("en"):
                english = str(template)
            if french == english:
                lost.append((code, french))
            fields = set(re.findall(r"%\((\w+)\)", french))
            assert fields == set(re.findall(r"%\((\w+)\)", english)), (code, english)
    assert not lost, f"no English for {lost}"


# --- Real refusals of the engine -------------------------------------------------------------


def test_missing_letters_are_named_in_french_then_english() -> None:
    error = _refusal(lambda: check_move(Board(), Rack("ESIUHAN"), "H7", "ZOO"))
    assert error.code == "move.letters"
    with translation.override("fr"):
        assert wording.error_text(error) == (
            "Le tirage ESIUHAN ne contient pas les lettres voulues : il manque OOZ."
        )
    with translation.override("en"):
        assert wording.error_text(error) == (
            "The rack ESIUHAN does not hold the letters needed: OOZ missing."
        )


def test_a_bad_row_is_named() -> None:
    error = _refusal(lambda: check_move(Board(), Rack("ESIUHAN"), "P1", "HAINES"))
    assert error.code == "reference.row"
    with translation.override("fr"):
        text = wording.error_text(error)
    assert text == "« P1 » : les lignes vont de A à O, il n'y a pas de ligne P."
    with translation.override("en"):
        assert "there is no row P" in wording.error_text(error)


def test_placement_refusals_name_the_word_and_the_square() -> None:
    off = _refusal(lambda: check_move(Board(), Rack("ESIUHAN"), "O14", "HAINES"))
    bad = _refusal(lambda: check_move(Board(), Rack("ESIUHAN"), "H4", "HA1"))
    with translation.override("fr"):
        assert wording.error_text(off) == "HAINES en O14 dépasse le bord de la grille."
        assert wording.error_text(bad) == (
            "« HA1 » contient « 1 » : un mot ne contient que des lettres."
        )


def test_a_service_error_keeps_its_details_and_falls_back_without_them() -> None:
    with translation.override("fr"):
        full = ServiceError("round.not_open", "Round 3 is drawn.", round=3, state="drawn")
        assert wording.error_text(full) == "Le coup 3 n'est pas ouvert."
        bare = ServiceError("round.not_open", "No round has been drawn yet.")
        assert wording.error_text(bare) == "Le coup n'est pas encore ouvert."
        engine = ServiceError.from_engine(EngineError("move.letters", "x", missing="Z"))
        assert wording.error_text(engine) == "Il manque des lettres au tirage : Z."


def test_an_unknown_code_shows_the_english_message_and_logs_it(caplog) -> None:
    caplog.set_level("DEBUG", logger="tournaments.wording")
    text = wording.error_text(ServiceError("nobody.knows", "Something odd."))
    assert text == "Something odd."
    assert "nobody.knows" in caplog.text


def test_a_sentence_built_where_it_is_raised_is_kept() -> None:
    with translation.override("fr"):
        error = ServiceError("round.unknown_number", "La partie n'a pas de coup 9.")
        assert wording.error_text(error) == "La partie n'a pas de coup 9."


# --- Outcomes -----------------------------------------------------------------------------------


def test_refused_words_are_kept_apart_and_joined_by_each_language() -> None:
    from engine.duplicate.proposals import make_outcome

    outcome = make_outcome("zero", "zero.invalid_word", 0, 0, word="HAINSE",
                           invalid_words=["HAINSE", "SEH", "AH"])  # fmt: skip
    assert outcome.params["invalid_words"] == ("HAINSE", "SEH", "AH")
    assert "invalid" not in outcome.params and "verb" not in outcome.params
    assert outcome.reason == "HAINSE and SEH and AH are not in the dictionary: 0."
    with translation.override("fr"):
        assert wording.outcome_text(outcome.code, outcome.params) == (
            "HAINSE, SEH et AH : hors du dictionnaire, 0."
        )
    # As stored (JSON: a list), the words read back the same.
    stored = json.loads(json.dumps(dict(outcome.params)))
    with translation.override("fr"):
        assert wording.outcome_text(outcome.code, stored).startswith("HAINSE, SEH et AH")


def test_outcome_reasons_in_french_then_english() -> None:
    # An outcome stored before the words were kept apart: English prose, still read.
    params = {"word": "HAINSE", "reference": "H4", "invalid": "HAINSE and SEH", "score": 0}
    with translation.override("fr"):
        assert wording.outcome_text("zero.invalid_word", params) == (
            "HAINSE et SEH : hors du dictionnaire, 0."
        )
        assert wording.outcome_label("zero.invalid_word") == "Zéro : mot non valable"
        assert wording.outcome_label("no.such") == "no.such"
    with translation.override("en"):
        assert wording.outcome_text("zero.invalid_word", params) == (
            "HAINSE and SEH: not in the dictionary, 0."
        )
        assert wording.outcome_label("ok") == "Valid"


def test_an_outcome_names_its_placement_fault_in_french() -> None:
    params = {
        "word": "ZOO",
        "reference": "O14",
        "score": 0,
        "error": "move.off_board",
        "detail": "ZOO at O14 does not fit: it would run past the edge of the board.",
    }
    with translation.override("fr"):
        text = wording.outcome_text("zero.placement", params)
    assert text == (
        "ZOO ne peut pas être joué en O14 : 0. ZOO en O14 dépasse le bord de la grille."
    )


def test_a_shifted_reference_reads_as_typed_with_its_placement_fault() -> None:
    # Issue 15: "6 A3 hURONIEN" on the demo's round 5 (the engine's outcome in
    # tests/engine/duplicate/test_proposals.py): the arbiter reads his own reference and
    # word, the joker lowercase, and the real fault, the letter O falling on A6's N.
    from tests.engine.builders import Words
    from tests.engine.duplicate.test_proposals import DEMO_ROUND_5, judge

    lexicon = Words("HURONIEN", "NOUES")
    outcome = judge("hURONIEN", "A3", rack="OUR?NIE", board=DEMO_ROUND_5, lexicon=lexicon)
    with translation.override("fr"):
        text = wording.outcome_text(outcome.code, outcome.params)
    assert text == (
        "hURONIEN ne peut pas être joué en A3 : 0. "
        "La lettre 4 de hURONIEN, O, tombe sur la case A6 qui porte déjà N."
    )
    assert "3A" not in text and "HURONIEN" not in text and "absentes" not in text


def test_reports_read_the_one_catalogue() -> None:
    from tournaments.reports.base import OUTCOME_LABELS, outcome_label

    assert OUTCOME_LABELS is wording.OUTCOME_LABELS
    with translation.override("fr"):
        assert outcome_label("zero.late") == "Zéro : bulletin remis après « terminé »"


# --- Pages and API --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_tablet_preview_refusal_is_french(client: Client, tournament_setup) -> None:
    from tournaments.models import Registration
    from tournaments.services import game_create, round_draw, round_open
    from tournaments.services.registry import registration_token_issue
    from tournaments.tablet import views as tablet_views

    setup = tournament_setup
    reg = Registration.objects.get(tournament=setup["tournament"], table_number=1)
    token = registration_token_issue(registration_id=reg.pk, actor=SYSTEM)
    game = game_create(
        tournament_id=setup["tournament"].pk, seed=7, actor=SYSTEM
    )  # round 1: ESIUHAN
    round_open(round_id=round_draw(game_id=game.pk, actor=SYSTEM).pk, actor=SYSTEM)
    url = f"/tablette/{token}/apercu/"
    body = json.dumps({"reference": "H7", "word": "ZOO"})
    french = client.post(url, body, content_type="application/json")
    assert french.status_code == 422 and french.json()["code"] == "move.letters"
    assert french.json()["message"] == (
        "Le tirage ESIUHAN ne contient pas les lettres voulues : il manque OOZ."
    )
    # The tablet speaks the tournament's language, not the borrowed device's (issue 15).
    device = client.post(
        url, body, content_type="application/json", headers={"Accept-Language": "en"}
    )
    assert device.json()["message"].startswith("Le tirage ESIUHAN ne contient pas")
    setup["tournament"].__class__.objects.filter(pk=setup["tournament"].pk).update(language="en")
    tablet_views._LANGUAGES.clear()  # each process re-reads it every few seconds
    english = client.post(url, body, content_type="application/json")
    assert english.json()["message"].startswith("The rack ESIUHAN does not hold")
    setup["tournament"].__class__.objects.filter(pk=setup["tournament"].pk).update(language="fr")
    tablet_views._LANGUAGES.clear()
    row = client.post(url, json.dumps({"reference": "P1", "word": "ZOO"}),
                      content_type="application/json")  # fmt: skip
    assert "pas de ligne P" in row.json()["message"]


@pytest.mark.django_db
def test_api_error_detail_follows_accept_language(client: Client) -> None:
    url = "/api/auth/token/"
    data = json.dumps({"username": "personne", "password": "faux"})
    french = client.post(url, data, content_type="application/json")
    assert french.status_code == 401
    assert french.json() == {
        "code": "auth.credentials",
        "detail": "Identifiant ou mot de passe erroné.",
        "params": {},
        "fields": {},
    }
    english = client.post(
        url, data, content_type="application/json", headers={"Accept-Language": "en"}
    )
    assert english.json() == {"code": "auth.credentials", "detail": "Wrong username or password.",
                              "params": {}, "fields": {}}  # fmt: skip
