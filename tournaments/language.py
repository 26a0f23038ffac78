"""The tournament's language (``Tournament.language``, French by default): what its room
reads. The projector, the players' tablets and the printed documents speak it whatever the
browser asks for (the room's PC, a borrowed tablet may be set to anything); the arbiters'
console stays in each arbiter's own language."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from django.conf import settings
from django.utils import translation


def known(code: str | None) -> str:
    """``code`` when the site speaks it, else the site's language (French)."""
    available = {c for c, _name in settings.LANGUAGES}
    return code if code in available else settings.LANGUAGE_CODE


@contextmanager
def speaking(code: str | None, request: Any = None) -> Iterator[str]:
    """Translate in ``code`` (a known language, else French) inside the block; the
    request's ``LANGUAGE_CODE`` follows, so ``<html lang>`` says the same."""
    language = known(code)
    with translation.override(language):
        if request is not None:
            request.LANGUAGE_CODE = language
        yield language


def in_tournament_language(render: Callable[..., Any]) -> Callable[..., Any]:
    """Run a document renderer whose second argument (or ``tournament=``) is the tournament
    in that tournament's language (``tournaments.reports.documents.render_document``)."""

    @wraps(render)
    def rendered(*args: Any, **kwargs: Any) -> Any:
        tournament = kwargs.get("tournament", args[1] if len(args) > 1 else None)
        with speaking(getattr(tournament, "language", None)):
            return render(*args, **kwargs)

    return rendered
