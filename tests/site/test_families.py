"""Issue 20, families: the standard duplicate game's code ``standard`` (was ``classic``) in
stored rows, services and the API; the family registry (documents, wording, routes)."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from tournaments.models import Tournament
from tournaments.services import game_create, tournament_create

BEFORE = [("tournaments", "0006_issue12_score_required_review")]
AFTER = [("tournaments", "0007_families_formula_standard")]


def _migrate(target: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_migration_converts_stored_codes_and_goes_back() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    try:
        made = old.get_model("tournaments", "Tournament").objects.create(
            name="Ancien", slug="ancien", variant_code="classic"
        )
        old.get_model("tournaments", "Tournament").objects.create(
            name="Rapide", slug="rapide", variant_code="blitz"
        )
        game = old.get_model("tournaments", "Game").objects.create(
            tournament_id=made.pk, number=1, kind="seeded", seed=1, variant_code="classic"
        )
        new = _migrate(AFTER).loader.project_state(AFTER).apps
        tournaments = new.get_model("tournaments", "Tournament").objects
        codes = dict(tournaments.values_list("slug", "variant_code"))
        assert codes == {"ancien": "standard", "rapide": "blitz"}
        games = new.get_model("tournaments", "Game").objects
        assert games.get(pk=game.pk).variant_code == "standard"
        old = _migrate(BEFORE).loader.project_state(BEFORE).apps
        rows = old.get_model("tournaments", "Tournament").objects.order_by("slug")
        assert [t.variant_code for t in rows] == ["classic", "blitz"]
    finally:
        latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
        _migrate(latest)


@pytest.mark.django_db
def test_services_store_the_new_code_for_the_old_one(tournament_setup) -> None:
    head = tournament_setup["arbiter"]
    head.is_superuser = True
    head.save()
    lexicon = tournament_setup["lexicon"].pk
    made = tournament_create(name="Open", slug="open", variant_code="classic", actor=head,
                             lexicon_id=lexicon)  # fmt: skip
    assert made.variant_code == "standard"
    other = tournament_create(name="Autre", slug="autre", actor=head, lexicon_id=lexicon)
    assert other.variant_code == "standard"
    game = game_create(tournament_id=made.pk, variant_code="classic", actor=head)
    assert game.variant_code == "standard"


@pytest.mark.django_db
def test_the_api_takes_the_old_code_and_answers_the_new_one(tournament_setup) -> None:
    client = APIClient()
    client.force_authenticate(tournament_setup["arbiter"].__class__.objects.create_superuser(
        "op", password="x"))  # fmt: skip
    body = {"name": "Open API", "slug": "open-api", "variant_code": "classic",
            "lexicon": tournament_setup["lexicon"].pk}  # fmt: skip
    made = client.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    assert Tournament.objects.get(slug="open-api").variant_code == "standard"
    bad = client.post("/api/tournaments/", body | {"slug": "x", "variant_code": "nope"},
                      format="json")  # fmt: skip
    assert bad.status_code == 400


def test_the_duplicate_family_registers_the_documents_the_pages_serve() -> None:
    from tournaments import families
    from tournaments.reports.documents import DOCUMENTS, document

    duplicate = families.family("duplicate")
    assert [f.code for f in families.families()] == ["duplicate", "cards", "classic"]
    assert DOCUMENTS[: len(duplicate.documents)] == duplicate.documents
    assert document("record") in duplicate.documents
    assert all(callable(d.render) for d in DOCUMENTS)
    with pytest.raises(ValueError, match="registered twice"):
        families.register(duplicate)


def test_every_formula_has_its_label_in_both_languages() -> None:
    from django.utils import translation

    from engine.duplicate.variants import VARIANTS
    from tournaments import families

    assert set(families.formula_labels()) == set(VARIANTS)
    with translation.override("fr"):
        assert families.formula_label("standard") == "Partie normale"
    with translation.override("en"):
        assert families.formula_label("standard") == "Standard game"
        assert families.formula_label("semi-rapid") == "Semi-rapid"
    assert families.formula_label("nope") == "nope"


def test_the_family_routes_are_mounted() -> None:
    from django.urls import reverse

    assert reverse("tablet:page", args=["x" * 20]).startswith("/tablette/")
    assert reverse("projector:page", args=["demo"]) == "/projecteur/demo/"


@pytest.mark.django_db
def test_an_old_record_imports_as_a_standard_game(tournament_setup) -> None:
    # A record exported before the rename ("classic", "Duplicate classique") still imports.
    from engine.duplicate.game import Game as EngineGame
    from engine.duplicate.racks import SeededSource
    from engine.duplicate.record import game_to_record
    from tests.engine.duplicate.stubs import placing
    from tournaments.services.records import game_create_from_record

    played = EngineGame(SeededSource(7), placing(3))
    played.play_to_end()
    old = game_to_record(played, lexicon=None)
    old["variant"] |= {"code": "classic", "name": "Duplicate classique"}
    tournament, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    game = game_create_from_record(tournament_id=tournament.pk, content=json.dumps(old), actor=head)
    assert (game.kind, game.variant_code) == ("predrawn", "standard")
    assert game.predrawn.count("\n") == len(old["rounds"])


def test_services_name_states_by_their_choices_not_by_literals() -> None:
    # Issue 20: states and kinds are TextChoices (tournaments/models/choices.py); a service
    # comparing or writing a bare string would slip past the type checker.
    from pathlib import Path

    literal = re.compile(
        r"(?<!`)\b(state|kind|source|role|outcome_kind)(__in)?\s*(==|!=|=|not in|in)\s*[\[{(]?\s*\""
    )
    services = Path(__file__).resolve().parents[2] / "tournaments" / "services"
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(services.glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if literal.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, found
