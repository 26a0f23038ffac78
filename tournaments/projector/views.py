"""The projector, under /projecteur/<tournament slug>/: read-only and public, it shows what
the room sees on the wall anyway. While a round is open: the board with the last top
highlighted, the rack and a big countdown; once it closes: the top, the best players'
moves of the round and the top of the game's ranking (``TIRAGE_PROJECTOR_LINES`` lines,
the count of all beside them). The page polls ``state`` every second
(``tournaments.tablet.live``), so it follows the game without a reload."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from engine.duplicate.totals import format_negatif
from tournaments import live_versions, selectors, wording
from tournaments.errors import ServiceError
from tournaments.language import speaking
from tournaments.models import Game, Round, Tournament
from tournaments.models.choices import RoundState
from tournaments.tablet import live

BEST_MOVES = 10


def _best_moves(rnd: Round) -> list[dict[str, Any]]:
    """The round's best-scoring proposals (after it closed), players named."""
    versions = selectors.best_moves(rnd, BEST_MOVES)
    return [
        {
            "name": v.player.name,
            "reference": v.reference,
            "word": v.word,
            "score": v.outcome_score,
            "top": v.outcome_score == rnd.top_score,
        }
        for v in versions
    ]


def lines_shown() -> int:
    """How many lines of the game's ranking the state carries (``TIRAGE_PROJECTOR_LINES``,
    200 by default): the wall pages through those; ``ranking_count`` says how many there
    are in all. At 5,000 players every line made a 343 KiB state per poll."""
    return max(1, int(getattr(settings, "TIRAGE_PROJECTOR_LINES", 200)))


def _ranking(tournament: Tournament, game: Game) -> tuple[list[dict[str, Any]], int]:
    """The top lines of the game's ranking and the number of lines it has, read from the
    stored rows (``ranking_page``: the same ranks as the console and the documents)."""
    table = selectors.RankingTable("game", str(game.number))
    page = selectors.ranking_page(tournament, table, limit=lines_shown())
    lines = [
        {
            "rank": line.rank,
            "name": line.player.name,
            "total": line.total,
            "negatif": format_negatif(line.negatif),
        }
        for line in page.lines
    ]
    return lines, page.count


def _state(
    tournament: Tournament, game: Game | None, rnd: Round | None, *, ranking: bool = True
) -> dict[str, Any]:
    """The room's state; ``ranking`` false: without the event's ranking (a centre's
    projector shows its own lines)."""
    data: dict[str, Any] = {
        "tournament": tournament.name,
        "game": {"number": game.number, "state": game.state} if game else None,
        "round": live.round_public(rnd),
        "last_top": live.previous_top(rnd),
        "best_moves": [],
        "ranking": [],
        "ranking_count": 0,
    }
    if game is not None:
        if rnd is not None and rnd.state == RoundState.CLOSED and rnd.top_score is not None:
            data["best_moves"] = _best_moves(rnd)
        if ranking:
            data["ranking"], data["ranking_count"] = _ranking(tournament, game)
        else:
            data["ranking"] = []
    return data


def _tournament(slug: str) -> Tournament:
    """The tournament the address names, or the 404 page."""
    try:
        return selectors.tournament_by_slug(slug)
    except ServiceError as error:
        raise Http404(wording.error_text(error)) from error


def _page_seconds(request: HttpRequest) -> int:
    """Seconds per ranking page (``?page=N``, 1–60; 8 by default)."""
    try:
        return min(60, max(1, int(request.GET.get("page", 8))))
    except ValueError:
        return 8


def _asked_language(request: HttpRequest) -> str:
    """The language ``?langue=`` asks for, if the site has it ("" otherwise)."""
    wanted = request.GET.get("langue", "")
    return wanted if wanted in {code for code, _name in settings.LANGUAGES} else ""


def room_language(view: Any) -> Any:
    """The projector speaks the tournament's language (``Tournament.language``, French by
    default), never the browser's: the room's PC may be set to anything. ``?langue=en``
    chooses another one."""

    @wraps(view)
    def spoken(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wanted = _asked_language(request) or selectors.language_by_slug(kwargs.get("slug", ""))
        with speaking(wanted, request):
            return view(request, *args, **kwargs)

    return spoken


def config(request: HttpRequest, state_url: str) -> dict[str, Any]:
    """What projector.js needs: the state's address, the board and the sentences."""
    return {
        "state_url": state_url,
        "premiums": live.premiums(),
        "i18n": {
            "waiting": _("En attente du coup…"),
            "game_round": _("Partie %(game)s · coup %(round)s"),
            RoundState.DRAWN: _("Le tirage va être annoncé."),
            RoundState.OPEN: _("Coup en cours"),
            RoundState.CLOSED: _("Coup ramassé"),
            RoundState.CANCELLED: _("Coup annulé"),
            "time_up": _("Temps écoulé"),
            "paused": _("Pause"),
            "top": _("Top"),
            "points": _("points"),
            "pager": _("%(first)s–%(last)s sur %(count)s"),
            "centre_closed": _("Ramassé dans ce centre"),
        },
        "page_seconds": _page_seconds(request),
    }


@require_GET
@room_language
def page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    config_ = config(request, reverse("projector:state", args=[slug]))
    return render(request, "projector/page.html", {"tournament": tournament, "config": config_})


@require_GET
def state(request: HttpRequest, slug: str) -> HttpResponse:
    """The live state; like the tablet's (``tablet.views.state``), a poll holding the
    current version gets its 304 from the shared cache alone."""
    asked = _asked_language(request)
    known = live_versions.projector_versions(slug, asked, request.headers.get("If-None-Match", ""))
    if known is not None and live.unchanged(request, known.etag):
        return live.not_modified(known.etag)
    with speaking(asked or None, request):  # an unknown address: the 404 in French
        tournament = _tournament(slug)
        if known is None or known.tournament_id != tournament.pk:
            known = live_versions.projector_versions_for(slug, tournament.pk, asked)
            if known is not None:
                tournament = _tournament(slug)  # read again after the versions
    with speaking(asked or tournament.language, request):
        if known is None:
            game, rnd, audit = live.snapshot(tournament.pk)
            version = live.game_version(game, rnd, "projector", audit=audit)
        else:
            game, rnd, _audit = live.snapshot(tournament.pk, known.room)
            version = known.etag
        return live.conditional_json(request, version, lambda: _state(tournament, game, rnd))
