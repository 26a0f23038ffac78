"""The sentences users read for refusals and proposal outcomes, in the request's language.

The engine and the services speak English to developers: an ``EngineError`` or a
``ServiceError`` carries a stable ``code``, an English ``message`` (for logs, the CLI and
tests) and ``details``. The site never shows that message: it shows :func:`error_text`, a
French template chosen by the code and filled from the details, translated by Django's
i18n like every other string of the site (French msgids, ``tournaments/locale``).

A code maps to a tuple of templates, the most precise first; the first whose every
``%(name)s`` is present (and not empty) in the details is used, so the last one of each
tuple names no detail and always fits. Proposal outcomes (``Outcome.code`` and ``params``
from ``engine.duplicate.proposals``) work the same way with :func:`outcome_text`, and
:func:`outcome_label` is the short label of the printed sheets. See docs/i18n.md.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.duplicate.proposals import invalid_words_of

log = logging.getLogger(__name__)

_FIELD = re.compile(r"%\((\w+)\)")

#: Codes raised by the site with a sentence already translated where it is raised (the
#: console builds it with ``gettext`` from data it holds): ``error_text`` shows that
#: sentence when the details cannot fill the template.
TRANSLATED_AT_SOURCE = frozenset({"form.invalid", "round.unknown_number"})

_LETTER_RULES = _(
    "Référence illisible : la lettre de ligne puis la colonne pour un mot horizontal "
    "(H4), la colonne puis la lettre pour un mot vertical (4H)."
)

#: Refusals of the engine (``EngineError``) and the services (``ServiceError``).
ERRORS: Mapping[str, tuple[Promise, ...]] = {
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
    # -- the card game (engine.cards) ----------------------------------------------------
    "play.empty": (_("Posez au moins une carte Lettre."),),
    "play.letter": (_("Une carte posée porte une lettre de A à Z."),),
    "play.same_square": (_("Deux cartes sont posées au même endroit."),),
    "play.occupied": (_("Cet emplacement porte déjà une carte."),),
    "play.not_in_hand": (
        _("Votre main ne contient pas les cartes %(missing)s."),
        _("Votre main ne contient pas ces cartes."),
    ),
    "play.line": (_("Les cartes posées doivent être sur une même ligne ou une même colonne."),),
    "play.gap": (_("Les cartes posées doivent former un seul mot, sans trou."),),
    "play.centre": (_("Le premier mot doit passer par le centre de la table."),),
    "play.short": (_("Le premier mot doit avoir au moins deux lettres."),),
    "play.first_prime": (_("Pas de carte Prime sur le premier mot : il compte déjà double."),),
    "play.not_connected": (_("Le mot doit s'appuyer sur une carte déjà sur la table."),),
    "play.prime_card": (_("Cette carte n'est pas une carte Prime."),),
    "play.prime_square": (_("La carte Prime se pose sur une lettre d'un mot formé par le coup."),),
    "play.invalid_word": (_("Un des mots formés n'est pas valable."),),
    "turn.not_yours": (_("Ce n'est pas à vous de jouer."),),
    "turn.pending": (_("Le coup précédent peut encore être contesté."),),
    "exchange.count": (_("On échange de 1 à 7 cartes de sa main."),),
    "exchange.deck": (
        _("Échange impossible : il reste %(deck)s cartes dans la pioche, il en faut 7."),
        _("Échange impossible : il reste moins de 7 cartes dans la pioche."),
    ),
    "exchange.not_in_hand": (_("Votre main ne contient pas ces cartes."),),
    "challenge.nothing": (_("Aucun coup n'attend de contestation."),),
    "challenge.seat": (_("Seul un autre joueur de la table peut contester ce coup."),),
    "challenge.lexicon": (_("Cette partie n'a pas de dictionnaire pour trancher."),),
    "cards.players": (
        _("Une partie se joue de %(min)s à %(max)s joueurs."),
        _("Une partie se joue de 2 à 6 joueurs."),
    ),
    "game.levels": (_("Chaque joueur du moteur a un niveau : fort ou faible."),),
    "cli.levels": (_("Donnez un niveau par joueur, fort (strong) ou faible (weak)."),),
    # -- card tables on the site (tournaments/services/cards.py, issue 18) ----------------
    "cards.seats": (_("Une table de cartes a de 2 à 6 places."),),
    "cards.seat_kind": (_("Chaque place est un joueur sur tablette ou un adversaire moteur."),),
    "cards.seat_name": (_("Donnez le nom de chaque joueur sur tablette."),),
    "cards.no_human": (_("Une table demande au moins un joueur sur tablette."),),
    "cards.seed": (_("La graine est un nombre entier de 0 à 2^63 − 1."),),
    "card_table.unknown": (_("Cette table de cartes n'existe pas."),),
    "access.card_seat": (_("Cette tablette n'est pas une place de cette table."),),
    "cards.action": (_("Action inconnue : poser, laisser passer, contester, passer ou échanger."),),
    "cards.move": (_("Le coup n'a pas pu être lu : reposez vos cartes."),),
    "card_table.state": (_("Cette table de cartes n'est plus en jeu."),),
    "card_seat.unknown": (
        _(
            "Ce lien de table de cartes n'est pas valable. Demandez le lien ou le QR code de "
            "votre place à l'arbitre."
        ),
    ),
    "cards.not_over": (_("La feuille de partie se télécharge une fois la partie terminée."),),
    "access.card_table": (
        _("Seuls les arbitres et le joueur qui a ouvert la table peuvent la consulter."),
    ),
    "access.card_seed": (_("Seul un arbitre choisit la graine d'une table."),),
    # -- tables opened by players (tournaments/services/card_tables.py) -------------------
    "access.card_open": (_("Ce lien de tablette n'est pas celui d'un joueur de ce tournoi."),),
    "access.card_players": (
        _("Les arbitres n'ont pas permis aux joueurs d'ouvrir des tables de cartes."),
    ),
    "access.card_close": (_("Seul le joueur qui a ouvert la table peut la fermer."),),
    "cards.player_tables": (
        _("Vous avez déjà %(limit)s tables en cours : terminez-en ou fermez-en une."),
        _("Vous avez déjà trop de tables en cours."),
    ),
    "cards.tournament_tables": (
        _("Le tournoi a déjà %(limit)s tables ouvertes par des joueurs : demandez à l'arbitre."),
        _("Le tournoi a déjà trop de tables ouvertes par des joueurs."),
    ),
    "cards.player_rate": (
        _("Vous avez ouvert %(limit)s tables dans l'heure : réessayez plus tard."),
        _("Vous avez ouvert trop de tables dans l'heure : réessayez plus tard."),
    ),
    # -- access and sign-in (tournaments.access, tournaments.api) -------------------------
    "access.arbiter": (_("Seuls les arbitres de ce tournoi peuvent faire cela."),),
    "access.head_arbiter": (_("Seul le juge-arbitre peut faire cela."),),
    "access.batch": (_("Seul un opérateur prépare des parties hors tournoi."),),
    "access.create": (_("Vous ne pouvez pas créer de tournoi."),),
    "access.operator": (_("Seul l'opérateur du site peut faire cela."),),
    "access.player": (_("Ce jeton de joueur ne donne pas accès à cela."),),
    "access.rankings": (_("Le classement de ce tournoi n'est montré qu'à ses arbitres."),),
    "access.centre": (_("Ce joueur joue dans un autre centre que le vôtre."),),
    "access.centre_document": (
        _("Ce document couvre tous les centres : demandez-le au juge-arbitre du tournoi."),
    ),
    "access.centre_head": (_("Seul le juge-arbitre de ce centre (ou du tournoi) le ferme."),),
    # -- centres of a simultaneous event (tournaments/services/centres.py, issue 16) -------
    "centre.unknown": (_("Ce centre n'existe pas."),),
    "centre.name": (_("Donnez le nom du centre (200 caractères au plus)."),),
    "centre.too_long": (_("Le club ou l'adresse du centre est trop long."),),
    "centre.name_taken": (
        _("Un centre s'appelle déjà « %(name)s »."),
        _("Un centre porte déjà ce nom."),
    ),
    "centre.time_zone": (
        _("« %(zone)s » n'est pas un fuseau horaire (par exemple Europe/Paris)."),
        _("Ce fuseau horaire est inconnu (par exemple Europe/Paris)."),
    ),
    "centre.not_simultaneous": (
        _("Ce tournoi n'est pas simultané : cochez « Tournoi simultané » dans les réglages."),
    ),
    "centre.head_role": (
        _("Le juge-arbitre du tournoi dirige tout l'événement : il n'appartient à aucun centre."),
    ),
    "centre.time_left": (
        _(
            "Il reste %(minutes)s min %(rest)s s au coup %(round)s : confirmez pour fermer "
            "le centre quand même."
        ),
        _("Le coup a encore du temps : confirmez pour fermer le centre quand même."),
    ),
    "round.centres_open": (
        _("Le coup %(round)s attend encore la fermeture de ces centres : %(centres)s."),
        _("Des centres n'ont pas encore fermé ce coup."),
    ),
    "auth.credentials": (_("Identifiant ou mot de passe erroné."),),
    # -- tournaments, games, rounds -------------------------------------------------------
    "tournament.unknown": (_("Ce tournoi n'existe pas."),),
    "tournament.no_lexicon": (
        _("Le tournoi « %(tournament)s » n'a pas de lexique."),
        _("Ce tournoi n'a pas de lexique."),
    ),
    "tournament.name": (_("Un tournoi a besoin d'un nom et d'un identifiant."),),
    "tournament.tie_break": (
        _("« %(tie_break)s » n'est pas un départage."),
        _("Ce départage n'existe pas."),
    ),
    "tournament.seconds": (_("Le temps par coup doit être positif."),),
    "tournament.slug_taken": (
        _("L'identifiant « %(slug)s » est déjà pris."),
        _("Cet identifiant est déjà pris."),
    ),
    "arbiter.role": (
        _("« %(role)s » n'est pas un rôle : juge-arbitre ou arbitre."),
        _("Un rôle est juge-arbitre ou arbitre."),
    ),
    # -- settings page and arbiters (services.tournament_settings, services.arbiters) -----
    "tournament.lexicon_required": (
        _("Choisissez un lexique : sans lui, aucun tirage n'est possible."),
    ),
    "tournament.range": (
        _("%(setting)s : la valeur va de %(low)s à %(high)s."),
        _("Une valeur est hors des limites permises."),
    ),
    "tournament.dates": (_("La date de fin ne peut pas précéder la date de début."),),
    "tournament.description": (
        _("La description dépasse %(max)s caractères."),
        _("La description est trop longue."),
    ),
    "tournament.language": (
        _("« %(language)s » n'est pas une langue du site : français ou anglais."),
        _("Les langues du site sont le français et l'anglais."),
    ),
    "tournament.frozen_started": (
        _(
            "%(setting)s ne peut plus changer : le coup %(round)s de la partie %(game)s a "
            "déjà été tiré avec ce réglage."
        ),
        _("Ce réglage ne peut plus changer : une partie a commencé."),
    ),
    "tournament.frozen_closed": (
        _(
            "%(setting)s ne peut plus changer : le coup %(round)s de la partie %(game)s est "
            "ramassé et ses scores en dépendent."
        ),
        _("Ce réglage ne peut plus changer : un coup a déjà été ramassé."),
    ),
    "arbiter.login": (_("Tapez un nom d'utilisateur ou une adresse e-mail."),),
    "arbiter.email": (
        _("« %(login)s » n'est pas une adresse e-mail valable."),
        _("Cette adresse e-mail n'est pas valable."),
    ),
    "arbiter.username": (
        _(
            "« %(login)s » n'est pas un nom d'utilisateur : lettres, chiffres et . @ + - _ "
            "seulement."
        ),
        _("Un nom d'utilisateur ne contient que lettres, chiffres et . @ + - _."),
    ),
    "arbiter.ambiguous": (
        _("Plusieurs comptes utilisent l'adresse %(login)s : tapez le nom d'utilisateur."),
        _("Plusieurs comptes utilisent cette adresse : tapez le nom d'utilisateur."),
    ),
    "arbiter.inactive": (
        _("Le compte %(login)s est désactivé."),
        _("Ce compte est désactivé."),
    ),
    "arbiter.unknown": (_("Cette personne n'arbitre pas ce tournoi."),),
    "arbiter.remove_head": (
        _("Le juge-arbitre ne peut pas être retiré : passez d'abord la main à un autre arbitre."),
    ),
    # -- lead, session 4: an arbiter's lost password ------------------------------------
    "arbiter.reset_self": (_("Vous ne pouvez pas réinitialiser votre propre mot de passe ici."),),
    "access.reset_staff": (
        _("%(login)s administre le site : son mot de passe ne se change pas depuis un tournoi."),
        _("Ce compte administre le site : son mot de passe ne se change pas depuis un tournoi."),
    ),
    "access.reset_elsewhere": (
        _(
            "%(login)s arbitre aussi un tournoi dont vous n'êtes pas juge-arbitre : "
            "demandez à l'administrateur du site."
        ),
        _("Cet arbitre arbitre aussi un autre tournoi : demandez à l'administrateur du site."),
    ),
    "arbiter.already_head": (
        _("%(login)s est déjà juge-arbitre."),
        _("Cette personne est déjà juge-arbitre."),
    ),
    "lexicon.upload_size": (
        _("Une liste de mots est limitée à %(limit_mb)s Mo."),
        _("La liste de mots est trop grosse."),
    ),
    "lexicon.upload_empty": (_("La liste de mots envoyée est vide."),),
    "lexicon.upload_name": (_("Donnez un nom à la liste de mots."),),
    "wordlist.unreadable": (_("La liste de mots ne peut pas être lue (fichier abîmé ?)."),),
    "wordlist.encoding": (
        _(
            "La ligne %(line_no)s de la liste n'est pas en UTF-8 : enregistrez le fichier en "
            "UTF-8 et envoyez-le de nouveau."
        ),
        _("La liste n'est pas en UTF-8 : enregistrez-la en UTF-8 et envoyez-la de nouveau."),
    ),
    "wordlist.empty": (
        _("La liste ne contient aucun mot utilisable (des lettres seulement, 2 à 15)."),
    ),
    "game.unknown": (_("Cette partie n'existe pas."),),
    "game.kind": (
        _("« %(kind)s » n'est pas un type de partie : aléatoire, manuelle ou pré-tirée."),
        _("Un type de partie est aléatoire, manuelle ou pré-tirée."),
    ),
    "game.predrawn": (_("Une partie pré-tirée demande ses tirages, un coup par ligne."),),
    "game.over": (_("La partie est terminée."),),
    "game.rounds": (
        _("Une partie se joue en 1 à %(high)s coups."),
        _("Le nombre de coups annoncé n'est pas valable."),
    ),
    "game.rounds_drawn": (
        _("Le coup %(round)s est déjà tiré : annoncez au moins %(round)s coups."),
        _("Un coup plus loin est déjà tiré."),
    ),
    "end.round_pending": (
        _("Le coup %(round)s est en cours : la partie se termine après son top."),
        _("Un coup est en cours : la partie se termine après son top."),
    ),
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
    # -- classic games (engine.classic) --------------------------------------------------
    "classic.players": (
        _("Une partie classique se joue à 2, 3 ou 4 joueurs, pas %(players)s."),
        _("Une partie classique se joue à 2, 3 ou 4 joueurs."),
    ),
    "exchange.bag_low": (
        _(
            "Échange impossible : il faut au moins %(minimum)s jetons dans le sac, "
            "il en reste %(bag)s."
        ),
        _("Échange impossible : il reste trop peu de jetons dans le sac."),
    ),
    "exchange.tiles": (
        _("Le chevalet %(rack)s ne contient pas toutes les lettres de %(tiles)s."),
        _("Le chevalet ne contient pas ces lettres."),
    ),
    "exchange.empty": (_("Indiquez les lettres à échanger."),),
    "challenge.no_lexicon": (
        _("Cette partie n'a pas de dictionnaire pour trancher une contestation."),
    ),
    "challenge.own": (_("Un joueur ne peut pas contester son propre coup."),),
    "challenge.player": (_("La contestation doit venir d'un autre joueur de la partie."),),
    "end.negative": (_("La valeur des lettres restantes ne peut pas être négative."),),
    "end.not_out": (_("Le joueur qui a terminé n'a plus de lettres sur son chevalet."),),
    "end.player": (_("Ce joueur n'est pas dans la partie."),),
    "player.level": (_("Le niveau d'un joueur machine est « best » ou « weak »."),),
    "cli.level": (_("--level vaut best, weak, ou un niveau par joueur séparés par des virgules."),),
    "settings.challenge": (
        _("La règle de contestation est l'une de : %(choices)s."),
        _("Cette règle de contestation n'existe pas."),
    ),
    "settings.challenge_points": (
        _(
            "Les points de contestation sont un nombre entier supérieur à 0, "
            "avec la règle « points » seulement."
        ),
    ),
    "settings.tie_break": (
        _("Le départage est l'un de : %(choices)s."),
        _("Ce départage n'existe pas."),
    ),
    "settings.pass_rounds": (
        _("Le nombre de tours de passes qui bloquent la partie va de 1 à 10."),
    ),
    "settings.exchange_minimum": (
        _("Le minimum de jetons dans le sac pour échanger va de 1 à 100."),
    ),
    "settings.rack_size": (_("Un chevalet a de 1 à 9 jetons."),),
    "settings.bonuses": (_("Les primes associent un nombre de jetons posés à des points."),),
    "settings.json": (_("Réglages illisibles : un objet JSON aux réglages connus est attendu."),),
    # -- stored rankings, paged (issue 16: selectors.rankings) ----------------------------
    "query.number": (
        _("Le paramètre « %(field)s » est un nombre entier de %(low)s à %(high)s."),
        _("Ce paramètre est un nombre entier."),
    ),
    "query.table": (
        _("Ce tableau du classement n'existe pas : choisissez-le dans la liste de la page."),
    ),
    # -- classic tournaments (engine.classic.pairings, services.classic) -----------------
    "classic.not_classic": (_("Ce tournoi n'est pas un tournoi de formule classique."),),
    "classic.already": (_("Ce tournoi est déjà un tournoi de formule classique."),),
    "classic.has_games": (
        _(
            "Ce tournoi a déjà des parties en duplicate : "
            "il ne peut pas passer en formule classique."
        ),
    ),
    "classic.setting_range": (
        _("Ce réglage est un nombre entier de %(low)s à %(high)s."),
        _("Ce réglage est hors des limites permises."),
    ),
    "classic.setting_unknown": (_("Ce réglage n'existe pas pour un tournoi classique."),),
    "classic.rounds_done": (
        _("Les %(rounds)s rondes prévues sont déjà appariées."),
        _("Toutes les rondes prévues sont déjà appariées."),
    ),
    "classic.round_incomplete": (
        _("Il manque des résultats de la ronde %(round)s : saisissez-les avant d'apparier."),
        _("Il manque des résultats à la ronde précédente : saisissez-les avant d'apparier."),
    ),
    "classic.round_not_last": (_("Seule la dernière ronde peut être désappariée."),),
    "classic.round_has_results": (
        _("Cette ronde a déjà des résultats : elle ne peut plus être désappariée."),
    ),
    "classic.forfeit": (_("Le forfait est celui du premier ou du second joueur."),),
    "classic.forfeit_scores": (_("Un forfait se saisit sans score."),),
    "classic.scores_missing": (_("Saisissez les scores des deux joueurs."),),
    "classic.score_range": (
        _("Un score va de %(low)s à %(high)s."),
        _("Ce score est hors des limites permises."),
    ),
    "classic.bye_result": (_("Un joueur exempt n'a pas de résultat à saisir."),),
    "classic.reason_required": (
        _("Ce résultat est déjà saisi : indiquez le motif de la correction."),
    ),
    "classic.result_race": (_("Le résultat vient de changer : rechargez la page."),),
    "classic.report_done": (_("Le résultat de cette table est déjà enregistré."),),
    "access.not_at_table": (_("Vous ne jouez pas à cette table."),),
    "access.tablet_only": (_("Seule la tablette d'un joueur de la table envoie ce résultat."),),
    "classic.line": (
        _(
            "Ligne illisible : numéro de table puis les deux scores (« 3 412 389 »), "
            "ou « 3 forfait 1 » pour le forfait du premier joueur."
        ),
    ),
    # -- classic score sheets (engine.classic.sheet, services.score_sheets) ---------------
    "sheet.empty": (_("Tapez un coup (H8 CHAT), un score, « passe » ou « échange »."),),
    "sheet.line": (
        _(
            "« %(line)s » n'est pas une ligne de feuille : un coup s'écrit référence puis mot "
            "(H8 CHAT), sinon tapez un score, « passe » ou « échange »."
        ),
        _("Tapez un coup (H8 CHAT), un score, « passe » ou « échange »."),
    ),
    "sheet.score_range": (
        _("Un score de la feuille va de %(low)s à %(high)s."),
        _("Ce score est hors des limites permises."),
    ),
    "sheet.tiles_gone": (
        _("Coup %(number)s : il n'y a plus de %(letter)s hors de la grille."),
        _("Il n'y a plus de %(letter)s hors de la grille."),
        _("Ce coup demande une lettre qui est déjà toute posée sur la grille."),
    ),
    "sheet.jokers": (
        _(
            "Une minuscule est un joker, et il n'en reste pas autant : tapez le mot en "
            "capitales, seule la lettre du joker en minuscule (9H HARPe)."
        ),
    ),
    "sheet.rack_unseen": (
        _("Le chevalet %(rack)s contient une lettre déjà posée sur la grille."),
        _("Ce chevalet contient une lettre déjà posée sur la grille."),
    ),
    "sheet.left_unseen": (
        _("Les lettres restantes %(letters)s ne sont pas toutes encore hors de la grille."),
        _("Les lettres restantes tapées dépassent les lettres encore hors de la grille."),
    ),
    "sheet.left_count": (_("Tapez les lettres restantes de chaque joueur."),),
    "sheet.letters_needed": (
        _(
            "Avec le départage au moins de lettres restantes, tapez les lettres restantes "
            "elles-mêmes (QE), pas leur valeur."
        ),
    ),
    "sheet.kind": (_("Cette ligne de feuille n'est ni un coup, ni un score, ni une passe."),),
    "score_sheet.players": (_("Une feuille de score a de 2 à 4 joueurs."),),
    "score_sheet.name": (
        _("Un nom a %(high)s caractères au plus."),
        _("Ce nom est trop long."),
    ),
    "score_sheet.over": (
        _("La partie est terminée sur cette feuille : corrigez une ligne si besoin."),
    ),
    "score_sheet.race": (_("La feuille vient de changer : rechargez la page."),),
    "score_sheet.breaks_line": (
        _(
            "Avec cette correction, le coup %(number)s ne tient plus sur la grille : "
            "corrigez-le d'abord (ou tapez-le comme un score seul)."
        ),
        _("Avec cette correction, un coup suivant ne tient plus sur la grille."),
    ),
    "score_sheet.no_line": (_("Tapez d'abord les coups de la partie."),),
    "score_sheet.reason_required": (_("Indiquez le motif de la correction."),),
    "score_sheet.went_out": (
        _("Indiquez qui a terminé la partie, ou « blocage » si personne n'a terminé."),
    ),
    "score_sheet.unknown": (_("Cette feuille de score n'existe pas."),),
    "score_sheet_line.unknown": (_("Cette ligne n'existe pas sur la feuille."),),
    "classic_table.unknown": (_("Cette table n'existe pas dans cette ronde."),),
    "classic_round.unknown": (_("Cette ronde n'existe pas."),),
    "division.unknown": (_("Cette division n'existe pas."),),
    "division.name": (_("Une division a un nom de 60 caractères au plus."),),
    "division.name_taken": (
        _("La division %(name)s existe déjà."),
        _("Une division porte déjà ce nom."),
    ),
    "division.player_taken": (_("Un de ces joueurs est déjà dans une division."),),
    "division_entry.unknown": (_("Ce joueur n'est pas dans la division."),),
    "pairing.system": (_("Ce système d'appariement n'existe pas."),),
    "pairing.round": (_("Les rondes se numérotent à partir de 1."),),
    "pairing.players": (_("Il faut au moins deux joueurs en jeu pour apparier une ronde."),),
    "pairing.fontes_rounds": (_("Le Fontes initial apparie un nombre impair de rondes."),),
    "pairing.fontes_players": (
        _("Le Fontes initial sur ces rondes demande plus de joueurs dans la division."),
    ),
    "pairing.manual": (
        _("Appariement manuel : chaque joueur en jeu doit être à une table, et une seule."),
    ),
    "pairing.manual_bye": (
        _("Appariement manuel : un seul exempt, et seulement pour un nombre impair de joueurs."),
    ),
    "pairing.twice": (_("Un joueur est à deux tables de la même ronde."),),
    "pairing.unknown_player": (_("Un résultat nomme un joueur absent de la division."),),
    "result.forfeit": (_("Le joueur forfait doit être à cette table."),),
    "settings.bye_halves": (_("Un exempt compte une victoire, un nul ou rien."),),
    "settings.bye_spread": (_("L'écart d'un exempt est un nombre entier de 0 à 1000."),),
    "settings.forfeit_spread": (_("L'écart d'un forfait est un nombre entier de 0 à 1000."),),
    "settings.tie_breaks": (
        _("Les départages se choisissent parmi ceux proposés, une fois chacun."),
    ),
    "cli.pairing_file": (
        _("Le fichier d'appariement est illisible : joueurs, puis résultats par ronde."),
    ),
}

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


def review_label(reason: str) -> str:
    """The console's sentence for a review reason (the code itself if unknown: a bug)."""
    label = REVIEW_LABELS.get(reason)
    if label is None:
        log.error("no wording for review reason %r", reason)
        return reason
    return str(label)


