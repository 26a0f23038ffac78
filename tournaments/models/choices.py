"""The states and kinds the tables store, one ``TextChoices`` each.

Code compares and writes these members (``RoundState.OPEN``), never the bare strings, so a
typo is an ``AttributeError`` and a type checker sees which state a function expects. The
values are what the database holds (and what the check constraints list, from ``.values``);
the labels are what the admin and the forms show, French first."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class GameKind(models.TextChoices):
    """Where a game's racks come from."""

    SEEDED = "seeded", _("tirage aléatoire")
    MANUAL = "manual", _("sac réel")
    PREDRAWN = "predrawn", _("prétirée")


class GameState(models.TextChoices):
    PLAYING = "playing", _("en cours")
    FINISHED = "finished", _("terminée")


class RoundState(models.TextChoices):
    """drawn → open (the clock runs) → closed; any of them may be cancelled."""

    DRAWN = "drawn", _("tiré")
    OPEN = "open", _("en cours")
    CLOSED = "closed", _("ramassé")
    CANCELLED = "cancelled", _("annulé")


class ProposalSource(models.TextChoices):
    """Who typed a proposal: the player on a tablet, or an arbiter from a paper slip."""

    TABLET = "tablet", _("tablette")
    ARBITER = "arbiter", _("arbitre")


class OutcomeKind(models.TextChoices):
    """A judged proposal's kind (``engine.duplicate.proposals.Outcome.kind``)."""

    VALID = "valid", _("valide")
    ZERO = "zero", _("zéro")
    WARNING = "warning", _("avertissement")
    PENALTY = "penalty", _("pénalité")


class DecisionKind(models.TextChoices):
    WARNING = "warning", _("avertissement")
    PENALTY = "penalty", _("pénalité")
    ZERO = "zero", _("zéro")
    SOLO = "solo", _("solo")
    MOYENNE = "moyenne", _("moyenne")
    CORRECTION = "correction", _("correction")
    REVIEW = "review", _("révision")


class ArbiterRole(models.TextChoices):
    """The head arbiter directs the games; arbiters correct slips."""

    HEAD = "head", _("juge-arbitre")
    ARBITER = "arbiter", _("arbitre")


class TieBreak(models.TextChoices):
    SHARED = "shared", _("ex aequo")
    LAST_GAME_THEN_LAST_MOVES = "last_game_then_last_moves", _("dernière partie")


class BatchState(models.TextChoices):
    RUNNING = "running", _("en cours")
    DONE = "done", _("terminé")


class JobState(models.TextChoices):
    """A worker's job (a report, a club's word list): pending → running → done or failed."""

    PENDING = "pending", _("en attente")
    RUNNING = "running", _("en cours")
    DONE = "done", _("terminé")
    FAILED = "failed", _("échec")


# -- classic tournaments (engine.classic.pairings, tournaments.models.classic) -------------


class PairingSystem(models.TextChoices):
    """How a classic round is paired (``engine.classic.pairings.SYSTEMS``)."""

    ROUND_ROBIN = "round_robin", _("toutes rondes (tables de Berger)")
    SWISS = "swiss", _("système suisse")
    KING_OF_THE_HILL = "king_of_the_hill", _("roi de la colline")
    INITIAL_FONTES = "initial_fontes", _("Fontes initial, puis suisse")
    RANDOM = "random", _("tirage au sort")
    MANUAL = "manual", _("appariement manuel")


class ClassicForfeit(models.TextChoices):
    """Who was absent at a classic table (the other player wins by forfeit)."""

    NONE = "", _("aucun")
    FIRST = "first", _("forfait du premier joueur")
    SECOND = "second", _("forfait du second joueur")


class ClassicSource(models.TextChoices):
    """Who typed a classic result: an arbiter in the console, or the players' tablets."""

    ARBITER = "arbiter", _("arbitre")
    TABLET = "tablet", _("tablettes")


class SheetTieBreak(models.TextChoices):
    """How a score sheet ranks equal final scores (``engine.classic.settings.TIE_BREAKS``):
    ex aequo as in the official rules (page 004), or fewest tiles left (page 001)."""

    EX_AEQUO = "ex_aequo", _("ex aequo")
    FEWEST_TILES = "fewest_tiles", _("le moins de lettres restantes")


class SheetLineKind(models.TextChoices):
    """A score sheet line (``engine.classic.sheet.KINDS``)."""

    MOVE = "move", _("coup")
    SCORE = "score", _("score seul")
    PASS = "pass", _("passe")
    EXCHANGE = "exchange", _("échange")


#: The report jobs' name for :class:`JobState` (kept for the code written before the word
#: lists shared it).
ReportState = JobState


# -- The card game (issue 18, tournaments/services/cards.py) --------------------------------


class CardTableState(models.TextChoices):
    PLAYING = "playing", _("en cours")
    FINISHED = "finished", _("terminée")
    #: Closed before its end by an arbiter or by the player who opened it (no final scores).
    CLOSED = "closed", _("fermée")


class CardSeatKind(models.TextChoices):
    """Who holds a seat: a player on a tablet, or an engine opponent (engine.cards.players)."""

    HUMAN = "human", _("joueur")
    STRONG = "strong", _("adversaire moteur fort")
    WEAK = "weak", _("adversaire moteur faible")


class CardEventKind(models.TextChoices):
    """One stored event of a card table; replaying them from the seed gives the game."""

    PLAY = "play", _("pose")
    ACCEPT = "accept", _("pas de contestation")
    CHALLENGE = "challenge", _("contestation")
    PASS = "pass", _("passe")
    EXCHANGE = "exchange", _("échange")
