"""Tournaments, their players, games and rankings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.access import only_centre
from tournaments.api import serializers as s
from tournaments.api.permissions import arbiter_actor, is_arbiter, signed_in_user
from tournaments.api.serializers_control import TournamentUpdateSerializer
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.services.imports import check_size


class TournamentListView(ApiView):
    @extend_schema(responses={200: s.TournamentSerializer(many=True)}, tags=["tournaments"])
    def get(self, request: Any) -> Response:
        """Every tournament (public)."""
        return Response(s.TournamentSerializer(selectors.tournaments_all(), many=True).data)

    @extend_schema(
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentSerializer, **errors(400, 401, 403, 409)},
        tags=["tournaments"],
    )
    def post(self, request: Any) -> Response:
        """Create a tournament; its creator becomes its head arbiter."""
        actor = signed_in_user(request)
        data = validated(s.TournamentCreateSerializer, request)
        if "lexicon" in data:
            data["lexicon_id"] = data.pop("lexicon")
        tournament = services.tournament_create(actor=actor, **data)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(ApiView):
    @extend_schema(responses={200: s.TournamentSerializer, **errors(404)}, tags=["tournaments"])
    def get(self, request: Any, slug: str) -> Response:
        """A tournament's public fields."""
        return Response(s.TournamentSerializer(selectors.tournament_by_slug(slug)).data)

    @extend_schema(
        request=TournamentUpdateSerializer,
        responses={200: s.TournamentSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["tournaments"],
    )
    def patch(self, request: Any, slug: str) -> Response:
        """Change the given settings (head arbiter; ``tournament_update``, audited). A setting
        that played games depend on is refused with 409 (``tournament.frozen_started``: the
        lexicon and the formula once a round is drawn; ``tournament.frozen_closed``: solos,
        warnings, score required and the tie-break once a round is closed)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk, head=True)
        data = validated(TournamentUpdateSerializer, request)
        if "lexicon" in data:
            data["lexicon_id"] = data.pop("lexicon")
        updated = services.tournament_update(actor=actor, tournament_id=tournament.pk, **data)
        return Response(s.TournamentSerializer(updated).data)


class PlayerListView(ApiView):
    @extend_schema(
        responses={200: s.RegistrationSerializer(many=True), **errors(401, 403, 404)},
        tags=["players"],
    )
    def get(self, request: Any, slug: str) -> Response:
        """The registered players by table, with their tokens (arbiters; a centre arbiter
        of a simultaneous event: their centre's players)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        regs = only_centre(selectors.registrations(tournament.pk), actor=actor,
                           tournament_id=tournament.pk)  # fmt: skip
        return Response(s.RegistrationSerializer(regs, many=True).data)

    @extend_schema(
        request=s.PlayerRegisterSerializer,
        responses={201: s.RegistrationSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["players"],
    )
    def post(self, request: Any, slug: str) -> Response:
        """Register a player (at the next free table unless one is given)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        data = validated(s.PlayerRegisterSerializer, request)
        issue = data.pop("issue_token")
        data["table"] = data.pop("table_number", None)
        reg = services.player_register(tournament_id=tournament.pk, actor=actor, **data)
        if issue:
            services.registration_token_issue(registration_id=reg.pk, actor=actor)
            reg.refresh_from_db()
        return Response(s.RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


class PlayersImportView(ApiView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": s.PlayersImportSerializer},
        responses={201: s.ImportResultSerializer, **errors(400, 401, 403, 404)},
        tags=["players"],
    )
    def post(self, request: Any, slug: str) -> Response:
        """Import players from a CSV or XLSX file (multipart field ``file``)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        data = validated(s.PlayersImportSerializer, request)
        upload = data["file"]
        check_size(upload.size or 0)  # before reading the file into memory
        content = upload.read()
        result = services.players_import(tournament_id=tournament.pk,
                                         filename=upload.name or "", content=content,
                                         actor=actor)  # fmt: skip
        regs = list(result.registrations)
        if data["issue_tokens"]:
            for reg in regs:
                services.registration_token_issue(registration_id=reg.pk, actor=actor)
                reg.refresh_from_db()
        body = {"created": len(regs), "registrations": regs}
        return Response(s.ImportResultSerializer(body).data, status=status.HTTP_201_CREATED)


class RegistrationTokenView(ApiView):
    @extend_schema(
        request=None,
        responses={200: s.PlayerTokenSerializer, **errors(401, 403, 404)},
        tags=["players"],
    )
    def post(self, request: Any, registration_id: int) -> Response:
        """Issue a new tablet token for the player (the previous one stops working)."""
        reg = selectors.registration_by_id(registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        token = services.registration_token_issue(registration_id=reg.pk, actor=actor)
        return Response({"registration": reg.pk, "table_number": reg.table_number,
                         "access_token": token})  # fmt: skip

    @extend_schema(
        request=None,
        responses={200: s.PlayerTokenSerializer, **errors(401, 403, 404)},
        tags=["players"],
    )
    def delete(self, request: Any, registration_id: int) -> Response:
        """Revoke the player's tablet token."""
        reg = selectors.registration_by_id(registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        services.registration_token_revoke(registration_id=reg.pk, actor=actor)
        return Response({"registration": reg.pk, "table_number": reg.table_number,
                         "access_token": None})  # fmt: skip


class GameListView(ApiView):
    @extend_schema(
        responses={200: s.GameSerializer(many=True), **errors(401, 403, 404)}, tags=["games"]
    )
    def get(self, request: Any, slug: str) -> Response:
        """The tournament's games (arbiters)."""
        tournament = selectors.tournament_by_slug(slug)
        arbiter_actor(request, tournament.pk)
        return Response(s.GameSerializer(selectors.tournament_games(tournament), many=True).data)

    @extend_schema(
        request=s.GameCreateSerializer,
        responses={201: s.GameSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["games"],
    )
    def post(self, request: Any, slug: str) -> Response:
        """Create the next game: ``seeded`` (random racks from a seed), ``manual`` (the
        arbiter types the racks drawn from a real bag) or ``predrawn`` (one line a round). A
        simultaneous tournament refuses a seeded or hand-typed game (409
        ``game.simultaneous_seeded`` / ``game.simultaneous_manual``)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk, head=True)
        data = validated(s.GameCreateSerializer, request)
        game = services.game_create(tournament_id=tournament.pk, actor=actor, **data)
        return Response(s.GameSerializer(game).data, status=status.HTTP_201_CREATED)


def _ranking_allowed(request: Any, tournament: Tournament) -> None:
    if selectors.rankings_public(tournament) or is_arbiter(request, tournament.pk):
        return
    raise ServiceError(
        "access.rankings", "This tournament's rankings are shown to its arbiters only."
    )


def _ranking_body(
    request: Any, tournament: Tournament, game: int | None, table: selectors.RankingTable
) -> dict[str, Any]:
    """A ranking as the API answers it (``game`` None: the tournament's over every game):
    ``limit`` lines from ``offset`` (``count`` is the number of lines). Without ``limit``,
    every line of a ranking of at most ``API_LINES`` lines, else ``API_PAGE`` lines from
    ``offset`` (docs/api.md: a large event is read in slices). Read a slice at a time
    from the stored figures (``selectors.RankingReader``)."""
    query = request.query_params
    offset = selectors.page_of(query.get("offset"), field="offset", low=0, high=10**6, default=0)
    limit = selectors.page_of(
        query.get("limit"), field="limit", low=1, high=selectors.MAX_LIMIT, default=0
    )
    page = selectors.ranking_page(tournament, table, offset=offset,
                                  limit=limit or selectors.API_PAGE)  # fmt: skip
    if not limit and offset + len(page.lines) < page.count <= selectors.API_LINES:
        page = selectors.ranking_page(tournament, table, offset=offset)  # a small one: whole
    return {"tournament": tournament.slug, "game": game, "top_total": page.top_total,
            "count": page.count, "standings": s.standings_data(page.lines)}  # fmt: skip


class RankingPageQuery(serializers.Serializer):
    """The slice of a ranking, as the schema publishes it: its bounds are the ones
    ``_ranking_body`` checks (``query.number`` outside them), so a client reading the schema
    never sends a value the API refuses."""

    offset = serializers.IntegerField(required=False, min_value=0, max_value=10**6,
                                      help_text="First line (from 0) of the slice.")  # fmt: skip
    limit = serializers.IntegerField(required=False, min_value=1, max_value=selectors.MAX_LIMIT,
                                     help_text="Lines (default: all; 100 past 500).")  # fmt: skip


RANKING_PARAMETERS = [RankingPageQuery]


class TournamentRankingView(ApiView):
    @extend_schema(
        responses={200: s.RankingSerializer, **errors(400, 403, 404)},
        parameters=RANKING_PARAMETERS,
        tags=["rankings"],
    )
    def get(self, request: Any, slug: str) -> Response:
        """The tournament's ranking over every game (public when the tournament allows it)."""
        tournament = selectors.tournament_by_slug(slug)
        _ranking_allowed(request, tournament)
        body = _ranking_body(request, tournament, None, selectors.RankingTable("overall"))
        return Response(body)  # the fields of RankingSerializer, by hand


class GameRankingView(ApiView):
    @extend_schema(
        responses={200: s.RankingSerializer, **errors(400, 403, 404)},
        parameters=RANKING_PARAMETERS,
        tags=["rankings"],
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        """One game's ranking, by game number (public when the tournament allows it)."""
        tournament = selectors.tournament_by_slug(slug)
        _ranking_allowed(request, tournament)
        game = selectors.game_by_number(tournament, number)
        table = selectors.RankingTable("game", str(game.number))
        body = _ranking_body(request, tournament, game.number, table)
        return Response(body)  # the fields of RankingSerializer, by hand
