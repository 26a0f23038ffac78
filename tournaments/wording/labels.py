"""Outcome reasons and the short labels of outcomes, kinds, decisions, game ends and
review reasons. Re-exported by ``tournaments.wording``."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: Reasons of proposal outcomes (``engine.duplicate.proposals.REASONS`` and the arbiter's
#: decisions of ``tournaments.adapter``), filled from ``Outcome.params``.
OUTCOMES: Mapping[str, Promise] = {
    "ok": _("%(word)s en %(reference)s vaut %(score)s."),
    "moyenne": _("%(word)s répète le mot refusé %(invalid)s : la moyenne, %(score)s, est payée."),
    "zero.late": _("Proposition remise après la fin du coup : 0."),
    "zero.no_proposal": _("Pas de proposition : 0."),
    "zero.invalid_word": _("%(invalid)s : hors du dictionnaire, 0."),
    "zero.letters": _(
        "%(word)s en %(reference)s demande des lettres absentes du tirage %(rack)s : 0. %(detail)s"
    ),
    "zero.too_many_tiles": _("%(word)s pose trop de lettres : 0. %(detail)s"),
    "zero.placement": _("%(word)s ne peut pas être joué en %(reference)s : 0. %(detail)s"),
    "zero.no_reference": _("%(word)s n'a pas de référence : 0."),
    "zero.penalty_small": _("%(word)s fait %(claimed)s en %(reference)s, pas en %(written)s : 0."),
    "zero.late_arrival": _("Coup joué avant l'arrivée du joueur : 0."),
    "zero.arbiter": _("Zéro décidé par l'arbitre : %(reason)s"),
    "zero.above_top": _("%(word)s en %(reference)s vaudrait plus que le top : 0."),
    "zero.several_solutions": _("Plusieurs solutions sur le bulletin, dont une refusée : 0."),
    "zero.illegible": _("Bulletin illisible : 0."),
    "warning.location_modes": _(
        "%(word)s : référence et lettres de raccord en désaccord, %(reference)s retenu, "
        "avertissement."
    ),
    "warning.few_connecting": _(
        "%(word)s en %(reference)s : moins de 3 lettres de raccord, avertissement."
    ),
    "warning.hard_to_read": _("%(word)s en %(reference)s : bulletin peu lisible, avertissement."),
    "warning.inverted_reference": _(
        "%(word)s se place en %(reference)s, pas en %(written)s : avertissement."
    ),
    "warning.score_missing": _(
        "%(word)s en %(reference)s vaut %(score)s, aucun score écrit : avertissement."
    ),
    "warning.score_wrong": _(
        "%(word)s en %(reference)s vaut %(score)s, pas %(claimed)s : avertissement."
    ),
    "warning.joker_not_circled": _("%(word)s en %(reference)s : joker non entouré, avertissement."),
    "warning.joker_wrong_circle": _(
        "%(word)s en %(reference)s : mauvaise lettre entourée pour le joker, avertissement."
    ),
    "warning.disciplinary": _("Avertissement disciplinaire : %(reason)s"),
    "warning.arbiter": _("Avertissement décidé par l'arbitre : %(reason)s"),
    "penalty.wrong_reference": _(
        "%(word)s fait %(claimed)s en %(reference)s, pas en %(written)s : %(score)s."
    ),
    "penalty.missing_reference": _(
        "%(word)s n'a pas de référence, %(claimed)s en %(reference)s : %(score)s."
    ),
    "penalty.arbiter": _("Pénalité décidée par l'arbitre : %(reason)s"),
}

#: Short labels of the outcome codes for slips, sheets and exports.
OUTCOME_LABELS: Mapping[str, Promise] = {
    "ok": _("Valable"),
    "moyenne": _("Moyenne accordée"),
    "warning.inverted_reference": _("Avertissement : référence inversée"),
    "warning.joker_not_circled": _("Avertissement : joker non entouré"),
    "warning.joker_wrong_circle": _("Avertissement : mauvaise lettre entourée pour le joker"),
    "warning.score_missing": _("Avertissement : score absent"),
    "warning.score_wrong": _("Avertissement : score erroné"),
    "warning.disciplinary": _("Avertissement disciplinaire"),
    "warning.arbiter": _("Avertissement de l'arbitre"),
    "penalty.wrong_reference": _("Pénalité de 5 points : référence erronée"),
    "penalty.missing_reference": _("Pénalité de 5 points : référence absente"),
    "penalty.arbiter": _("Pénalité de l'arbitre"),
    "zero.invalid_word": _("Zéro : mot non valable"),
    "zero.placement": _("Zéro : erreur de grille"),
    "zero.letters": _("Zéro : erreur de lettre"),
    "zero.too_many_tiles": _("Zéro : trop de lettres posées"),
    "zero.no_reference": _("Zéro : référence absente"),
    "zero.no_proposal": _("Zéro : pas de bulletin"),
    "zero.late": _("Zéro : bulletin remis après « terminé »"),
    "zero.penalty_small": _("Zéro : pénalité sur une solution de 4 points ou moins"),
    "zero.late_arrival": _("Zéro : coup joué avant l'arrivée du joueur"),
    "zero.arbiter": _("Zéro décidé par l'arbitre"),
    "zero.above_top": _("Zéro : solution supérieure au top"),
    "zero.several_solutions": _("Zéro : plusieurs solutions, dont une refusée"),
    "zero.illegible": _("Zéro : bulletin illisible"),
    "warning.location_modes": _("Avertissement : référence et raccord en désaccord"),
    "warning.few_connecting": _("Avertissement : moins de 3 lettres de raccord"),
    "warning.hard_to_read": _("Avertissement : bulletin peu lisible"),
}

#: The kind of an outcome (``ProposalVersion.outcome_kind``) as one word.
KIND_LABELS: Mapping[str, Promise] = {
    "valid": _("valable"),
    "zero": _("zéro"),
    "warning": _("avertissement"),
    "penalty": _("pénalité"),
    "absent": _("absent"),
}

#: An arbiter's decision (``Decision.kind``) on a printed slip, capitalised.
DECISION_LABELS: Mapping[str, Promise] = {
    "warning": _("Avertissement"),
    "penalty": _("Pénalité de 5 points"),
    "zero": _("Zéro décidé par l'arbitre"),
    "solo": _("Solo"),
    "moyenne": _("Moyenne accordée"),
    "correction": _("Correction"),
    "review": _("Révision"),
}

#: How a game ended (rules §1.4, ``engine.duplicate.endgame``: E1–E5, and ``announced``).
GAME_ENDS: Mapping[str, Promise] = {
    "E1": _("Partie terminée : toutes les lettres ont été tirées et posées."),
    "E2": _("Partie terminée : aucun tirage encore possible n'a de coup jouable."),
    "E3": _(
        "Partie terminée : les lettres restantes ne font plus un tirage avec une voyelle "
        "et une consonne."
    ),
    "E4": _("Partie terminée : le coup annulé ne peut pas être remplacé par un autre tirage."),
    "E5": _("Partie arrêtée par l'arbitre."),
    "announced": _("Partie terminée : les coups annoncés ont été joués."),
}

#: Why a slip waits for the arbiter (``Outcome.review``), shown in the console's review list.
REVIEW_LABELS: Mapping[str, Promise] = {
    "fallacieux": _("Raccordement fallacieux possible : -5 par défaut, zéro si fallacieux"),
    "several_solutions": _("Plusieurs solutions sur le bulletin"),
    "connecting_places": _("Lettres de raccord valables à plusieurs places"),
    "illegible": _("Bulletin marqué illisible : zéro par défaut, sinon la lecture saisie"),
}
