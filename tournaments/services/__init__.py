"""Services: the only code that changes state. Views, the API, tasks and management
commands all call these functions (keyword arguments, typed results, ``ServiceError``).

Each one runs in a transaction with row locks and writes the audit log; see the modules:
``games`` (lexicons, games, racks, placing tops), ``rounds`` (top, open, close) and
``proposals`` (submissions and corrections).
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from tournaments.tasks import tournament_touch


def request_touch(tournament_id: int) -> None:
    """Queue ``tournament_touch`` once the current transaction commits.

    Queuing on commit guarantees the worker (another process, another connection) sees the
    row it is asked to reload; a rolled-back transaction queues nothing.
    """
    transaction.on_commit(partial(tournament_touch.delay, tournament_id))


from tournaments.services.games import (  # noqa: E402  (after request_touch: tasks import us)
    game_create,
    lexicon_register,
    round_draw,
    round_place_top,
)
from tournaments.services.proposals import (  # noqa: E402
    ProposalResult,
    proposal_correct,
    proposal_submit,
)
from tournaments.services.rounds import round_close, round_compute_top, round_open  # noqa: E402

__all__ = [
    "ProposalResult",
    "game_create",
    "lexicon_register",
    "proposal_correct",
    "proposal_submit",
    "request_touch",
    "round_close",
    "round_compute_top",
    "round_draw",
    "round_open",
    "round_place_top",
]
