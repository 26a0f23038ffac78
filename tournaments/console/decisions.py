"""Console pages for the arbiters' decisions on a round (warning, disciplinary warning,
penalty, zero, moyenne, the review of slips the rulebook leaves to the arbiter: key ``v``
keeps the default, ``m`` takes the other decision), the head arbiter's round cancel, game
stop (E5), slip conflicts and recomputations (queued as Celery tasks).

Every change goes through ``tournaments.services``; a refusal is shown on the page with its
sentence, what was typed kept, and a 4xx status."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import selectors, services, wording
from tournaments.access import centre_players, centre_scope, only_centre
from tournaments.console.common import (
    error_status,
    error_text,
    found,
    game_or_404,
    role_or_403,
    round_or_404,
    tournament_or_404,
)
from tournaments.console.forms import StrictIntegerField
from tournaments.errors import ServiceError
from tournaments.models import Round, SlipConflict, Tournament
from tournaments.parsing import MAX_ROUND, MAX_TABLE, ascii_int

DECISION_KINDS = [
    ("warning", gettext_lazy("avertissement")),
    ("disciplinary", gettext_lazy("avertissement disciplinaire")),
    ("penalty", gettext_lazy("pénalité (5 points)")),
    ("zero", gettext_lazy("zéro")),
    ("moyenne", gettext_lazy("moyenne (mot déjà refusé à un coup précédent)")),
]


class DecisionForm(forms.Form):
    table_number = StrictIntegerField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_TABLE)
    kind = forms.ChoiceField(label=gettext_lazy("Décision"), choices=DECISION_KINDS)
    earlier_round = StrictIntegerField(
        label=gettext_lazy("Coup du premier zéro (moyenne)"),
        min_value=1,
        max_value=MAX_ROUND,
        required=False,
    )
    reason = forms.CharField(label=gettext_lazy("Motif"), max_length=500)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == "moyenne" and not data.get("earlier_round"):
            self.add_error(
                "earlier_round", _("La moyenne se rapporte à un coup précédent : lequel ?")
            )
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Motif"), max_length=500)


def _lines(rnd: Round, allowed: set[int] | None) -> list[dict[str, Any]]:
    """One line per player present on the round (of the centre arbiter's centre when
    ``allowed`` names its players): the current slip, the late attempts kept beside it
    (they never count) and the decisions."""
    current = selectors.current_versions(rnd)
    late = selectors.late_attempts(rnd)
    decided = selectors.decisions_by_player(rnd)
    return [
        {"registration": reg, "version": current.get(reg.player_id),
         "late": late.get(reg.player_id, []), "decisions": decided.get(reg.player_id, [])}
        for reg in selectors.expected_registrations(rnd)
        if allowed is None or reg.player_id in allowed
    ]  # fmt: skip


def _reviews(rnd: Round, allowed: set[int] | None) -> list[dict[str, Any]]:
    """The round's slips left to the arbiter (of their centre), the two outcomes worded."""
    lines = [
        line
        for line in selectors.slips_to_review(rnd)
        if allowed is None or line["version"].player_id in allowed
    ]
    for line in lines:
        outcome = line["outcome"]
        line["label"] = wording.review_label(outcome.review)
        line["default"] = (outcome.score, wording.outcome_text(outcome.code, outcome.params))
        alt = outcome.alternative
        line["other"] = (alt.score, wording.outcome_text(alt.code, alt.params))
    return lines


def _conflicts_of(rnd: Round, allowed: set[int] | None) -> list[SlipConflict]:
    """The round's open slip conflicts (of the centre arbiter's centre)."""
    conflicts = selectors.open_conflicts(round_id=rnd.pk)
    return [c for c in conflicts if allowed is None or c.player_id in allowed]


def _context(request: HttpRequest, rnd: Round, **extra: Any) -> dict[str, Any]:
    game = rnd.game
    earlier = [r for r in selectors.game_rounds(game, cancelled=False) if r.number < rnd.number]
    # A centre arbiter of a simultaneous event: their centre's players only.
    allowed = centre_players(actor=request.user, tournament_id=game.tournament_id)
    return {
        "tournament": game.tournament,
        "game": game,
        "round": rnd,
        "role": role_or_403(request, game.tournament_id),
        "lines": _lines(rnd, allowed),
        "reviews": _reviews(rnd, allowed),
        "earlier_rounds": earlier,
        "conflicts": _conflicts_of(rnd, allowed),
        "form": extra.pop("form", None) or DecisionForm(),
        "cancel_form": extra.pop("cancel_form", None) or ReasonForm(),
        "stop_form": extra.pop("stop_form", None) or ReasonForm(),
        "recompute_form": extra.pop("recompute_form", None) or ReasonForm(),
        **extra,
    }


