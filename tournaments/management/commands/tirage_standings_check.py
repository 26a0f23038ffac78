"""``manage.py tirage_standings_check [--tournament SLUG]``: recompute every game's figures
from the proposals with the engine and compare them with the stored figures the rankings
read (issue 16, docs/architecture.md "The figures").

Exit status 0 when they agree, 1 with every difference listed (one French sentence each),
2 on bad input (an unknown tournament). ``--repair`` then rewrites the stored figures of
the games that differ (after an upgrade from a version without stored figures, or an edit
made outside the services) and checks again.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.errors import ServiceError
from tournaments.models import Game
from tournaments.selectors.figures_check import game_differences
from tournaments.selectors.ranking_check import ranking_differences
from tournaments.services.standings import standings_update

USAGE_ERROR = 2
DIFFERENCES = 1


class Command(BaseCommand):
    help = "Compare les classements enregistrés avec leur recalcul à partir des bulletins."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if not parser.called_from_command_line:  # call_command: argparse errors exit 2 too

            def error(message: str) -> None:
                raise CommandError(f"Erreur : {message}", returncode=USAGE_ERROR)

            parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", help="Identifiant (slug) du tournoi (défaut : tous).")
        parser.add_argument(
            "--repair",
            action="store_true",
            help="Réécrit les chiffres enregistrés des parties qui diffèrent, puis vérifie.",
        )

    def handle(self, *args: Any, tournament: str | None, repair: bool, **options: Any) -> None:
        games = Game.objects.select_related("tournament").order_by("tournament_id", "number")
        if tournament is not None:
            try:
                t = selectors.tournament_by_slug(tournament)
            except ServiceError:
                raise CommandError(
                    f"Il n'y a pas de tournoi « {tournament} ».", returncode=USAGE_ERROR
                ) from None
            games = games.filter(tournament=t)
        differences: list[str] = []
        checked = 0
        for game in games:
            found = game_differences(game)
            if found and repair:
                with transaction.atomic():
                    standings_update(actor=SYSTEM, game_id=game.pk)
                found = game_differences(game)
            differences += found
            checked += 1
        for t in {game.tournament_id: game.tournament for game in games}.values():
            differences += ranking_differences(t)
        for line in differences:
            self.stdout.write(line)
        if differences:
            self.stderr.write(
                f"{len(differences)} différence(s) entre les classements enregistrés et "
                f"recalculés ({checked} partie(s) vérifiée(s))."
            )
            sys.exit(DIFFERENCES)
        self.stdout.write(
            f"Aucune différence : {checked} partie(s) vérifiée(s), classements enregistrés "
            "identiques au recalcul."
        )
