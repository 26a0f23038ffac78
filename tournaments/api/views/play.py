"""The arbiters' side of a game: its state, drawing, the round's life, slips, corrections."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.access import only_centre, require_centre_player
from tournaments.api import serializers as s
from tournaments.api.auth import player_of
from tournaments.api.permissions import arbiter_actor
from tournaments.api.serializers_control import CloseSerializer, GameUpdateSerializer
from tournaments.api.views.common import ApiView, client_device, errors, validated
from tournaments.errors import ServiceError
from tournaments.http import client_ip
from tournaments.models.choices import RoundState
from tournaments.parsing import flag


def _round(rnd: Any) -> dict[str, Any]:
    return s.RoundSerializer(rnd).data


class GameDetailView(ApiView):
    @extend_schema(responses={200: s.GameStateSerializer, **errors(401, 403, 404)}, tags=["games"])
    def get(self, request: Any, game_id: int) -> Response:
        """The game's state: its rounds, the current round (rack, board, top status)."""
        game = selectors.game_by_id(game_id)
        arbiter_actor(request, game.tournament_id)
        rounds = selectors.game_rounds(game, cancelled=False)
        context = {
            "rounds": rounds,
            "current_round": selectors.current_round(game, cancelled=False),
        }
        return Response(s.GameStateSerializer(game, context=context).data)

    @extend_schema(request=GameUpdateSerializer,
                   responses={200: s.GameStateSerializer, **errors(400, 401, 403, 404, 409)},
                   tags=["games"])  # fmt: skip
    def patch(self, request: Any, game_id: int) -> Response:
        """Head arbiter: announce the game's number of rounds (``rounds``, « partie en N
        coups »; null: to the end of the bag). The game ends normally once round N's top is
        placed (at once when it already is). 409 ``game.rounds_drawn`` below a round already
        drawn, ``game.over`` once the game is over. Answers the game's state as ``GET``."""
        game = selectors.game_by_id(game_id)
        actor = arbiter_actor(request, game.tournament_id, head=True)
        data = validated(GameUpdateSerializer, request)
        if "rounds" in data:
            services.game_rounds_set(game_id=game.pk, rounds=data["rounds"], actor=actor)
        return self.get(request, game_id)