class _Blank(dict):
    """Format mapping where an absent parameter reads as an empty string."""

    def __missing__(self, key: str) -> str:
        return ""


def _present(value: Any) -> bool:
    return value is not None and value != ""


def _shown(value: Any) -> Any:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return value


def fill(code: str, details: Mapping[str, Any]) -> str | None:
    """The first template of ``code`` whose fields ``details`` all give, translated and
    filled; ``None`` when the code has no wording."""
    templates = ERRORS.get(code)
    if not templates:
        return None
    given = {k: _shown(v) for k, v in (details or {}).items() if _present(v)}
    for template in templates:
        if set(_FIELD.findall(str(template))) <= given.keys():
            return str(template) % given if "%(" in str(template) else str(template)
    return None


def error_text(error: Any) -> str:
    """The user's sentence for an ``EngineError`` or ``ServiceError``, in the active
    language: the template of its code filled from its details. A code without wording
    falls back to the error's English message (logged at DEBUG so it gets a template)."""
    code = getattr(error, "code", "")
    details = getattr(error, "details", None) or {}
    message = str(getattr(error, "message", "") or error)
    if code in TRANSLATED_AT_SOURCE and message:
        return message
    text = fill(code, details)
    if text is None:
        if code:
            log.debug("no wording for error code %r; showing the English message", code)
        return message
    return text


