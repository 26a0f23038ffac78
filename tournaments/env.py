"""Typed readers for the environment variables that drive ``tournaments.settings``.

Settings are configured only through the environment (twelve-factor style) so the same code
runs embedded on a laptop and in production; these helpers turn a malformed value into an
``ImproperlyConfigured`` sentence at start-up instead of a surprise later.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """Return the variable stripped of surrounding blanks, or ``default`` when unset/empty."""
    value = os.environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool) -> bool:
    """Parse a yes/no variable; anything else is a configuration error, not a silent False."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of: 1, 0, true, false, yes, no, on, off."
    )


def env_int(name: str, default: int) -> int:
    """Parse an integer variable, refusing garbage with a sentence naming the variable."""
    raw = env_str(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Split a comma-separated variable into its non-empty items."""
    raw = env_str(name)
    if not raw:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]