def _round_of_game(game_id: int, round_id: int | None) -> Round | None:
    """Round ``round_id`` when it belongs to game ``game_id`` (the page to go back to)."""
    if round_id is None:
        return None
    try:
        rnd = selectors.round_by_id(round_id)
    except ServiceError:
        return None
    return rnd if rnd.game_id == game_id else None


def _refusal(request: HttpRequest, rnd: Round, error: ServiceError, **extra: Any) -> HttpResponse:
    ctx = _context(request, rnd, error=error_text(error), error_code=error.code, **extra)
    return render(request, "console/decisions.html", ctx, status=error_status(error))


@login_required
def round_decisions(request: HttpRequest, round_id: int) -> HttpResponse:
    """The round's players with their slip and decisions; take a decision (any arbiter)."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id)
    if request.method == "GET":
        return render(request, "console/decisions.html", _context(request, rnd))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return render(request, "console/decisions.html", _context(request, rnd, form=form),
                      status=400)  # fmt: skip
    data = form.cleaned_data
    try:
        reg = selectors.registration_at_table(rnd.game.tournament_id, data["table_number"])
        common = {"round_id": rnd.pk, "player_id": reg.player_id, "reason": data["reason"],
                  "actor": request.user}  # fmt: skip
        kind = data["kind"]
        if kind in {"warning", "disciplinary"}:
            services.decision_warning(disciplinary=kind == "disciplinary", **common)
        elif kind == "penalty":
            services.decision_penalty(**common)
        elif kind == "zero":
            services.decision_zero(**common)
        else:
            earlier = selectors.round_by_number(rnd.game, data["earlier_round"])
            if earlier is None:
                raise ServiceError(
                    "moyenne.earlier",
                    _("La partie n'a pas de coup %(n)s.") % {"n": data["earlier_round"]},
                )
            services.decision_moyenne(earlier_round_id=earlier.pk, **common)
    except ServiceError as error:
        return _refusal(request, rnd, error, form=form)
    label = dict(DECISION_KINDS)[data["kind"]]
    messages.success(
        request,
        _("Table %(t)s, coup %(n)s : %(k)s enregistré(e).")
        % {"t": data["table_number"], "n": rnd.number, "k": label},
    )
    return redirect("console:decisions", round_id=rnd.pk)


@login_required
@require_POST
def review(request: HttpRequest, round_id: int, version_id: int) -> HttpResponse:
    """Settle one slip of the review list: ``choice`` "default" or "alternative"."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id)
    version = selectors.round_version(rnd, version_id)
    if version is None:
        error = ServiceError("review.nothing", _("Ce bulletin n'attend pas de révision."))
        return _refusal(request, rnd, error)
    choice = request.POST.get("choice", "")
    try:
        services.decision_review(round_id=rnd.pk, player_id=version.player_id,
                                 version_id=version.pk, choice=choice,
                                 actor=request.user)  # fmt: skip
    except ServiceError as error:
        return _refusal(request, rnd, error)
    table = selectors.table_of(rnd.game.tournament_id, version.player_id)
    done = _("décision par défaut gardée") if choice == "default" else _("autre décision retenue")
    messages.success(request, _("Table %(t)s : %(d)s.") % {"t": table, "d": done})
    return redirect("console:decisions", round_id=rnd.pk)


@login_required
@require_POST
def round_cancel(request: HttpRequest, round_id: int) -> HttpResponse:
    """Cancel the round (head arbiter, reason required); its points are void for everyone.
    A seeded or pre-drawn game draws the replacement rack unless ``redraw`` is off."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id, head=True)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        ctx = _context(request, rnd, cancel_form=form)
        return render(request, "console/decisions.html", ctx, status=400)
    try:
        services.round_cancel(
            round_id=rnd.pk,
            reason=form.cleaned_data["reason"],
            redraw=request.POST.get("redraw", "1") == "1",
            actor=request.user,
        )
    except ServiceError as error:
        return _refusal(request, rnd, error, cancel_form=form)
    messages.success(request, _("Le coup %(n)s est annulé.") % {"n": rnd.number})
    return redirect("console:game", game_id=rnd.game_id)


@login_required
@require_POST
def game_stop(request: HttpRequest, game_id: int) -> HttpResponse:
    """Stop the game on the head arbiter's decision (E5), reason required."""
    game = game_or_404(game_id)
    role_or_403(request, game.tournament_id, head=True)
    form = ReasonForm(request.POST)
    rnd = selectors.current_round(game, cancelled=False)
    if not form.is_valid():
        if rnd is None:
            messages.error(request, _("Indiquez le motif de l'arrêt de la partie."))
            return redirect("console:game", game_id=game.pk)
        return render(request, "console/decisions.html", _context(request, rnd, stop_form=form),
                      status=400)  # fmt: skip
    try:
        services.game_stop(game_id=game.pk, reason=form.cleaned_data["reason"], actor=request.user)
    except ServiceError as error:
        if rnd is None:
            messages.error(request, error_text(error))
            return redirect("console:game", game_id=game.pk)
        return _refusal(request, rnd, error, stop_form=form)
    messages.success(request, _("La partie %(n)s est arrêtée.") % {"n": game.number})
    return redirect("console:game", game_id=game.pk)


