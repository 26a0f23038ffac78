"""A centre's projector, under /projecteur/<slug>/centre/<id>/ (issue 16): the wall of one
centre of a simultaneous event. It shows what the event's projector shows of the round
(board, rack, countdown; the top only once the **round** is closed, i.e. every centre has
closed it), and the centre's own state: « Ramassé dans ce centre » once the centre
closed the round while others still play. The ranking is the current game's, as on the
event's projector, restricted to the centre's players, each with their rank in the whole
event's game, read from the stored figures (``selectors.RankingReader``, ``within``).

Its ETag names the tournament's and the centre's live versions (``live_versions``): the
centre's close changes this projector and its players' tablets, not the other centres'."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments import live_versions, selectors, wording
from tournaments.errors import ServiceError
from tournaments.language import speaking
from tournaments.models import Centre, Game, Round, Tournament
from tournaments.models.choices import RoundState
from tournaments.projector import views as event
from tournaments.tablet import live


def _centre(tournament: Tournament, centre_id: int) -> Centre:
    """The tournament's centre ``centre_id``, or the 404 page."""
    try:
        centre = selectors.centre_by_id(centre_id)
    except ServiceError as error:
        raise Http404(wording.error_text(error)) from error
    if centre.tournament_id != tournament.pk:
        raise Http404(wording.error_text(ServiceError("centre.unknown", "No such centre.")))
    return centre


def _closed_at(centre: Centre, rnd: Round | None) -> Any:
    """When the centre closed the open round (None: playing it, or the round not open)."""
    if rnd is None or rnd.state != RoundState.OPEN:
        return None
    return selectors.centre_close_at(rnd.pk, centre.pk)


def _ranking(
    tournament: Tournament, centre: Centre, game: Game
) -> tuple[list[dict[str, Any]], int]:
    """The centre's first lines of the game's ranking (ranks in the whole event) and how
    many lines the centre has, from the stored figures."""
    table = selectors.RankingTable("game", str(game.number))
    within = selectors.RankingTable("centre", centre.name)
    page = selectors.RankingReader(tournament).page(table, limit=event.lines_shown(), within=within)
    lines = [
        {
            "rank": line.rank,
            "name": line.player.name,
            "total": line.total,
            "negatif": line.negatif_text,
        }  # fmt: skip
        for line in page.lines
    ]
    return lines, page.count


def _state(tournament: Tournament, centre: Centre, game: Game | None,
           rnd: Round | None) -> dict[str, Any]:  # fmt: skip
    data = event._state(tournament, game, rnd, ranking=False)
    closed_at = _closed_at(centre, rnd)
    data["centre"] = {"name": centre.name, "closed": closed_at is not None,
                      "closed_at": live.iso(closed_at)}  # fmt: skip
    if game is not None:
        data["ranking"], data["ranking_count"] = _ranking(tournament, centre, game)
    return data


@require_GET
@event.room_language
def page(request: HttpRequest, slug: str, centre_id: int) -> HttpResponse:
    tournament = event._tournament(slug)
    centre = _centre(tournament, centre_id)
    config = event.config(request, reverse("projector:centre_state", args=[slug, centre.pk]))
    return render(request, "projector/page.html",
                  {"tournament": tournament, "centre": centre, "config": config})  # fmt: skip


@require_GET
def state(request: HttpRequest, slug: str, centre_id: int) -> HttpResponse:
    """The centre's live state; a poll holding the current versions (the tournament's and
    the centre's) gets its 304 from the shared cache alone."""
    asked = event._asked_language(request)
    held = request.headers.get("If-None-Match", "")
    known = live_versions.centre_projector_versions(slug, centre_id, asked, held)
    if known is not None and live.unchanged(request, known.etag):
        return live.not_modified(known.etag)
    with speaking(asked or None, request):  # an unknown address: the 404 in French
        tournament = event._tournament(slug)
        centre = _centre(tournament, centre_id)
        if known is None or known.tournament_id != tournament.pk:
            known = live_versions.centre_projector_versions_for(slug, tournament.pk,
                                                                centre.pk, asked)  # fmt: skip
            if known is not None:  # read again after the versions
                tournament = event._tournament(slug)
                centre = _centre(tournament, centre_id)
    with speaking(asked or tournament.language, request):
        if known is None:
            game, rnd, audit = live.snapshot(tournament.pk)
            mark = (centre.pk, centre.name, _closed_at(centre, rnd))
            version = live.game_version(game, rnd, "centre-projector", *mark, audit=audit)
        else:
            game, rnd, _audit = live.snapshot(tournament.pk, known.room)
            version = known.etag
        return live.conditional_json(request, version,
                                     lambda: _state(tournament, centre, game, rnd))  # fmt: skip
