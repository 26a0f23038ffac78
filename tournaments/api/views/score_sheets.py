"""The classic score sheets' API (docs/api.md, docs/classic.md "The score sheet"), for the
tournament's arbiters: open a sheet (stand-alone, or a classic table's), read it, type its
next line, correct a line (with its reason) and type its end lines. Every answer is the
whole sheet as counted by ``engine.classic.sheet``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from tournaments import selectors
from tournaments.api.permissions import arbiter_actor
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError
from tournaments.models import ScoreSheet, SheetTieBreak
from tournaments.selectors.score_sheets import SheetView
from tournaments.services import score_sheets as service


class SheetLineSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    player = serializers.IntegerField(help_text="0-based, in playing order.")
    name = serializers.CharField()
    kind = serializers.CharField(help_text="move, score, pass or exchange.")
    text = serializers.CharField(help_text="As typed again: « H8 CHAT », « 23 », « passe ».")
    score = serializers.IntegerField()
    placed = serializers.CharField(allow_blank=True, help_text="Tiles put down, ? a joker.")
    totals = serializers.ListField(child=serializers.IntegerField())
    versions = serializers.IntegerField(help_text="2 or more: corrected.")


class SheetEndSerializer(serializers.Serializer):
    name = serializers.CharField()
    left = serializers.CharField(allow_blank=True, help_text="As typed: a value or letters.")
    minus = serializers.IntegerField(help_text="« Lettres restantes ».")
    plus = serializers.IntegerField(help_text="« Partie terminée »: the others' total.")
    final = serializers.IntegerField()
    rank = serializers.IntegerField()


class SheetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    tournament = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, help_text="The classic table, if any.")
    names = serializers.ListField(child=serializers.CharField())
    tie_break = serializers.CharField(help_text="ex_aequo or fewest_tiles.")
    lines = SheetLineSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    next_player = serializers.IntegerField(allow_null=True, help_text="None once over.")
    end = SheetEndSerializer(many=True, help_text="Empty until the end lines are typed.")
    not_played = serializers.CharField(allow_blank=True, help_text="Bag and racks.")
    tracked = serializers.BooleanField(help_text="False: a bare score left tiles uncounted.")


class SheetCreateSerializer(serializers.Serializer):
    names = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, max_length=4
    )
    table = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    tie_break = serializers.ChoiceField(
        choices=SheetTieBreak.values, required=False, default=SheetTieBreak.EX_AEQUO
    )


class SheetLineInSerializer(serializers.Serializer):
    line = serializers.CharField(max_length=40, allow_blank=True)


class SheetCorrectSerializer(SheetLineInSerializer):
    reason = serializers.CharField(max_length=200, allow_blank=True)


class SheetEndInSerializer(serializers.Serializer):
    left = serializers.ListField(
        child=serializers.CharField(max_length=9, allow_blank=True), min_length=2, max_length=4
    )
    went_out = serializers.IntegerField(allow_null=True, min_value=0, max_value=3)
    reason = serializers.CharField(max_length=200, allow_blank=True, required=False, default="")


def sheet_body(view: SheetView) -> dict[str, Any]:
    state = view.state
    return {
        "id": view.sheet.pk,
        "number": view.sheet.number,
        "tournament": view.sheet.tournament.slug,
        "table": view.sheet.table_id,
        "names": list(view.names),
        "tie_break": view.sheet.tie_break,
        "lines": [
            {
                "number": r.number,
                "player": r.player,
                "name": r.name,
                "kind": r.kind,
                "text": r.text,
                "score": r.score,
                "placed": r.placed,
                "totals": list(r.totals),
                "versions": r.versions,
            }
            for r in view.rows
        ],
        "totals": list(view.finals),
        "next_player": None if view.end is not None else state.next_player,
        "end": [_end(e) for e in view.end_rows],
        "not_played": state.not_played,
        "tracked": state.tracked,
    }


def _end(e: Any) -> dict[str, Any]:
    return {f: getattr(e, f) for f in ("name", "left", "minus", "plus", "final", "rank")}


def _answer(sheet: ScoreSheet, code: int = status.HTTP_200_OK) -> Response:
    sheet.refresh_from_db()
    return Response(
        SheetSerializer(sheet_body(selectors.score_sheet_view(sheet))).data, status=code
    )


def _sheet_for(request: Any, sheet_id: int) -> tuple[ScoreSheet, Any]:
    sheet = selectors.score_sheet_by_id(sheet_id)
    return sheet, arbiter_actor(request, sheet.tournament_id)


class SheetsView(ApiView):
    @extend_schema(
        request=SheetCreateSerializer,
        responses={201: SheetSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
    )
    def post(self, request: Any, slug: str) -> Response:
        """Open a sheet: ``table`` (a classic table's sheet, opened once) or ``names`` (a
        stand-alone sheet, 2 to 4 players in playing order) with its ``tie_break``."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        data = validated(SheetCreateSerializer, request)
        if data.get("table") is not None:
            table = selectors.classic_table_by_id(data["table"])
            if table.round.division.tournament_id != tournament.pk:
                raise ServiceError("classic_table.unknown", "No such table here.")
            sheet = service.score_sheet_open_for_table(table_id=table.pk, actor=actor)
        else:
            sheet = service.score_sheet_create(
                tournament_id=tournament.pk,
                names=data.get("names") or [],
                tie_break=data["tie_break"],
                actor=actor,
            )
        return _answer(sheet, status.HTTP_201_CREATED)


class SheetDetailView(ApiView):
    @extend_schema(responses={200: SheetSerializer, **errors(401, 403, 404)}, tags=["classic"])
    def get(self, request: Any, sheet_id: int) -> Response:
        """The sheet: its lines with running totals, the end lines, the tiles not played."""
        sheet, _ = _sheet_for(request, sheet_id)
        return _answer(sheet)


class SheetLinesView(ApiView):
    @extend_schema(
        request=SheetLineInSerializer,
        responses={201: SheetSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
    )
    def post(self, request: Any, sheet_id: int) -> Response:
        """Type the next turn: « H8 CHAT » (scored on the sheet's board), « 23 » (a bare
        score), « passe » or « échange »."""
        sheet, actor = _sheet_for(request, sheet_id)
        data = validated(SheetLineInSerializer, request)
        service.score_sheet_line_add(sheet_id=sheet.pk, text=data["line"], actor=actor)
        return _answer(sheet, status.HTTP_201_CREATED)


class SheetLineView(ApiView):
    @extend_schema(
        request=SheetCorrectSerializer,
        responses={201: SheetSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
        operation_id="classic_sheets_line_correct",
    )
    def post(self, request: Any, sheet_id: int, number: int) -> Response:
        """Correct line ``number``: a new version with its ``reason``."""
        sheet, actor = _sheet_for(request, sheet_id)
        data = validated(SheetCorrectSerializer, request)
        service.score_sheet_line_correct(
            sheet_id=sheet.pk, number=number, text=data["line"], reason=data["reason"], actor=actor
        )
        return _answer(sheet, status.HTTP_201_CREATED)


class SheetEndView(ApiView):
    @extend_schema(
        request=SheetEndInSerializer,
        responses={201: SheetSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
    )
    def post(self, request: Any, sheet_id: int) -> Response:
        """The end lines: each player's tiles left (a value or the letters) and who went
        out (null: blocked); again, with a ``reason``, to correct them."""
        sheet, actor = _sheet_for(request, sheet_id)
        data = validated(SheetEndInSerializer, request)
        service.score_sheet_end_set(sheet_id=sheet.pk, actor=actor, **data)
        return _answer(sheet, status.HTTP_201_CREATED)