@login_required
@require_POST
def round_recompute(request: HttpRequest, round_id: int) -> HttpResponse:
    """Queue the recomputation of the round's outcomes (head arbiter)."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id, head=True)
    try:
        services.round_recompute_later(round_id=rnd.pk, actor=request.user)
    except ServiceError as error:
        return _refusal(request, rnd, error)
    messages.success(request, _("Recalcul du coup %(n)s demandé.") % {"n": rnd.number})
    return redirect("console:decisions", round_id=rnd.pk)


@login_required
@require_POST
def game_recompute(request: HttpRequest, game_id: int) -> HttpResponse:
    """Queue the recomputation of the game's tops and outcomes (head arbiter, reason)."""
    game = game_or_404(game_id)
    role_or_403(request, game.tournament_id, head=True)
    form = ReasonForm(request.POST)
    back = request.POST.get("round")
    back_id = ascii_int(back, low=1)
    rnd = _round_of_game(game.pk, back_id) or selectors.current_round(game, cancelled=False)
    try:
        if not form.is_valid():
            raise ServiceError("recompute.reason", _("Un recalcul indique son motif."))
        services.game_recompute_later(
            game_id=game.pk, reason=form.cleaned_data["reason"], actor=request.user
        )
    except ServiceError as error:
        if rnd is None:
            messages.error(request, error_text(error))
            return redirect("console:game", game_id=game.pk)
        return _refusal(request, rnd, error, recompute_form=form)
    messages.success(request, _("Recalcul de la partie %(n)s demandé.") % {"n": game.number})
    if rnd is not None:
        return redirect("console:decisions", round_id=rnd.pk)
    return redirect("console:game", game_id=game.pk)


# --- Slip conflicts -------------------------------------------------------------------------


def _conflicts_context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    mine = {"actor": request.user, "tournament_id": obj.pk}  # a centre arbiter: their centre's
    conflicts = only_centre(selectors.open_conflicts(tournament_id=obj.pk), **mine)
    tables = selectors.tables_by_player(obj.pk)
    centre = centre_scope(**mine).centre_id  # filtered in the query, before its limit
    resolved = selectors.resolved_conflicts(obj, centre_id=centre)
    ids = {c.first_id for c in conflicts} | {c.second_id for c in conflicts}
    authors = selectors.entered_by_names(ids)
    items = [
        {"conflict": c, "table": tables.get(c.player_id), "game": c.round.game_id,
         "versions": [(v, authors.get(v.pk, "")) for v in (c.first, c.second)]}
        for c in conflicts
    ]  # fmt: skip
    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk),
        "items": items,
        "resolved": resolved,
        "tables": tables,
        **extra,
    }


@login_required
def conflicts(request: HttpRequest, slug: str) -> HttpResponse:
    """Open slip conflicts of the tournament, with a "keep this version" button each."""
    obj = tournament_or_404(slug)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    return render(request, "console/conflicts.html", _conflicts_context(request, obj))


@login_required
@require_POST
def conflict_keep(request: HttpRequest, conflict_id: int) -> HttpResponse:
    """The head arbiter keeps one version of a conflict (``version`` = its id)."""
    conflict: SlipConflict = found(selectors.conflict_by_id(conflict_id))
    obj = conflict.round.game.tournament
    role_or_403(request, obj.pk, head=True)
    version = request.POST.get("version", "")
    try:
        version_id = ascii_int(version, low=1)
        if version_id is None:
            raise ServiceError("conflict.version", _("Choisissez l'une des deux versions."))
        services.conflict_resolve(
            conflict_id=conflict.pk, keep_version_id=version_id, actor=request.user
        )
    except ServiceError as error:
        ctx = _conflicts_context(request, obj, error=error_text(error), error_code=error.code)
        return render(request, "console/conflicts.html", ctx, status=error_status(error))
    messages.success(request, _("Conflit réglé : la version choisie est retenue."))
    return redirect("console:conflicts", slug=obj.slug)
