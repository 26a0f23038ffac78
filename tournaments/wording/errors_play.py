"""Refusals around play: sealed games and releases, round control, the dispute checker,
players, registrations, decisions, imports and the players page. Part of
``wording.ERRORS`` (tournaments/wording/__init__.py)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PLAY_ERRORS: Mapping[str, tuple[Promise, ...]] = {
    # sealed games and their releases (docs/simultaneous.md): never a rack in a sentence
    "release.hand_draw": (
        _(
            "Les tirages de cette partie scellée sont dévoilés à l'heure prévue : "
            "ils ne se tirent pas à la main."
        ),
    ),
    "release.cancel": (
        _(
            "Le coup %(round)s d'une partie scellée ne s'annule pas : tous les centres "
            "jouent les mêmes tirages."
        ),
        _("Un coup d'une partie scellée ne s'annule pas."),
    ),
    "release.not_sealed": (_("Cette partie n'est pas scellée."),),
    "release.early": (
        _("Le coup %(round)s sera dévoilé le %(date)s à %(time)s, pas avant."),
        _("Ce coup n'est pas encore dévoilé."),
    ),
    "release.unscheduled": (
        _("Le coup %(round)s n'a pas encore d'heure de dévoilement."),
        _("Ce coup n'a pas encore d'heure de dévoilement."),
    ),
    "release.unknown": (
        _("La partie scellée n'a pas de coup %(round)s."),
        _("La partie scellée n'a pas ce coup."),
    ),
    "release.times": (
        _("Donnez une heure pour chacun des %(count)s coups de la partie."),
        _("Donnez une heure pour chaque coup de la partie."),
    ),
    "release.schedule": (_("Donnez l'heure du premier coup et l'intervalle entre deux coups."),),
    "release.span": (
        _(
            "Les coups d'une partie sont dévoilés en moins de deux jours, à partir d'une "
            "date de l'année qui vient."
        ),
    ),
    "release.order": (
        _("Le coup %(round)s doit être dévoilé après le coup précédent."),
        _("Chaque coup doit être dévoilé après le précédent."),
    ),
    "seal.state": (_("Seule une partie prétirée dont aucun coup n'est tiré peut être scellée."),),
    "seal.kind": (_("Seule une partie prétirée peut être scellée."),),
    "seal.key": (
        _(
            "La clé de scellement du serveur n'est pas celle qui a scellé cette partie "
            "(clé %(key)s) : réglez TIRAGE_SEAL_KEY."
        ),
        _("La clé de scellement du serveur n'est pas celle qui a scellé cette partie."),
    ),
    "seal.no_key": (_("Aucune clé de scellement n'est réglée sur ce serveur (TIRAGE_SEAL_KEY)."),),
    "seal.key_format": (
        _("La clé de scellement du serveur (TIRAGE_SEAL_KEY) n'est pas une clé valable."),
    ),
    "seal.corrupt": (
        _("Le tirage scellé du coup %(round)s ne se déchiffre pas : il a été altéré."),
        _("Un tirage scellé ne se déchiffre pas : il a été altéré."),
    ),
    "batch.count": (
        _("Un lot compte de 1 à %(max)s parties."),
        _("Ce nombre de parties n'est pas possible pour un lot."),
    ),
    "prepared.unknown": (_("Cette partie préparée n'existe pas ou n'est pas prête."),),
    "prepared.lexicon": (_("La partie préparée a été calculée avec un autre lexique."),),
    "round.unknown": (_("Ce coup n'existe pas."),),
    "round.not_drawn": (
        _("Le coup %(round)s ne peut pas être ouvert : il n'attend pas son ouverture."),
        _("Ce coup ne peut pas être ouvert."),
    ),
    "round.not_open": (
        _("Le coup %(round)s n'est pas ouvert."),
        _("Le coup n'est pas encore ouvert."),
    ),
    "round.not_closed": (
        _("Le coup %(round)s n'est pas ramassé : ramassez-le d'abord."),
        _("Le coup n'est pas encore ramassé."),
    ),
    "round.top_placed": (
        _("Le top du coup %(round)s est déjà posé."),
        _("Le top de ce coup est déjà posé."),
    ),
    "round.cancelled": (
        _("Le coup %(round)s a été annulé : son top ne se pose pas."),
        _("Ce coup a été annulé : son top ne se pose pas."),
    ),
    # -- round control: close with time left, reopen, pause, extend (issue 15, rounds) -----
    "round.time_left": (
        _(
            "Il reste %(minutes)s min %(rest)s s au coup %(round)s : confirmez pour le "
            "fermer quand même."
        ),
        _("Il reste du temps à ce coup : confirmez pour le fermer quand même."),
    ),
    "round.time_over": (
        _("Le temps du coup %(round)s est écoulé : il n'y a plus rien à suspendre."),
        _("Le temps de ce coup est écoulé : il n'y a plus rien à suspendre."),
    ),
    "round.no_time_left": (
        _(
            "Le coup %(round)s a été fermé après la fin de son temps : indiquez combien de "
            "secondes lui rendre."
        ),
        _("Ce coup a été fermé après la fin de son temps : indiquez combien de secondes."),
    ),
    "round.seconds": (
        _("Un temps va de %(low)s à %(high)s secondes."),
        _("Ce nombre de secondes n'est pas possible."),
    ),
    # -- the dispute checker (issue 15, rounds) --------------------------------------------
    "dispute.too_long": (
        _("Un mot a au plus %(word_max)s lettres et une référence %(reference_max)s caractères."),
        _("Le mot ou la référence est trop long."),
    ),
    "dispute.no_round": (_("Aucun coup n'est tiré : il n'y a pas encore de grille à vérifier."),),
    "cancel.reason": (_("L'annulation d'un coup doit être motivée."),),
    "cancel.not_last": (
        _("Le coup %(round)s n'est pas le dernier coup de la partie."),
        _("Seul le dernier coup de la partie peut être annulé."),
    ),
    "stop.reason": (_("L'arrêt d'une partie doit être motivé."),),
    "conflict.unknown": (_("Ce conflit n'existe pas."),),
    "conflict.version": (_("Gardez l'un des deux bulletins en conflit."),),
    "conflict.resolved": (_("Ce conflit a déjà été tranché."),),
    "recompute.rack_changed": (
        _(
            "Avec les tops corrigés, le coup %(round)s aurait un autre tirage que %(rack)s : "
            "annulez plutôt les coups à partir de là."
        ),
        _("Avec les tops corrigés, un coup aurait un autre tirage : annulez plutôt les coups."),
    ),
    "recompute.reason": (_("Un recalcul doit être motivé."),),
    # -- players, registrations, decisions, imports ---------------------------------------
    "player.name": (_("Un joueur a besoin d'un nom."),),
    "player.not_registered": (_("Ce joueur n'est pas inscrit dans ce tournoi."),),
    "registration.unknown": (_("Cette inscription n'existe pas."),),
    "registration.duplicate": (
        _("La licence %(licence)s est déjà inscrite ici."),
        _("Cette licence est déjà inscrite ici."),
    ),
    "registration.table": (_("Un numéro de table commence à 1."),),
    "registration.table_taken": (
        _("La table %(table)s est déjà prise."),
        _("Cette table est déjà prise."),
    ),
    "registration.arrival": (_("Les parties et les coups sont numérotés à partir de 1."),),
    "table.unknown": (
        _("Personne n'est inscrit à la table %(table)s."),
        _("Personne n'est inscrit à cette table."),
    ),
    # -- players page: edit, table change, withdrawal (services/registrations.py) -------
    "player.licence_taken": (
        _("La licence %(licence)s appartient déjà à un autre joueur."),
        _("Cette licence appartient déjà à un autre joueur."),
    ),
    "access.player_elsewhere": (
        _(
            "Ce joueur est aussi inscrit à un tournoi que vous n'arbitrez pas : sa fiche ne "
            "peut être corrigée que par un arbitre de chacun de ses tournois."
        ),
    ),
    "registration.withdrawn": (
        _(
            "Ce joueur s'est retiré du tournoi à partir de la partie %(game)s, coup "
            "%(round)s : plus aucun coup n'est enregistré pour lui."
        ),
        _("Ce joueur s'est retiré du tournoi : plus aucun coup n'est enregistré pour lui."),
    ),
    "registration.not_withdrawn": (_("Ce joueur ne s'est pas retiré du tournoi."),),
    "registration.played_after": (
        _(
            "Ce joueur a remis un coup à la partie %(game)s, coup %(round)s : le retrait "
            "commence après son dernier coup joué."
        ),
        _("Ce joueur a déjà joué ce coup : le retrait commence après son dernier coup joué."),
    ),
    "registration.withdraw_reason": (_("Un retrait doit être motivé."),),
    "registration.withdraw_reason_long": (
        _("Le motif du retrait dépasse %(limit)s caractères."),
        _("Le motif du retrait est trop long."),
    ),
    "registration.withdrawal": (_("Les parties et les coups sont numérotés à partir de 1."),),
    "registration.withdraw_before_arrival": (
        _(
            "Le joueur arrive à la partie %(game)s, coup %(round)s : le retrait ne peut pas "
            "commencer avant."
        ),
        _("Le retrait ne peut pas commencer avant l'arrivée du joueur."),
    ),
    "registration.arrival_after_withdrawal": (
        _(
            "Le joueur s'est retiré à la partie %(game)s, coup %(round)s : son arrivée ne "
            "peut pas venir après."
        ),
        _("L'arrivée du joueur ne peut pas venir après son retrait."),
    ),
    "round.unknown_number": (_("La partie n'a pas ce coup."),),
    "form.invalid": (_("Le formulaire contient des erreurs."),),
    "query.flag": (
        _("Le paramètre « %(field)s » vaut true ou false (ou 1 ou 0)."),
        _("Un paramètre oui/non vaut true ou false."),
    ),
    "login.throttled": (
        _(
            "Trop de tentatives de connexion : réessayez dans %(wait)s. Si le mot de passe "
            "est perdu, demandez au juge-arbitre un nouveau lien (page Arbitres)."
        ),
        _("Trop de tentatives de connexion : réessayez plus tard."),
    ),
    "decision.reason": (_("Une décision doit être motivée."),),
    "decision.author": (_("Une décision nomme l'arbitre qui la prend."),),
    "import.file": (_("Le fichier XLSX est illisible."),),
    "import.encoding": (_("Le fichier CSV doit être en UTF-8."),),
    "import.empty": (_("Le fichier est vide."),),
    "import.header": (_("La première ligne doit nommer la colonne « nom »."),),
    "import.too_large": (
        _("Le fichier pèse %(size_mb)s Mo ; un import est limité à %(limit_mb)s Mo."),
        _("Le fichier est trop gros pour un import."),
    ),
    "import.too_many_rows": (
        _("Le fichier a plus de %(limit)s joueurs : importez-le en plusieurs fois."),
        _("Le fichier a trop de lignes : importez-le en plusieurs fois."),
    ),
    "import.file_csv": (_("Le fichier CSV est illisible."),),
    "import.rows": (
        _(
            "%(count)d ligne(s) en erreur, aucun joueur importé ; les %(shown)d premières "
            "erreurs sont listées."
        ),
        _("%(count)d ligne(s) en erreur, aucun joueur importé."),
        _("Des lignes sont en erreur, aucun joueur importé."),
    ),
}
