"""``manage.py tirage_export KIND --tournament SLUG [--game N] [-o FILE]``: print or export
a tournament's documents (docs/reports.md). Bad arguments exit with status 2 and a sentence.

Kinds: game-sheet, results, arbiter-sheet, player-records, bulletins, corrections, xlsx, csv,
sigles, record, tablet-links. Without ``-o`` the file is written in the current directory
under its own name; ``-o -`` writes it to standard output.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Game, Tournament
from tournaments.reports import Rendered, data
from tournaments.reports.game_sheet import game_sheet_pdf
from tournaments.reports.record import record_json
from tournaments.reports.results import results_pdf
from tournaments.reports.sheets import arbiter_sheet_pdf, player_records_pdf
from tournaments.reports.slips import bulletins_pdf, corrections_pdf, tablet_links_pdf
from tournaments.reports.tables import ranking_csv, sigles_csv, workbook_xlsx

USAGE_ERROR = 2
#: Kinds about one game: ``--game`` is required.
GAME_KINDS = ("game-sheet", "arbiter-sheet", "player-records", "corrections", "record")
KINDS = (*GAME_KINDS, "results", "bulletins", "xlsx", "csv", "sigles", "tablet-links")


def _usage(message: str) -> CommandError:
    return CommandError(message, returncode=USAGE_ERROR)


class Command(BaseCommand):
    help = "Exporte un document du tournoi (feuille de partie, classement, XLSX, SIGLES…)."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        if not parser.called_from_command_line:  # call_command: argparse errors exit 2 too

            def error(message: str) -> None:
                raise _usage(f"Erreur : {message}")

            parser.error = error  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=KINDS, help="Le document à produire.")
        parser.add_argument("--tournament", required=True, help="Identifiant (slug) du tournoi.")
        parser.add_argument("--game", type=int, help="Numéro de la partie.")
        parser.add_argument("-o", "--output", help="Fichier de sortie ('-' : sortie standard).")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Adresse du site pour les liens des tablettes.",
        )

    def handle(self, *args: Any, kind: str, tournament: str, game: int | None,
               output: str | None, base_url: str, **options: Any) -> None:  # fmt: skip
        t = Tournament.objects.filter(slug=tournament).first()
        if t is None:
            raise _usage(f"Il n'y a pas de tournoi « {tournament} ».")
        g = None
        if game is not None:
            g = Game.objects.filter(tournament=t, number=game).first()
            if g is None:
                raise _usage(f"Le tournoi « {tournament} » n'a pas de partie {game}.")
        elif kind in GAME_KINDS:
            raise _usage(f"« {kind} » porte sur une partie : précisez --game N.")
        rendered = self._render(kind, t, g, base_url)
        self._write(rendered, output)

    def _render(self, kind: str, t: Tournament, g: Game | None, base_url: str) -> Rendered:
        if kind == "game-sheet":
            return game_sheet_pdf(data.game_data(g))
        if kind == "arbiter-sheet":
            return arbiter_sheet_pdf(data.game_data(g))
        if kind == "player-records":
            return player_records_pdf(data.game_data(g))
        if kind == "corrections":
            return corrections_pdf(data.game_data(g))
        if kind == "record":
            return record_json(data.game_record(g), tournament_slug=t.slug, game_number=g.number)
        if kind == "results":
            return results_pdf(data.results_data(t, g))
        if kind == "xlsx":
            games = [g] if g else list(t.games.order_by("number"))
            return workbook_xlsx(data.results_data(t, g), [data.game_data(x) for x in games])
        if kind == "csv":
            return ranking_csv(data.results_data(t, g))
        if kind == "sigles":
            if g is not None:
                raise _usage("L'export SIGLES porte sur tout le tournoi : retirez --game.")
            return sigles_csv(t.slug, data.tables_data(t))
        players = list(data.players_of(t).values())
        if kind == "bulletins":
            info = data.tournament_info(t)
            return bulletins_pdf(info, tables=[p.table for p in players],
                                 game_number=g.number if g else None)  # fmt: skip
        return tablet_links_pdf(data.tournament_info(t), players, base_url)

    def _write(self, rendered: Rendered, output: str | None) -> None:
        if output == "-":
            sys.stdout.buffer.write(rendered.content)
            sys.stdout.buffer.flush()
            return
        path = Path(output or rendered.filename)
        if path.is_dir():  # a folder: keep the document's own file name
            path = path / rendered.filename
        try:
            path.write_bytes(rendered.content)
        except OSError as exc:
            raise _usage(f"Impossible d'écrire {path} : {exc.strerror}.") from None
        self.stderr.write(f"{path} ({len(rendered.content)} octets, {rendered.content_type})")
