"""The sentences users read for refusals and proposal outcomes, in the request's language.

The engine and the services speak English to developers: an ``EngineError`` or a
``ServiceError`` carries a stable ``code``, an English ``message`` (for logs, the CLI and
tests) and ``details``. The site never shows that message: it shows :func:`error_text`, a
French template chosen by the code and filled from the details, translated by Django's
i18n like every other string of the site (French msgids, ``tournaments/locale``).

A code maps to a tuple of templates, the most precise first; the first whose every
``%(name)s`` is present (and not empty) in the details is used, so the last one of each
tuple names no detail and always fits. Proposal outcomes (``Outcome.code`` and ``params``
from ``engine.duplicate.proposals``) work the same way with :func:`outcome_text`, and
:func:`outcome_label` is the short label of the printed sheets. See docs/i18n.md.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext

from engine.duplicate.proposals import invalid_words_of
from tournaments.wording.errors_classic import CLASSIC_ERRORS
from tournaments.wording.errors_engine import ENGINE_ERRORS
from tournaments.wording.errors_play import PLAY_ERRORS
from tournaments.wording.errors_site import SITE_ERRORS
from tournaments.wording.labels import (
    DECISION_LABELS,
    GAME_ENDS,
    KIND_LABELS,
    OUTCOME_LABELS,
    OUTCOMES,
    REVIEW_LABELS,
)

log = logging.getLogger(__name__)

_FIELD = re.compile(r"%\((\w+)\)")

#: Codes raised by the site with a sentence already translated where it is raised (the
#: console builds it with ``gettext`` from data it holds): ``error_text`` shows that
#: sentence when the details cannot fill the template.
TRANSLATED_AT_SOURCE = frozenset({"form.invalid", "round.unknown_number"})

#: Refusals of the engine (``EngineError``) and the services (``ServiceError``): the tables
#: of the modules beside this one, merged in their original order.
ERRORS: Mapping[str, tuple[Promise, ...]] = {
    **ENGINE_ERRORS,
    **SITE_ERRORS,
    **PLAY_ERRORS,
    **CLASSIC_ERRORS,
}


def review_label(reason: str) -> str:
    """The console's sentence for a review reason (the code itself if unknown: a bug)."""
    label = REVIEW_LABELS.get(reason)
    if label is None:
        log.error("no wording for review reason %r", reason)
        return reason
    return str(label)


class _Blank(dict):
    """Format mapping where an absent parameter reads as an empty string."""

    def __missing__(self, key: str) -> str:
        return ""


def _present(value: Any) -> bool:
    return value is not None and value != ""


def _shown(value: Any) -> Any:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return value


def fill(code: str, details: Mapping[str, Any]) -> str | None:
    """The first template of ``code`` whose fields ``details`` all give, translated and
    filled; ``None`` when the code has no wording."""
    templates = ERRORS.get(code)
    if not templates:
        return None
    given = {k: _shown(v) for k, v in (details or {}).items() if _present(v)}
    for template in templates:
        if set(_FIELD.findall(str(template))) <= given.keys():
            return str(template) % given if "%(" in str(template) else str(template)
    return None


def error_text(error: Any) -> str:
    """The user's sentence for an ``EngineError`` or ``ServiceError``, in the active
    language: the template of its code filled from its details. A code without wording
    falls back to the error's English message (logged at DEBUG so it gets a template)."""
    code = getattr(error, "code", "")
    details = getattr(error, "details", None) or {}
    message = str(getattr(error, "message", "") or error)
    if code in TRANSLATED_AT_SOURCE and message:
        return message
    text = fill(code, details)
    if text is None:
        if code:
            log.debug("no wording for error code %r; showing the English message", code)
        return message
    return text


def _invalid_words(params: Mapping[str, Any]) -> str:
    """The refused words joined the French way (or the language's): the engine keeps them
    as a tuple, ``params["invalid_words"]``; outcomes stored before it did hold English
    prose, ``params["invalid"]`` ("A and B"), read the same."""
    parts = list(invalid_words_of(params))
    if len(parts) < 2:
        return "".join(parts)
    return gettext("%(words)s et %(last)s") % {"words": ", ".join(parts[:-1]), "last": parts[-1]}


def outcome_text(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The reason of a proposal outcome, filled from its ``params`` (``Outcome.params`` or
    ``ProposalVersion.outcome_params``), in the active language. The placement fault the
    engine adds (``params["error"]``) is worded by :func:`error_text`'s templates."""
    params = dict(params or {})
    template = OUTCOMES.get(code)
    if template is None:
        log.debug("no wording for outcome code %r", code)
        return str(params.get("reason") or outcome_label(code))
    values = _Blank({k: _shown(v) for k, v in params.items() if v is not None})
    values["invalid"] = _invalid_words(params)
    error_code = params.get("error") or ""
    values["detail"] = (fill(error_code, params) or "") if error_code else ""
    return (str(template) % values).strip()


def outcome_label(code: str) -> str:
    """The short label of an outcome code for slips and sheets (the code when unknown)."""
    label = OUTCOME_LABELS.get(code)
    return str(label) if label is not None else code


def kind_label(kind: str) -> str:
    """One word for an outcome kind (``valid`` → ``valable``), the kind when unknown."""
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind


def decision_label(kind: str, *, disciplinary: bool = False) -> str:
    """The printed name of an arbiter's decision; a disciplinary warning says so."""
    if kind == "warning" and disciplinary:
        return str(OUTCOME_LABELS["warning.disciplinary"])
    label = DECISION_LABELS.get(kind)
    return str(label) if label is not None else kind


_ARBITER_REASON = re.compile(r"\((.*)\)\.$", re.S)


def end_text(end: Mapping[str, Any] | None) -> str:
    """The sentence of a finished game's ``Game.end`` (``code``, ``remaining``, and the
    engine's English ``message``, whose parenthesis holds the arbiter's reason for E5)."""
    if not end:
        return ""
    code = str(end.get("code") or "")
    template = GAME_ENDS.get(code)
    if template is None:
        log.debug("no wording for game end %r", code)
        return str(end.get("message") or "")
    text = str(template)
    reason = _ARBITER_REASON.search(str(end.get("message") or ""))
    if code == "E5" and reason:
        why = gettext("Motif : %(reason)s") % {"reason": reason.group(1)}
        text = f"{text} {why}"
    remaining = end.get("remaining")
    if remaining:
        left = gettext("Lettres restantes : %(letters)s") % {"letters": remaining}
        text = f"{text} {left}"
    return text


def rejection_text(draw: Mapping[str, Any]) -> str:
    """Why a drawn rack went back to the bag (``adapter.draw_json``: ``rejected`` is
    ``minimum``, ``repeat`` or ``no_move``), worded like the ``rack.*`` refusals."""
    code = f"rack.{draw.get('rejected') or ''}"
    return fill(code, {"rack": draw.get("rack")}) or str(draw.get("message") or "")
