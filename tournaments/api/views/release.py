"""A sealed game's release schedule through the API (docs/simultaneous.md, docs/api.md):
read it (any arbiter of the tournament), set it and seal a pre-drawn game (head arbiter),
and release a round whose time has come (refused before: 409 ``release.early``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from tournaments import selectors
from tournaments.api.permissions import arbiter_actor
from tournaments.api.serializers import RoundSerializer
from tournaments.api.serializers_release import (
    ReleaseScheduleSerializer,
    ScheduleSetSerializer,
    schedule_data,
)
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError
from tournaments.services.release import Schedule, release_schedule_set, round_release
from tournaments.services.sealing import game_seal


def _schedule(game: Any) -> dict[str, Any]:
    data = schedule_data(selectors.release_schedule(game))
    if data is None:
        raise ServiceError("release.not_sealed", f"Game {game.number} is not sealed.")
    return data


class ReleaseView(ApiView):
    @extend_schema(
        responses={200: ReleaseScheduleSerializer, **errors(401, 403, 404, 409)}, tags=["games"]
    )
    def get(self, request: Any, game_id: int) -> Response:
        """The sealed game's release schedule: when each round is released, whether it is
        released and drawn, and the seconds until the next release. Never a rack."""
        game = selectors.game_by_id(game_id)
        arbiter_actor(request, game.tournament_id)
        return Response(_schedule(game))

    @extend_schema(
        request=ScheduleSetSerializer,
        responses={200: ReleaseScheduleSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["games"],
    )
    def put(self, request: Any, game_id: int) -> Response:
        """Set when the rounds are released: ``starts_at`` and ``interval`` (seconds), or
        ``times`` (one per round); released rounds keep their time."""
        game = selectors.game_by_id(game_id)
        actor = arbiter_actor(request, game.tournament_id, head=True)
        data = validated(ScheduleSetSerializer, request)
        schedule = Schedule(starts_at=data.get("starts_at"), interval=data.get("interval"),
                            times=tuple(data.get("times") or ()),
                            auto_open=data["auto_open"])  # fmt: skip
        release_schedule_set(game_id=game.pk, schedule=schedule, actor=actor)
        return Response(_schedule(game))


class SealView(ApiView):
    @extend_schema(
        request=None,
        responses={200: ReleaseScheduleSerializer, **errors(401, 403, 404, 409)},
        tags=["games"],
    )
    def post(self, request: Any, game_id: int) -> Response:
        """Seal a pre-drawn game before its first draw: its racks are encrypted and
        released round by round. Sealing again changes nothing."""
        game = selectors.game_by_id(game_id)
        actor = arbiter_actor(request, game.tournament_id, head=True)
        game_seal(game_id=game.pk, actor=actor)
        return Response(_schedule(selectors.game_by_id(game_id)))


class ReleaseRoundView(ApiView):
    @extend_schema(
        request=None,
        responses={200: RoundSerializer(allow_null=True), **errors(401, 403, 404, 409)},
        tags=["rounds"],
    )
    def post(self, request: Any, game_id: int, number: int) -> Response:
        """Release round ``number`` now that its time has come (the worker does it at the
        time; this is for a worker that is down): the round once drawn, null while it
        waits for the previous top. Before its time: 409 ``release.early``."""
        game = selectors.game_by_id(game_id)
        actor = arbiter_actor(request, game.tournament_id, head=True)
        rnd = round_release(game_id=game.pk, number=number, actor=actor)
        return Response(RoundSerializer(rnd).data if rnd is not None else None)
