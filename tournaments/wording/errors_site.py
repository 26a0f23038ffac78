"""Refusals of the card game and of the site's set-up: card tables, access and sign-in,
centres, tournaments, games, rounds, settings and arbiters, lost passwords. Part of
``wording.ERRORS`` (tournaments/wording/__init__.py)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SITE_ERRORS: Mapping[str, tuple[Promise, ...]] = {
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
    # -- simultaneous events (issue 16): seeded games, deleting a centre, its documents ----
    "game.simultaneous_seeded": (
        _(
            "Un tournoi simultané ne joue que des parties prétirées et scellées : chaque "
            "centre joue les mêmes tirages, inconnus de tous jusqu'à leur dévoilement. Une "
            "partie tirée d'une graine n'y a pas sa place."
        ),
    ),
    "game.simultaneous_manual": (
        _(
            "Un tournoi simultané ne joue que des parties prétirées et scellées : chaque "
            "centre joue les mêmes tirages, inconnus de tous jusqu'à leur dévoilement. Une "
            "partie saisie à la main depuis le sac d'une salle n'y a pas sa place."
        ),
    ),
    "centre.in_use": (
        _(
            "Le centre « %(name)s » a encore %(players)s joueur(s) et %(arbiters)s "
            "arbitre(s) : déplacez-les dans un autre centre avant de le supprimer."
        ),
        _("Ce centre a encore des joueurs ou des arbitres : déplacez-les avant de le supprimer."),
    ),
    "access.other_centre": (
        _("Ce centre n'est pas le vôtre : vous n'avez accès qu'aux documents de votre centre."),
    ),
}
