"""``manage.py tirage_export KIND --tournament SLUG [--game N] [-o FILE]``: print or export
a tournament's documents (docs/reports.md). Bad arguments exit with status 2 and a sentence.

Kinds: game-sheet, results, arbiter-sheet, player-records, bulletins, corrections, xlsx, csv,
sigles, record, tablet-links; and a centre's documents of a simultaneous event,
centre-ranking and centre-xlsx, with ``--centre NAME`` (docs/simultaneous.md). Without
``-o`` the file is written in the current directory under its own name; ``-o -`` writes it
to standard output.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import selectors, wording
from tournaments.errors import ServiceError
from tournaments.reports import Rendered
from tournaments.reports.centre_documents import CENTRE_KINDS, render_centre_document
from tournaments.reports.documents import DOCUMENTS, render_document
from tournaments.selectors.centres import centre_by_name

USAGE_ERROR = 2
KINDS = tuple(doc.kind for doc in DOCUMENTS) + tuple(CENTRE_KINDS)


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
        parser.add_argument("--centre", help="Nom du centre (documents d'un centre).")
        parser.add_argument("-o", "--output", help="Fichier de sortie ('-' : sortie standard).")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Adresse du site pour les liens des tablettes.",
        )

    def handle(self, *args: Any, kind: str, tournament: str, game: int | None,
               output: str | None, base_url: str, centre: str | None = None,
               **options: Any) -> None:  # fmt: skip
        try:
            t = selectors.tournament_by_slug(tournament)
        except ServiceError:
            raise _usage(f"Il n'y a pas de tournoi « {tournament} ».") from None
        g = None
        if game is not None:
            try:
                g = selectors.game_by_number(t, game)
            except ServiceError:
                raise _usage(f"Le tournoi « {tournament} » n'a pas de partie {game}.") from None
        if (kind in CENTRE_KINDS) != (centre is not None):
            raise _usage(f"--centre va avec les documents d'un centre : {', '.join(CENTRE_KINDS)}.")
        place = None
        if centre is not None:
            place = centre_by_name(t.pk, centre)
            if place is None:
                raise _usage(f"Le tournoi « {tournament} » n'a pas de centre « {centre} ».")
        try:
            if place is not None:
                rendered = render_centre_document(kind, t, place, g)
            else:
                rendered = render_document(kind, t, g, base_url=base_url)
        except ServiceError as error:  # e.g. a game document without --game
            raise _usage(str(wording.error_text(error))) from None
        self._write(rendered, output)

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
