"""The player's side (``Authorization: Player <token>``): the current round, submitting a
proposal, reading one's own results. A player never sees another player's proposal, nor an
outcome before the round is closed."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from tournaments import round_snapshots, selectors, services
from tournaments.access import PlayerActor
from tournaments.api import serializers as s
from tournaments.api.permissions import IsPlayer, PlayerRateThrottle
from tournaments.api.views.common import ApiView, client_device, errors, validated
from tournaments.errors import ServiceError
from tournaments.http import client_ip
from tournaments.models.choices import RoundState


class _PlayerView(ApiView):
    # Every authentication class stays on, so an arbiter gets a 403 (not a 401) here.
    permission_classes = [IsPlayer]
    throttle_classes = [PlayerRateThrottle]


def _round_info(rnd: Any) -> dict[str, Any]:
    # As on the tablets (``live.round_public``): a cancelled round, shown until it is drawn
    # again, never shows its rack.
    announced = rnd.state in {RoundState.OPEN, RoundState.CLOSED}
    return {
        "id": rnd.pk,
        "number": rnd.number,
        "state": rnd.state,
        "rack": rnd.rack if announced else None,
        "board": rnd.board_before,
        # The effective deadline, none while the head arbiter's pause holds (as on tablets).
        "deadline": None if rnd.paused_at is not None else rnd.deadline,
        "paused": rnd.paused_at is not None,
        "paused_remaining": rnd.paused_remaining,
        "top": (rnd.top or {}).get("chosen") if rnd.top_placed_at else None,
    }


class PlayerRoundView(_PlayerView):
    @extend_schema(responses={200: s.PlayerRoundSerializer, **errors(401, 403)}, tags=["player"])
    def get(self, request: Any) -> Response:
        """The current round of the player's game: board, rack (once announced), deadline
        and the server's time (for the countdown), and the player's own proposal."""
        reg = request.auth
        game = selectors.current_game(reg.tournament_id)
        rnd = selectors.current_round(game)
        own = selectors.current_proposal(rnd.pk, reg.player_id) if rnd is not None else None
        waiting = selectors.pending_arrival(rnd.pk, reg.player_id) if rnd is not None else None
        body = {
            "server_time": timezone.now(),
            "tournament": reg.tournament.slug,
            "player": reg.player.name,
            "table_number": reg.table_number,
            "game": game.number if game is not None else None,
            "round": _round_info(rnd) if rnd is not None else None,
            "proposal": (
                # A move still queued (``TIRAGE_QUEUED_PROPOSALS``) is the player's latest.
                {"id": None, "version": None, "reference": waiting.reference,
                 "word": waiting.word, "score": waiting.claimed_score, "late": False,
                 "pending": True}
                if waiting is not None else
                {"id": own.pk, "version": own.version, "reference": own.reference,
                 "word": own.word, "score": own.claimed_score, "late": own.late,
                 "pending": False}
                if own is not None else None
            ),
        }  # fmt: skip
        return Response(s.PlayerRoundSerializer(body).data)


class PlayerProposalView(_PlayerView):
    @extend_schema(
        request=s.PlayerProposalSerializer,
        responses={
            201: s.PlayerProposalResultSerializer,
            200: s.PlayerProposalResultSerializer,
            202: s.PlayerProposalReceiptSerializer,
            **errors(400, 401, 403, 404, 409),
        },
        tags=["player"],
    )
    def post(self, request: Any) -> Response:
        """Submit (or replace) the player's proposal for the open round. Sending the same
        ``client_key`` again returns the stored result (200) instead of a new version.

        With the queued path on (``TIRAGE_QUEUED_PROPOSALS``, the production profile), a
        move for the open round is answered ``202`` with a receipt once it is stored
        (durable); it becomes a version within a second, and at the latest when the round
        closes. A replay of the same ``client_key`` gets the same receipt (``replayed``)."""
        reg = request.auth
        data = validated(s.PlayerProposalSerializer, request)
        receipt = _queued(request, reg, data)
        if receipt is not None:
            return Response(s.PlayerProposalReceiptSerializer(receipt).data,
                            status=status.HTTP_202_ACCEPTED)  # fmt: skip
        if "round" in data:
            rnd = selectors.round_by_id(data["round"])
            if rnd.game.tournament_id != reg.tournament_id:
                raise ServiceError("access.player", "This round is not in the player's tournament.")
        else:
            rnd = selectors.playing_round(reg.tournament_id)  # one query: on every proposal
            if rnd is None:
                raise ServiceError("round.not_open", "No round has been drawn yet.")
        result = services.proposal_submit(
            round_id=rnd.pk, player_id=reg.player_id, word=data["word"],
            reference=data["reference"], claimed_score=data.get("score"), source="tablet",
            client_key=data["client_key"], ip=client_ip(request), device=client_device(request),
            actor=PlayerActor.of(reg),
        )  # fmt: skip
        code = status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        return Response(s.PlayerProposalResultSerializer(result).data, status=code)


def _queued(request: Any, reg: Any, data: dict[str, Any]) -> services.Receipt | None:
    """The queued path's receipt, or None when the move takes the synchronous path (the
    setting off; no open round with its top; another round named; the player's centre
    closed it: late moves and closed rounds are judged at once, as before)."""
    if not services.queued_proposals():
        return None
    rnd = round_snapshots.queueable(
        round_snapshots.playing_round(reg.tournament_id), data.get("round")
    )
    if rnd is None or round_snapshots.centre_closed_at(rnd.pk, reg.centre_id) is not None:
        return None
    return services.arrival_receive(
        actor=PlayerActor.of(reg), rnd=rnd, registration=reg, word=data["word"],
        reference=data["reference"],
        claimed_score=data.get("score"), client_key=data["client_key"], ip=client_ip(request),
        device=client_device(request),
    )  # fmt: skip


class PlayerResultsView(_PlayerView):
    @extend_schema(responses={200: s.PlayerResultsSerializer, **errors(401, 403)}, tags=["player"])
    def get(self, request: Any) -> Response:
        """The player's closed rounds (top, own proposal and outcome) and game totals."""
        reg = request.auth
        body = {
            "server_time": timezone.now(),
            "player": reg.player.name,
            "games": selectors.player_results(reg),
        }
        return Response(s.PlayerResultsSerializer(body).data)
