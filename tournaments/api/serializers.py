"""Serializers: request bodies are validated here (types, ranges, required fields) and
responses are shaped here. None of them saves anything: views pass ``validated_data`` to a
service and serialise what it returns."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.duplicate.variants import VARIANTS, canonical_code
from tournaments import selectors
from tournaments.models import (
    Decision,
    Game,
    Player,
    ProposalVersion,
    Registration,
    Round,
    Tournament,
)
from tournaments.parsing import MAX_ROUND
from tournaments.selectors.values import RankingLine

MAX_SEED = 2**62 - 1
MAX_SCORE = 9999

# --- Requests ------------------------------------------------------------------------------

#: JSON types each field family takes; DRF would also read ``"12"`` as 12, ``12`` as
#: ``"12"`` or ``"yes"`` as true, which the schema (and so its clients) says are wrong.
_JSON_TYPES: tuple[tuple[type, tuple[type, ...], str], ...] = (
    (serializers.BooleanField, (bool,), "un booléen (true ou false)"),
    (serializers.IntegerField, (int,), "un nombre entier"),
    (serializers.ChoiceField, (str,), "une chaîne de caractères"),
    (serializers.CharField, (str,), "une chaîne de caractères"),
)


class RequestSerializer(serializers.Serializer):
    """A JSON request body: each value must already have its field's JSON type (a string
    for text and choices, an integer — not a boolean — for numbers, a boolean for yes/no)
    before the field's own checks run."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            wrong = {}
            for name, field in self.fields.items():
                if name not in data or data[name] is None:
                    continue
                value = data[name]
                for family, types, wording in _JSON_TYPES:
                    if isinstance(field, family):
                        if not isinstance(value, types) or (
                            bool not in types and isinstance(value, bool)
                        ):
                            wrong[name] = [f"Type incorrect : {wording} est attendu."]
                        break
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


#: What a typed word may hold: letters (accented ones fold to their letter, lowercase is a
#: joker) and spaces. The engine refuses anything else (``word.character``); saying it in
#: the schema too lets clients check before sending.
WORD_LETTERS = "A-Za-zàâäáãåçéèêëíìîïñóòôöõúùûüýÿœæÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸŒÆ "
WORD_PATTERN = f"^[{WORD_LETTERS}]*$"
_WORD = re.compile(f"[{WORD_LETTERS}]*")


@extend_schema_field({"type": "string", "maxLength": 30, "pattern": WORD_PATTERN})
class WordField(serializers.CharField):
    """A proposal's word: at most 30 characters, letters and spaces only (whole value)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 30)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if not _WORD.fullmatch(value):
            raise serializers.ValidationError(
                "Un mot ne contient que des lettres (minuscule = joker) et des espaces."
            )
        return value.strip()


class FormulaField(serializers.ChoiceField):
    """A duplicate formula's code; a client's old ``classic`` is read as ``standard``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(VARIANTS), **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        return super().to_internal_value(canonical_code(data) if isinstance(data, str) else data)


