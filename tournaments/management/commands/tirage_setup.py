"""``manage.py tirage_setup``: make a fresh database usable (arbiter login + demo tournament).

Idempotent, so ``make run`` calls it every time: it creates the arbiter account only when it
does not exist and builds the demo tournament (``tournaments.services.demo_create``: 20
players, a game with rounds 1–4 played and round 5 drawn) only when it is absent, then prints
the login and the addresses to try (console, game screen, projector, two tablets, API docs),
last, after whatever building the demo printed. ``--summary FILE`` writes that block into FILE
instead, for ``manage.py tirage_serve --summary FILE`` to show once the server listens
(``make run``).

The demo needs the lexicon file ``settings.TIRAGE_LEXICON`` (``make lexicon`` builds it;
``make run`` does so first). A missing file is a usage error (exit 2) naming the command.

Development profile: the arbiter's password is the documented ``arbitre``.
Production profile: that password is refused; the password comes from the environment
variable ``TIRAGE_ARBITER_PASSWORD`` (or create the account with ``createsuperuser``), and the
demo is built only with ``--demo``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.access import SYSTEM
from tournaments.models import Tournament
from tournaments.models.choices import RoundState
from tournaments.services import arbiter_account_create, demo_create, demo_legacy_retire
from tournaments.services.demo import DEMO_SLUG

LEGACY_DEMO_SLUG = "demonstration"  # the empty tournament the old fixtures/demo.json made
DEV_PASSWORD = "arbitre"
PASSWORD_ENV = "TIRAGE_ARBITER_PASSWORD"
USAGE_ERROR = 2
TABLET_LINKS = 2


class Command(BaseCommand):
    help = "Crée le compte arbitre et le tournoi de démonstration s'ils sont absents (idempotent)."

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
            help="Créer le tournoi de démonstration (défaut : oui en développement, "
            "non en production).",
        )
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Adresse du site, pour les liens affichés (défaut : http://127.0.0.1:8000).",
        )
        parser.add_argument(
            "--summary",
            type=Path,
            default=None,
            help="Écrire la connexion et les adresses dans ce fichier au lieu de les afficher "
            "(make run les affiche quand le serveur est prêt).",
        )

    def handle(self, *args: Any, username: str, demo: bool | None, base_url: str,
               summary: Path | None = None, **options: Any) -> None:  # fmt: skip
        self._summary: list[str] = []
        production = settings.TIRAGE_ENV == "production"
        username = self._checked_username(username)
        base_url = base_url.rstrip("/")
        if demo is None:
            demo = not production
        if demo:
            self._check_lexicon()
        user = self._ensure_arbiter(username, production, base_url)
        if demo:
            self._retire_legacy_demo()
            tournament = self._ensure_demo(user)
            self._print_demo_links(tournament, base_url)
        text = "".join(f"{line}\n" for line in self._summary)
        if summary is None:
            self.stdout.write(text, ending="")
        else:
            summary.parent.mkdir(parents=True, exist_ok=True)
            summary.write_text(text, encoding="utf-8")

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

    def _check_lexicon(self) -> None:
        """The demo to build needs the lexicon file: say which command makes it (exit 2)."""
        if Tournament.objects.filter(slug=DEMO_SLUG).exists():
            return
        path = Path(settings.TIRAGE_LEXICON)
        if not path.is_file():
            raise CommandError(
                f"Le lexique {path} est absent : construisez-le avec « make lexicon » (ou "
                f"« .venv/bin/python -m engine lexicon build-default -o {path} »), ou "
                f"choisissez un autre fichier avec TIRAGE_LEXICON ; --no-demo s'en passe.",
                returncode=USAGE_ERROR,
            )

    def _ensure_demo(self, user: Any) -> Tournament:
        """Build the demo tournament through the services unless it is already there."""
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None:
            self.stdout.write(f"Démonstration : « {existing.name} » déjà présent.")
            return existing
        tournament = demo_create(lexicon_path_or_lexicon=settings.TIRAGE_LEXICON, actor=user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Démonstration : « {tournament.name} » créé (20 joueurs, une partie en cours ; "
                f"lexique : {tournament.lexicon.label})."
            )
        )
        return tournament

    def _retire_legacy_demo(self) -> None:
        """Remove the empty tournament the former ``fixtures/demo.json`` loaded (no players,
        no games, no arbiters), so the home page lists the demo once on an old database."""
        if not demo_legacy_retire(slug=LEGACY_DEMO_SLUG, name="Tournoi de démonstration",
                                  actor=SYSTEM):  # fmt: skip
            return
        self.stdout.write(f"Ancienne démonstration vide « {LEGACY_DEMO_SLUG} » retirée.")

    def _print_demo_links(self, tournament: Tournament, base_url: str) -> None:
        """The addresses a newcomer tries first."""
        links = [("Console de l'arbitre", "/arbitre/")]
        game = tournament.games.order_by("-number").first()
        if game is not None:
            links.append((f"Partie {game.number} (écran de jeu)", f"/arbitre/partie/{game.pk}/"))
        links += [
            ("Classement", f"/arbitre/tournoi/{tournament.slug}/classement/"),
            ("Projecteur (salle)", f"/projecteur/{tournament.slug}/"),
        ]
        registrations = (
            tournament.registrations.filter(access_token__isnull=False)
            .select_related("player")
            .order_by("table_number")[:TABLET_LINKS]
        )
        for reg in registrations:
            links.append(
                (
                    f"Tablette table {reg.table_number} ({reg.player.name})",
                    f"/tablette/{reg.access_token}/",
                )
            )
        links.append(("API (documentation)", "/api/docs/"))
        width = max(len(label) for label, _ in links)
        self._summary.append("À ouvrir dans le navigateur :")
        for label, path in links:
            self._summary.append(f"  {label.ljust(width)}  {base_url}{path}")
        last = (
            game.rounds.exclude(state=RoundState.CANCELLED).order_by("-number").first()
            if game
            else None
        )
        if last is not None and last.state == RoundState.DRAWN:
            self._summary.append(
                f"Le coup {last.number} est tiré, pas encore ouvert : sur l'écran de jeu, "
                "« Ouvrir » (touche o) lance le chrono ; les tablettes ou la saisie des "
                "bulletins (s) reçoivent les coups ; puis « Fermer » (f) et « Placer le top » (p)."
            )

    def _ensure_arbiter(self, username: str, production: bool, base_url: str) -> Any:
        """Create the superuser once, print how to log in and return it."""
        user_model = get_user_model()
        user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is not None:
            self.stdout.write(f"Le compte arbitre « {username} » existe déjà.")
            if not production and user.check_password(DEV_PASSWORD):
                self._print_login(username, DEV_PASSWORD, base_url)
            else:
                self._print_login(username, None, base_url)
            return user

        password = self._new_password(username, production)
        user = arbiter_account_create(username=username, password=password, actor=SYSTEM)
        self.stdout.write(self.style.SUCCESS(f"Compte arbitre « {username} » créé."))
        self._print_login(username, None if production else password, base_url)
        return user

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

    def _print_login(self, username: str, password: str | None, base_url: str) -> None:
        shown = password if password is not None else "(non affiché)"
        self._summary.append(
            f"Connexion arbitre sur {base_url}/arbitre/connexion/ : "
            f"identifiant : {username}, mot de passe : {shown}"
        )
