"""Player tablet pages, under /tablette/<token>/: no account, the private token is the key.

* ``page``: the board, the rack, the countdown, the entry form (HTML; the rest is JSON);
* ``state``: the live state, polled every second with ``If-None-Match`` (``live``);
* ``preview``: placement and score of a typed move, checked **without** the lexicon, so
  the page can never tell whether a word is valid before the round closes;
* ``submit``: the ``proposal_submit`` service (source ``tablet``, the page's client key
  makes a resend idempotent);
* ``results``: the player's outcome on every closed round, the total, négatif and rank.

A token that is unknown or revoked gets a 404 with a sentence. The token is the only
credential, so every answer is about its own registration and nobody else's proposal.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from engine.check import check_move
from engine.errors import EngineError
from tournaments import adapter, live_versions, round_snapshots, selectors, wording
from tournaments.access import PlayerActor
from tournaments.errors import ServiceError, http_status
from tournaments.http import client_ip
from tournaments.language import speaking
from tournaments.models import ProposalArrival, ProposalVersion, Registration, Round
from tournaments.models.choices import GameState, RoundState
from tournaments.parsing import ascii_int
from tournaments.services import arrival_receive, proposal_submit, queued_proposals
from tournaments.tablet import live
from tournaments.throttle import COUNTED, player_allowed

MAX_TOKEN = 200
MAX_TEXT = 40


# --- Token -------------------------------------------------------------------------------


def registration_for(token: str) -> Registration | None:
    """The registration holding ``token`` (None: unknown, revoked or too long)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    return selectors.registration_by_token(token)


def _unknown(request: HttpRequest, *, as_json: bool) -> HttpResponse:
    sentence = _(
        "Ce lien de tablette n'est pas valable : il a peut-être été révoqué ou remplacé. "
        "Demandez un nouveau lien ou QR code à l'arbitre."
    )
    if as_json:
        return JsonResponse({"code": "tablet.unknown", "message": sentence}, status=404)
    return render(request, "tablet/unknown.html", {"sentence": sentence}, status=404)


def _refusal(code: str, message: str, status: int = 400, **extra: Any) -> JsonResponse:
    return JsonResponse({"code": code, "message": message, **extra}, status=status)


def rate_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse (429) a token past the player rate limit (``tournaments.throttle``)."""

    @wraps(view)
    def limited(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        # The WSGI fast lane may have counted it already (``throttle.COUNTED``).
        allowed, retry = player_allowed(token, counted=request.META.get(COUNTED))
        if not allowed:
            response = _refusal(
                "tablet.too_many_requests",
                _("Trop de requêtes depuis cette tablette : réessayez dans quelques secondes."),
                status=429,
            )
            response["Retry-After"] = str(retry)
            return response
        return view(request, token, *args, **kwargs)

    return limited


#: token → (when looked up, the tournament's language): a tablet polls every second or so
#: and the language hardly ever changes, so a process asks the database at most every
#: ``LANGUAGE_SECONDS`` per token (a changed language shows within that delay).
_LANGUAGES: dict[str, tuple[float, str | None]] = {}
LANGUAGE_SECONDS = 10.0
_LANGUAGES_KEPT = 4096


def tablet_language(token: str) -> str | None:
    """The language of the token's tournament (None for an unknown token), cached."""
    now = time.monotonic()
    hit = _LANGUAGES.get(token)
    if hit is not None and now - hit[0] < LANGUAGE_SECONDS:
        return hit[1]
    code = selectors.language_by_token(token)
    if len(_LANGUAGES) >= _LANGUAGES_KEPT:
        _LANGUAGES.clear()
    _LANGUAGES[token] = (now, code)
    return code