class TournamentCreateSerializer(RequestSerializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    lexicon = serializers.IntegerField(min_value=1, max_value=2**62, required=False)
    variant_code = FormulaField(required=False)
    seconds_per_move = serializers.IntegerField(min_value=1, max_value=3600, required=False)
    warning_before_end = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    warning_penalty_from = serializers.IntegerField(min_value=1, max_value=100, required=False)
    solo_value = serializers.IntegerField(min_value=0, max_value=100, required=False)
    solo_min_players = serializers.IntegerField(min_value=1, max_value=10_000, required=False)
    score_required = serializers.BooleanField(required=False)
    tie_break = serializers.ChoiceField(
        choices=["shared", "last_game_then_last_moves"], required=False
    )
    public_rankings = serializers.BooleanField(
        required=False, help_text="Anyone may read the rankings (default false: arbiters only)."
    )


class PlayerRegisterSerializer(RequestSerializer):
    name = serializers.CharField(max_length=200)
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    federation = serializers.CharField(max_length=20, required=False, allow_blank=True)
    series = serializers.CharField(max_length=10, required=False, allow_blank=True)
    category = serializers.CharField(max_length=20, required=False, allow_blank=True)
    birth_year = serializers.IntegerField(min_value=1900, max_value=2100, required=False)
    table_number = serializers.IntegerField(min_value=1, max_value=100_000, required=False)
    issue_token = serializers.BooleanField(
        default=True, help_text="Give the player a tablet token at once (default true)."
    )


# -- players: edit, table change, arrival, withdrawal (api/views/registrations.py) -----------


class RegistrationUpdateSerializer(RequestSerializer):
    """The details to change (the others stay as they are) and the table to move to."""

    name = serializers.CharField(max_length=200, required=False)
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    federation = serializers.CharField(max_length=20, required=False, allow_blank=True)
    series = serializers.CharField(max_length=10, required=False, allow_blank=True)
    category = serializers.CharField(max_length=20, required=False, allow_blank=True)
    birth_year = serializers.IntegerField(
        min_value=1900, max_value=2100, required=False, allow_null=True
    )
    table_number = serializers.IntegerField(
        min_value=1, max_value=100_000, required=False,
        help_text="Move the player to this table (head arbiter; 409 when it is taken).",
    )  # fmt: skip


class RoundPointSerializer(RequestSerializer):
    """Where a late arrival or a withdrawal starts: a game and one of its rounds."""

    game = serializers.IntegerField(min_value=1, max_value=1000)
    round = serializers.IntegerField(min_value=1, max_value=1000)


class WithdrawSerializer(RoundPointSerializer):
    reason = serializers.CharField(max_length=500, help_text="Why the player leaves.")


class PlayersImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A CSV or XLSX file, one player a row (2 MB).")
    issue_tokens = serializers.BooleanField(
        required=False, default=True, help_text="Give each player a tablet token (default)."
    )


class GameCreateSerializer(RequestSerializer):
    kind = serializers.ChoiceField(choices=["seeded", "manual", "predrawn"], default="seeded")
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    predrawn = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)
    variant_code = FormulaField(required=False)
    sealed = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A pre-drawn game whose racks stay encrypted until each round's release.",
    )
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUND,
        required=False,
        allow_null=True,
        help_text="The number of rounds announced: the game ends normally after round N's "
        "top. Omitted: played to the end of the bag.",
    )


class DrawSerializer(RequestSerializer):
    letters = serializers.CharField(
        max_length=30,
        required=False,
        help_text="Letters typed by the arbiter (manual games), e.g. 'U+OEE?AF'.",
    )


class MoveChoiceSerializer(RequestSerializer):
    coord = serializers.CharField(max_length=10, help_text="Reference: 'H4' or '4H'.")
    word = serializers.CharField(max_length=30)


class PlaceSerializer(RequestSerializer):
    coord = serializers.CharField(max_length=10, required=False)
    word = serializers.CharField(max_length=30, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("coord" in attrs) != ("word" in attrs):
            raise serializers.ValidationError("Give both coord and word, or neither.")
        return attrs


class SlipSerializer(RequestSerializer):
    table_number = serializers.IntegerField(min_value=1, max_value=100_000)
    reference = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    word = WordField(allow_blank=True)
    score = serializers.IntegerField(min_value=0, max_value=MAX_SCORE, required=False)
    late = serializers.BooleanField(default=False)


class CorrectionSerializer(RequestSerializer):
    reference = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    word = WordField(allow_blank=True)
    score = serializers.IntegerField(min_value=0, max_value=MAX_SCORE, required=False)
    reason = serializers.CharField(max_length=2000)


class DecisionCreateSerializer(RequestSerializer):
    table_number = serializers.IntegerField(min_value=1, max_value=100_000)
    kind = serializers.ChoiceField(choices=["warning", "penalty", "zero", "moyenne"])
    reason = serializers.CharField(max_length=2000)
    disciplinary = serializers.BooleanField(default=False, help_text="Warnings only (§4.3).")
    earlier_round = serializers.IntegerField(
        min_value=1, max_value=2**62, required=False,
        help_text="Moyenne only: the earlier round where the same invalid word scored zero.",
    )  # fmt: skip

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "moyenne" and "earlier_round" not in attrs:
            raise serializers.ValidationError({"earlier_round": "A moyenne names the round."})
        return attrs


class CancelSerializer(RequestSerializer):
    reason = serializers.CharField(max_length=2000)
    redraw = serializers.BooleanField(default=True)


class PlayerProposalSerializer(RequestSerializer):
    round = serializers.IntegerField(
        min_value=1,
        max_value=2**62,
        required=False,
        help_text="The round id (default: the current round of the player's game).",
    )
    reference = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    word = WordField(allow_blank=True, help_text="Jokers as lowercase letters.")
    score = serializers.IntegerField(min_value=0, max_value=MAX_SCORE, required=False)
    client_key = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="Any string unique per proposal: resending it returns the stored result.",
    )


