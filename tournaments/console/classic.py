"""Console pages of classic tournaments (docs/classic.md, "Classic tournaments on the site"),
mounted by the classic family under /arbitre/classique/ (``tournaments.families.classic``).

- the tournament's classic page: make it classic, its pairing and standings settings, its
  divisions with their seeding lists, each division's rounds and standings, « Apparier la
  ronde suivante »;
- a round's page: its tables, and the results typed one line per table, as the duplicate
  slips are (« 3 412 389 », « 3 forfait 1 »), Entrée to record, the cursor staying in the
  field; a table entered again is a correction and asks for its reason.

Reads through ``tournaments.selectors``, writes through ``tournaments.services.classic``;
a refusal is shown on the page with its sentence and status, what was typed kept.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from engine.classic.standings import TIE_BREAKS
from tournaments import selectors, wording
from tournaments.console.common import _or_404, error_status, role_or_403, tournament_or_404
from tournaments.errors import ServiceError
from tournaments.models import ClassicForfeit, Division, PairingSystem, Tournament
from tournaments.parsing import no_nul
from tournaments.services import classic as service

TIE_BREAK_LABELS = {
    "buchholz": gettext_lazy("Buchholz (somme des victoires des adversaires)"),
    "points": gettext_lazy("points marqués"),
    "head_to_head": gettext_lazy("confrontation directe"),
}


class ClassicSettingsForm(forms.Form):
    pairing_system = forms.ChoiceField(
        label=gettext_lazy("Appariement"), choices=PairingSystem.choices
    )
    rounds_planned = forms.IntegerField(
        label=gettext_lazy("Nombre de rondes"), min_value=1, max_value=99
    )
    fontes_rounds = forms.IntegerField(
        label=gettext_lazy("Rondes en Fontes initial (impair)"), min_value=1, max_value=15
    )
    bye_halves = forms.TypedChoiceField(
        label=gettext_lazy("Un exempt compte"),
        coerce=int,
        choices=[
            (2, gettext_lazy("une victoire")),
            (1, gettext_lazy("un nul")),
            (0, gettext_lazy("rien")),
        ],
    )
    bye_spread = forms.IntegerField(
        label=gettext_lazy("Écart d'un exempt"), min_value=0, max_value=1000
    )
    forfeit_spread = forms.IntegerField(
        label=gettext_lazy("Écart d'un forfait"), min_value=0, max_value=1000
    )
    tie_break_1 = forms.ChoiceField(label=gettext_lazy("Premier départage"), required=False)
    tie_break_2 = forms.ChoiceField(label=gettext_lazy("Deuxième départage"), required=False)
    tie_break_3 = forms.ChoiceField(label=gettext_lazy("Troisième départage"), required=False)
    seed = forms.IntegerField(
        label=gettext_lazy("Graine du tirage au sort"), min_value=0, max_value=2**63 - 1
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((t, TIE_BREAK_LABELS[t]) for t in TIE_BREAKS)]
        for i in (1, 2, 3):
            self.fields[f"tie_break_{i}"].choices = choices

    def changes(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["tie_breaks"] = [data.pop(f"tie_break_{i}") for i in (1, 2, 3)]
        return data


class ClassicCreateForm(forms.Form):
    pairing_system = forms.ChoiceField(
        label=gettext_lazy("Appariement"), choices=PairingSystem.choices, initial="swiss"
    )
    rounds_planned = forms.IntegerField(
        label=gettext_lazy("Nombre de rondes"), min_value=1, max_value=99, initial=7
    )


def _initial(event: Any) -> dict[str, Any]:
    breaks = [t for t in event.tie_breaks.split(",") if t] + ["", "", ""]
    return {
        "pairing_system": event.pairing_system,
        "rounds_planned": event.rounds_planned,
        "fontes_rounds": event.fontes_rounds,
        "bye_halves": event.bye_halves,
        "bye_spread": event.bye_spread,
        "forfeit_spread": event.forfeit_spread,
        "tie_break_1": breaks[0],
        "tie_break_2": breaks[1],
        "tie_break_3": breaks[2],
        "seed": event.seed,
    }


def classic_settings_summary(event: Any) -> list[tuple[str, str]]:
    """The classic settings as the tournament's settings page lists them (they are changed
    on the classic page): pairing, rounds, byes, forfeits, tie-breaks, draw seed."""
    halves = {2: _("une victoire"), 1: _("un nul"), 0: _("rien")}
    breaks = [str(TIE_BREAK_LABELS[t]) for t in event.tie_breaks.split(",") if t]
    rows = [
        (_("Appariement"), str(PairingSystem(event.pairing_system).label)),
        (_("Nombre de rondes"), str(event.rounds_planned)),
    ]
    if event.pairing_system == PairingSystem.INITIAL_FONTES:
        rows.append((_("Rondes en Fontes initial (impair)"), str(event.fontes_rounds)))
    rows += [
        (_("Un exempt compte"), str(halves.get(event.bye_halves, event.bye_halves))),
        (_("Écart d'un exempt"), str(event.bye_spread)),
        (_("Écart d'un forfait"), str(event.forfeit_spread)),
        (_("Départages après les victoires et l'écart"), ", ".join(breaks) or "—"),
        (_("Graine du tirage au sort"), str(event.seed)),
    ]
    return rows


def _event_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    role = role_or_403(request, tournament.pk)
    event = selectors.classic_event(tournament)
    ctx: dict[str, Any] = {"tournament": tournament, "role": role, "event": event}
    if event is None:
        ctx["create_form"] = extra.pop("create_form", None) or ClassicCreateForm()
        ctx["has_games"] = bool(selectors.tournament_games(tournament))
    else:
        ctx["settings_form"] = extra.pop("settings_form", None) or ClassicSettingsForm(
            initial=_initial(event)
        )
        ctx["system_label"] = PairingSystem(event.pairing_system).label
        ctx["divisions"] = [_division_block(d, event) for d in selectors.divisions(tournament)]
        ctx["unplaced"] = selectors.registrations_without_division(tournament)
    ctx.update(extra)
    return ctx


def _division_block(division: Division, event: Any) -> dict[str, Any]:
    rounds = selectors.classic_rounds(division)
    last = rounds[-1] if rounds else None
    waiting = len(selectors.classic_tables_waiting(last)) if last else 0
    return {
        "division": division,
        "entries": selectors.division_entries(division),
        "rounds": rounds,
        "waiting": waiting,
        "next_number": (last.number + 1) if last else 1,
        "can_pair": waiting == 0 and (last.number if last else 0) < event.rounds_planned,
        "standings": selectors.division_standings(division, event),
    }


@login_required
def event(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's classic page (GET), or one of its forms posted (``action``)."""
    tournament = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, "console/classic.html", _event_context(request, tournament))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    role_or_403(request, tournament.pk, head=True)
    action = request.POST.get("action", "")
    extra: dict[str, Any] = {}
    try:
        if action == "create":
            form = ClassicCreateForm(request.POST)
            extra["create_form"] = form
            if not form.is_valid():
                return _page(request, tournament, 400, extra)
            service.classic_event_create(
                tournament_id=tournament.pk, actor=request.user, **form.cleaned_data
            )
            messages.success(request, _("Le tournoi est en formule classique."))
        elif action == "settings":
            sform = ClassicSettingsForm(request.POST)
            extra["settings_form"] = sform
            if not sform.is_valid():
                return _page(request, tournament, 400, extra)
            service.classic_event_update(
                tournament_id=tournament.pk, actor=request.user, **sform.changes()
            )
            messages.success(request, _("Réglages enregistrés."))
        elif action == "division":
            no_nul(request.POST.get("name", ""))
            service.division_create(
                tournament_id=tournament.pk, name=request.POST.get("name", ""), actor=request.user
            )
        elif action in ("fill", "pair", "manual"):
            division = _division_or_404(tournament, request.POST.get("division", ""))
            if action == "fill":
                added = service.division_entries_add(division_id=division.pk, actor=request.user)
                messages.success(
                    request,
                    _("%(n)s joueur(s) ajouté(s) à la division %(d)s.")
                    % {"n": len(added), "d": division.name},
                )
            else:
                manual = _manual_tables(division, request.POST.get("tables", ""))
                rnd = service.classic_round_pair(
                    division_id=division.pk, manual=manual, actor=request.user
                )
                return redirect(
                    "classic:round",
                    slug=tournament.slug,
                    division=division.number,
                    number=rnd.number,
                )
        elif action == "active":
            entry_id = _int(request.POST.get("entry", ""))
            service.division_entry_set_active(
                entry_id=entry_id, active=request.POST.get("active") == "1", actor=request.user
            )
        else:
            return _page(request, tournament, 400, {"error": _("Action inconnue.")})
    except ServiceError as error:
        extra["error"] = wording.error_text(error)
        return _page(request, tournament, error_status(error), extra)
    return redirect("classic:event", slug=tournament.slug)


