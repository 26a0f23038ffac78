"""Refusals of classic games: the engine, stored rankings, classic tournaments and their
score sheets. Part of ``wording.ERRORS`` (tournaments/wording/__init__.py)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CLASSIC_ERRORS: Mapping[str, tuple[Promise, ...]] = {
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
