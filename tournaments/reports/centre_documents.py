"""A centre's documents (issue 16): the catalogue, the scope check and one function that
renders any of them, used by the console's download, the API's
``centres/{centre}/documents/{kind}`` and ``manage.py tirage_export --centre``, so all
three serve the same bytes (as :mod:`tournaments.reports.documents` for the event's).

Who gets what: the tournament's head arbiter and its arbiters of the whole event, every
centre's; an arbiter bound to a centre, their centre's only (``access.other_centre``, a
403): a centre's document never carries another centre's players. The documents are read
from the event's stored ranking and cost what the results sheet costs, so they are built
in the request, never by a worker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.access import Actor, centre_scope, require_arbiter
from tournaments.errors import ServiceError
from tournaments.language import in_tournament_language
from tournaments.models import Centre, Game, Tournament
from tournaments.reports.base import Rendered
from tournaments.selectors.centre_ranking import CentreRanking, centre_ranking
from tournaments.selectors.centres import tournament_centre

# The renderers import reportlab and openpyxl, needed only when a document is built (as
# ``families.duplicate``): each function below imports its own.


def _pdf(data: CentreRanking) -> Rendered:
    from tournaments.reports.centres import centre_ranking_pdf

    return centre_ranking_pdf(data)


def _xlsx(data: CentreRanking) -> Rendered:
    from tournaments.reports.centres import centre_ranking_xlsx

    return centre_ranking_xlsx(data)


@dataclass(frozen=True, slots=True)
class CentreDocument:
    """One of a centre's documents: its kind (in the addresses), label and renderer. Each
    is about the whole tournament or one of its games (``game`` optional)."""

    kind: str
    label: Promise
    render: Callable[[CentreRanking], Rendered]


CENTRE_DOCUMENTS: tuple[CentreDocument, ...] = (
    CentreDocument("centre-ranking", _("Classement du centre (PDF)"), _pdf),
    CentreDocument("centre-xlsx", _("Classement du centre (XLSX)"), _xlsx),
)
CENTRE_KINDS = {d.kind: d for d in CENTRE_DOCUMENTS}


def centre_document(kind: str) -> CentreDocument:
    """The catalogue entry, or ``document.unknown`` (a 404)."""
    if kind not in CENTRE_KINDS:
        raise ServiceError("document.unknown", f"There is no document '{kind}'.", kind=kind)
    return CENTRE_KINDS[kind]


def require_centre_document(*, actor: Actor, tournament: Tournament, centre_id: int) -> Centre:
    """The tournament's centre ``centre_id`` when ``actor`` may have its documents: any
    arbiter of the tournament (``access.arbiter``), and for an arbiter bound to a centre,
    that centre only (``access.other_centre``). ``centre.unknown`` (404) for a centre of
    another tournament or none."""
    require_arbiter(actor=actor, tournament_id=tournament.pk)
    centre = tournament_centre(tournament.pk, centre_id)
    if centre is None:
        raise ServiceError("centre.unknown", f"There is no centre {centre_id}.")
    mine = centre_scope(actor=actor, tournament_id=tournament.pk).centre_id
    if mine is not None and mine != centre.pk:
        raise ServiceError("access.other_centre", "This centre is not yours.")
    return centre


@in_tournament_language  # printed in the tournament's language, whoever asks (issue 15)
def render_centre_document(
    kind: str, tournament: Tournament, centre: Centre, game: Game | None = None
) -> Rendered:
    """Render centre document ``kind`` of ``centre`` over the tournament (or its ``game``).
    The caller checked the scope (:func:`require_centre_document`)."""
    return centre_document(kind).render(centre_ranking(tournament, centre, game))
