"""Round control through the API (issue 15): pause, resume and extend the clock, reopen a
closed round, and the arbiters' dispute checker. The close with its confirmation is
``play.RoundCloseView``; the tournament's settings are ``PATCH /api/tournaments/<slug>/``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from tournaments import selectors, services, wording
from tournaments.api import serializers as s
from tournaments.api import serializers_control as c
from tournaments.api.permissions import arbiter_actor
from tournaments.api.views.common import ApiView, errors, validated
from tournaments.api.views.play import _round, _RoundAction

_CLOCK = dict(responses={200: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
              tags=["rounds"])  # fmt: skip


class RoundPauseView(_RoundAction):
    @extend_schema(request=None, **_CLOCK)
    def post(self, request: Any, round_id: int) -> Response:
        """Stop the clock of the open round (``paused``, ``paused_remaining``); a proposal
        received during the pause is on time. Pausing a paused round changes nothing."""
        rnd, actor = self.round_and_actor(round_id, request)
        return Response(_round(services.round_pause(round_id=rnd.pk, actor=actor)))


class RoundResumeView(_RoundAction):
    @extend_schema(request=None, **_CLOCK)
    def post(self, request: Any, round_id: int) -> Response:
        """Start the clock again: the deadline is now plus the seconds kept at the pause."""
        rnd, actor = self.round_and_actor(round_id, request)
        return Response(_round(services.round_resume(round_id=rnd.pk, actor=actor)))


class RoundExtendView(_RoundAction):
    @extend_schema(request=c.ExtendSerializer, **_CLOCK)
    def post(self, request: Any, round_id: int) -> Response:
        """Give the open round ``seconds`` more (to the paused time while paused)."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(c.ExtendSerializer, request)
        extended = services.round_extend(round_id=rnd.pk, seconds=data["seconds"], actor=actor,
                                         client_key=data.get("client_key", ""))  # fmt: skip
        return Response(_round(extended))


class RoundReopenView(_RoundAction):
    @extend_schema(request=c.ReopenSerializer, **_CLOCK)
    def post(self, request: Any, round_id: int) -> Response:
        """Undo the close while the top is not placed: open again with the time left at the
        close, or ``seconds``. Proposals received while it was closed stay late."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(c.ReopenSerializer, request)
        reopened = services.round_reopen(round_id=rnd.pk, seconds=data.get("seconds"),
                                         actor=actor)  # fmt: skip
        return Response(_round(reopened))


class RoundCentresView(ApiView):
    @extend_schema(responses={200: c.CentreRoundSerializer(many=True),
                              **errors(401, 403, 404)}, tags=["rounds"])  # fmt: skip
    def get(self, request: Any, round_id: int) -> Response:
        """A simultaneous event: each centre on this round, closed (``closed_at``, by whom)
        or still playing (``closed_at`` null): what the round as a whole waits for. Empty
        outside a simultaneous event."""
        rnd = selectors.round_by_id(round_id)
        arbiter_actor(request, rnd.game.tournament_id)
        lines = selectors.round_centres(rnd) if rnd.game.tournament.simultaneous else []
        return Response(c.CentreRoundSerializer(lines, many=True).data)


class CentreCloseView(_RoundAction):
    head = False  # a centre's head arbiter closes their centre (the service checks it)

    @extend_schema(request=c.CloseSerializer, **_CLOCK)
    def post(self, request: Any, round_id: int, centre_id: int) -> Response:
        """A simultaneous event: the centre closes the round (its head arbiter or the
        tournament's; ``confirm`` while the clock has time, else 409 ``centre.time_left``).
        Its players' moves are late from now on; the last centre's close closes the round."""
        rnd, actor = self.round_and_actor(round_id, request)
        data = validated(c.CloseSerializer, request)
        closed = services.centre_close(round_id=rnd.pk, centre_id=centre_id, actor=actor,
                                       confirm=data["confirm"])  # fmt: skip
        return Response(_round(closed))


def _dispute_body(answer: Any) -> dict[str, Any]:
    move = answer.move
    body = {"typed": answer.typed, "word": answer.word, "in_lexicon": answer.in_lexicon,
            "lexicon": answer.lexicon, "move": None}  # fmt: skip
    if move is not None:
        detail = (wording.fill(move.code, move.params) or "") if move.code else ""
        body["move"] = {
            "round_number": move.round_number, "fits": move.fits, "reference": move.reference,
            "word": move.word, "score": move.score, "placed": move.placed, "valid": move.valid,
            "words": [vars_of(w) for w in move.words], "code": move.code, "detail": str(detail),
        }  # fmt: skip
    return body


def vars_of(word: Any) -> dict[str, Any]:
    return {"word": word.word, "reference": word.reference, "score": word.score,
            "valid": word.valid}  # fmt: skip


class DisputeView(ApiView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "word",
                str,
                required=True,
                pattern=c.DISPUTE_WORD,
                description="The word, jokers as lowercase letters.",
            ),
            OpenApiParameter(
                "reference",
                str,
                pattern=c.DISPUTE_REFERENCE,
                description="H4 (horizontal) or 4H (vertical): place it.",
            ),
        ],  # fmt: skip
        responses={200: c.DisputeSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["games"],
    )
    def get(self, request: Any, game_id: int) -> Response:
        """Arbiters only: is ``word`` in the tournament's lexicon and, with ``reference``,
        does the move fit the board of the current round (with its rack) and what does it
        score there (``move.fits`` false with the engine's ``code`` when it does not)."""
        game = selectors.game_by_id(game_id)
        arbiter_actor(request, game.tournament_id)
        query = c.DisputeQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        answer = selectors.dispute_check(game, word=data["word"],
                                         reference=data.get("reference", ""))  # fmt: skip
        return Response(_dispute_body(answer))
