"""Arbiter console pages: server-rendered, keyboard first, French first.

Views read through ``tournaments.selectors`` (drawn by ``tournaments.console.screen``) and change
state only through ``tournaments.services``. A ``ServiceError`` is shown with its sentence
on the page it came from, with what was typed kept, and a 4xx status (never a 500). Every
page needs a login and an arbiter role on its tournament (``tournaments.access``); the
game-directing actions (draw, open, close, place, create a game, players) need the head
arbiter, entering and correcting slips any arbiter of the tournament."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import live_versions, selectors, services, wording
from tournaments.access import centre_players, only_centre
from tournaments.console import release, screen
from tournaments.console.centres_pages import centre_panel
from tournaments.console.common import (
    error_status,
    game_or_404,
    role_or_403,
    round_or_404,
    tournament_or_404,
)
from tournaments.console.forms import (
    CorrectionForm,
    DrawForm,
    GameCreateForm,
    PlayerForm,
    PlayersImportForm,
    SlipForm,
    TournamentForm,
)
from tournaments.console.keys import slip_keys
from tournaments.console.presence import presence_lines
from tournaments.console.settings_pages import resolve_lexicon
from tournaments.console.slips import SlipSyntaxError, parse_slip_line
from tournaments.errors import ServiceError
from tournaments.http import client_ip
from tournaments.models import Game, Round, Tournament
from tournaments.models.choices import GameKind, GameState
from tournaments.services.imports import check_size
from tournaments.tablet import live

#: One catalogue of outcome kinds (``tournaments.wording``).
KIND_LABELS = wording.KIND_LABELS


# --- Helpers ----------------------------------------------------------------------------


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


# --- Tournaments ------------------------------------------------------------------------


@login_required
def index(request: HttpRequest) -> HttpResponse:
    """The tournaments the user arbitrates; a superuser (or a user allowed to add
    tournaments) may create one here and becomes its head arbiter."""
    can_create = request.user.is_superuser or request.user.has_perm("tournaments.add_tournament")
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = dict(form.cleaned_data)
            lexicon = data.pop("lexicon")
            try:
                obj = services.tournament_create(
                    lexicon_id=resolve_lexicon(lexicon, request.user), actor=request.user, **data
                )
            except ServiceError as error:
                form.add_error(None, wording.error_text(error))
                status = error_status(error)
            else:
                return redirect("console:tournament", slug=obj.slug)
        else:
            status = 400
    elif request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    ctx = {
        "tournaments": list(selectors.arbiter_tournaments(request.user)),
        "form": form if can_create else None,
    }
    return render(request, "console/index.html", ctx, status=status)


def _dashboard(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    games = []
    for game in selectors.tournament_games(tournament):
        games.append({"game": game, "round": selectors.current_round(game, cancelled=False)})
    return {
        "tournament": tournament,
        "role": role_or_403(request, tournament.pk),
        "games": games,
        "players_count": len(selectors.registrations(tournament)),
        "arbiters": presence_lines(tournament.pk),
        # A simultaneous event plays pre-drawn, sealed games only (games.simultaneous_kind).
        "form": extra.pop("form", None)
        or GameCreateForm(initial={"kind": GameKind.PREDRAWN} if tournament.simultaneous else None),
        **extra,
    }


@login_required
@require_GET
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """Dashboard: games with their current round, players count, links."""
    obj = tournament_or_404(slug)
    return render(request, "console/tournament.html", _dashboard(request, obj))


@login_required
@require_POST
def game_create(request: HttpRequest, slug: str) -> HttpResponse:
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk, head=True)
    form = GameCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create(
                tournament_id=obj.pk,
                kind=data["kind"],
                seed=data["seed"],
                predrawn=data["predrawn"],
                sealed=data["sealed"] and data["kind"] == GameKind.PREDRAWN,
                rounds=data["rounds"],
                actor=request.user,
            )
        except ServiceError as error:
            ctx = _dashboard(request, obj, form=form, error=wording.error_text(error))
            return render(request, "console/tournament.html", ctx, status=error_status(error))
        return redirect("console:game", game_id=game.pk)
    ctx = _dashboard(request, obj, form=form)
    return render(request, "console/tournament.html", ctx, status=400)


# --- The game screen --------------------------------------------------------------------


def _game_context(request: HttpRequest, game: Game, **extra: Any) -> dict[str, Any]:
    rounds = selectors.game_rounds(game)
    rnd = selectors.current_round(game, cancelled=False)
    previous = selectors.previous_placed_round(rnd) if rnd else None
    top = (rnd.top or {}) if rnd else {}
    eligible = set(top.get("eligible", []))
    tied = [
        {**move, "eligible": i in eligible, "value": f"{move['coord']} {move['word']}"}
        for i, move in enumerate(top.get("tied", []))
    ]
    registered = selectors.expected_count(rnd) if rnd else 0
    role = role_or_403(request, game.tournament_id)
    return {
        "tournament": game.tournament,
        "game": game,
        "role": role,
        **screen.control_context(game, rnd, role),  # keys, clock, reopen (round control)
        "rounds": rounds,
        "round": rnd,
        "grid": screen.board_grid(rnd, previous),
        "top": top.get("chosen"),
        "tied": tied,
        "best": top.get("best", [])[:10],
        "received": selectors.received_count(rnd) if rnd else 0,
        "registered": registered,
        "now": timezone.now(),
        "draw_form": extra.pop("draw_form", None) or DrawForm(),
        "can_draw": game.state == GameState.PLAYING
        and (rnd is None or rnd.top_placed_at is not None)
        and not selectors.is_sealed_game(game),
        "centres": centre_panel(request, rnd),  # a simultaneous event: each centre's close
        "release": selectors.release_schedule(game) if selectors.is_sealed_game(game) else None,
        **extra,
    }


@login_required
@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The head arbiter's screen: board, rack, top, round controls, slips count."""
    release.sweep_if_due(game_or_404(game_id))  # embedded profile: a sealed round due now
    return render(request, "console/game.html", _game_context(request, game_or_404(game_id)))


