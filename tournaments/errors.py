"""The one error type services raise for a user's mistake; views map it to a 4xx.

A broken invariant is not a ``ServiceError``: it is a bug, raised as a plain exception and
logged. Engine refusals (``EngineError``) are wrapped with their code unchanged, so the site
translates one vocabulary of codes."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError


class ServiceError(Exception):
    """A refusal with a stable ``code`` and a sentence the arbiter or player can read."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    @classmethod
    def from_engine(cls, error: EngineError) -> ServiceError:
        """Keep the engine's code, sentence and details."""
        return cls(error.code, error.message, **error.details)

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


# --- One status per code, for every audience (API, console, tablets) -----------------------

#: Refusals caused by the current state of something, not by the request itself: 409.
CONFLICT_CODES = frozenset(
    {
        "draw.pending",
        "game.over",
        "proposal.key_reused",
        "round.not_closed",
        "round.not_drawn",
        "round.not_open",
        "round.state",
        "round.top_placed",
        "round.cancelled",
        # a document too big for a request (players x games): the worker builds it
        "document.by_worker",
        # round control (issue 15): the clock's state
        "round.time_left",
        "round.time_over",
        "round.no_time_left",
        "dispute.no_round",
        # simultaneous events (issue 16): a centre's clock, centres still playing the round
        "centre.time_left",
        "round.centres_open",
        "centre.not_simultaneous",
        "centre.in_use",
        "game.simultaneous_seeded",
        "game.simultaneous_manual",
        # settings that played games depend on (tournament_update): the tournament's state
        "tournament.frozen_started",
        "tournament.frozen_closed",
        # classic tournaments (services.classic)
        "classic.not_classic",
        "classic.has_games",
        "classic.rounds_done",
        "classic.round_incomplete",
        "classic.round_not_last",
        "classic.round_has_results",
        "classic.result_race",
        "classic.report_done",
        # classic score sheets (services.score_sheets)
        "score_sheet.over",
        "score_sheet.race",
        "score_sheet.no_line",
        # players (services/registrations.py)
        "registration.withdrawn",
        "registration.not_withdrawn",
        "registration.played_after",
        "registration.withdraw_before_arrival",
        "registration.arrival_after_withdrawal",
        # the card game (issue 18): the table's state, not the request, refuses
        "turn.not_yours",
        "turn.pending",
        "challenge.nothing",
        "exchange.deck",
        # tables opened by players: the caps of the moment (services/card_tables.py)
        "cards.player_tables",
        "cards.tournament_tables",
        "cards.player_rate",
        "cards.not_over",
        # a game's announced rounds (services.games.game_rounds_set): rounds already drawn
        "game.rounds_drawn",
        "end.round_pending",
        # sealed games and their releases (services.sealing, services.release)
        "release.hand_draw",
        "release.cancel",
        "release.not_sealed",
        "release.early",
        "release.unscheduled",
        "seal.key",
        "seal.no_key",
        "seal.key_format",
        "seal.corrupt",
    }
)
CONFLICT_SUFFIXES = (".state", ".conflict", ".already", ".exists", ".duplicate", "_taken")
NOT_FOUND_SUFFIXES = (".unknown", ".not_found", ".unavailable")
#: A per-game document asked for the whole tournament (or the reverse): no such document.
NOT_FOUND_CODES = frozenset({"document.game_required", "document.whole_tournament"})
#: Wrong credentials on the token exchange: 401, like any refused authentication.
UNAUTHORIZED_CODES = frozenset({"auth.credentials"})


def http_status(code: str) -> int:
    """The HTTP status of a refusal's code, the same on every page and endpoint: 403 for
    ``access.*``, 401 for wrong credentials, 404 for an unknown object, 409 for a refusal
    due to the current state (a round not open yet, a top already placed, a name taken),
    else 400 (the request itself is wrong)."""
    if code.startswith("access."):
        return 403
    if code in UNAUTHORIZED_CODES:
        return 401
    if code.endswith(NOT_FOUND_SUFFIXES) or code in NOT_FOUND_CODES:
        return 404
    if code in CONFLICT_CODES or code.endswith(CONFLICT_SUFFIXES):
        return 409
    return 400


def error_body(
    code: str,
    detail: str,
    *,
    params: dict[str, Any] | None = None,
    fields: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The one JSON shape of every API error (docs/api.md): always the four keys, ``params``
    (the refusal's details) and ``fields`` (the sentences per invalid field) empty when
    there are none, so a client reads every error the same way."""
    return {"code": code, "detail": detail, "params": params or {}, "fields": fields or {}}
