"""The classic family's API (docs/api.md, docs/classic.md): a classic tournament's
divisions with their last round's tables and standings (public when the tournament's
rankings are, else its arbiters'), pairing the next round (head arbiter) and entering a
table's result (any arbiter)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from tournaments import selectors
from tournaments.api.permissions import arbiter_actor, is_arbiter
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError
from tournaments.models import ClassicForfeit, ClassicTable
from tournaments.models.classic import SCORE_MAX, SCORE_MIN
from tournaments.selectors.classic import DivisionReport, TableLine
from tournaments.services import classic as service


class ClassicTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    first = serializers.CharField(help_text="The player who starts.")
    second = serializers.CharField(allow_null=True, help_text="None: the bye.")
    score_first = serializers.IntegerField(allow_null=True)
    score_second = serializers.IntegerField(allow_null=True)
    forfeit = serializers.CharField(allow_blank=True, help_text="'', 'first' or 'second'.")
    version = serializers.IntegerField(help_text="0: no result yet.")


class ClassicStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.CharField(help_text="Wins, a tie counting ½ (« 2½ »).")
    losses = serializers.CharField()
    spread = serializers.IntegerField()
    points = serializers.IntegerField()
    games = serializers.IntegerField()


class ClassicDivisionSerializer(serializers.Serializer):
    name = serializers.CharField()
    round = serializers.IntegerField(allow_null=True, help_text="The last round paired.")
    tables = ClassicTableSerializer(many=True)
    standings = ClassicStandingSerializer(many=True)


class ClassicSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    pairing_system = serializers.CharField()
    divisions = ClassicDivisionSerializer(many=True)


class ClassicResultSerializer(serializers.Serializer):
    score_first = serializers.IntegerField(
        required=False, allow_null=True, min_value=SCORE_MIN, max_value=SCORE_MAX
    )
    score_second = serializers.IntegerField(
        required=False, allow_null=True, min_value=SCORE_MIN, max_value=SCORE_MAX
    )
    forfeit = serializers.ChoiceField(choices=ClassicForfeit.values, required=False, default="")
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=200)


def _table(x: TableLine) -> dict[str, Any]:
    r = x.result
    return {
        "id": x.table.pk,
        "number": x.table.number,
        "first": x.first,
        "second": x.second,
        "score_first": r.score_first if r else None,
        "score_second": r.score_second if r else None,
        "forfeit": r.forfeit if r else "",
        "version": x.versions,
    }


def _division(d: DivisionReport) -> dict[str, Any]:
    return {
        "name": d.name,
        "round": d.round_number,
        "tables": [_table(x) for x in d.tables],
        "standings": [vars_of(s) for s in d.standings],
    }


def vars_of(line: Any) -> dict[str, Any]:
    return {
        f: getattr(line, f) for f in ("rank", "name", "wins", "losses", "spread", "points", "games")
    }


class ClassicView(ApiView):
    @extend_schema(responses={200: ClassicSerializer, **errors(403, 404, 409)}, tags=["classic"])
    def get(self, request: Any, slug: str) -> Response:
        """A classic tournament: each division's last round and its standings."""
        tournament = selectors.tournament_by_slug(slug)
        event = selectors.classic_event(tournament)
        if event is None:
            raise ServiceError("classic.not_classic", "This tournament is not classic.")
        if not (selectors.rankings_public(tournament) or is_arbiter(request, tournament.pk)):
            raise ServiceError("access.rankings", "The standings are shown to the arbiters only.")
        body = {
            "tournament": tournament.slug,
            "pairing_system": event.pairing_system,
            "divisions": [_division(d) for d in selectors.classic_report(tournament)],
        }
        return Response(ClassicSerializer(body).data)


class ClassicPairView(ApiView):
    @extend_schema(
        request=None,
        responses={201: ClassicDivisionSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
    )
    def post(self, request: Any, slug: str, division: int) -> Response:
        """Pair the division's next round with the tournament's system (head arbiter)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk, head=True)
        div = selectors.division_by_number(tournament, division)
        service.classic_round_pair(division_id=div.pk, actor=actor)
        report = [d for d in selectors.classic_report(tournament) if d.name == div.name][0]
        return Response(
            ClassicDivisionSerializer(_division(report)).data, status=status.HTTP_201_CREATED
        )


class ClassicResultView(ApiView):
    @extend_schema(
        request=ClassicResultSerializer,
        responses={201: ClassicTableSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["classic"],
    )
    def post(self, request: Any, table_id: int) -> Response:
        """Enter a table's result: both scores, or the forfeit of one player; again, with
        a reason, to correct it (a new version)."""
        table: ClassicTable = selectors.classic_table_by_id(table_id)
        arbiter_actor(request, table.round.division.tournament_id)
        data = validated(ClassicResultSerializer, request)
        service.classic_result_enter(table_id=table.pk, actor=request.user, **data)
        line = [x for x in selectors.classic_tables(table.round) if x.table.pk == table.pk][0]
        return Response(ClassicTableSerializer(_table(line)).data, status=status.HTTP_201_CREATED)