def _game_error(
    request: HttpRequest, game: Game, error: ServiceError, **extra: Any
) -> HttpResponse:
    text = wording.error_text(error)
    ctx = _game_context(request, game, error=text, error_code=error.code, **extra)
    return render(request, "console/game.html", ctx, status=error_status(error))


@login_required
@require_GET
def game_status(request: HttpRequest, game_id: int) -> HttpResponse:
    """JSON the game screen polls; 304 when ``If-None-Match`` names the current ETag.

    The ETag comes from the live versions (``live_versions.console_versions_for``: the
    tournament's, and its open round's receipts for the count of moves received), read
    before the rows, so an unchanged screen gets its 304 without them; and while this
    session stays vouched for, from the WSGI fast lane without the database at all
    (``tournaments.poll_lane``). With the cache down, the ETag is the body's digest."""
    obj = game_or_404(game_id)
    role_or_403(request, obj.tournament_id)
    release.sweep_if_due(obj)  # embedded profile: a sealed round due now
    held = request.headers.get("If-None-Match", "")
    session = request.session.session_key or ""
    known = live_versions.console_versions_for(session, obj.tournament_id, obj.pk, request.user.pk)
    if known is not None:
        if live.etag_matches(held, known.etag):
            return screen.status_not_modified(known.etag)
        obj = game_or_404(game_id)  # read again after the versions
    body = json.dumps(screen.status_payload(obj), sort_keys=True)
    etag = known.etag if known else f'"{hashlib.sha256(body.encode()).hexdigest()[:32]}"'
    if live.etag_matches(held, etag):
        return screen.status_not_modified(etag)
    return screen.status_headers(HttpResponse(body, content_type="application/json"), etag)


