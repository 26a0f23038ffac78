"""The console's page of a sealed game (docs/simultaneous.md "Sealed games and release
times"): seal a pre-drawn game before its first draw, set when its rounds are released (a
start and an interval, or a time per round), and see the countdown to the next release,
never its rack. Head arbiter for changes; any arbiter of the tournament reads it.

In the embedded profile (eager tasks: no worker waits for an ETA) the game screen and this
page run the release sweep of their game when a round is due (:func:`sweep_if_due`)."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.celery import app
from tournaments.console.common import error_status, error_text, game_or_404, role_or_403
from tournaments.errors import ServiceError
from tournaments.models import Game, GameKind, GameState
from tournaments.services.release import (
    Schedule,
    release_advance,
    release_schedule_set,
    round_release,
)
from tournaments.services.sealing import game_seal

FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%d/%m/%Y %H:%M", "%d/%m/%Y %H:%M:%S"]


class ScheduleForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Dévoilement du premier coup"),
        input_formats=FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
    )
    interval = forms.IntegerField(
        label=gettext_lazy("Secondes entre deux coups"),
        min_value=10,
        max_value=3 * 3600,
        required=False,
        help_text=gettext_lazy("Par exemple 300 pour un coup toutes les cinq minutes."),
    )
    times = forms.CharField(
        label=gettext_lazy("Ou l'heure de chaque coup"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=gettext_lazy(
            "Une heure par ligne (HH:MM ou HH:MM:SS), la première étant celle du premier "
            "coup ; une heure plus tôt que la précédente passe au lendemain."
        ),
    )
    auto_open = forms.BooleanField(
        label=gettext_lazy("Ouvrir chaque coup dès son dévoilement (sans l'annonce de l'arbitre)"),
        required=False,
    )

    def schedule(self) -> Schedule:
        """The form as a :class:`Schedule`; unreadable times refuse with ``release.times``."""
        data = self.cleaned_data
        start: datetime = data["starts_at"]
        times: list[datetime] = []
        for text in (data.get("times") or "").split():
            try:
                clock = datetime.strptime(text, "%H:%M:%S" if text.count(":") == 2 else "%H:%M")
            except ValueError:
                raise ServiceError(
                    "form.invalid", _("Heure illisible : %(t)s") % {"t": text}
                ) from None
            base = timezone.localtime(times[-1] if times else start)
            at = base.replace(hour=clock.hour, minute=clock.minute, second=clock.second,
                              microsecond=0)  # fmt: skip
            if times and at <= times[-1]:
                try:
                    at += timedelta(days=1)
                except OverflowError:  # past 31/12/9999: out of any schedule's range
                    raise ServiceError("release.span", "The schedule is out of range.") from None
            times.append(at)
        return Schedule(starts_at=start, interval=data.get("interval"), times=tuple(times),
                        auto_open=bool(data.get("auto_open")))  # fmt: skip


def sweep_if_due(game: Game) -> None:
    """Embedded profile only: release the game's due rounds now (no worker runs the ETA
    messages there). A refusal (a missing key…) is shown on the release page."""
    if not app.conf.task_always_eager or game.state != GameState.PLAYING:
        return
    if not selectors.is_sealed_game(game):  # no query for the other games
        return
    schedule = selectors.release_schedule(game)
    if schedule is not None and schedule.due:
        # A refusal: the release page runs it again and shows the sentence.
        with contextlib.suppress(ServiceError):
            release_advance(game_id=game.pk, actor=SYSTEM)


def _initial(schedule: selectors.ReleaseSchedule | None) -> dict[str, Any]:
    if schedule is None or schedule.starts_at is None:
        start = timezone.localtime().replace(second=0, microsecond=0) + timedelta(minutes=10)
        return {"starts_at": start.strftime("%Y-%m-%dT%H:%M"), "interval": 300}
    times = "" if schedule.interval else "\n".join(
        f"{timezone.localtime(line.release_at):%H:%M:%S}" for line in schedule.lines
        if line.release_at is not None
    )  # fmt: skip
    return {
        "starts_at": timezone.localtime(schedule.starts_at).strftime("%Y-%m-%dT%H:%M:%S"),
        "interval": schedule.interval,
        "times": times,
        "auto_open": schedule.auto_open,
    }


def _context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    schedule = selectors.release_schedule(game)
    return {
        "tournament": game.tournament,
        "game": game,
        "role": role_or_403(request, game.tournament_id),
        "schedule": schedule,
        "can_seal": schedule is None
        and game.kind == GameKind.PREDRAWN
        and not selectors.game_rounds(game),
        "form": extra.pop("form", None) or ScheduleForm(initial=_initial(schedule)),
        "zone": timezone.get_current_timezone_name(),
        **extra,
    }


@login_required
def release_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the schedule and the countdown. POST ``action``: ``seal``, ``schedule`` or
    ``release`` (run the due releases now; refused before their time)."""
    game = game_or_404(game_id)
    role_or_403(request, game.tournament_id)
    if request.method == "GET":
        sweep_if_due(game)
        return render(request, "console/release.html", _context(request, game_or_404(game_id)))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    role_or_403(request, game.tournament_id, head=True)
    action, form = request.POST.get("action"), None
    try:
        if action == "seal":
            game_seal(game_id=game.pk, actor=request.user)
            messages.success(request, _("La partie est scellée : ses tirages sont chiffrés."))
        elif action == "schedule":
            form = ScheduleForm(request.POST)
            if not form.is_valid():
                raise ServiceError("form.invalid", _("Le formulaire contient des erreurs."))
            release_schedule_set(game_id=game.pk, schedule=form.schedule(), actor=request.user)
            messages.success(request, _("Horaires des coups enregistrés."))
        elif action == "release":
            _release_now(game, request.user)
        else:
            raise ServiceError("form.invalid", _("Le formulaire contient des erreurs."))
    except ServiceError as error:
        ctx = _context(request, game_or_404(game_id), error=error_text(error),
                       error_code=error.code, **({"form": form} if form else {}))  # fmt: skip
        return render(request, "console/release.html", ctx, status=error_status(error))
    return redirect("console:release", game_id=game.pk)


def _release_now(game: Game, actor: Any) -> None:
    """The head arbiter's "release now": the next round if its time has come (the worker
    would have done it; this is for a worker that is down). Refused before its time."""
    schedule = selectors.release_schedule(game)
    if schedule is None:
        raise ServiceError("release.not_sealed", "The game is not sealed.")
    line = next((ln for ln in schedule.lines if not ln.drawn), None)
    if line is None:
        return
    round_release(game_id=game.pk, number=line.number, actor=actor)