def room_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The tablet speaks its tournament's language (``Tournament.language``), whatever the
    borrowed device is set to; an unknown token gets the site's language (French)."""

    @wraps(view)
    def spoken(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        code = tablet_language(token) if 0 < len(token) <= MAX_TOKEN else None
        with speaking(code, request):
            return view(request, token, *args, **kwargs)

    return spoken


def _body(request: HttpRequest) -> dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return request.POST.dict()


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value.strip()[:MAX_TEXT] if isinstance(value, str) else ""


# --- Messages ------------------------------------------------------------------------------


def engine_message(error: EngineError | ServiceError) -> str:
    """The player's sentence for a refusal of the checker or a service, in their language."""
    return wording.error_text(error)


def outcome_text(version: ProposalVersion | None) -> str:
    """The outcome's reason as the player reads it, in their language."""
    if version is None:
        return wording.outcome_text("zero.no_proposal")
    return wording.outcome_text(version.outcome_code, version.outcome_params or {})


def tablet_strings() -> dict[str, str]:
    """The sentences tablet.js shows, translated here (one catalogue for the site)."""
    return {
        "waiting": _("En attente du coup…"),
        "game_round": _("Partie %(game)s · coup %(round)s"),
        RoundState.DRAWN: _("Le tirage va être annoncé."),
        RoundState.OPEN: _("Coup en cours"),
        RoundState.CLOSED: _("Coup ramassé"),
        RoundState.CANCELLED: _("Coup annulé"),
        GameState.FINISHED: _("Partie terminée"),
        "time_up": _("Temps écoulé"),
        "centre_closed": _("Ramassé dans votre centre"),
        "centre_closed_title": _(
            "Votre centre a ramassé les bulletins : ce coup est terminé pour vous, "
            "les autres centres jouent encore."
        ),
        "late_warning": _("Temps écoulé : un envoi maintenant ne compterait pas."),
        "paused": _("Pause"),
        "paused_title": _("Le chrono est suspendu par l'arbitre : vous pouvez encore jouer."),
        "online": _("Connecté"),
        "offline": _("Connexion perdue : votre proposition est gardée et sera renvoyée."),
        "horizontal": _("horizontal"),
        "vertical": _("vertical"),
        "preview_hint": _("Aperçu : placez votre mot pour voir la référence et le score."),
        "preview_wait": _("Calcul de l'aperçu…"),
        "preview_offline": _("Aperçu indisponible hors connexion."),
        "reference": _("Référence"),
        "score": _("Score"),
        "points": _("points"),
        "joker_inferred": _("Joker déduit : vérifiez la lettre qu'il remplace."),
        "joker_letter": _("%(letter)s joué par un joker"),
        "not_sent": _("Pas encore envoyé"),
        "sending": _("Envoi en cours…"),
        "retrying": _("Pas encore reçu par le serveur : nouvel essai automatique…"),
        "received": _("Reçu par le serveur ✔"),
        "received_detail": _("Reçu : %(reference)s %(word)s (version %(version)s, %(time)s)"),
        "received_queued": _("Reçu : %(reference)s %(word)s (%(time)s), en cours d'enregistrement"),
        "changed": _("Modifiée, pas encore envoyée"),
        "refused": _("Refusé : %(message)s"),
        "late": _("Reçu hors délai : 0."),
        "over_kept": _("Coup terminé : votre proposition de %(time)s est retenue."),
        "over_late": _("Coup terminé : votre proposition est arrivée hors délai, elle compte 0."),
        "over_none": _("Coup terminé : aucune proposition reçue à temps."),
        "late_ignored": _("L'envoi de %(time)s est arrivé hors délai : il ne compte pas."),
        "tap_start": _("Touchez d'abord la case où commence le mot."),
        "rack_tile": _("Poser la lettre %(letter)s"),
        "joker_tile": _("Poser le joker"),
        "result_top": _("Top"),
        "result_you": _("Votre coup"),
        "result_total": _("Total"),
        "result_negatif": _("Négatif"),
        "result_rank": _("Rang"),
        "result_none": _("Pas de proposition"),
        "rank_of": _("%(rank)s sur %(players)s"),
        "square": _("case %(ref)s"),
        "empty": _("vide"),
    }


# --- Reads ---------------------------------------------------------------------------------


def _proposal_json(version: ProposalVersion | None) -> dict[str, Any] | None:
    if version is None:
        return None
    return {
        "version": version.version,
        "reference": version.reference,
        "word": version.word,
        "client_key": version.client_key,
        "late": version.late,
        "source": version.source,
        "at": live.iso(version.created_at),
    }


def _arrival_json(arrival: ProposalArrival) -> dict[str, Any]:
    """A move received on the queued path and not yet stored as a version (no number yet)."""
    return {
        "version": None,
        "reference": arrival.reference,
        "word": arrival.word,
        "client_key": arrival.client_key,
        "late": False,
        "source": "tablet",
        "at": live.iso(arrival.received_at),
        "pending": True,
    }


def _current(rnd: Round | None, player_id: int) -> ProposalVersion | None:
    if rnd is None:
        return None
    return selectors.current_proposal(rnd.pk, player_id)


def _results(reg: Registration, game: Any, rnd: Round | None, room: str) -> dict[str, Any] | None:
    """After the round closes: the outcome and its reason, the top, total, négatif, rank
    (the game's standings kept per process under the tournament's version ``room``)."""
    if game is None or rnd is None or rnd.state != RoundState.CLOSED or rnd.top_score is None:
        return None
    version = _current(rnd, reg.player_id)
    table, ranked = live.standings_by_player(game, room)
    mine = table.get(reg.player_id)
    return {
        "round": rnd.number,
        "kind": version.outcome_kind if version else "zero",
        "code": version.outcome_code if version else "zero.no_proposal",
        "score": version.outcome_score if version else 0,
        "reason": outcome_text(version),
        "reference": version.reference if version else "",
        "word": version.word if version else "",
        "top_score": rnd.top_score,
        "total": mine.total if mine else 0,
        "negatif": mine.negatif_text if mine else "0",
        "rank": mine.rank if mine else None,
        "players": ranked,
    }


def _centre_closed(reg: Registration, rnd: Round | None) -> Any:
    """When the player's centre closed the open round (a simultaneous event), else None:
    the round is over for this tablet while the other centres still play it."""
    if rnd is None or rnd.state != RoundState.OPEN or not reg.centre_id:
        return None
    return selectors.centre_close_at(rnd.pk, reg.centre_id)


def _state(reg: Registration, game: Any, rnd: Round | None, room: str = "") -> dict[str, Any]:
    version = _current(rnd, reg.player_id)
    centre_closed = _centre_closed(reg, rnd)
    waiting = selectors.pending_arrival(rnd.pk, reg.player_id) if rnd is not None else None
    return {
        "player": {"name": reg.player.name, "table": reg.table_number},
        "tournament": reg.tournament.name,
        "game": {"number": game.number, "state": game.state} if game else None,
        "round": live.round_public(rnd),
        # The player's centre collected its slips: no more moves here (issue 16).
        "centre": {"closed": True, "closed_at": live.iso(centre_closed)} if centre_closed else None,
        # A move still queued (the queued path) is the player's latest: shown as received.
        "proposal": _arrival_json(waiting) if waiting is not None else _proposal_json(version),
        "late_attempt": _proposal_json(selectors.last_late_attempt(rnd, reg.player_id)),
        "results": _results(reg, game, rnd, room),
    }


# --- Views ---------------------------------------------------------------------------------


@require_GET
@ensure_csrf_cookie
@never_cache
@rate_limited
@room_language
def page(request: HttpRequest, token: str) -> HttpResponse:
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=False)
    config = {
        "urls": {
            name: reverse(f"tablet:{name}", args=[token])
            for name in ("state", "preview", "submit", "results")
        },
        "csrf": get_token(request),
        "premiums": live.premiums(),
        "storage_key": "tirage-tablet-" + hashlib.sha256(token.encode()).hexdigest()[:16],
        "i18n": tablet_strings(),
    }
    context = {"registration": reg, "player": reg.player, "tournament": reg.tournament}
    return render(request, "tablet/page.html", {**context, "config": config})