@login_required
@require_POST
def draw(request: HttpRequest, game_id: int) -> HttpResponse:
    """Draw the next rack: by the game's source, or the letters typed from a real bag."""
    obj = game_or_404(game_id)
    role_or_403(request, obj.tournament_id, head=True)
    form = DrawForm(request.POST)
    if not form.is_valid():
        error = ServiceError("form.invalid", _("Lettres illisibles : %(e)s") % {"e": form.errors})
        return _game_error(request, obj, error, draw_form=form)
    letters = form.cleaned_data["letters"].strip() or None
    try:
        services.round_draw(game_id=obj.pk, letters=letters, actor=request.user)
    except ServiceError as error:
        return _game_error(request, game_or_404(game_id), error, draw_form=form)
    return redirect("console:game", game_id=obj.pk)


def _round_action(request: HttpRequest, round_id: int, action: Any) -> HttpResponse:
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id, head=True)
    try:
        action(round_id=rnd.pk, actor=request.user)
    except ServiceError as error:
        return _game_error(request, rnd.game, error)
    return redirect("console:game", game_id=rnd.game_id)


@login_required
@require_POST
def round_open(request: HttpRequest, round_id: int) -> HttpResponse:
    """Announce the rack: the server sets the deadline."""
    return _round_action(request, round_id, services.round_open)


@login_required
@require_POST
def round_place(request: HttpRequest, round_id: int) -> HttpResponse:
    """Place the top (the default one or the tied one chosen), then draw the next rack
    when ``next`` is sent."""
    rnd = round_or_404(round_id)
    obj = rnd.game
    role_or_403(request, obj.tournament_id, head=True)
    coord = word = None
    choice = request.POST.get("choice", "").split()
    if len(choice) == 2:
        coord, word = choice
    form = DrawForm(request.POST)
    try:
        services.round_place_top(round_id=rnd.pk, coord=coord, word=word, actor=request.user)
        if request.POST.get("next") and form.is_valid() and not selectors.is_sealed_game(obj):
            letters = form.cleaned_data["letters"].strip() or None
            services.round_draw(game_id=obj.pk, letters=letters, actor=request.user)
    except ServiceError as error:
        return _game_error(request, game_or_404(obj.pk), error, draw_form=form)
    return redirect("console:game", game_id=obj.pk)


# --- Slip entry and corrections --------------------------------------------------------


def _slip_context(request: HttpRequest, rnd: Round, **extra: Any) -> dict[str, Any]:
    game = rnd.game
    tables = selectors.tables_by_player(game.tournament_id)
    mine = {"actor": request.user, "tournament_id": game.tournament_id}  # a centre's only
    versions = selectors.recent_versions(rnd, player_ids=centre_players(**mine))
    return {
        "tournament": game.tournament,
        "game": game,
        "round": rnd,
        "role": role_or_403(request, game.tournament_id),
        "entries": [_entry(v, tables.get(v.player_id)) for v in versions],
        "missing": only_centre(selectors.missing_slips(rnd), **mine),
        **_slip_counts(rnd, request.user),
        "rounds": selectors.game_rounds(game, cancelled=False),
        "form": extra.pop("form", None) or SlipForm(),
        "correction_form": extra.pop("correction_form", None)
        or CorrectionForm(initial={"round_number": rnd.number}),
        "keys": slip_keys(rnd),  # every key of the page, and why not (console/keys.py)
        **extra,
    }


def _entry(version: Any, table: int | None) -> dict[str, Any]:
    return {
        "table": table,
        "player": version.player.name,
        "reference": version.reference,
        "word": version.word,
        "claimed": version.claimed_score,
        "kind": version.outcome_kind,
        "kind_label": KIND_LABELS.get(version.outcome_kind, version.outcome_kind),
        "score": version.outcome_score,
        "code": version.outcome_code,
        "reason": wording.outcome_text(version.outcome_code, version.outcome_params),
        "version": version.version,
        "current": version.is_current,
        "correction": version.reason,
        "at": version.created_at,
        # The time as the page shows it: the active zone is the centre arbiter's centre's
        # (``console.time_zone``), so the log's script adds the same text as a reload.
        "when": timezone.localtime(version.created_at).strftime("%H:%M:%S"),
    }


