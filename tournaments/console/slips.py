"""The fast slip-entry syntax: one line per slip, ``table reference word [score]``.

``12 H4 MOITAI 18`` is table 12, horizontal at H4, the word MOITAI, 18 points written.
The reference may come after the word (``12 MOITAI H4``), ``-`` when the bulletin has none
(``12 - MOITAI 18``: the 5-point penalty, §4.4); the score is optional. A lowercase
letter in the word is a circled joker. Only the shape of the line is checked here; the
engine judges the reference, the word and the score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.parsing import MAX_SCORE, MAX_TABLE, ascii_int

_REFERENCE = re.compile(r"^(?:[A-Oa-o][0-9]{1,2}|[0-9]{1,2}[A-Oa-o])$")
_WORD = re.compile(r"^[^\W\d_]+$")


class SlipSyntaxError(ValueError):
    """A line that is not ``table reference word [score]``; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class SlipLine:
    """One typed slip."""

    table: int
    reference: str
    word: str
    score: int | None


def _looks_like_reference(token: str) -> bool:
    return bool(_REFERENCE.match(token))


def parse_move(tokens: list[str], text: str) -> tuple[str, str, int | None]:
    """``reference word [score]`` (either order for the first two) from its tokens."""
    if len(tokens) not in (2, 3):
        raise SlipSyntaxError(
            _(
                "« %(line)s » : écrivez la référence, le mot puis le score facultatif, "
                "par exemple H4 MOITAI 18."
            )
            % {"line": text}
        )
    first, second = tokens[0], tokens[1]
    if first == "-":  # no reference written on the bulletin
        reference, word = "", second
    elif _looks_like_reference(first):
        reference, word = first, second
    elif _looks_like_reference(second):
        reference, word = second, first
    else:
        raise SlipSyntaxError(
            _(
                "« %(line)s » : aucune référence lisible ; écrivez la ligne puis la colonne "
                "pour un mot horizontal (H4), la colonne puis la ligne pour un vertical (4H)."
            )
            % {"line": text}
        )
    if not _WORD.match(word):
        raise SlipSyntaxError(
            _("« %(word)s » n'est pas un mot : lettres seulement (minuscule = joker).")
            % {"word": word}
        )
    score = None
    if len(tokens) == 3:
        score = ascii_int(tokens[2], high=MAX_SCORE)
        if score is None:
            raise SlipSyntaxError(
                _("« %(score)s » n'est pas un score : un nombre entier, ou rien.")
                % {"score": tokens[2]}
            )
    return reference.upper(), word, score


def parse_slip_line(text: str) -> SlipLine:
    """Read ``table reference word [score]``; refuse anything else with a sentence."""
    line = " ".join((text or "").split())
    if not line:
        raise SlipSyntaxError(_("Ligne vide : tapez « table référence mot [score] »."))
    tokens = line.split(" ")
    table = ascii_int(tokens[0], low=1, high=MAX_TABLE)
    if table is None:
        raise SlipSyntaxError(
            _(
                "« %(line)s » : la ligne commence par le numéro de table, "
                "par exemple 12 H4 MOITAI 18."
            )
            % {"line": line}
        )
    reference, word, score = parse_move(tokens[1:], line)
    return SlipLine(table, reference, word, score)
