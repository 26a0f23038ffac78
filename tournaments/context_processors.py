"""What every console, tablet and projector template may name besides its own context.

The stored states are ``TextChoices`` (tournaments/models/choices.py); templates compare with
them (``{% if round.state == RoundState.OPEN %}``) instead of repeating the strings, so a
renamed state is one change and ``tests/site/test_state_literals.py`` can refuse a literal in
a template as it does in Python. Django's choices are never called by the template engine
(``do_not_call_in_templates``), so ``RoundState.OPEN`` resolves to the member itself.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.models.choices import BatchState, GameState, JobState, RoundState

STATES = {
    "BatchState": BatchState,
    "GameState": GameState,
    "JobState": JobState,
    "RoundState": RoundState,
}


def states(request: HttpRequest) -> dict[str, Any]:
    """The state choices, under their class names."""
    return STATES
