"""``manage.py tirage_release_sweep``: release the sealed rounds whose time has come and
draw them when their previous top is placed (``services.release.release_sweep``).

Run it every minute from a systemd timer (deploy/systemd/tirage-release.timer) or cron:
the worker's ETA message releases each round on time, this makes sure a lost message
never blocks one. Prints one line per round drawn; exit 0."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.access import SYSTEM
from tournaments.services.release import release_sweep


class Command(BaseCommand):
    help = "Dévoile les coups scellés dont l'heure est venue."

    def handle(self, *args: Any, **options: Any) -> None:
        for rnd in release_sweep(actor=SYSTEM):
            self.stdout.write(f"partie {rnd.game_id} : coup {rnd.number} dévoilé et tiré")