class DrawView(ApiView):
    @extend_schema(
        request=s.DrawSerializer,
        responses={201: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["rounds"],
    )
    def post(self, request: Any, game_id: int) -> Response:
        """Draw the next rack: from the game's source, or the ``letters`` the arbiter typed.
        A typed rack the rules refuse is recorded as a rejection and answered with a 400."""
        game = selectors.game_by_id(game_id)
        actor = arbiter_actor(request, game.tournament_id, head=True)
        data = validated(s.DrawSerializer, request)
        rnd = services.round_draw(game_id=game.pk, letters=data.get("letters"), actor=actor)
        rnd.refresh_from_db()  # the top may have been computed on commit (embedded profile)
        return Response(_round(rnd), status=status.HTTP_201_CREATED)


class RoundDetailView(ApiView):
    @extend_schema(responses={200: s.RoundSerializer, **errors(401, 403, 404)}, tags=["rounds"])
    def get(self, request: Any, round_id: int) -> Response:
        """A round: rack, state, deadline, and its top with the tied set once computed."""
        rnd = selectors.round_by_id(round_id)
        arbiter_actor(request, rnd.game.tournament_id)
        return Response(_round(rnd))


class _RoundAction(ApiView):
    """POST on a round by an arbiter (head arbiter unless ``head`` is False)."""

    head = True

    def round_and_actor(self, round_id: int, request: Any) -> tuple[Any, Any]:
        rnd = selectors.round_by_id(round_id)
        return rnd, arbiter_actor(request, rnd.game.tournament_id, head=self.head)


_ROUND_ACTION = dict(responses={200: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
                     tags=["rounds"])  # fmt: skip


class RoundOpenView(_RoundAction):
    @extend_schema(request=None, **_ROUND_ACTION)
    def post(self, request: Any, round_id: int) -> Response:
        """Announce the rack: the deadline is the server's clock plus the time per move."""
        rnd, actor = self.round_and_actor(round_id, request)
        return Response(_round(services.round_open(round_id=rnd.pk, actor=actor)))


class RoundCloseView(_RoundAction):
    @extend_schema(request=CloseSerializer, **_ROUND_ACTION)
    def post(self, request: Any, round_id: int) -> Response:
        """Collect the slips: a tablet proposal after this scores zero (late). While the
        clock still has time, only with ``{"confirm": true}`` (else 409 ``round.time_left``
        with the seconds left in ``params``)."""
        rnd, actor = self.round_and_actor(round_id, request)
        confirm = validated(CloseSerializer, request)["confirm"]
        return Response(_round(services.round_close(round_id=rnd.pk, actor=actor,
                                                    confirm=confirm)))  # fmt: skip


class RoundPlaceView(_RoundAction):
    @extend_schema(request=s.PlaceSerializer, **_ROUND_ACTION)
    def post(self, request: Any, round_id: int) -> Response:
        """Place the closed round's top: the default one, or ``coord`` + ``word`` from the
        tied set when the rules allow the choice. Placing the same top again is a no-op."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(s.PlaceSerializer, request)
        placed = services.round_place_top(round_id=rnd.pk, actor=actor, **data)
        return Response(_round(placed))


class TopChooseView(_RoundAction):
    @extend_schema(request=s.MoveChoiceSerializer, **_ROUND_ACTION)
    def post(self, request: Any, round_id: int) -> Response:
        """Choose which of the tied tops is placed (the round must be closed): placing
        ``coord`` + ``word`` (``round_place_top``), where the rules allow the choice."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(s.MoveChoiceSerializer, request)
        return Response(_round(services.round_place_top(round_id=rnd.pk, actor=actor, **data)))


class RoundCancelView(_RoundAction):
    @extend_schema(request=s.CancelSerializer, **_ROUND_ACTION)
    def post(self, request: Any, round_id: int) -> Response:
        """Cancel a round (head arbiter, reason required); its points are void and its
        tiles go back to the bag; with ``redraw`` (default) a replacement is drawn at once."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(s.CancelSerializer, request)
        result = services.round_cancel(round_id=rnd.pk, actor=actor, **data)
        return Response(_round(result.cancelled))


class RoundProposalsView(ApiView):
    @extend_schema(
        parameters=[
            OpenApiParameter("all", bool, description="Every version, not only current ones.")
        ],
        responses={200: s.ProposalSerializer(many=True), **errors(400, 401, 403, 404)},
        tags=["proposals"],
    )
    def get(self, request: Any, round_id: int) -> Response:
        """The round's proposals (current versions) with their outcomes."""
        rnd = selectors.round_by_id(round_id)
        actor = arbiter_actor(request, rnd.game.tournament_id)
        every = flag(request.query_params.get("all"), code="query.flag", field="all")
        versions = only_centre(selectors.round_proposals(rnd, all_versions=every), actor=actor,
                               tournament_id=rnd.game.tournament_id)  # fmt: skip
        return Response(s.ProposalSerializer(versions, many=True).data)


class SlipView(ApiView):
    @extend_schema(
        request=s.SlipSerializer,
        responses={201: s.ProposalSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["proposals"],
    )
    def post(self, request: Any, round_id: int) -> Response:
        """Enter a collected paper slip for the player at ``table_number``."""
        rnd = selectors.round_by_id(round_id)
        actor = arbiter_actor(request, rnd.game.tournament_id)
        data = validated(s.SlipSerializer, request)
        reg = selectors.registration_at_table(rnd.game.tournament_id, data["table_number"])
        result = services.proposal_submit(
            round_id=rnd.pk, player_id=reg.player_id, word=data["word"],
            reference=data["reference"], claimed_score=data.get("score"), source="arbiter",
            actor=actor, late=data["late"], ip=client_ip(request),
            device=client_device(request), judging=rnd,
        )  # fmt: skip
        return Response(s.ProposalSerializer(result.version).data, status=status.HTTP_201_CREATED)


class ProposalDetailView(ApiView):
    @extend_schema(responses={200: s.ProposalSerializer, **errors(401, 403, 404, 409)},
                   tags=["proposals"])  # fmt: skip
    def get(self, request: Any, proposal_id: int) -> Response:
        """One proposal version: for the arbiters, or its own player once the round closed."""
        version = selectors.proposal_by_id(proposal_id)
        reg = player_of(request)
        if reg is None:
            tournament_id = version.round.game.tournament_id
            actor = arbiter_actor(request, tournament_id)
            require_centre_player(actor=actor, tournament_id=tournament_id,
                                  player_id=version.player_id)  # fmt: skip
        elif reg.player_id != version.player_id or reg.tournament_id != (
            version.round.game.tournament_id
        ):
            raise ServiceError("access.player", "A player reads only their own proposals.")
        elif version.round.state != RoundState.CLOSED:
            raise ServiceError(
                "round.not_closed", "A proposal's outcome is shown once the round is closed."
            )
        return Response(s.ProposalSerializer(version).data)


class ProposalCorrectView(ApiView):
    @extend_schema(
        request=s.CorrectionSerializer,
        responses={201: s.ProposalSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["proposals"],
    )
    def post(self, request: Any, proposal_id: int) -> Response:
        """Correct a proposal: a new version, judged again, with the arbiter's reason."""
        version = selectors.proposal_by_id(proposal_id)
        actor = arbiter_actor(request, version.round.game.tournament_id)
        data = validated(s.CorrectionSerializer, request)
        result = services.proposal_correct(
            round_id=version.round_id, player_id=version.player_id, word=data["word"],
            reference=data["reference"], claimed_score=data.get("score"), reason=data["reason"],
            actor=actor, ip=client_ip(request), device=client_device(request),
        )  # fmt: skip
        return Response(s.ProposalSerializer(result.version).data, status=status.HTTP_201_CREATED)


class DecisionView(ApiView):
    @extend_schema(
        responses={200: s.DecisionSerializer(many=True), **errors(401, 403, 404)},
        tags=["decisions"],
    )
    def get(self, request: Any, round_id: int) -> Response:
        """The arbiters' decisions on this round."""
        rnd = selectors.round_by_id(round_id)
        actor = arbiter_actor(request, rnd.game.tournament_id)
        decisions = only_centre(selectors.round_decisions(rnd), actor=actor,
                                tournament_id=rnd.game.tournament_id)  # fmt: skip
        return Response(s.DecisionSerializer(decisions, many=True).data)

    @extend_schema(
        request=s.DecisionCreateSerializer,
        responses={201: s.DecisionSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["decisions"],
    )
    def post(self, request: Any, round_id: int) -> Response:
        """Record a decision (warning, penalty, zero, moyenne) for a table's player."""
        rnd = selectors.round_by_id(round_id)
        actor = arbiter_actor(request, rnd.game.tournament_id)
        data = validated(s.DecisionCreateSerializer, request)
        reg = selectors.registration_at_table(rnd.game.tournament_id, data.pop("table_number"))
        kind = data.pop("kind")
        common = dict(round_id=rnd.pk, player_id=reg.player_id, reason=data["reason"],
                      actor=actor)  # fmt: skip
        if kind == "warning":
            decision = services.decision_warning(disciplinary=data["disciplinary"], **common)
        elif kind == "moyenne":
            decision = services.decision_moyenne(earlier_round_id=data["earlier_round"], **common)
        elif kind == "penalty":
            decision = services.decision_penalty(**common)
        else:
            decision = services.decision_zero(**common)
        return Response(s.DecisionSerializer(decision).data, status=status.HTTP_201_CREATED)
