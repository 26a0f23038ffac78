"""Documents and exports of a tournament (arbiters): the same renderers as the console's
"Documents" page and ``manage.py tirage_export`` (``tournaments.reports.documents``)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer

from tournaments import selectors
from tournaments.access import require_document
from tournaments.api.permissions import arbiter_actor
from tournaments.api.views.common import ApiView, errors
from tournaments.reports.centre_documents import (
    CENTRE_KINDS,
    render_centre_document,
    require_centre_document,
)
from tournaments.reports.documents import (
    BY_KIND,
    check_direct,
    check_scope,
    document,
    game_of,
    render_document,
)


class AnyFileRenderer(BaseRenderer):
    """Accepts any ``Accept`` header (a client asking for ``application/pdf`` is not a 406);
    the view answers with the file itself, and an error body is still JSON."""

    media_type = "*/*"
    format = "file"
    charset = None

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        if renderer_context and renderer_context.get("response") is not None:
            renderer_context["response"]["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False).encode("utf-8")


class DocumentView(ApiView):
    renderer_classes = [JSONRenderer, AnyFileRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "kind", str, OpenApiParameter.PATH, enum=sorted(BY_KIND),
                description="The document (docs/reports.md).",
            ),
            OpenApiParameter(
                "game", int, description="The game's number (required for a per-game document)."
            ),
            OpenApiParameter(
                "base_url", str,
                description="Site address printed in the tablet links (default: this server).",
            ),
        ],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.BINARY,
                description="The file (PDF, XLSX, CSV or JSON), with Content-Disposition.",
            ),
            **errors(400, 401, 403, 404, 409),
        },
        tags=["documents"],
    )  # fmt: skip
    def get(self, request: Any, slug: str, kind: str) -> HttpResponse:
        """A printed document or export of the tournament (``?game=N`` for one game).

        A document whose cost grows with players × games (results, workbook, arbiter
        sheet, players' records) above ``TIRAGE_DOCUMENT_DIRECT_CELLS`` (2,000 by default)
        is refused with a 409 ``document.by_worker``: the console's documents page
        prepares it on the worker (docs/reports.md)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        require_document(actor=actor, tournament_id=tournament.pk, kind=kind)
        game = game_of(tournament, request.query_params.get("game"))
        doc = document(kind)
        check_scope(doc, game)
        check_direct(doc, tournament, game)  # 409 document.by_worker: prepare it in the console
        base_url = request.query_params.get("base_url") or request.build_absolute_uri("/")
        rendered = render_document(kind, tournament, game, base_url=base_url)
        return _file_response(rendered)


class CentreDocumentView(ApiView):
    renderer_classes = [JSONRenderer, AnyFileRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "kind", str, OpenApiParameter.PATH, enum=sorted(CENTRE_KINDS),
                description="The centre's document (docs/simultaneous.md).",
            ),
            OpenApiParameter(
                "game", int, description="The game's number (default: the whole tournament)."
            ),
        ],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.BINARY,
                description="The file (PDF or XLSX), with Content-Disposition.",
            ),
            **errors(400, 401, 403, 404),
        },
        tags=["documents"],
    )  # fmt: skip
    def get(self, request: Any, slug: str, centre_id: int, kind: str) -> HttpResponse:
        """A centre's ranking in a simultaneous event (``?game=N`` for one game): that
        centre's players only, with their rank in the centre and in the whole event. A
        centre arbiter gets their own centre's (403 ``access.other_centre`` otherwise)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        centre = require_centre_document(actor=actor, tournament=tournament, centre_id=centre_id)
        game = game_of(tournament, request.query_params.get("game"))
        rendered = render_centre_document(kind, tournament, centre, game)
        return _file_response(rendered)


def _file_response(rendered: Any) -> HttpResponse:
    """A rendered document as an attachment, never cached (documents and centre documents)."""
    response = HttpResponse(rendered.content, content_type=rendered.content_type)
    response["Content-Disposition"] = _attachment(rendered.filename)
    response["Cache-Control"] = "no-store"
    return response


def _attachment(filename: str) -> str:
    return content_disposition_header(True, filename) or "attachment"