@require_GET
@rate_limited
def state(request: HttpRequest, token: str) -> HttpResponse:
    """The live state. A poll still holding the current version gets its 304 from the
    shared cache alone (``live_versions``: no query); otherwise the versions are read
    first, then the rows the answer is built from. Without the cache, the version is
    derived from the rows (``live.game_version``)."""
    held = request.headers.get("If-None-Match", "")
    known = live_versions.tablet_versions(token, held) if 0 < len(token) <= MAX_TOKEN else None
    if known is not None and live.unchanged(request, known.etag):
        return live.not_modified(known.etag)
    reg = registration_for(token)
    ids = (reg.tournament_id, reg.player_id, reg.centre_id or 0) if reg is not None else None
    if reg is not None and (
        known is None or (known.tournament_id, known.player_id, known.centre_id) != ids
    ):
        # No ETag of ours, or one naming other ids: this registration's versions, then the
        # registration read again (nothing older than the versions is shown).
        known = live_versions.tablet_versions_for(token, reg)
        if known is not None:
            reg = registration_for(token)
    if reg is None:
        with speaking(None, request):  # the site's language, as room_language says it
            return _unknown(request, as_json=True)
    with speaking(reg.tournament.language, request):
        room = known.room if known is not None else ""
        if known is None:
            game, rnd, audit = live.snapshot(reg.tournament_id)
            # The current version and the newest one (one query): a late version kept
            # beside the current one changes what the tablet says, not what counts.
            own = selectors.own_versions_mark(rnd, reg.player_id)
            centre = _centre_closed(reg, rnd)  # the player's centre closed the round
            version = live.game_version(game, rnd, "tablet", reg.pk, own, centre, audit=audit)
        else:
            game, rnd, _audit = live.snapshot(reg.tournament_id, room)
            version = known.etag
        return live.conditional_json(request, version, lambda: _state(reg, game, rnd, room))


