"""Round control on the game screen (issue 15): the close that asks for confirmation while
time is left, undoing a close, the clock's pause, resume and extension, and the dispute
checker. Each action is a POST by the head arbiter that calls one service and comes back to
the game screen; a refusal shows the game screen with its sentence and status (never a 500).
The rules are the services' (``services.rounds``, ``services.round_clock``): the page's
confirmation is a convenience, the server refuses an unconfirmed close all the same."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services, wording
from tournaments.console.common import error_status, game_or_404, role_or_403, round_or_404
from tournaments.console.keys import dispute_keys
from tournaments.console.views import _game_error
from tournaments.errors import ServiceError
from tournaments.parsing import MAX_ROUND, ascii_int

MAX_SECONDS = 3600


def _seconds(request: HttpRequest, *, required: bool) -> int | None:
    """The ``seconds`` field: whole ASCII seconds from 1 to 3600; empty is None unless
    ``required``. Anything else is the service's own refusal (``round.seconds``)."""
    text = request.POST.get("seconds", "").strip()
    if not text and not required:
        return None
    value = ascii_int(text, low=1, high=MAX_SECONDS)
    if value is None:
        raise ServiceError("round.seconds", "A time is from 1 to 3600 seconds.", low=1,
                           high=MAX_SECONDS)  # fmt: skip
    return value


def _act(request: HttpRequest, round_id: int, call: Any) -> HttpResponse:
    """Run ``call(rnd)`` for the head arbiter; back to the game screen, or the screen with
    the refusal."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id, head=True)
    try:
        call(rnd)
    except ServiceError as error:
        return _game_error(request, game_or_404(rnd.game_id), error)
    return redirect("console:game", game_id=rnd.game_id)


@login_required
@require_POST
def round_close(request: HttpRequest, round_id: int) -> HttpResponse:
    """Collect the slips; while time is left only with ``confirm`` (« Fermer quand même »),
    else the game screen answers 409 with the time left and the confirmation shown."""

    def close(rnd: Any) -> None:
        confirm = request.POST.get("confirm", "").strip().lower() in {"1", "true", "on", "oui"}
        services.round_close(round_id=rnd.pk, actor=request.user, confirm=confirm)

    return _act(request, round_id, close)


@login_required
@require_POST
def round_pause(request: HttpRequest, round_id: int) -> HttpResponse:
    """Stop the clock (the seconds left are kept)."""
    return _act(request, round_id,
                lambda rnd: services.round_pause(round_id=rnd.pk, actor=request.user))  # fmt: skip


@login_required
@require_POST
def round_resume(request: HttpRequest, round_id: int) -> HttpResponse:
    """Start the clock again from the seconds kept at the pause."""
    return _act(request, round_id,
                lambda rnd: services.round_resume(round_id=rnd.pk, actor=request.user))  # fmt: skip


@login_required
@require_POST
def round_extend(request: HttpRequest, round_id: int) -> HttpResponse:
    """Give the round more seconds (the ``seconds`` field, 1 to 3600)."""

    def extend(rnd: Any) -> None:
        seconds = _seconds(request, required=True) or 0
        key = request.POST.get("client_key", "")  # one per rendered form: a re-post is a retry
        services.round_extend(round_id=rnd.pk, seconds=seconds, actor=request.user,
                              client_key=key)  # fmt: skip

    return _act(request, round_id, extend)


@login_required
@require_POST
def round_reopen(request: HttpRequest, round_id: int) -> HttpResponse:
    """Undo the close (top not placed): the time left at the close, or ``seconds``."""

    def reopen(rnd: Any) -> None:
        seconds = _seconds(request, required=False)
        services.round_reopen(round_id=rnd.pk, seconds=seconds, actor=request.user)

    return _act(request, round_id, reopen)


@login_required
@require_POST
def game_rounds(request: HttpRequest, game_id: int) -> HttpResponse:
    """Announce the game's number of rounds (« Partie en N coups »; empty: to the end of
    the bag). The game ends normally after round N's top (``services.game_rounds_set``)."""
    game = game_or_404(game_id)
    role_or_403(request, game.tournament_id, head=True)
    text = request.POST.get("rounds", "").strip()
    try:
        rounds = ascii_int(text, low=1, high=MAX_ROUND) if text else None
        if text and rounds is None:
            raise ServiceError("game.rounds", "A game has 1 to 1000 rounds.", high=MAX_ROUND)
        services.game_rounds_set(game_id=game.pk, rounds=rounds, actor=request.user)
    except ServiceError as error:
        return _game_error(request, game_or_404(game.pk), error)
    return redirect("console:game", game_id=game.pk)


# --- The dispute checker ------------------------------------------------------------------


def _refusal(answer: Any) -> str:
    """Why the move does not fit the board (the engine's refusal, worded), or ''."""
    move = getattr(answer, "move", None)
    if move is None or move.fits:
        return ""
    return wording.fill(move.code, move.params) or ""


@login_required
@require_GET
def dispute(request: HttpRequest, game_id: int) -> HttpResponse:
    """The arbiters' dispute checker: ``?mot=…&ref=…`` (a GET form, so the page can be
    reloaded and the result is never a change). Players never reach it: it needs an
    arbiter's role on the tournament (403 otherwise)."""
    game = game_or_404(game_id)
    role = role_or_403(request, game.tournament_id)
    word = request.GET.get("mot", "")[:100]
    reference = request.GET.get("ref", "")[:100]
    answer, error, status = None, "", 200
    if word.strip():
        try:
            answer = selectors.dispute_check(game, word=word, reference=reference)
        except ServiceError as refusal:
            error, status = wording.error_text(refusal), error_status(refusal)
    rnd = selectors.current_round(game, cancelled=False)
    context = {
        "tournament": game.tournament,
        "game": game,
        "round": rnd,
        "role": role,
        "word": word,
        "reference": reference,
        "answer": answer,
        "error": error,
        "refusal": _refusal(answer),
        "keys": dispute_keys(),
    }
    return render(request, "console/dispute.html", context, status=status)