# --- Responses -----------------------------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer):
    """Public fields of a tournament."""

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "description",
            "created_at",
            "last_computed_at",
            "variant_code",
            "seconds_per_move",
            "solo_value",
            "solo_min_players",
            "score_required",
            "tie_break",
            "public_rankings",
        ]
        read_only_fields = fields


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "licence", "club", "federation", "series", "category",
                  "birth_year"]  # fmt: skip
        read_only_fields = fields


class RegistrationSerializer(serializers.ModelSerializer):
    """A registration as the arbiters see it, with the player's token to hand out."""

    player = PlayerSerializer(read_only=True)
    access_token = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = ["id", "player", "table_number", "arrival_game", "arrival_round", "access_token",
                  "withdrawn_game", "withdrawn_round", "withdrawn_reason"]  # fmt: skip
        read_only_fields = fields

    def get_access_token(self, obj: Registration) -> str | None:
        return getattr(obj, "access_token", None) or None


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    registrations = RegistrationSerializer(many=True)


class TokensIssuedSerializer(serializers.Serializer):
    """« Créer tous les liens tablette »: how many links were made, and every registration
    with its link (the existing ones unchanged)."""

    created = serializers.IntegerField()
    registrations = RegistrationSerializer(many=True)


class MoveSerializer(serializers.Serializer):
    coord = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField()
    placed = serializers.IntegerField()


class TopSerializer(serializers.Serializer):
    chosen = MoveSerializer()
    tied = MoveSerializer(many=True)
    eligible = serializers.ListField(child=serializers.IntegerField())
    best = MoveSerializer(many=True)


class RoundSerializer(serializers.ModelSerializer):
    """A round as the arbiters see it: the top (and its tied set) once computed."""

    game = serializers.IntegerField(source="game_id", read_only=True)
    board = serializers.CharField(source="board_before", read_only=True)
    top = serializers.SerializerMethodField()
    top_ready = serializers.SerializerMethodField()
    top_placed = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id",
            "game",
            "number",
            "state",
            "rack",
            "reliquat",
            "new_letters",
            "rejections",
            "board",
            "deadline",
            "opened_at",
            "closed_at",
            "paused_at",
            "paused_remaining",
            "top_ready",
            "top_score",
            "top",
            "chosen_by",
            "top_placed",
            "top_placed_at",
        ]
        read_only_fields = fields

    @extend_schema_field(TopSerializer(allow_null=True))
    def get_top(self, obj: Round) -> dict[str, Any] | None:
        return obj.top

    def get_top_ready(self, obj: Round) -> bool:
        return obj.top is not None

    def get_top_placed(self, obj: Round) -> bool:
        return obj.top_placed_at is not None


class GameSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    sealed = serializers.SerializerMethodField(
        help_text="Its racks stay encrypted until each round's release (GET .../release)."
    )
    rounds = serializers.IntegerField(
        source="rounds_announced",
        read_only=True,
        allow_null=True,
        help_text="The number of rounds announced (the game ends after round N's top), or "
        "null: played to the end of the bag.",
    )

    class Meta:
        model = Game
        fields = ["id", "tournament", "number", "kind", "seed", "variant_code", "state", "end",
                  "sealed", "rounds"]  # fmt: skip
        read_only_fields = fields

    def get_sealed(self, obj: Game) -> bool:
        return selectors.is_sealed_game(obj)