@require_GET
@rate_limited
@room_language
def results(request: HttpRequest, token: str) -> HttpResponse:
    """Every closed round of the current game for this player, and the standing."""
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=True)
    game = selectors.current_game(reg.tournament_id)
    rounds = selectors.counted_rounds(game) if game else []
    versions = selectors.player_versions(rounds, reg.player_id)
    lines = []
    for rnd in rounds:
        v = versions.get(rnd.pk)
        chosen = rnd.top["chosen"] if rnd.top else {}
        lines.append(
            {
                "round": rnd.number,
                "rack": rnd.rack,
                "top": {
                    "reference": chosen.get("coord"),
                    "word": chosen.get("word"),
                    "score": rnd.top_score,
                },
                "reference": v.reference if v else "",
                "word": v.word if v else "",
                "score": v.outcome_score if v else 0,
                "kind": v.outcome_kind if v else "zero",
                "reason": outcome_text(v),
            }
        )
    mine = None
    if game is not None:  # the player's own stored line, not the game's 5,000 sorted
        mine = selectors.player_standings(reg, [game])[0].line
    return JsonResponse(
        {
            "game": game.number if game else None,
            "rounds": lines,
            "total": mine.total if mine else 0,
            "negatif": mine.negatif_text if mine else "0",
            "rank": mine.rank if mine else None,
        },
        json_dumps_params={"ensure_ascii": False},
    )


def _round_of(reg: Registration, data: dict[str, Any]) -> Round | None:
    """The round a POST is about: the one it names (a resend must not slip into the next
    round) or else the current one; always a round of the player's own tournament."""
    wanted = data.get("round")
    if wanted not in (None, ""):
        round_id = ascii_int(wanted, low=1)
        if not round_id:
            return None
        try:
            return selectors.round_by_id(round_id, tournament_id=reg.tournament_id)
        except ServiceError:
            return None
    return selectors.current_round(selectors.current_game(reg.tournament_id))


def _check(rnd: Round, reference: str, word: str) -> Any:
    """``engine.check_move`` with **no lexicon**: placement, rack letters and score only."""
    var = adapter.variant(rnd.game.variant_code)
    return check_move(
        adapter.board(rnd.board_before),
        adapter.rack(rnd.rack),
        reference,
        word,
        lexicon=None,
        bonuses=var.bonuses,
        max_tiles=var.max_tiles,
    )


