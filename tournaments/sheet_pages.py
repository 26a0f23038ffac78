"""What the console's and the tablet's score sheet pages share (docs/classic.md, "The score
sheet"): the sheet's context for ``includes/score_sheet.html`` and the handling of its
forms. The console acts as the arbiter, the tablet as the player of the table; the services
(``tournaments.services.score_sheets``) check who may do what, and a refusal comes back as
the page's sentence and status, with what was typed kept.

The forms (``action``): ``line`` (the next turn: « H8 CHAT », « 23 », « passe »,
« échange »), ``correct`` (a line number, the line and the reason), ``end`` (each player's
« lettres restantes » and who finished, « blocage » for nobody) and ``tie`` (the tie
setting, arbiters only). The « mon chevalet » field is a GET parameter: the unseen letters
are computed for the page and nothing is stored."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from engine.board import EMPTY, SIZE
from engine.errors import EngineError
from engine.moves import squares
from tournaments import selectors, wording
from tournaments.access import Actor
from tournaments.console.screen import grid
from tournaments.errors import ServiceError, http_status
from tournaments.models import ScoreSheet, SheetTieBreak
from tournaments.parsing import MAX_TABLE, ascii_int, no_nul
from tournaments.services import score_sheets as service

BLOCKED = "blocage"


def sheet_context(request: HttpRequest, sheet: ScoreSheet, **extra: Any) -> dict[str, Any]:
    """The sheet as the page shows it, with the unseen letters of the rack typed in
    ``?chevalet=`` (a rack that cannot be is said, not fatal)."""
    view = selectors.score_sheet_view(sheet)
    rack = (request.GET.get("chevalet") or "")[:9]
    rack_error = ""
    try:
        unseen = view.state.unseen(rack)
    except EngineError as error:  # a tile already on the board
        rack_error, unseen = wording.error_text(error), view.state.not_played
    counts: dict[str, int] = {}
    for tile in unseen:
        counts[tile] = counts.get(tile, 0) + 1
    board = view.state.board
    letters = {
        (row, col): board.at(row, col)
        for row in range(SIZE)
        for col in range(SIZE)
        if board.at(row, col) != EMPTY
    }
    moves = [line.move for line in view.state.lines if line.move is not None]
    last = set(squares(moves[-1])) if moves else set()
    ctx: dict[str, Any] = {
        "sheet": sheet,
        "view": view,
        "grid": grid(letters, last),
        "rack": rack,
        "rack_error": rack_error,
        "unseen": unseen,
        "unseen_groups": [(("joker" if t == "?" else t), n) for t, n in counts.items()],
        "tie_choices": SheetTieBreak.choices,
        "tie_label": SheetTieBreak(sheet.tie_break).label,
        "blocked": BLOCKED,
        "line": "",
        "correct_number": "",
        "correct_line": "",
        "reason": "",
        "left": [""] * sheet.players,
        "went_out": "",
    }
    if view.end is not None:
        ctx["left"] = [str(v) for v in view.end.left]
        ctx["went_out"] = BLOCKED if view.end.went_out is None else str(view.end.went_out)
    ctx.update(extra)
    ctx["end_fields"] = list(zip(view.names, ctx["left"], strict=True))
    return ctx


def _number(text: str) -> int:
    number = ascii_int(text, low=1, high=MAX_TABLE)  # "²" or 20 digits: no such line
    if number is None:
        raise ServiceError("score_sheet_line.unknown", "No such line.")
    return number


def sheet_post(
    request: HttpRequest, sheet: ScoreSheet, actor: Actor
) -> tuple[str, dict[str, Any], int]:
    """Apply the posted form. Returns the success message, or the context to show again
    (the sentence, what was typed) and the refusal's status."""
    post = request.POST
    action = post.get("action", "")
    kept: dict[str, Any] = {}
    try:
        no_nul(*post.values())
        if action == "line":
            kept["line"] = post.get("line", "")
            line = service.score_sheet_line_add(sheet_id=sheet.pk, text=kept["line"], actor=actor)
            return _("Tour %(n)s enregistré.") % {"n": line.number}, {}, 200
        if action == "correct":
            kept.update(
                correct_number=post.get("number", ""),
                correct_line=post.get("line", ""),
                reason=post.get("reason", ""),
            )
            line = service.score_sheet_line_correct(
                sheet_id=sheet.pk,
                number=_number(kept["correct_number"]),
                text=kept["correct_line"],
                reason=kept["reason"],
                actor=actor,
            )
            return _("Tour %(n)s corrigé.") % {"n": line.number}, {}, 200
        if action == "end":
            left = [post.get(f"left_{i}", "") for i in range(sheet.players)]
            went = post.get("went_out", "")
            kept.update(left=left, went_out=went, reason=post.get("reason", ""))
            went_out = None if went == BLOCKED else _went_out(went, sheet.players)
            service.score_sheet_end_set(
                sheet_id=sheet.pk,
                left=left,
                went_out=went_out,
                reason=kept["reason"],
                actor=actor,
            )
            return _("Partie terminée : les totaux sont à jour."), {}, 200
        if action == "tie":
            service.score_sheet_update(
                sheet_id=sheet.pk, tie_break=post.get("tie_break", ""), actor=actor
            )
            return _("Règle d'égalité enregistrée."), {}, 200
        raise ServiceError("form.invalid", _("Action inconnue."))
    except ServiceError as error:
        kept["error"] = wording.error_text(error)
        return "", kept, http_status(error.code)


def _went_out(text: str, players: int) -> int:
    seat = ascii_int(text, high=players - 1)
    if seat is not None:
        return seat
    raise ServiceError("score_sheet.went_out", "Say who finished, or that the game is blocked.")