class RoundSummarySerializer(serializers.Serializer):
    """One round in a game's list: numbers as numbers, the top once computed."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=Round.STATES)
    rack = serializers.CharField()
    top_score = serializers.IntegerField(allow_null=True)
    top_placed = serializers.BooleanField()


class GameStateSerializer(GameSerializer):
    """A game and its current round (the last one drawn), with the board before it."""

    current_round = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    board = serializers.SerializerMethodField()
    pending_draws = serializers.JSONField(read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "pending_draws", "board", "current_round", "rounds"]
        read_only_fields = fields

    def _current(self, obj: Game) -> Round | None:
        return self.context.get("current_round")

    @extend_schema_field(RoundSerializer(allow_null=True))
    def get_current_round(self, obj: Game) -> dict[str, Any] | None:
        rnd = self._current(obj)
        return RoundSerializer(rnd).data if rnd is not None else None

    def get_board(self, obj: Game) -> str:
        rnd = self._current(obj)
        return rnd.board_before if rnd is not None else ""

    @extend_schema_field(RoundSummarySerializer(many=True))
    def get_rounds(self, obj: Game) -> list[dict[str, Any]]:
        return [
            {"id": r.pk, "number": r.number, "state": r.state, "rack": r.rack,
             "top_score": r.top_score, "top_placed": r.top_placed_at is not None}
            for r in self.context.get("rounds", [])
        ]  # fmt: skip


class AlternativeSerializer(serializers.Serializer):
    """The other outcome of a slip left to the arbiter's judgement (rules §4.4–4.6)."""

    kind = serializers.CharField()
    score = serializers.IntegerField()
    raw_score = serializers.IntegerField()
    code = serializers.CharField()


class OutcomeSerializer(serializers.Serializer):
    """The judged outcome as stored (the rulebook's default); ``review`` names the reason a
    slip waits for the arbiter's judgement (empty otherwise) and ``alternative`` the outcome
    the arbiter may take instead; the decision itself is in the round's decisions."""

    kind = serializers.CharField(source="outcome_kind")
    score = serializers.IntegerField(source="outcome_score")
    raw_score = serializers.IntegerField(source="outcome_raw_score")
    code = serializers.CharField(source="outcome_code")
    reason = serializers.CharField(source="outcome_reason")
    review = serializers.SerializerMethodField()
    alternative = serializers.SerializerMethodField()

    def get_review(self, version: ProposalVersion) -> str:
        return str((version.outcome_params or {}).get("review", ""))

    @extend_schema_field(AlternativeSerializer(allow_null=True))
    def get_alternative(self, version: ProposalVersion) -> dict[str, Any] | None:
        alternative = (version.outcome_params or {}).get("alternative")
        if not alternative:
            return None
        return {key: alternative[key] for key in ("kind", "score", "raw_score", "code")}


class ProposalSerializer(serializers.ModelSerializer):
    """A proposal version with its judged outcome (arbiters, or the player after close)."""

    round = serializers.IntegerField(source="round_id", read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    player_name = serializers.CharField(source="player.name", read_only=True)
    score = serializers.IntegerField(source="claimed_score", read_only=True, allow_null=True)
    outcome = OutcomeSerializer(source="*", read_only=True)

    class Meta:
        model = ProposalVersion
        fields = [
            "id",
            "round",
            "player",
            "player_name",
            "version",
            "is_current",
            "reference",
            "word",
            "score",
            "late",
            "source",
            "reason",
            "created_at",
            "outcome",
        ]
        read_only_fields = fields


class OwnProposalSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="None while the move is queued.")
    version = serializers.IntegerField(allow_null=True)
    reference = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    late = serializers.BooleanField()
    pending = serializers.BooleanField(
        help_text="True: the move is received and queued, not yet stored as a version."
    )


class PlayerProposalReceiptSerializer(serializers.Serializer):
    """The queued path's answer (``202``): the move is stored and will be judged; no
    outcome, no version number yet."""

    id = serializers.IntegerField(source="arrival.pk", help_text="The receipt's id.")
    round = serializers.IntegerField(source="arrival.round_id")
    reference = serializers.CharField(source="arrival.reference")
    word = serializers.CharField(source="arrival.word")
    score = serializers.IntegerField(source="arrival.claimed_score", allow_null=True)
    client_key = serializers.CharField(source="arrival.client_key")
    received_at = serializers.DateTimeField(source="arrival.received_at")
    replayed = serializers.BooleanField()
    pending = serializers.SerializerMethodField(
        help_text="True until the worker (or the round's close) stored it as a version."
    )

    def get_pending(self, receipt: Any) -> bool:
        return receipt.arrival.ingested_at is None