def _conflict_text(result: Any) -> str:
    """A sentence when the slip disagrees with another arbiter's entry (kept beside it)."""
    if getattr(result, "conflict", None) is None:
        return ""
    return _(
        "Ce bulletin diffère de celui saisi par un autre arbitre : conflit ouvert, "
        "le juge-arbitre tranche."
    )


def _slip_counts(rnd: Round, actor: Any) -> dict[str, int]:
    """Slips received and expected on the round; for a centre arbiter, in their centre."""
    allowed = centre_players(actor=actor, tournament_id=rnd.game.tournament_id)
    if allowed is None:
        return {"received": selectors.received_count(rnd),
                "registered": selectors.expected_count(rnd)}  # fmt: skip
    expected = [r for r in selectors.expected_registrations(rnd) if r.player_id in allowed]
    missing = [r for r in selectors.missing_slips(rnd) if r.player_id in allowed]
    return {"received": len(expected) - len(missing), "registered": len(expected)}


def _missing_json(rnd: Round, actor: Any) -> list[dict[str, Any]]:
    missing = only_centre(selectors.missing_slips(rnd), actor=actor,
                          tournament_id=rnd.game.tournament_id)  # fmt: skip
    return [{"table": r.table_number, "player": r.player.name} for r in missing]


def _slip_refusal(
    request: HttpRequest, rnd: Round, message: str, status: int, code: str, **extra: Any
) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": False, "code": code, "error": message}, status=status)
    ctx = _slip_context(request, rnd, error=message, **extra)
    return render(request, "console/slips.html", ctx, status=status)


def _player_at(rnd: Round, table: int) -> Any:
    return selectors.registration_at_table(rnd.game.tournament_id, table)


