"""Services: the only code that changes state. Views, the API, tasks and management
commands all call these functions (keyword arguments, typed results, ``ServiceError``).

Each one runs in a transaction with row locks, checks who acts (``tournaments.access``) and
writes the audit log; see the modules: ``registry`` (tournaments, players, tokens),
``registrations`` (editing, table changes, withdrawals, every tablet link at once),
``tournament_settings`` (settings), ``arbiters`` (arbiters and their accounts),
``lexicons`` (a club's word list built by a worker), ``imports`` (player lists), ``games``
(lexicons, games, racks, placing tops),
``rounds`` (top, open, close), ``proposals`` (submissions, corrections, slip conflicts),
``decisions`` (warnings, penalties, zeros, moyenne), ``lifecycle`` (cancel, stop, conflicts),
``centres`` (a simultaneous event's centres, their arbiters and closes),
``recompute`` and ``batch`` (pre-drawn games prepared by the workers), ``reports``
(documents built by a worker), ``demo``.

Every service takes a required ``actor`` (``tournaments.access.Actor``: a user, a player's
token or ``access.SYSTEM``). Services queue Celery tasks by name
(``tournaments.queueing``) and never import ``tournaments.tasks``, which imports them.
"""

from __future__ import annotations

from tournaments.queueing import queue_after_commit
from tournaments.services.arbiters import (
    ArbiterAdded,
    arbiter_add,
    arbiter_handover,
    arbiter_password_reset,
    arbiter_remove,
)
from tournaments.services.arrivals import (
    Receipt,
    arrival_receive,
    arrivals_ingest,
    arrivals_sweep,
    queued_proposals,
)
from tournaments.services.batch import (
    game_create_from_prepared,
    predrawn_batch_prepare,
    prepared_game_play,
)
from tournaments.services.card_tables import card_settings_set, card_table_close
from tournaments.services.cards import (
    SeatSpec,
    card_table_open,
    card_table_settle,
    card_turn_play,
)
from tournaments.services.centres import (
    arbiter_centre_set,
    centre_close,
    centre_create,
    centre_delete,
    centre_update,
    registration_centre_set,
)
from tournaments.services.decisions import (
    decision_moyenne,
    decision_penalty,
    decision_review,
    decision_warning,
    decision_zero,
)
from tournaments.services.demo import demo_create, demo_legacy_retire
from tournaments.services.games import (
    game_create,
    game_rounds_set,
    lexicon_register,
    round_draw,
    round_place_top,
)
from tournaments.services.imports import ImportResult, RowError, players_import
from tournaments.services.lifecycle import (
    CancelResult,
    conflict_resolve,
    game_stop,
    round_cancel,
)
from tournaments.services.proposals import (
    ProposalResult,
    proposal_correct,
    proposal_submit,
)
from tournaments.services.recompute import (
    RecomputeResult,
    game_recompute,
    game_recompute_later,
    round_recompute,
    round_recompute_later,
)
from tournaments.services.registrations import (
    registration_reinstate,
    registration_tokens_issue,
    registration_update,
    registration_withdraw,
)
from tournaments.services.registry import (
    arbiter_account_create,
    player_register,
    registration_arrive,
    registration_token_issue,
    registration_token_revoke,
    tournament_create,
    tournament_touch,
)
from tournaments.services.reports import report_job_build, report_job_create
from tournaments.services.round_clock import round_extend, round_pause, round_reopen, round_resume
from tournaments.services.rounds import round_close, round_compute_top, round_open
from tournaments.services.tournament_settings import tournament_update


def request_touch(tournament_id: int) -> None:
    """Queue the ``tournament_touch`` task once the current transaction commits.

    Queuing on commit guarantees the worker (another process, another connection) sees the
    row it is asked to reload; a rolled-back transaction queues nothing.
    """
    queue_after_commit("tournaments.tournament_touch", tournament_id)


__all__ = [
    "ArbiterAdded",
    "CancelResult",
    "ImportResult",
    "ProposalResult",
    "RecomputeResult",
    "RowError",
    "SeatSpec",
    "arbiter_account_create",
    "arbiter_centre_set",
    "centre_close",
    "centre_create",
    "centre_delete",
    "centre_update",
    "registration_centre_set",
    "arbiter_add",
    "arbiter_handover",
    "arbiter_password_reset",
    "arbiter_remove",
    "card_settings_set",
    "card_table_close",
    "card_table_open",
    "card_table_settle",
    "card_turn_play",
    "conflict_resolve",
    "decision_moyenne",
    "decision_review",
    "decision_penalty",
    "decision_warning",
    "decision_zero",
    "demo_create",
    "demo_legacy_retire",
    "game_create",
    "game_create_from_prepared",
    "game_recompute",
    "game_recompute_later",
    "game_rounds_set",
    "game_stop",
    "lexicon_register",
    "player_register",
    "players_import",
    "predrawn_batch_prepare",
    "prepared_game_play",
    "Receipt",
    "arrival_receive",
    "arrivals_ingest",
    "arrivals_sweep",
    "queued_proposals",
    "proposal_correct",
    "proposal_submit",
    "registration_arrive",
    "registration_reinstate",
    "registration_tokens_issue",
    "registration_update",
    "registration_withdraw",
    "registration_token_issue",
    "registration_token_revoke",
    "report_job_build",
    "report_job_create",
    "request_touch",
    "round_cancel",
    "round_close",
    "round_compute_top",
    "round_draw",
    "round_extend",
    "round_open",
    "round_pause",
    "round_place_top",
    "round_recompute",
    "round_recompute_later",
    "round_reopen",
    "round_resume",
    "tournament_create",
    "tournament_touch",
    "tournament_update",
]
