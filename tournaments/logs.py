"""Log records stamped with the zone they are in.

Django sets the process's local zone to ``TIME_ZONE`` (Europe/Paris) while servers usually
keep their clock in UTC: a bare ``19:00:05`` in a log would be ambiguous. Every line says
its offset instead (``2026-11-30 19:00:05.671+01:00``), in Django's logs and the Celery
worker's alike (``tournaments.celery`` applies :func:`zoned_time` to the worker's handlers).
"""

from __future__ import annotations

import logging
from datetime import datetime


def zoned_time(record: logging.LogRecord, datefmt: str | None = None) -> str:
    """The record's local time with milliseconds and its UTC offset (ISO 8601)."""
    moment = datetime.fromtimestamp(record.created).astimezone()
    return moment.isoformat(sep=" ", timespec="milliseconds")


class ZonedFormatter(logging.Formatter):
    """A :class:`logging.Formatter` whose ``%(asctime)s`` carries the UTC offset."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return zoned_time(record, datefmt)