@require_POST
@rate_limited
@room_language
def preview(request: HttpRequest, token: str) -> HttpResponse:
    """Where the move goes and what it scores. Never says whether a word is valid."""
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=True)
    data = _body(request)
    rnd = _round_of(reg, data)
    if rnd is None or rnd.state not in {RoundState.OPEN, RoundState.CLOSED}:
        return _refusal("round.not_open", _("Le coup n'est pas encore ouvert."), status=409)
    reference, word = _text(data, "reference"), _text(data, "word")
    try:
        move = _check(rnd, reference, word)
    except EngineError as error:
        return _refusal(error.code, engine_message(error), status=422)
    except ServiceError as error:  # pragma: no cover - an unknown variant code
        return _refusal(error.code, engine_message(error), status=422)
    squares = live.placed_squares(rnd.board_before, move.coord, move.word)
    return JsonResponse(
        {
            "round": rnd.pk,
            "reference": move.coord,
            "word": move.word,
            "score": move.score,
            "placed": squares,
            "jokers_as": list(move.jokers_as),
            "joker_inferred": move.joker_inferred,
        },
        json_dumps_params={"ensure_ascii": False},
    )


def _submit_queued(request: HttpRequest, reg: Registration, rnd: Round, *, reference: str,
                   word: str, key: str) -> HttpResponse:  # fmt: skip
    """The queued path (``services.arrivals``): the move is stored, answered 202 (200 for a
    replay) with no version number and no outcome yet; the page shows it as received."""
    try:
        receipt = arrival_receive(
            actor=PlayerActor.of(reg), rnd=rnd, registration=reg, word=word, reference=reference,
            client_key=key,
            ip=client_ip(request), device=request.headers.get("User-Agent", "")[:200],
        )  # fmt: skip
    except ServiceError as error:
        return _refusal(error.code, engine_message(error), status=http_status(error.code))
    answer = {"received": True, "replayed": receipt.replayed, "round": rnd.pk,
              **_arrival_json(receipt.arrival), "counts": True, "standing": None}  # fmt: skip
    return JsonResponse(answer, status=202, json_dumps_params={"ensure_ascii": False})


@require_POST
@rate_limited
@room_language
def submit(request: HttpRequest, token: str) -> HttpResponse:
    """Hand the move in (``proposal_submit``, source ``tablet``). The answer says the
    server has it; it reveals no outcome, except "late" which the clock already told."""
    reg = registration_for(token)
    if reg is None:
        return _unknown(request, as_json=True)
    data = _body(request)
    rnd = _round_of(reg, data)
    if rnd is None:
        return _refusal("round.unknown", _("Ce coup n'existe pas."), status=404)
    reference, word = _text(data, "reference"), _text(data, "word")
    client_key = _text(data, "client_key")[:64]
    if not word or not reference:
        return _refusal("proposal.incomplete", _("Il faut une référence et un mot."))
    if (
        queued_proposals()
        and rnd.state == RoundState.OPEN
        and rnd.top_score is not None
        and round_snapshots.centre_closed_at(rnd.pk, reg.centre_id) is None
    ):  # a move after the player's centre closed is judged at once (late)
        return _submit_queued(request, reg, rnd, reference=reference, word=word, key=client_key)
    fields = dict(
        round_id=rnd.pk,
        player_id=reg.player_id,
        word=word,
        reference=reference,
        source="tablet",
        client_key=client_key,
        ip=client_ip(request),
        device=request.headers.get("User-Agent", "")[:200],
        actor=PlayerActor.of(reg),
    )
    try:
        # No score: with scores required the service writes the tablet's own (S2).
        result = proposal_submit(claimed_score=None, **fields)
    except ServiceError as error:
        return _refusal(error.code, engine_message(error), status=http_status(error.code))
    version = result.version
    if result.replayed and version.late and not version.is_current:
        standing = _current(rnd, reg.player_id)
    else:
        standing = result.standing
    answer: dict[str, Any] = {
        "received": True,
        "replayed": result.replayed,
        "round": rnd.pk,
        **(_proposal_json(version) or {}),
        # A late version kept beside an on-time one: that one still counts (and it is the
        # player's own proposal, so showing it reveals nothing).
        "counts": standing is None,
        "standing": _proposal_json(standing),
    }
    if version.late and standing is None:
        answer["outcome"] = {
            "code": version.outcome_code,
            "score": version.outcome_score,
            "reason": outcome_text(version),
        }
    return JsonResponse(
        answer, status=200 if result.replayed else 201, json_dumps_params={"ensure_ascii": False}
    )
