"""System checks of Tirage (``manage.py check --deploy``).

``tirage.E001``: in production, no account that can act (staff, superuser or arbiter of a
tournament) may still have a development password — ``arbitre`` (the development setup's
documented one, ``tirage_setup``) or its own user name. A development database copied to a
server, or ``tirage_setup`` run once without ``TIRAGE_ENV=production``, would otherwise
leave ``arbitre/arbitre`` working on the console and for API tokens. ``tournaments.wsgi``
runs this check when the production site starts and refuses to serve until it passes.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.db import DatabaseError

logger = logging.getLogger(__name__)

#: Passwords that only ever belong to a development database.
DEV_PASSWORDS = ("arbitre",)
CHECK_ID = "tirage.E001"


def accounts_with_dev_password() -> list[str]:
    """User names of the accounts that can act and still have a development password."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    users = (
        get_user_model()
        ._default_manager.filter(is_active=True)
        .filter(Q(is_staff=True) | Q(is_superuser=True) | Q(arbitrations__isnull=False))
    )
    found = []
    for user in users.distinct():
        name = user.get_username()
        if any(user.check_password(word) for word in (*DEV_PASSWORDS, name)):
            found.append(name)
    return sorted(found)


@register(Tags.security, deploy=True)
def dev_passwords_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    if not getattr(settings, "PRODUCTION", False):
        return []
    try:
        names = accounts_with_dev_password()
    except DatabaseError:  # not migrated yet: there is no account to check
        return []
    if not names:
        return []
    return [
        Error(
            f"Account(s) {', '.join(names)} still have a development password "
            f"({' or '.join(DEV_PASSWORDS)}, or the user name).",
            hint="Change it: manage.py changepassword NAME (or deactivate the account).",
            id=CHECK_ID,
        )
    ]


@register(Tags.security, deploy=True)
def seal_key_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """``tirage.W002``: production without ``TIRAGE_SEAL_KEY`` cannot seal a game nor
    release a sealed round (docs/simultaneous.md); a warning, as a site without
    simultaneous events needs no key."""
    if not getattr(settings, "PRODUCTION", False) or settings.TIRAGE_SEAL_KEY:
        return []
    return [
        Warning(
            "TIRAGE_SEAL_KEY is not set: sealed games can be neither created nor released.",
            hint="Set it to a key generated as docs/simultaneous.md says (section Keys).",
            id="tirage.W002",
        )
    ]
