"""Template filters that turn stored codes into the words of ``tournaments.wording``, so a
page never shows ``zero`` or ``warning.score_wrong`` where a French label belongs.

``{% load wording %}`` then ``{{ version.outcome_code|outcome_label }}``."""

from __future__ import annotations

from django import template

from tournaments import wording

register = template.Library()


@register.filter
def outcome_label(code: str) -> str:
    """The short label of an outcome code (``Zéro : mot non valable``)."""
    return wording.outcome_label(code or "")


@register.filter
def kind_label(kind: str) -> str:
    """The word for an outcome kind (``valid`` → ``valable``)."""
    return wording.kind_label(kind or "")


@register.filter
def document_label(kind: str) -> str:
    """The name of a document kind of ``reports.documents`` (``xlsx`` → ``Classeur XLSX``)."""
    from tournaments.reports.centre_documents import CENTRE_KINDS
    from tournaments.reports.documents import BY_KIND

    doc = BY_KIND.get(kind or "") or CENTRE_KINDS.get(kind or "")
    return str(doc.label) if doc is not None else kind


@register.filter
def variant_name(code: str) -> str:
    """The French name of a game formula code (``joker`` → ``Partie joker``)."""
    from engine.duplicate.variants import VARIANTS

    variant = VARIANTS.get(code or "")
    return variant.name if variant is not None else code


@register.filter
def end_text(end: dict | None) -> str:
    """How a finished game ended (``Game.end``), in words."""
    return wording.end_text(end)


@register.filter
def rejection_text(draw: dict) -> str:
    """Why a drawn rack was rejected (a ``draw_json`` entry), in words."""
    return wording.rejection_text(draw or {})