class PlayerProposalResultSerializer(serializers.Serializer):
    """What a player's tablet gets back: the stored version, without its outcome while the
    round is open (outcomes are announced with the top)."""

    id = serializers.IntegerField(source="version.pk")
    round = serializers.IntegerField(source="version.round_id")
    version = serializers.IntegerField(source="version.version")
    reference = serializers.CharField(source="version.reference")
    word = serializers.CharField(source="version.word")
    score = serializers.IntegerField(source="version.claimed_score", allow_null=True)
    late = serializers.BooleanField(source="version.late")
    client_key = serializers.CharField(source="version.client_key")
    received_at = serializers.DateTimeField(source="version.created_at")
    replayed = serializers.BooleanField()
    counts = serializers.SerializerMethodField(
        help_text="False for a late version kept beside the on-time one that counts."
    )
    standing = serializers.SerializerMethodField(
        help_text="The on-time version that still counts when this one came late."
    )

    def _standing(self, result: Any) -> Any:
        version = result.version
        if result.standing is not None or not version.late or version.is_current:
            return result.standing
        # A replayed late version: the on-time one beside it is the current one.
        return selectors.current_proposal(version.round_id, version.player_id)

    @extend_schema_field(serializers.BooleanField())
    def get_counts(self, result: Any) -> bool:
        return self._standing(result) is None

    @extend_schema_field(OwnProposalSerializer(allow_null=True))
    def get_standing(self, result: Any) -> dict[str, Any] | None:
        own = self._standing(result)
        if own is None:
            return None
        return {"id": own.pk, "version": own.version, "reference": own.reference,
                "word": own.word, "score": own.claimed_score, "late": own.late,
                "pending": False}  # fmt: skip


class PlayerRoundInfoSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField()
    rack = serializers.CharField(allow_null=True)
    board = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    paused_remaining = serializers.IntegerField(allow_null=True)
    top = MoveSerializer(allow_null=True)


class PlayerRoundSerializer(serializers.Serializer):
    server_time = serializers.DateTimeField()
    tournament = serializers.CharField()
    player = serializers.CharField()
    table_number = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    round = PlayerRoundInfoSerializer(allow_null=True)
    proposal = OwnProposalSerializer(allow_null=True)


class PlayerResultRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    rack = serializers.CharField()
    top = MoveSerializer(allow_null=True)
    top_score = serializers.IntegerField(allow_null=True)
    proposal = ProposalSerializer(allow_null=True)
    score = serializers.IntegerField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player.player_id")
    name = serializers.CharField(source="player.name")
    table_number = serializers.IntegerField(source="player.table", allow_null=True)
    total = serializers.IntegerField()
    negatif = serializers.IntegerField()
    negatif_text = serializers.CharField()
    percent = serializers.DecimalField(max_digits=7, decimal_places=2)
    solos = serializers.IntegerField()
    warnings = serializers.IntegerField()
    penalties = serializers.IntegerField()


def standings_data(lines: Iterable[RankingLine]) -> list[dict[str, Any]]:
    """:class:`StandingSerializer`'s output for many lines, written without DRF's field
    objects: a 500-line slice spent ~90 ms in them at 5,000 players (docs/benchmarks.md,
    "Stored rankings"). The schema still names ``StandingSerializer``;
    tests/site/test_ranking_pages.py checks that both give the same JSON."""
    return [
        {
            "rank": x.rank,
            "player": x.player.player_id,
            "name": x.player.name,
            "table_number": x.player.table,
            "total": x.total,
            "negatif": x.negatif,
            "negatif_text": x.negatif_text,
            "percent": f"{x.percent:.2f}",
            "solos": x.solos,
            "warnings": x.warnings,
            "penalties": x.penalties,
        }  # fmt: skip
        for x in lines
    ]


class PlayerResultGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    top_total = serializers.IntegerField()
    standing = StandingSerializer(allow_null=True)
    rounds = PlayerResultRoundSerializer(many=True)


class PlayerResultsSerializer(serializers.Serializer):
    server_time = serializers.DateTimeField()
    player = serializers.CharField()
    games = PlayerResultGameSerializer(many=True)


class RankingSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    top_total = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    standings = StandingSerializer(many=True)


class DecisionSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    author = serializers.CharField(source="author.get_username", read_only=True)

    class Meta:
        model = Decision
        fields = ["id", "round", "player", "kind", "reason", "author", "created_at"]
        read_only_fields = fields


class PlayerTokenSerializer(serializers.Serializer):
    registration = serializers.IntegerField()
    table_number = serializers.IntegerField()
    access_token = serializers.CharField(allow_null=True)


class TokenRequestSerializer(RequestSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=500, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
