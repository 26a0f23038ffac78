"""The card tables' API bodies (docs/api.md, "Card tables"; issue 18).

The views are ``selectors.card_public_view`` and ``card_seat_view`` as the tablets read
them; the parts whose shape is the ``tirage-cards`` record's (a turn's words, a challenge,
the end) are declared as JSON values, documented in docs/cards.md."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import CardEventKind, CardSeatKind, CardTableState
from tournaments.models.cards import MAX_SEATS
from tournaments.services.cards import MAX_NAME

#: The choice sets, named in the schema (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``).
SEAT_KINDS = list(CardSeatKind.values)
TABLE_STATES = list(CardTableState.values)
EVENT_KINDS = list(CardEventKind.values)
#: A square of the unbounded table, as the service accepts it.
SQUARE = 10_000


class CardSeatSpecSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=SEAT_KINDS, help_text="human (a tablet), strong or weak (engines)."
    )
    name = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=MAX_NAME,
        help_text="The player's name (a human seat needs one).",
    )  # fmt: skip


class CardTableOpenSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, default="", allow_blank=True, max_length=80)
    seats = CardSeatSpecSerializer(
        many=True, min_length=1, max_length=MAX_SEATS,
        help_text="The seats in order (2 to 6). With a player token, the player holds seat 1 "
        "and these are the other seats (1 to 5).",
    )  # fmt: skip
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=2**63 - 1,
        help_text="The deck's seed (arbiters only; random when not given).",
    )  # fmt: skip


class CardSeatLinkSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="0 for seat 1.")
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=SEAT_KINDS)
    token = serializers.CharField(
        allow_null=True, help_text="The seat's private token (null: an engine seat)."
    )
    url = serializers.CharField(allow_null=True, help_text="The seat's tablet page.")


class CardTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    state = serializers.ChoiceField(choices=TABLE_STATES)
    seats = serializers.IntegerField()
    opened_by = serializers.CharField(
        allow_null=True, help_text="The player who opened it (null: an arbiter)."
    )
    revision = serializers.IntegerField(help_text="Events stored so far.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class CardTableDetailSerializer(CardTableSerializer):
    links = CardSeatLinkSerializer(many=True, help_text="Each seat's tablet link.")


class CardViewTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tournament = serializers.CharField()
    state = serializers.ChoiceField(choices=TABLE_STATES)
    over = serializers.BooleanField(help_text="Finished or closed.")
    closed = serializers.BooleanField()
    revision = serializers.IntegerField()


class CardViewSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=SEAT_KINDS)
    engine = serializers.BooleanField()
    score = serializers.IntegerField()
    cards = serializers.IntegerField(help_text="How many cards the seat holds (never which).")


class CardPublicViewSerializer(serializers.Serializer):
    """What everyone at the table sees: no hand."""

    table = CardViewTableSerializer()
    seats = CardViewSeatSerializer(many=True)
    current = serializers.IntegerField(allow_null=True, help_text="Whose turn (null: over).")
    first = serializers.IntegerField()
    deck = serializers.IntegerField()
    cells = serializers.ListField(
        child=serializers.JSONField(), help_text="The table's cards: [row, col, face]."
    )
    pending = serializers.JSONField(
        allow_null=True,
        help_text="The move laid and awaiting answers: seat, cards, prime, words, score, "
        "waiting_for (null: none).",
    )
    turns = serializers.ListField(
        child=serializers.JSONField(),
        help_text="The last turns, newest first, told in a sentence (text); never a hand.",
    )
    end = serializers.JSONField(
        allow_null=True, help_text="reason, out, adjustments, scores, text (null: not over)."
    )


#: What the seat may do now (``pass`` is a Python keyword, hence the built class).
CardSeatCanSerializer = type(
    "CardSeatCanSerializer",
    (serializers.Serializer,),
    {
        "play": serializers.BooleanField(),
        "pass": serializers.BooleanField(),
        "exchange": serializers.BooleanField(),
        "answer": serializers.BooleanField(help_text="Let the move laid stand, or challenge it."),
    },
)


class CardSeatViewSerializer(CardPublicViewSerializer):
    """A seat's view: the public view plus its own hand, never another seat's."""

    you = serializers.IntegerField(help_text="The reader's seat number.")
    hand = serializers.CharField(
        allow_blank=True, help_text="The seat's own cards: A-Z, ? (joker), 2 and 3 (Prime)."
    )
    can = CardSeatCanSerializer()


class CardPlacedSerializer(serializers.Serializer):
    row = serializers.IntegerField(min_value=-SQUARE, max_value=SQUARE)
    col = serializers.IntegerField(min_value=-SQUARE, max_value=SQUARE)
    letter = serializers.RegexField(r"^[A-Z]$", help_text="The letter shown (a joker's too).")
    joker = serializers.BooleanField(required=False, default=False)


class CardPrimeSerializer(serializers.Serializer):
    card = serializers.ChoiceField(choices=["2", "3"], help_text="2: double, 3: triple.")
    row = serializers.IntegerField(min_value=-SQUARE, max_value=SQUARE)
    col = serializers.IntegerField(min_value=-SQUARE, max_value=SQUARE)


class CardPlaySerializer(serializers.Serializer):
    cards = CardPlacedSerializer(many=True, min_length=1, max_length=7)
    prime = CardPrimeSerializer(required=False, allow_null=True, default=None)


class CardActionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=EVENT_KINDS,
        help_text="play (with play), accept, challenge, pass, exchange (with cards).",
    )
    play = CardPlaySerializer(required=False, allow_null=True, default=None)
    cards = serializers.RegexField(
        r"^[A-Za-z?23]{0,7}$", required=False, default="", allow_blank=True,
        help_text="exchange: the cards given back (1 to 7).",
    )  # fmt: skip
