"""``manage.py tirage_serve --summary FILE [runserver options]``: ``make run``'s server.

Django's development server (``runserver``, as the installed apps define it), which prints
the login and the addresses written by ``tirage_setup --summary FILE`` once it listens: they
come last, after the server's own banner, framed so that they stand out. After a code reload
the server prints them again.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from django.core.management import get_commands, load_command_class
from django.core.management.base import CommandParser

WIDTH = 100
# The runserver in use (whitenoise's, which leaves static files to its middleware).
RunserverCommand = type(load_command_class(get_commands()["runserver"], "runserver"))


class Command(RunserverCommand):
    help = "Serveur de développement ; affiche la connexion et les adresses une fois prêt."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--summary",
            type=Path,
            required=True,
            help="Le fichier écrit par « tirage_setup --summary ».",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.summary_path: Path = options["summary"]
        super().handle(*args, **options)

    def on_bind(self, server_port: int) -> None:
        super().on_bind(server_port)
        try:
            lines = self.summary_path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        rule = "=" * min(WIDTH, max([60, *(len(line) + 2 for line in lines)]))
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(rule))
        self.stdout.write(self.style.SUCCESS("  Tirage est prêt."))
        for line in lines:
            if line[:1] == " ":  # a link: never wrapped, in colour on a terminal
                self.stdout.write(self.style.HTTP_INFO(f"  {line}"))
            elif "://" in line:  # the login: never wrapped either
                self.stdout.write(f"  {line}")
            else:
                # French puts a space before ; : ! ? — never break a line there.
                line = re.sub(r" ([;:!?»])", "\u00a0\\1", line).replace("« ", "«\u00a0")
                for part in textwrap.wrap(line, WIDTH - 2, subsequent_indent="  "):
                    self.stdout.write(f"  {part}")
        self.stdout.write(self.style.SUCCESS(rule))
