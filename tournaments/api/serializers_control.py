"""Request and response bodies of the round control and settings endpoints (issue 15):
``PATCH`` on a tournament (``tournament_update``), the close confirmation, the clock's
extension, reopening a round, a game's announced rounds (``PATCH`` on a game), and the
arbiters' dispute checker. Validated as strictly as
the other bodies (``serializers.RequestSerializer``: each value of its own JSON type)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from tournaments.api.serializers import FormulaField, RequestSerializer
from tournaments.parsing import MAX_ROUND
from tournaments.services.registry import TIE_BREAKS

#: What the dispute endpoint takes, said in the schema as it is checked: ASCII letters
#: (lowercase = joker), 2 to 15; a reference H4 (horizontal) or 4H (vertical).
DISPUTE_WORD = r"^[A-Za-z]{2,15}$"
DISPUTE_REFERENCE = r"^(?:[A-Oa-o](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-Oa-o])$"


class TournamentUpdateSerializer(RequestSerializer):
    """The settings to change, every one optional (absent: unchanged). ``null`` for the
    timer and warning settings means the formula's own value."""

    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    lexicon = serializers.IntegerField(min_value=1, max_value=2**62, required=False)
    variant_code = FormulaField(required=False)
    seconds_per_move = serializers.IntegerField(
        min_value=1, max_value=3600, required=False, allow_null=True
    )
    warning_before_end = serializers.IntegerField(
        min_value=0, max_value=3600, required=False, allow_null=True
    )
    warning_penalty_from = serializers.IntegerField(
        min_value=1, max_value=100, required=False, allow_null=True
    )
    solo_value = serializers.IntegerField(min_value=0, max_value=100, required=False)
    solo_min_players = serializers.IntegerField(min_value=1, max_value=10_000, required=False)
    score_required = serializers.BooleanField(required=False)
    tie_break = serializers.ChoiceField(choices=list(TIE_BREAKS), required=False)
    public_rankings = serializers.BooleanField(required=False)
    language = serializers.ChoiceField(
        choices=[code for code, _name in settings.LANGUAGES], required=False
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("starts_on"), attrs.get("ends_on")
        if start is not None and end is not None and end < start:
            raise serializers.ValidationError({"ends_on": ["La fin précède le début."]})
        return attrs


class CloseSerializer(RequestSerializer):
    confirm = serializers.BooleanField(
        default=False,
        help_text="Close although the clock still has time (else 409 round.time_left).",
    )


class GameUpdateSerializer(RequestSerializer):
    """A game's settings to change (``PATCH /api/games/<id>/``; absent: unchanged)."""

    rounds = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUND,
        required=False,
        allow_null=True,
        help_text="The number of rounds announced (« partie en N coups »: the game ends after "
        "round N's top), or null: played to the end of the bag. 409 game.rounds_drawn below "
        "a round already drawn, game.over once the game is over.",
    )


class ExtendSerializer(RequestSerializer):
    seconds = serializers.IntegerField(min_value=1, max_value=3600)
    # The same key sent again (a retry) extends once (services.round_clock.round_extend).
    client_key = serializers.CharField(required=False, allow_blank=True, max_length=64)


class ReopenSerializer(RequestSerializer):
    seconds = serializers.IntegerField(
        min_value=1,
        max_value=3600,
        required=False,
        help_text="The time to give (default: what the clock had left at the close).",
    )


def _whole(pattern: str) -> str:
    r"""The schema's pattern for the whole value in Python (``$`` would let a final newline
    through, which the schema's ECMA pattern refuses): ``\A…\Z``."""
    return r"\A" + pattern.removeprefix("^").removesuffix("$") + r"\Z"


class DisputeQuerySerializer(RequestSerializer):
    word = serializers.RegexField(_whole(DISPUTE_WORD), trim_whitespace=False,
                                  help_text="Jokers as lowercase letters.")  # fmt: skip
    reference = serializers.RegexField(_whole(DISPUTE_REFERENCE), required=False,
                                       trim_whitespace=False)  # fmt: skip


class FormedWordSerializer(serializers.Serializer):
    word = serializers.CharField()
    reference = serializers.CharField()
    score = serializers.IntegerField()
    valid = serializers.BooleanField()


class MoveCheckSerializer(serializers.Serializer):
    round_number = serializers.IntegerField()
    fits = serializers.BooleanField()
    reference = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField()
    placed = serializers.IntegerField()
    valid = serializers.BooleanField()
    words = FormedWordSerializer(many=True)
    code = serializers.CharField(help_text="Why the move does not fit ('' when it fits).")
    detail = serializers.CharField(help_text="The same, as a sentence ('' when it fits).")


class DisputeSerializer(serializers.Serializer):
    typed = serializers.CharField()
    word = serializers.CharField()
    in_lexicon = serializers.BooleanField()
    lexicon = serializers.CharField()
    move = MoveCheckSerializer(allow_null=True)


class CentreRoundSerializer(serializers.Serializer):
    """A centre of a simultaneous event on a round: closed (when, by whom) or still playing
    (``closed_at`` null), from ``selectors.CentreRound``."""

    id = serializers.IntegerField(source="centre.pk")
    name = serializers.CharField(source="centre.name")
    club = serializers.CharField(source="centre.club")
    time_zone = serializers.CharField(source="centre.time_zone")
    closed_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField(allow_blank=True)
