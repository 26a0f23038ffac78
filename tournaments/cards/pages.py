"""What the card pages say, in the room's language: each turn told in a sentence, the end,
the sentences cards.js shows, and the record's downloads (JSON and PDF).

The views and the console share these, so a turn reads the same on a tablet, the shared
screen, the console and the printed sheet."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import CardTable
from tournaments.reports.base import slug


def _name(seats: list[dict[str, Any]], number: int | None) -> str:
    for seat in seats:
        if seat["number"] == number:
            return str(seat["name"])
    return "?"


def turn_text(turn: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    """One closed turn as a sentence: who, what, the words and the points."""
    who = _name(seats, turn.get("seat"))
    action = turn.get("action")
    if action == "pass":
        return _("%(name)s passe.") % {"name": who}
    if action == "exchange":
        return _("%(name)s échange des cartes.") % {"name": who}
    words = ", ".join(w["word"] for w in turn.get("words", []))
    challenge = turn.get("challenge")
    if challenge and not challenge.get("valid"):
        return _("%(name)s pose %(words)s : contesté par %(by)s, mot refusé, le coup compte 0.") % {
            "name": who,
            "words": words,
            "by": _name(seats, challenge.get("by")),
        }
    text = _("%(name)s pose %(words)s : %(score)s points.") % {
        "name": who,
        "words": words,
        "score": turn.get("score", 0),
    }
    if turn.get("bonus"):
        text += " " + _("Scrabble : 50 points de bonus.")
    removed = turn.get("removed") or []
    if removed:
        text += " " + _("Retirés de la table : %(words)s.") % {
            "words": ", ".join(w["word"] for w in removed)
        }
    if challenge:
        text += " " + _("Contesté à tort par %(by)s : −10 points.") % {
            "by": _name(seats, challenge.get("by"))
        }
    return text


def end_text(end: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    if end.get("reason") == "out":
        return _("Partie terminée : %(name)s a posé toutes ses cartes.") % {
            "name": _name(seats, end.get("out"))
        }
    return _("Partie terminée : tout le monde a passé.")


def described(view: dict[str, Any]) -> dict[str, Any]:
    """A view (``selectors.card_seat_view`` or ``card_public_view``) with its sentences."""
    seats = view["seats"]
    for turn in view["turns"]:
        turn["text"] = turn_text(turn, seats)
    if view["end"] is not None:
        view["end"]["text"] = end_text(view["end"], seats)
    return view


def strings() -> dict[str, str]:
    """The sentences cards.js shows, translated here (one catalogue for the site)."""
    return {
        "your_turn": _("À vous de jouer."),
        "their_turn": _("À %(name)s de jouer."),
        "engine_turn": _("%(name)s réfléchit…"),
        "pending_yours": _("Votre coup attend la réponse des autres joueurs."),
        "pending_other": _("%(name)s a posé %(words)s (%(score)s points) : contestez-vous ?"),
        "pending_wait": _("%(name)s a posé %(words)s : en attente des autres joueurs."),
        "deck": _("Pioche : %(count)s cartes"),
        "cards": _("%(count)s cartes"),
        "score": _("%(score)s points"),
        "you": _("vous"),
        "engine": _("moteur"),
        "joker_letter": _("Quelle lettre pour le joker ?"),
        "prime_hint": _("Touchez la lettre du mot qui reçoit la carte Prime."),
        "prime_2": _("Prime mot compte double"),
        "prime_3": _("Prime mot compte triple"),
        "joker": _("Joker"),
        "exchange_hint": _("Touchez les cartes à échanger, puis « Échanger »."),
        "online": _("Connecté"),
        "offline": _("Connexion perdue : nouvel essai…"),
        "sending": _("Envoi…"),
        "final": _("Scores finaux"),
        "closed": _("La table a été fermée : la partie s'arrête là."),
        "cell": _("Case %(row)s, %(col)s"),
        "card": _("Carte %(card)s"),
        "placed": _("%(letter)s posé ici"),
    }


def record_response(table: CardTable) -> HttpResponse:
    """The ``tirage-cards`` record as a JSON download."""
    record = selectors.card_record(table)
    body = json.dumps(record, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = f"{slug(table.tournament.slug)}-cartes-{table.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def pdf_response(table: CardTable) -> HttpResponse:
    """The printed game sheet of the table (``tournaments.reports.cards``)."""
    from tournaments.reports.cards import card_sheet_pdf

    rows = selectors.card_seats(table)
    seats = [{"number": s.number, "name": s.name, "kind": s.kind} for s in rows]
    info = selectors.tournament_info(table.tournament)
    record = selectors.card_record(table)
    turns = [dict(t, text=turn_text(t, seats)) for t in record["turns"]]
    rendered = card_sheet_pdf(info, str(table), seats, record, turns)
    response = HttpResponse(rendered.content, content_type=rendered.content_type)
    response["Content-Disposition"] = f'attachment; filename="{rendered.filename}"'
    return response
