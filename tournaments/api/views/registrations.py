"""A tournament's registrations (arbiters): read one, correct it or move its table,
late arrival, withdrawal and reinstatement, every missing tablet link at once. The same
services as the console's players pages (``services/registrations.py``), so the same
rights and refusals: any arbiter corrects details, records an arrival and issues links;
the head arbiter moves tables and withdraws or reinstates a player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.api.permissions import arbiter_actor
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.errors import ServiceError
from tournaments.models import Registration

TAGS = ["players"]


def _registration(slug: str, registration_id: int) -> Registration:
    """The registration in that tournament; ``registration.unknown`` (404) otherwise."""
    tournament = selectors.tournament_by_slug(slug)
    reg = selectors.registration_by_id(registration_id)
    if reg.tournament_id != tournament.pk:
        raise ServiceError("registration.unknown", f"There is no registration {registration_id}.")
    return reg


def _fresh(reg: Registration) -> dict[str, Any]:
    return dict(s.RegistrationSerializer(selectors.registration_by_id(reg.pk)).data)


class RegistrationDetailView(ApiView):
    @extend_schema(responses={200: s.RegistrationSerializer, **errors(401, 403, 404)}, tags=TAGS)
    def get(self, request: Any, slug: str, registration_id: int) -> Response:
        """One registration with its player, arrival, withdrawal and tablet token."""
        reg = _registration(slug, registration_id)
        arbiter_actor(request, reg.tournament_id)
        return Response(_fresh(reg))

    @extend_schema(
        request=s.RegistrationUpdateSerializer,
        responses={200: s.RegistrationSerializer, **errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def patch(self, request: Any, slug: str, registration_id: int) -> Response:
        """Correct the player's details (the fields given; the others stay) and, with
        ``table_number``, move the player to that table (head arbiter; 409
        ``registration.table_taken`` when someone sits there)."""
        reg = _registration(slug, registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        data = validated(s.RegistrationUpdateSerializer, request)
        p = reg.player
        current = dict(name=p.name, licence=p.licence, club=p.club, federation=p.federation,
                       series=p.series, category=p.category, birth_year=p.birth_year)  # fmt: skip
        table = data.pop("table_number", None)
        services.registration_update(registration_id=reg.pk, table=table, actor=actor,
                                     **{**current, **data})  # fmt: skip
        return Response(_fresh(reg))


class RegistrationArrivalView(ApiView):
    @extend_schema(
        request=s.RoundPointSerializer,
        responses={200: s.RegistrationSerializer, **errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Any, slug: str, registration_id: int) -> Response:
        """A late arrival: the player plays from that round of that game; the rounds
        before count 0."""
        reg = _registration(slug, registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        data = validated(s.RoundPointSerializer, request)
        services.registration_arrive(registration_id=reg.pk, game_number=data["game"],
                                     round_number=data["round"], actor=actor)  # fmt: skip
        return Response(_fresh(reg))


class RegistrationWithdrawView(ApiView):
    @extend_schema(
        request=s.WithdrawSerializer,
        responses={200: s.RegistrationSerializer, **errors(400, 401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Any, slug: str, registration_id: int) -> Response:
        """Withdraw the player from that round on (head arbiter): no slip expected, the
        tablet refuses their moves, the rankings keep their score so far. 409
        ``registration.played_after`` when they handed in a move there or later."""
        reg = _registration(slug, registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        data = validated(s.WithdrawSerializer, request)
        services.registration_withdraw(
            registration_id=reg.pk, game_number=data["game"], round_number=data["round"],
            reason=data["reason"], actor=actor,
        )  # fmt: skip
        return Response(_fresh(reg))


class RegistrationReinstateView(ApiView):
    @extend_schema(
        request=None,
        responses={200: s.RegistrationSerializer, **errors(401, 403, 404, 409)},
        tags=TAGS,
    )
    def post(self, request: Any, slug: str, registration_id: int) -> Response:
        """Undo a withdrawal (head arbiter): the player plays again from the next round."""
        reg = _registration(slug, registration_id)
        actor = arbiter_actor(request, reg.tournament_id)
        services.registration_reinstate(registration_id=reg.pk, actor=actor)
        return Response(_fresh(reg))


class RegistrationTokensView(ApiView):
    @extend_schema(
        request=None,
        responses={200: s.TokensIssuedSerializer, **errors(401, 403, 404)},
        tags=TAGS,
    )
    def post(self, request: Any, slug: str) -> Response:
        """A tablet token for every registration without one; existing tokens stay
        (calling it again creates nothing)."""
        tournament = selectors.tournament_by_slug(slug)
        actor = arbiter_actor(request, tournament.pk)
        created = services.registration_tokens_issue(tournament_id=tournament.pk, actor=actor)
        regs = selectors.registrations(tournament.pk)
        return Response(s.TokensIssuedSerializer({"created": created, "registrations": regs}).data)