def _page(
    request: HttpRequest, tournament: Tournament, status: int, extra: dict[str, Any]
) -> HttpResponse:
    ctx = _event_context(request, tournament, **extra)
    return render(request, "console/classic.html", ctx, status=status)


def _int(text: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise ServiceError("form.invalid", _("Le formulaire contient des erreurs.")) from None


def _division_or_404(tournament: Tournament, number: str | int) -> Division:
    return _or_404(selectors.division_by_number, tournament, _int(str(number)))


def _manual_tables(division: Division, text: str) -> list[tuple[int, int | None]] | None:
    """The arbiter's tables for a manual round: one line per table, the two players' seeding
    numbers (« 1 4 »), or one number alone for the bye. Empty: the division's system."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    by_seed = {e.seed: e.pk for e in selectors.division_entries(division)}
    tables: list[tuple[int, int | None]] = []
    for parts in lines:
        if len(parts) not in (1, 2) or not all(
            p.isascii() and p.isdigit() and int(p) in by_seed for p in parts
        ):
            raise ServiceError("pairing.manual", "Unreadable manual table.")
        ids = [by_seed[int(p)] for p in parts]
        tables.append((ids[0], ids[1] if len(ids) == 2 else None))
    return tables


# --- A round: its tables and the results -------------------------------------------------

_LINE = re.compile(
    r"^\s*(?P<table>\d+)\s+(?:(?P<first>-?\d+)\s+(?P<second>-?\d+)"
    r"|(?:f|forfait|ff)\s*(?P<absent>[12]))\s*$",
    re.IGNORECASE,
)


def parse_result_line(line: str) -> tuple[int, int | None, int | None, str]:
    """``(table, first's score, second's score, forfeit)`` from « 3 412 389 » or
    « 3 forfait 1 » (« 3 f2 »); ``classic.line`` when it is neither."""
    match = _LINE.match(line or "")
    if not match:
        raise ServiceError("classic.line", "Unreadable result line.", line=line)
    table = int(match["table"])
    if match["absent"]:
        forfeit = ClassicForfeit.FIRST if match["absent"] == "1" else ClassicForfeit.SECOND
        return table, None, None, forfeit
    return table, int(match["first"]), int(match["second"]), ""


def _round_context(
    request: HttpRequest, tournament: Tournament, division: Division, number: int, **extra: Any
) -> dict[str, Any]:
    role = role_or_403(request, tournament.pk)
    if selectors.classic_event(tournament) is None:
        raise Http404
    rnd = _or_404(selectors.classic_round, division, number)
    lines = selectors.classic_tables(rnd)
    return {
        "tournament": tournament,
        "role": role,
        "division": division,
        "round": rnd,
        "system_label": PairingSystem(rnd.system).label,
        "lines": lines,
        "waiting": [x for x in lines if not x.done],
        "mismatches": [x for x in lines if x.mismatch],
        "is_last": selectors.classic_rounds(division)[-1].pk == rnd.pk,
        "no_results": all(x.result is None for x in lines),
        "line": "",
        "reason": "",
        **extra,
    }


@login_required
def round_page(request: HttpRequest, slug: str, division: int, number: int) -> HttpResponse:
    """A round's tables (GET); a result line posted (any arbiter)."""
    tournament = tournament_or_404(slug)
    div = _division_or_404(tournament, division)
    if request.method == "GET":
        ctx = _round_context(request, tournament, div, number)
        return render(request, "console/classic_round.html", ctx)
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    role_or_403(request, tournament.pk)
    line, reason = request.POST.get("line", ""), request.POST.get("reason", "")
    try:
        no_nul(line, reason)
        rnd = selectors.classic_round(div, number)
        table, first, second, forfeit = parse_result_line(line)
        row = selectors.classic_table_by_number(rnd, table)
        service.classic_result_enter(
            table_id=row.pk,
            score_first=first,
            score_second=second,
            forfeit=forfeit,
            reason=reason,
            actor=request.user,
        )
    except ServiceError as error:
        ctx = _round_context(
            request,
            tournament,
            div,
            number,
            line=line,
            reason=reason,
            error=wording.error_text(error),
            error_code=error.code,
        )
        return render(request, "console/classic_round.html", ctx, status=error_status(error))
    messages.success(request, _("Table %(t)s enregistrée.") % {"t": table})
    return redirect("classic:round", slug=tournament.slug, division=div.number, number=number)


@login_required
@require_POST
def round_unpair(request: HttpRequest, slug: str, division: int, number: int) -> HttpResponse:
    """Take the division's last round back while it has no result (head arbiter)."""
    tournament = tournament_or_404(slug)
    div = _division_or_404(tournament, division)
    role_or_403(request, tournament.pk, head=True)
    try:
        rnd = selectors.classic_round(div, number)
        service.classic_round_unpair(round_id=rnd.pk, actor=request.user)
    except ServiceError as error:
        ctx = _round_context(request, tournament, div, number, error=wording.error_text(error))
        return render(request, "console/classic_round.html", ctx, status=error_status(error))
    messages.success(request, _("La ronde %(n)s est désappariée.") % {"n": number})
    return redirect("classic:event", slug=tournament.slug)
