"""The example players file in fixtures/ imports as documented."""

from pathlib import Path

import pytest

from tournaments.models import Registration
from tournaments.services import players_import

EXAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "joueurs-exemple.csv"


@pytest.mark.django_db
def test_example_players_file_imports(tournament_setup) -> None:
    tournament = tournament_setup["tournament"]
    result = players_import(
        tournament_id=tournament.pk,
        filename=EXAMPLE.name,
        content=EXAMPLE.read_bytes(),
        actor=tournament_setup["arbiter"],
    )
    assert result.created == 3
    names = set(
        Registration.objects.filter(tournament=tournament).values_list("player__name", flat=True)
    )
    assert {"Martine Quéré", "Yannick Le Bihan", "Chloé Diallo"} <= names
