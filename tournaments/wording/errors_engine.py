"""Refusals of the engine (``EngineError``): references, words, placement, board and rack,
tops, proposals, lexicons, records, the command line, Eliot's saved games. Part of
``wording.ERRORS`` (tournaments/wording/__init__.py)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

_LETTER_RULES = _(
    "Référence illisible : la lettre de ligne puis la colonne pour un mot horizontal "
    "(H4), la colonne puis la lettre pour un mot vertical (4H)."
)


ENGINE_ERRORS: Mapping[str, tuple[Promise, ...]] = {
    # -- references, words, placement (engine.notation, engine.check) ---------------------
    "reference.syntax": (
        _(
            "« %(reference)s » n'est pas une référence : la lettre de ligne puis la colonne "
            "pour un mot horizontal (H4), la colonne puis la lettre pour un mot vertical (4H)."
        ),
        _LETTER_RULES,
    ),
    "reference.row": (
        _("« %(reference)s » : les lignes vont de A à O, il n'y a pas de ligne %(row)s."),
        _("Les lignes vont de A à O."),
    ),
    "reference.column": (
        _("« %(reference)s » : les colonnes vont de 1 à 15, il n'y a pas de colonne %(column)s."),
        _("Les colonnes vont de 1 à 15."),
    ),
    "word.empty": (_("Tapez un mot."),),
    "word.character": (
        _("« %(word)s » contient « %(character)s » : un mot ne contient que des lettres."),
        _("Un mot ne contient que des lettres."),
    ),
    "word.too_short": (_("Un mot a au moins deux lettres."),),
    "word.too_long": (
        _("« %(word)s » a %(length)s lettres ; la grille n'a que 15 cases de côté."),
        _("Ce mot ne tient pas sur la grille."),
    ),
    "move.jokers": (
        _("Le mot demande %(jokers)s jokers mais le tirage %(rack)s n'en a que %(held)s."),
        _("Le tirage n'a pas autant de jokers."),
    ),
    "move.letters": (
        _("Le tirage %(rack)s ne contient pas les lettres voulues : il manque %(missing)s."),
        _("Il manque des lettres au tirage : %(missing)s."),
        _("Le tirage ne contient pas ces lettres."),
    ),
    "move.off_board": (
        _("%(word)s en %(reference)s dépasse le bord de la grille."),
        _("Le mot dépasse le bord de la grille."),
    ),
    "move.clash": (
        _(
            "La lettre %(position)s de %(word)s, %(letter)s, tombe sur la case %(square)s "
            "qui porte déjà %(occupant)s."
        ),
        _("Le mot passe sur une case déjà occupée par une autre lettre."),
    ),
    "move.no_tile": (
        _("%(word)s en %(reference)s ne pose aucune lettre."),
        _("Ce placement ne pose aucune lettre."),
    ),
    "move.adjacent": (
        _(
            "%(word)s en %(reference)s touche la lettre de la case %(square)s dans son "
            "prolongement : le mot écrit doit l'inclure."
        ),
        _("Le mot touche une lettre dans son prolongement : incluez-la."),
    ),
    "move.too_many_tiles": (
        _("On pose au plus %(max_tiles)s lettres en un coup."),
        _("Trop de lettres posées pour cette formule."),
    ),
    "move.first_not_centre": (_("Le premier mot de la partie doit passer par l'étoile, H8."),),
    "move.not_connected": (
        _("%(word)s en %(reference)s ne touche aucune lettre de la grille."),
        _("Le mot ne touche aucune lettre de la grille."),
    ),
    # -- board and rack (engine.board, engine.duplicate.racks, engine.duplicate.game) -----
    "board.size": (
        _("Une grille a %(expected)s cases, pas %(count)s."),
        _("La grille n'a pas le bon nombre de cases."),
    ),
    "board.character": (
        _(
            "Une case de la grille porte « . », une lettre A–Z ou un joker a–z, "
            "pas « %(character)s »."
        ),
        _("La grille contient un caractère inconnu."),
    ),
    "board.rows": (
        _("Une grille a 15 lignes, celle-ci en a %(count)s."),
        _("Une grille a 15 lignes."),
    ),
    "board.columns": (
        _("La ligne %(line)s de la grille a %(count)s caractères au lieu de 15."),
        _("Une ligne de la grille n'a pas 15 caractères."),
    ),
    "rack.size": (
        _("Un tirage a au plus %(max)s lettres, pas %(count)s."),
        _("Ce tirage a trop de lettres."),
    ),
    "rack.character": (
        _(
            "« %(text)s » : un tirage s'écrit avec les lettres A–Z, « ? » pour un joker et un "
            "« + » après le reliquat, pas « %(character)s »."
        ),
        _(
            "« %(text)s » : un tirage s'écrit avec les lettres A–Z, « ? » pour un joker et "
            "un seul « + » après le reliquat."
        ),
        _("Un tirage contient les lettres A–Z et « ? » pour un joker, pas « %(character)s »."),
        _("Un tirage contient les lettres A–Z et « ? » pour un joker."),
    ),
    "rack.reliquat": (
        _("« %(text)s » : le reliquat est %(reliquat)s, pas %(typed)s."),
        _("« %(text)s » : le reliquat est %(reliquat)s."),
        _("« %(text)s » : il n'y a pas de reliquat."),
        _("Le reliquat tapé n'est pas le bon."),
    ),
    "rack.count": (
        _("« %(text)s » : il faut tirer %(needed)s lettre(s) nouvelle(s), pas %(count)s."),
        _("Le tirage n'a pas le bon nombre de lettres nouvelles."),
    ),
    "rack.not_in_bag": (
        _("Le sac ne contient pas %(missing)s : il contient %(bag)s."),
        _("Le sac ne contient pas %(missing)s : il est vide."),
        _("Ces lettres ne sont pas dans le sac."),
    ),
    "rack.minimum": (
        _("Le tirage %(rack)s n'a pas le minimum de voyelles et de consonnes : il est rejeté."),
        _("Le tirage n'a pas le minimum de voyelles et de consonnes : il est rejeté."),
    ),
    "rack.repeat": (
        _("Le tirage %(rack)s a déjà été écarté : il faut un autre tirage."),
        _("Ce tirage a déjà été écarté : il faut un autre tirage."),
    ),
    "rack.no_move": (
        _("Aucun coup possible avec %(rack)s : toutes les lettres retournent dans le sac."),
        _("Aucun coup possible avec ce tirage : toutes les lettres retournent dans le sac."),
    ),
    "draw.not_manual": (
        _("Cette partie tire ses lettres elle-même : elle ne prend pas de tirage tapé."),
    ),
    "draw.manual": (
        _("Dans cette partie, l'arbitre tire d'un vrai sac : tapez le tirage sorti du sac."),
    ),
    "draw.pending": (
        _("Le top du coup %(round)s n'est pas encore posé."),
        _("Le top du coup en cours n'est pas encore posé."),
    ),
    "place.no_rack": (_("Aucun tirage n'attend son top."),),
    "cancel.nothing": (_("Il n'y a aucun coup à annuler."),),
    "predrawn.empty": (
        _("L'entrée %(entry)s de la partie pré-tirée est vide."),
        _("Une entrée de la partie pré-tirée est vide."),
    ),
    "predrawn.exhausted": (
        _("La partie pré-tirée a %(count)s tirages ; le coup %(round)s en demande un de plus."),
        _("La partie pré-tirée n'a plus de tirage."),
    ),
    "predrawn.rejected": (
        _(
            "Coup %(round)s : le tirage pré-tiré %(rack)s n'est pas valable ici et la partie "
            "pré-tirée n'en donne pas d'autre."
        ),
        _("Le tirage pré-tiré n'est pas valable ici et la partie n'en donne pas d'autre."),
    ),
    "predrawn.accepted": (
        _("Coup %(round)s : la partie pré-tirée a rejeté %(rack)s, mais il est valable ici."),
        _("La partie pré-tirée a rejeté un tirage qui est valable ici."),
    ),
    "seed.range": (
        _("Une graine est un nombre entier de 0 à %(max)s."),
        _("Cette graine n'est pas un nombre entier valable."),
    ),
    "seed.state": (_("L'état du générateur est fait de quatre mots de 64 bits, pas tous nuls."),),
    # -- tops, totals, moyennes, variants -------------------------------------------------
    "top.not_tied": (
        _("%(coord)s %(word)s n'est pas un des coups qui font le top de %(score)s points."),
        _("Ce coup ne fait pas le top."),
    ),
    "top.not_allowed": (
        _("%(coord)s %(word)s ne peut pas être le top (règle %(rule)s)."),
        _("Ce coup ne peut pas être le top."),
    ),
    "totals.tie_break": (
        _("« %(tie_break)s » n'est pas un départage."),
        _("Ce départage n'existe pas."),
    ),
    "totals.warning_penalty_from": (_("Les avertissements se comptent à partir de 1."),),
    "moyenne.not_invalid_word": (
        _(
            "Une moyenne ne remplace qu'un zéro répété pour un mot non valable, jamais une "
            "erreur de placement ou de lettres."
        ),
    ),
    "moyenne.different_word": (_("Le coup suivant ne répète aucun mot refusé."),),
    "moyenne.other_fault": (
        _("Le coup suivant forme aussi un autre mot non valable : le zéro reste."),
    ),
    "moyenne.no_group": (_("Aucun score d'un autre joueur pour faire la moyenne."),),
    "moyenne.no_cap": (_("La valeur du coup du joueur est inconnue."),),
    "moyenne.earlier": (_("Le premier zéro doit être sur un coup précédent de cette partie."),),
    "moyenne.twice": (_("Ce coup a déjà une moyenne."),),
    "variant.unknown": (
        _("« %(variant)s » n'est pas une formule de jeu."),
        _("Cette formule de jeu n'existe pas."),
    ),
    # -- proposals ------------------------------------------------------------------------
    "proposal.source": (_("Une proposition vient de la tablette ou de l'arbitre."),),
    "proposal.claimed_score": (_("Un score annoncé n'est jamais négatif."),),
    "proposal.entered_by": (_("Une saisie d'arbitre nomme l'arbitre."),),
    "proposal.too_long": (
        _("Trop long : %(limit)s caractères au plus."),
        _("Trop long."),
    ),
    "proposal.key_reused": (_("Cette proposition a déjà été envoyée sous une autre forme."),),
    "proposal.unknown": (_("Cette proposition n'existe pas."),),
    "correction.reason": (_("Une correction doit être motivée."),),
    "review.choice": (_("Une révision garde la décision par défaut ou retient l'autre."),),
    "review.nothing": (_("Ce bulletin n'attend pas de révision."),),
    "correction.actor": (_("Une correction nomme l'arbitre qui la fait."),),
    # -- lexicons, records, command line --------------------------------------------------
    "lexicon.words": (_("La liste de mots du lexique n'est pas valable (lettres A à Z)."),),
    "lexicon.file": (
        _("Le fichier lexique %(path)s est absent ou inutilisable."),
        _("Le fichier lexique est absent ou inutilisable."),
    ),
    "lexicon.unknown": (_("Ce lexique n'existe pas."),),
    "lexicon.mismatch": (_("Le fichier du lexique contient une autre liste de mots que prévu."),),
    "record.field": (_("Le relevé de partie a un champ absent ou mal formé."),),
    "record.move": (_("Le relevé de partie contient un coup illisible."),),
    "record.rack": (_("Le relevé de partie contient un tirage illisible."),),
    "record.json": (_("Le relevé de partie n'est pas du JSON valable."),),
    "record.format": (_("Ce fichier n'est pas un relevé de partie Tirage."),),
    "record.version": (_("Cette version de relevé de partie n'est pas lue par ce programme."),),
    "record.source": (_("La source des tirages du relevé de partie n'est pas comprise."),),
    "record.variant": (_("La formule du relevé de partie est illisible."),),
    "record.scoring": (_("Les réglages de décompte du relevé de partie ne sont pas compris."),),
    "record.decision": (_("Le relevé de partie contient une décision d'arbitre illisible."),),
    "decision.kind": (_("Cette décision d'arbitre n'existe pas."),),
    "decision.disciplinary": (_("Seul un avertissement peut être disciplinaire."),),
    "decision.moyenne_score": (_("Une moyenne garde le score qu'elle accorde."),),
    "record.size": (
        _("Le relevé de partie est trop gros (au plus %(max)s octets)."),
        _("Le relevé de partie est trop gros."),
    ),
    "record.empty": (_("Le relevé de partie n'a aucun tirage."),),
    "record.lexicon": (_("Le relevé de partie a été joué avec une autre liste de mots."),),
    "document.unknown": (
        _("Il n'y a pas de document « %(kind)s »."),
        _("Ce document n'existe pas."),
    ),
    "document.game_required": (_("Ce document porte sur une partie : donnez son numéro."),),
    "document.whole_tournament": (_("Ce document porte sur tout le tournoi."),),
    "document.by_worker": (
        _(
            "Ce document couvre %(cells)s cases (joueurs × parties), plus que les %(limit)s "
            "produites pendant la requête : préparez-le avec le bouton « Préparer » de la "
            "page Documents de la console (%(page)s)."
        ),
        _(
            "Ce document couvre %(players)s joueurs, plus que les %(limit)s produits pendant "
            "la requête : préparez-le avec le bouton « Préparer » de la page Documents de la "
            "console (%(page)s)."
        ),
        _(
            "Ce document est trop gros pour être produit pendant la requête : préparez-le "
            "avec le bouton « Préparer » de la page Documents de la console."
        ),
    ),
    "cli.lexicon": (
        _("Le fichier lexique %(path)s n'existe pas."),
        _("Donnez un fichier lexique avec --lexicon LEXFILE."),
    ),
    "cli.record": (
        _("Le relevé de partie %(path)s est absent ou illisible."),
        _("Le relevé de partie est absent ou illisible."),
    ),
    "cli.file": (
        _("Le fichier %(path)s est absent ou illisible."),
        _("Un fichier donné est absent ou illisible."),
    ),
    "cli.round": (
        _("Le relevé n'a pas de coup joué numéro %(round)s."),
        _("Le relevé n'a pas ce coup."),
    ),
    "cli.slip": (_("Écrivez le bulletin ainsi : RÉF MOT [SCORE], par exemple G3 MENA 19."),),
    "cli.variant": (_("Cette formule n'a pas la taille de tirage de la partie relevée."),),
    # -- Eliot's saved games (engine.interop, services.eliot, reports.eliot) ---------------
    "eliot.xml": (_("Ce fichier n'est pas un XML lisible de partie Eliot."),),
    "eliot.doctype": (
        _("Le fichier déclare un DOCTYPE ou des entités, ce qu'Eliot n'écrit jamais : refusé."),
    ),
    "eliot.too_big": (
        _("Le fichier Eliot est trop gros (au plus %(max)s)."),
        _("Le fichier Eliot est trop gros."),
    ),
    "eliot.format": (_("Ce fichier n'est pas une partie sauvegardée par Eliot."),),
    "eliot.version": (
        _("Ce fichier Eliot est au format « %(version)s » ; Tirage lit le format 2."),
        _("Tirage lit les parties Eliot au format 2."),
    ),
    "eliot.value": (
        _("Fichier Eliot : %(what)s n'est pas un nombre entier acceptable."),
        _("Le fichier Eliot contient un nombre illisible."),
    ),
    "eliot.player": (
        _("Fichier Eliot : le joueur %(player)s n'existe pas ou est en double."),
        _("Le fichier Eliot nomme un joueur inconnu ou en double."),
    ),
    "eliot.move": (
        _("Fichier Eliot, coup %(round)s : %(move)s ne peut pas être joué."),
        _("Le fichier Eliot contient un coup illisible ou impossible."),
    ),
    "eliot.rack": (
        _("Fichier Eliot, coup %(round)s : le tirage %(rack)s ne peut pas être tiré ici."),
        _("Le fichier Eliot contient un tirage impossible."),
    ),
    "eliot.rejection": (
        _(
            "Fichier Eliot, coup %(round)s : Eliot a rejeté le tirage après le reliquat "
            "%(reliquat)s, mais aucun tirage que Tirage rejetterait ne peut être tiré."
        ),
        _("Le fichier Eliot contient un rejet que Tirage ne peut pas reproduire."),
    ),
    "eliot.turn": (
        _("Fichier Eliot, coup %(round)s : ni tirage ni coup posé sur la grille."),
        _("Le fichier Eliot contient un coup incomplet."),
    ),
    "eliot.mode": (
        _("Cette partie Eliot n'est pas une partie duplicate (mode « %(mode)s »)."),
        _("Cette partie Eliot n'est pas une partie duplicate."),
    ),
    "eliot.variant": (
        _("Tirage n'a pas de formule pour la variante Eliot « %(variant)s »."),
        _("Tirage n'a pas de formule pour cette variante Eliot."),
    ),
    "eliot.export_variant": (
        _("Eliot n'a pas de formule « %(variant)s »."),
        _("Eliot n'a pas cette formule."),
    ),
    "eliot.cancelled": (
        _("Le coup %(round)s a été annulé : une partie Eliot ne garde pas de coup annulé."),
        _("Une partie Eliot ne garde pas de coup annulé."),
    ),
    "eliot.lexicon": (
        _("Le tournoi n'a pas de lexique : les tops de la partie Eliot ne peuvent être vérifiés."),
    ),
    "eliot.replay": (
        _(
            "Coup %(round)s : le fichier Eliot donne %(recorded)s, Tirage trouve "
            "%(recomputed)s avec le lexique du tournoi ; partie non importée."
        ),
        _("La partie Eliot ne se rejoue pas à l'identique avec le lexique du tournoi."),
    ),
    "eliot.end": (
        _(
            "Coup %(round)s : avec le lexique du tournoi la partie s'arrête ici (%(end)s), "
            "le fichier Eliot continue ; partie non importée."
        ),
        _("La partie Eliot continue là où Tirage l'arrête ; partie non importée."),
    ),
    "eliot.empty": (_("La partie Eliot n'a aucun coup joué."),),
}
