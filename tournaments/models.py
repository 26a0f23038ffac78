"""Domain models. Deliberately small for now: later issues add players, rounds and results."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TournamentManager(models.Manager["Tournament"]):
    """Looks tournaments up by slug so fixtures can use natural keys instead of fixed ids."""

    def get_by_natural_key(self, slug: str) -> Tournament:
        """Return the tournament whose slug is ``slug`` (fixture loading uses this)."""
        return self.get(slug=slug)


class Tournament(models.Model):
    """A duplicate Scrabble tournament, as listed on the home page."""

    name = models.CharField(_("nom"), max_length=200)
    slug = models.SlugField(_("identifiant"), max_length=100, unique=True)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("créé le"), default=timezone.now, editable=False)
    last_computed_at = models.DateTimeField(
        _("dernier calcul"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Horodatage posé par la dernière tâche de calcul exécutée."),
    )

    objects = TournamentManager()

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        """Identify the tournament by its slug, stable across databases."""
        return (self.slug,)
