"""A classic player's tablet page, /tablette/<token>/classique/: their table in the
division's last round (opponent, who starts) and the result form (my score, my
opponent's score). The second player to report confirms; a mismatch goes to the arbiter
(``services.classic_reports``). A plain form: it works without any script."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from tournaments import selectors, wording
from tournaments.access import PlayerActor
from tournaments.errors import ServiceError, http_status
from tournaments.parsing import MAX_SCORE, ascii_int
from tournaments.services.classic_reports import classic_report_submit
from tournaments.services.score_sheets import score_sheet_open_for_table
from tournaments.sheet_pages import sheet_context, sheet_post
from tournaments.tablet.views import _unknown, rate_limited, registration_for, room_language


def _score(text: str) -> int | None:
    # ASCII digits only, a score's size ("²" is a digit to isdigit(), not to int()).
    return ascii_int(text, signed=True, low=-MAX_SCORE, high=MAX_SCORE)


@never_cache
@rate_limited
@room_language
def page(request: HttpRequest, token: str) -> HttpResponse:
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=False)
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    seat = selectors.classic_tablet_table(reg)
    ctx = {
        "registration": reg,
        "player": reg.player,
        "tournament": reg.tournament,
        "seat": seat,
        "token": token,
        "mine": "",
        "theirs": "",
    }
    if request.method == "GET":
        return render(request, "tablet/classic.html", ctx)
    mine, theirs = request.POST.get("mine", ""), request.POST.get("theirs", "")
    try:
        if seat is None:
            raise ServiceError("classic_table.unknown", "No table to report.")
        result = classic_report_submit(
            table_id=seat.line.table.pk,
            score_mine=_score(mine),
            score_theirs=_score(theirs),
            actor=PlayerActor.of(reg),
        )
    except ServiceError as error:
        ctx.update(mine=mine, theirs=theirs, error=wording.error_text(error))
        return render(request, "tablet/classic.html", ctx, status=http_status(error.code))
    del result  # the page read after the redirect shows the table's state
    return redirect("classic_tablet:page", token=token)


@never_cache
@rate_limited
@room_language
def sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The score sheet of the player's table (/tablette/<token>/classique/feuille/): both
    players of the table fill the same sheet (``tournaments.sheet_pages``); the first to
    come opens it (``action=open``)."""
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=False)
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    seat = selectors.classic_tablet_table(reg)
    table = seat.line.table if seat is not None and not seat.line.bye else None
    row = selectors.score_sheet_of_table(table) if table is not None else None
    here = reverse("classic_tablet:sheet", args=[token])
    ctx: dict[str, Any] = {
        "registration": reg,
        "player": reg.player,
        "tournament": reg.tournament,
        "seat": seat,
        "token": token,
        "post_url": here,
        "rack_url": here,
    }
    actor = PlayerActor.of(reg)
    if request.method == "POST" and request.POST.get("action") == "open":
        try:
            if table is None:
                raise ServiceError("classic_table.unknown", "No table to record.")
            score_sheet_open_for_table(table_id=table.pk, actor=actor)
        except ServiceError as error:
            ctx["error"] = wording.error_text(error)
            return render(request, "tablet/classic_sheet.html", ctx, status=http_status(error.code))
        return redirect(here)
    if row is None:
        status = 200 if request.method == "GET" else 409
        return render(request, "tablet/classic_sheet.html", ctx, status=status)
    if request.method == "GET":
        return render(request, "tablet/classic_sheet.html", sheet_context(request, row, **ctx))
    done, kept, status = sheet_post(request, row, actor)
    if not done:
        ctx = sheet_context(request, row, **ctx, **kept)
        return render(request, "tablet/classic_sheet.html", ctx, status=status)
    return redirect(here)
