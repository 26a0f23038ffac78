"""The keyboard of the console pages: every key of a page, what it does, and, when it cannot
act now, why (issue 15: every key either acts or says why not).

A page's template marks the element a key clicks with ``data-key``; the keys listed here
that cannot act are rendered as ``data-key-why`` sentences, which ``console.js`` shows when
the key is pressed, and the whole list is the help overlay opened with ``?``. One list per
page, so the help, the refusals and the buttons cannot drift apart. Presentation only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.access import HEAD
from tournaments.models import GameState, Round, RoundState
from tournaments.services.rounds import time_left


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a page: its name as typed (``event.key``), as shown, what it does and,
    when it cannot act now, the sentence saying why (empty when it acts)."""

    key: str
    shown: str
    label: str
    why: str = ""


def _head_only(role: str | None) -> str:
    return "" if role == HEAD else _("Seul le juge-arbitre peut faire cela.")


def _draw_why(game: Any, rnd: Round | None, role: str | None) -> str:
    if game.state != GameState.PLAYING:
        return _("La partie est terminée : plus de tirage.")
    if rnd is not None and rnd.top_placed_at is None:
        if rnd.state == RoundState.OPEN:
            return _("Le coup est en cours : fermez-le (f) puis placez le top (p) avant le tirage.")
        if rnd.state == RoundState.CLOSED:
            return _("Placez d'abord le top (p) : le tirage suivant vient après.")
        return _("Le coup est tiré : ouvrez-le (o).")
    return _head_only(role)


def _open_why(rnd: Round | None, role: str | None) -> str:
    if rnd is None:
        return _("Aucun coup tiré : faites d'abord le tirage (t).")
    if rnd.state == RoundState.OPEN:
        return _("Le coup est déjà ouvert.")
    if rnd.state != RoundState.DRAWN:
        return _("Ce coup a déjà été joué : tirez le coup suivant (t).")
    return _head_only(role)


def _close_why(rnd: Round | None, role: str | None) -> str:
    if rnd is None or rnd.state == RoundState.DRAWN:
        return _("Le coup n'est pas ouvert : ouvrez-le d'abord (o).")
    if rnd.state != RoundState.OPEN:
        return _("Le coup est déjà fermé.")
    tournament = rnd.game.tournament  # issue 16: the round closes with its last centre
    if tournament.simultaneous and selectors.tournament_centres(tournament.pk):
        return _("Simultané : chaque centre ferme le coup (Centres) ; il se ferme avec le dernier.")
    return _head_only(role)


def _slips_why(rnd: Round | None) -> str:
    if rnd is None:
        return _("Aucun coup tiré : faites d'abord le tirage (t).")
    if rnd.state == RoundState.DRAWN:
        return _("Le coup n'est que tiré : ouvrez-le (o) avant de saisir les bulletins.")
    return ""


def _place_why(rnd: Round | None, role: str | None) -> str:
    if rnd is None:
        return _("Aucun coup tiré : faites d'abord le tirage (t).")
    if rnd.state == RoundState.DRAWN:
        return _("Le coup n'est pas encore ouvert : ouvrez-le (o).")
    if rnd.state == RoundState.OPEN:
        return _("Fermez d'abord le coup (f) : le top se place après le ramassage.")
    if rnd.top_placed_at is not None:
        return _("Le top est déjà placé : faites le tirage suivant (t).")
    if rnd.top is None:
        return _("Le top est encore en calcul : attendez quelques secondes.")
    return _head_only(role)


def _clock_why(rnd: Round | None, role: str | None, *, pause: bool) -> str:
    if rnd is None or rnd.state != RoundState.OPEN:
        return _("Le chrono ne tourne que pendant un coup ouvert.")
    if pause and rnd.paused_at is None and not time_left(rnd):
        return _("Le temps est écoulé : il n'y a plus rien à suspendre.")
    return _head_only(role)


def _reopen_why(rnd: Round | None, role: str | None) -> str:
    if rnd is None or rnd.state != RoundState.CLOSED:
        return _("Seul un coup fermé se rouvre.")
    if rnd.top_placed_at is not None:
        return _("Le top est placé : la fermeture ne peut plus être annulée.")
    return _head_only(role)


def game_keys(game: Any, rnd: Round | None, role: str | None) -> list[Key]:
    """The game screen's keys, in the order of the help overlay."""
    paused = rnd is not None and rnd.paused_at is not None
    return [
        Key("t", "t", _("tirage du coup suivant"), _draw_why(game, rnd, role)),
        Key("o", "o", _("ouvrir le coup (le chrono démarre)"), _open_why(rnd, role)),
        Key("f", "f", _("fermer le coup (ramassage), confirmé s'il reste du temps"),
            _close_why(rnd, role)),  # fmt: skip
        Key("z", "z", _("reprendre le chrono") if paused else _("suspendre le chrono (pause)"),
            _clock_why(rnd, role, pause=True)),  # fmt: skip
        Key("+", "+", _("prolonger le temps du coup"), _clock_why(rnd, role, pause=False)),
        Key("r", "r", _("rouvrir le coup fermé (tant que le top n'est pas placé)"),
            _reopen_why(rnd, role)),  # fmt: skip
        Key("s", "s", _("saisie des bulletins"), _slips_why(rnd)),
        Key("p", "p", _("placer le top"), _place_why(rnd, role)),
        Key("n", "n", _("placer le top et tirer le coup suivant"), _place_why(rnd, role)),
        Key("a", "a", _("arbitrage (décisions, annulation, arrêt)"),
            "" if rnd is not None else _("Aucun coup tiré : faites d'abord le tirage (t).")),
        Key("v", "v", _("vérifier un mot (contestation)")),
        Key("c", "c", _("classement")),
        Key("?", "?", _("cette aide")),
        Key("Escape", _("Échap"), _("fermer l'aide ou la confirmation, quitter un champ")),
    ]  # fmt: skip


def slip_keys(rnd: Round) -> list[Key]:
    """The slip page's keys. A letter typed in the empty slip field is a shortcut (a slip
    starts with its table number); in a field that holds text it is typed."""
    entry_why = ""
    if rnd.state == RoundState.DRAWN:
        entry_why = _("Le coup n'est que tiré : ouvrez-le (o) sur l'écran de jeu avant la saisie.")
    elif rnd.state == RoundState.CANCELLED:
        entry_why = _("Ce coup est annulé : il ne prend plus de bulletin.")
    return [
        Key("g", "g", _("écran de jeu")),
        Key("a", "a", _("arbitrage du coup")),
        Key("b", "b", _("aller au champ du bulletin"), entry_why),
        Key("k", "k", _("corriger un coup (formulaire de correction)")),
        Key("v", "v", _("vérifier un mot (contestation)")),
        Key("Enter", _("Entrée"), _("valider le bulletin tapé")),
        Key("?", "?", _("cette aide")),
        Key("Escape", _("Échap"), _("fermer l'aide, quitter un champ")),
    ]


def dispute_keys() -> list[Key]:
    """The dispute checker's keys (a letter typed in a field is typed)."""
    return [
        Key("g", "g", _("écran de jeu")),
        Key("m", "m", _("aller au champ du mot")),
        Key("Enter", _("Entrée"), _("vérifier le mot tapé")),
        Key("?", "?", _("cette aide")),
        Key("Escape", _("Échap"), _("fermer l'aide, quitter un champ")),
    ]
