"""A club's own word list being compiled by a worker (``tournaments.tasks_lexicons``).

The head arbiter uploads a word list from the settings page; the file is kept under
``VAR_DIR/lexicons/uploads`` and a ``LexiconBuild`` row follows its compilation (the
engine's ``python -m engine lexicon build``, through the same functions) until it names the
registered ``Lexicon``. The settings page polls its progress like a report job's."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import JobState
from tournaments.models.core import Lexicon, Tournament


def lexicons_dir() -> Path:
    """Where uploaded lists and the lexicons built from them are kept, created on demand."""
    path = Path(settings.VAR_DIR) / "lexicons" / "uploads"
    path.mkdir(parents=True, exist_ok=True)
    return path


class LexiconBuild(models.Model):
    """One uploaded word list: its state, progress (0–100), then the lexicon it became.

    ``error_code`` and ``error_params`` are a ``ServiceError``/``EngineError`` code and its
    details, worded by ``tournaments.wording``; ``error`` keeps the English message for the
    logs."""

    STATES = JobState.choices
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="lexicon_builds")
    name = models.CharField(_("nom"), max_length=200)
    words_file = models.CharField(max_length=200, help_text=_("relatif au dossier des envois"))
    state = models.CharField(max_length=10, choices=STATES, default=JobState.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    lexicon = models.ForeignKey(Lexicon, models.PROTECT, null=True, blank=True, related_name="+")
    rejected = models.PositiveIntegerField(default=0)
    error_code = models.CharField(max_length=60, blank=True)
    error = models.TextField(blank=True)
    error_params = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=JobState.values),
                name="lexicon_build_state",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="lexicon_build_progress"),
            models.CheckConstraint(
                condition=~Q(state=JobState.DONE) | Q(lexicon__isnull=False),
                name="lexicon_build_done_has_lexicon",
            ),
        ]

    def __str__(self) -> str:
        return f"lexicon build #{self.pk} ({self.state})"

    @property
    def words_path(self) -> Path:
        """The uploaded word list on disk."""
        return lexicons_dir() / self.words_file
