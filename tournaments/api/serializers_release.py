"""Request and response bodies of a sealed game's release schedule (issue 16, item 1;
docs/simultaneous.md): the schedule as read (never a sealed line's text) and as set."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.api.serializers import RequestSerializer
from tournaments.selectors import ReleaseSchedule


class ReleaseLineSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    release_at = serializers.DateTimeField(allow_null=True)
    released = serializers.BooleanField()
    drawn = serializers.BooleanField()


class ReleaseScheduleSerializer(serializers.Serializer):
    """A sealed game's schedule: each round's release time and state, the next release
    and the whole seconds until it (0 when due, null when not scheduled)."""

    starts_at = serializers.DateTimeField(allow_null=True)
    interval = serializers.IntegerField(allow_null=True, help_text="Seconds between rounds.")
    auto_open = serializers.BooleanField()
    released = serializers.IntegerField()
    next_round = serializers.IntegerField(allow_null=True)
    next_release_at = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    rounds = ReleaseLineSerializer(many=True)


def schedule_data(schedule: ReleaseSchedule | None) -> dict[str, Any] | None:
    """The schedule as :class:`ReleaseScheduleSerializer` answers it (None: not sealed)."""
    if schedule is None:
        return None
    nxt = schedule.next_line
    return ReleaseScheduleSerializer(
        {
            "starts_at": schedule.starts_at,
            "interval": schedule.interval,
            "auto_open": schedule.auto_open,
            "released": schedule.released,
            "next_round": nxt.number if nxt else None,
            "next_release_at": nxt.release_at if nxt else None,
            "seconds_left": schedule.seconds_left,
            "rounds": [
                {
                    "number": ln.number,
                    "release_at": ln.release_at,
                    "released": ln.released,
                    "drawn": ln.drawn,
                }
                for ln in schedule.lines
            ],
        }  # fmt: skip
    ).data


class ScheduleSetSerializer(RequestSerializer):
    """The first release and a fixed ``interval`` (seconds), or the release ``times`` of
    every round (ISO 8601, increasing); ``auto_open`` opens each round when released."""

    starts_at = serializers.DateTimeField(required=False)
    interval = serializers.IntegerField(min_value=10, max_value=3 * 3600, required=False)
    times = serializers.ListField(
        child=serializers.DateTimeField(), required=False, max_length=200, min_length=1
    )
    auto_open = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "times" not in attrs and not ("starts_at" in attrs and "interval" in attrs):
            raise serializers.ValidationError(
                {"interval": ["Give starts_at and interval, or times."]}
            )
        return attrs