@login_required
def slips(request: HttpRequest, round_id: int) -> HttpResponse:
    """Fast slip entry: ``table reference word [score]``, one line per slip."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id)
    if request.method == "GET":
        return render(request, "console/slips.html", _slip_context(request, rnd))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    form = SlipForm(request.POST)
    line = request.POST.get("line", "")
    try:
        slip = parse_slip_line(line)
        reg = _player_at(rnd, slip.table)
        result = services.proposal_submit(
            round_id=rnd.pk,
            player_id=reg.player_id,
            word=slip.word,
            reference=slip.reference,
            claimed_score=slip.score,
            source="arbiter",
            actor=request.user,
            client_key=request.POST.get("client_key", "")[:64],
            ip=client_ip(request),
            device="console",
        )
    except SlipSyntaxError as error:
        return _slip_refusal(request, rnd, error.message, 400, "slip.syntax", form=form)
    except ServiceError as error:
        status = error_status(error)
        return _slip_refusal(request, rnd, wording.error_text(error), status, error.code, form=form)
    if _wants_json(request):
        rnd = round_or_404(round_id)
        return JsonResponse(
            {
                "ok": True,
                "entry": _entry(result.version, slip.table),
                "replayed": result.replayed,
                "conflict": _conflict_text(result),
                "missing": _missing_json(rnd, request.user),
                **_slip_counts(rnd, request.user),
            }
        )
    if conflict := _conflict_text(result):  # without JavaScript: said on the page it reloads
        messages.warning(request, conflict)
    return redirect("console:slips", round_id=rnd.pk)


@login_required
@require_POST
def correction(request: HttpRequest, round_id: int) -> HttpResponse:
    """A correction of any round of the game: a new version with its required reason."""
    rnd = round_or_404(round_id)
    role_or_403(request, rnd.game.tournament_id)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        ctx = _slip_context(request, rnd, correction_form=form, correction_error=True)
        return render(request, "console/slips.html", ctx, status=400)
    data = form.cleaned_data
    target = selectors.round_by_number(rnd.game, data["round_number"])
    try:
        if target is None:
            raise ServiceError(
                "round.unknown_number",
                _("La partie n'a pas de coup %(n)s.") % {"n": data["round_number"]},
            )
        slip = parse_slip_line(data["line"])
        reg = _player_at(rnd, slip.table)
        result = services.proposal_correct(
            round_id=target.pk,
            player_id=reg.player_id,
            word=slip.word,
            reference=slip.reference,
            claimed_score=slip.score,
            reason=data["reason"],
            actor=request.user,
            ip=client_ip(request),
            device="console",
        )
    except (SlipSyntaxError, ServiceError) as error:
        status = error_status(error) if isinstance(error, ServiceError) else 400
        ctx = _slip_context(
            request, rnd, correction_form=form, correction_error=wording.error_text(error)
        )
        return render(request, "console/slips.html", ctx, status=status)
    outcome = result.outcome
    messages.success(
        request,
        _("Coup %(n)s, table %(t)s : version %(v)s, %(k)s, %(s)s points. %(r)s")
        % {
            "n": target.number,
            "t": slip.table,
            "v": result.version.version,
            "k": KIND_LABELS.get(outcome.kind, outcome.kind),
            "s": outcome.score,
            "r": wording.outcome_text(outcome.code, outcome.params),
        },
    )
    return redirect("console:slips", round_id=rnd.pk)


# --- Players ----------------------------------------------------------------------------


def _centres_of(obj: Tournament) -> list[Any]:
    return selectors.tournament_centres(obj.pk) if obj.simultaneous else []


def _players_context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk),
        # A centre arbiter sees their centre's players only (access.only_centre).
        "registrations": only_centre(
            selectors.registrations(obj), actor=request.user, tournament_id=obj.pk
        ),  # fmt: skip
        "simultaneous": obj.simultaneous,
        "form": extra.pop("form", None) or PlayerForm(centres=_centres_of(obj)),
        "import_form": extra.pop("import_form", None) or PlayersImportForm(),
        **extra,
    }


@login_required
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """Players with their tables; register one by hand, or import a CSV/XLSX file."""
    obj = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, "console/players.html", _players_context(request, obj))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    role_or_403(request, obj.pk, head=True)
    if request.POST.get("action") == "import":
        return _players_import(request, obj)
    form = PlayerForm(request.POST, centres=_centres_of(obj))
    if not form.is_valid():
        ctx = _players_context(request, obj, form=form)
        return render(request, "console/players.html", ctx, status=400)
    data = dict(form.cleaned_data)
    table = data.pop("table_number")
    try:
        reg = services.player_register(
            tournament_id=obj.pk, table=table, actor=request.user, **data
        )
    except ServiceError as error:
        ctx = _players_context(request, obj, form=form, error=wording.error_text(error))
        return render(request, "console/players.html", ctx, status=error_status(error))
    messages.success(
        request,
        _("%(name)s est inscrit à la table %(t)s.") % {"name": data["name"], "t": reg.table_number},
    )
    return redirect("console:players", slug=obj.slug)


def _players_import(request: HttpRequest, obj: Tournament) -> HttpResponse:
    form = PlayersImportForm(request.POST, request.FILES)
    if not form.is_valid():
        ctx = _players_context(request, obj, import_form=form)
        return render(request, "console/players.html", ctx, status=400)
    upload = form.cleaned_data["file"]
    try:
        check_size(upload.size or 0)  # before reading the file into memory
        result = services.players_import(
            tournament_id=obj.pk, filename=upload.name, content=upload.read(), actor=request.user
        )
    except ServiceError as error:
        rows = error.details.get("errors") or []
        ctx = _players_context(
            request, obj, import_form=form, error=wording.error_text(error), row_errors=rows
        )
        return render(request, "console/players.html", ctx, status=error_status(error))
    messages.success(request, _("Import terminé : %(n)s joueurs inscrits.") % {"n": result.created})
    return redirect("console:players", slug=obj.slug)