def _invalid_words(params: Mapping[str, Any]) -> str:
    """The refused words joined the French way (or the language's): the engine keeps them
    as a tuple, ``params["invalid_words"]``; outcomes stored before it did hold English
    prose, ``params["invalid"]`` ("A and B"), read the same."""
    parts = list(invalid_words_of(params))
    if len(parts) < 2:
        return "".join(parts)
    return gettext("%(words)s et %(last)s") % {"words": ", ".join(parts[:-1]), "last": parts[-1]}


def outcome_text(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The reason of a proposal outcome, filled from its ``params`` (``Outcome.params`` or
    ``ProposalVersion.outcome_params``), in the active language. The placement fault the
    engine adds (``params["error"]``) is worded by :func:`error_text`'s templates."""
    params = dict(params or {})
    template = OUTCOMES.get(code)
    if template is None:
        log.debug("no wording for outcome code %r", code)
        return str(params.get("reason") or outcome_label(code))
    values = _Blank({k: _shown(v) for k, v in params.items() if v is not None})
    values["invalid"] = _invalid_words(params)
    error_code = params.get("error") or ""
    values["detail"] = (fill(error_code, params) or "") if error_code else ""
    return (str(template) % values).strip()


def outcome_label(code: str) -> str:
    """The short label of an outcome code for slips and sheets (the code when unknown)."""
    label = OUTCOME_LABELS.get(code)
    return str(label) if label is not None else code


def kind_label(kind: str) -> str:
    """One word for an outcome kind (``valid`` → ``valable``), the kind when unknown."""
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind


def decision_label(kind: str, *, disciplinary: bool = False) -> str:
    """The printed name of an arbiter's decision; a disciplinary warning says so."""
    if kind == "warning" and disciplinary:
        return str(OUTCOME_LABELS["warning.disciplinary"])
    label = DECISION_LABELS.get(kind)
    return str(label) if label is not None else kind


_ARBITER_REASON = re.compile(r"\((.*)\)\.$", re.S)


def end_text(end: Mapping[str, Any] | None) -> str:
    """The sentence of a finished game's ``Game.end`` (``code``, ``remaining``, and the
    engine's English ``message``, whose parenthesis holds the arbiter's reason for E5)."""
    if not end:
        return ""
    code = str(end.get("code") or "")
    template = GAME_ENDS.get(code)
    if template is None:
        log.debug("no wording for game end %r", code)
        return str(end.get("message") or "")
    text = str(template)
    reason = _ARBITER_REASON.search(str(end.get("message") or ""))
    if code == "E5" and reason:
        why = gettext("Motif : %(reason)s") % {"reason": reason.group(1)}
        text = f"{text} {why}"
    remaining = end.get("remaining")
    if remaining:
        left = gettext("Lettres restantes : %(letters)s") % {"letters": remaining}
        text = f"{text} {left}"
    return text


def rejection_text(draw: Mapping[str, Any]) -> str:
    """Why a drawn rack went back to the bag (``adapter.draw_json``: ``rejected`` is
    ``minimum``, ``repeat`` or ``no_move``), worded like the ``rack.*`` refusals."""
    code = f"rack.{draw.get('rejected') or ''}"
    return fill(code, {"rack": draw.get("rack")}) or str(draw.get("message") or "")
