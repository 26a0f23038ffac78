"""Strict readers for numbers and flags typed by people or sent by clients.

Python's ``str.isdigit()`` and ``int()`` accept far more than a table number: ``"²"`` is a
digit to ``isdigit()`` (and then ``int()`` fails), ``"٣"`` or ``"３"`` are read as 3, and
``"99999999999999999999"`` is a fine ``int`` that no database column holds (OverflowError,
a 500). Every number that comes from outside goes through :func:`ascii_int`: ASCII digits
only, within bounds, else ``None``; the caller refuses with its own code and sentence.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext

from tournaments.errors import ServiceError

_ASCII_INT = re.compile(r"[0-9]{1,19}")
_SIGNED_INT = re.compile(r"-?[0-9]{1,19}")

#: The largest number a database id, a table or a round may be here: PostgreSQL's bigint.
MAX_ID = 2**63 - 1
#: Tables of a room, rounds of a game, games of a tournament: generous, and far below int32.
MAX_TABLE = 100_000
MAX_ROUND = 1_000
MAX_GAME = 1_000
MAX_SCORE = 9_999
#: Birth years a player may have.
MIN_YEAR, MAX_YEAR = 1900, 2100

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})


def ascii_int(value: Any, *, low: int = 0, high: int = MAX_ID, signed: bool = False) -> int | None:
    """``value`` as an integer when it is written with ASCII digits only (a ``-`` first if
    ``signed``) and lies in ``[low, high]``; an ``int`` is checked against the bounds;
    anything else (``"²"``, ``"3.5"``, ``"1e9"``, a bool, 30 digits) is ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            return None
        number = int(value)
    else:
        text = str(value).strip() if value is not None else ""
        if not (_SIGNED_INT if signed else _ASCII_INT).fullmatch(text):
            return None
        number = int(text)
    return number if low <= number <= high else None


def no_nul(*texts: str) -> None:
    """Refuse (``form.invalid``, a 400) text holding the NUL character, which no PostgreSQL
    text column holds (the insert fails: a 500): for the console forms read without a
    Django form, whose fields refuse it themselves."""
    if any("\x00" in (text or "") for text in texts):
        raise ServiceError("form.invalid", gettext("Le formulaire contient des erreurs."))


def flag(value: Any, *, code: str, field: str, default: bool = False) -> bool:
    """A yes/no query parameter: ``1 true yes on`` / ``0 false no off`` (any case), absent
    or empty is ``default``; anything else is refused (``code``) rather than read as no."""
    if value is None or value == "":
        return default
    text = str(value).strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ServiceError(
        code, f"{field}: expected true or false, got {str(value)[:40]!r}.", field=field
    )
