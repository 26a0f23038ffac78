"""``manage.py tirage_setup``: make a fresh database usable (demo data + arbiter login).

Idempotent, so ``make run`` calls it every time: it loads the demo fixture only when the demo
tournament is absent and creates the arbiter account only when it does not exist.

Development profile: the arbiter's password is the documented ``arbitre``.
Production profile: that password is refused; the password comes from the environment
variable ``TIRAGE_ARBITER_PASSWORD`` (or create the account with ``createsuperuser``), and the
demo is loaded only with ``--demo``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.models import Tournament

DEMO_FIXTURE = "demo"
DEMO_SLUG = "demonstration"
DEV_PASSWORD = "arbitre"
PASSWORD_ENV = "TIRAGE_ARBITER_PASSWORD"
USAGE_ERROR = 2


class Command(BaseCommand):
    help = "Charge la démonstration si absente et crée le compte arbitre (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--username",
            default="arbitre",
            help="Identifiant du compte arbitre (défaut : arbitre).",
        )
        parser.add_argument(
            "--demo",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="Charger le tournoi de démonstration (défaut : oui en développement, "
            "non en production).",
        )

    def handle(self, *args: Any, username: str, demo: bool | None, **options: Any) -> None:
        production = settings.TIRAGE_ENV == "production"
        username = self._checked_username(username)
        if demo is None:
            demo = not production
        if demo:
            self._load_demo()
        self._ensure_arbiter(username, production)

    def _checked_username(self, username: str) -> str:
        """Validate ``--username`` with the user model's own rules; bad input exits 2."""
        user_model = get_user_model()
        field = user_model._meta.get_field(user_model.USERNAME_FIELD)
        username = username.strip()
        if not username:
            raise CommandError("--username ne peut pas être vide.", returncode=USAGE_ERROR)
        try:
            field.run_validators(username)
        except ValidationError as exc:
            raise CommandError(
                f"--username {username!r} est invalide : {' '.join(exc.messages)}",
                returncode=USAGE_ERROR,
            ) from None
        return username

    def _load_demo(self) -> None:
        """Load ``fixtures/demo.json`` unless the demo tournament is already there."""
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None:
            self.stdout.write(f"Démonstration : « {existing.name} » déjà présent.")
            return
        call_command("loaddata", DEMO_FIXTURE, verbosity=0)
        loaded = Tournament.objects.get(slug=DEMO_SLUG)
        self.stdout.write(self.style.SUCCESS(f"Démonstration : « {loaded.name} » chargé."))

    def _ensure_arbiter(self, username: str, production: bool) -> None:
        """Create the superuser once and print how to log in."""
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is not None:
            self.stdout.write(f"Le compte arbitre « {username} » existe déjà.")
            if not production and user.check_password(DEV_PASSWORD):
                self._print_login(username, DEV_PASSWORD)
            else:
                self._print_login(username, None)
            return

        password = self._new_password(username, production)
        with transaction.atomic():
            user_model._default_manager.create_superuser(
                **{user_model.USERNAME_FIELD: username}, email="", password=password
            )
        self.stdout.write(self.style.SUCCESS(f"Compte arbitre « {username} » créé."))
        self._print_login(username, None if production else password)

    def _new_password(self, username: str, production: bool) -> str:
        """Development: the documented password. Production: a validated one from the env."""
        if not production:
            return DEV_PASSWORD
        password = os.environ.get(PASSWORD_ENV, "")
        if not password:
            raise CommandError(
                f"En production, le mot de passe de développement est refusé : définissez "
                f"{PASSWORD_ENV} ou créez le compte avec « manage.py createsuperuser »."
            )
        if password == DEV_PASSWORD:
            raise CommandError(
                f"{PASSWORD_ENV} vaut le mot de passe de développement, refusé en production."
            )
        user_model = get_user_model()
        try:
            validate_password(password, user_model(**{user_model.USERNAME_FIELD: username}))
        except ValidationError as exc:
            raise CommandError(f"{PASSWORD_ENV} refusé : {' '.join(exc.messages)}") from None
        return password

    def _print_login(self, username: str, password: str | None) -> None:
        shown = password if password is not None else "(non affiché)"
        self.stdout.write(
            f"Connexion arbitre sur /admin/ : identifiant : {username}, mot de passe : {shown}"
        )
