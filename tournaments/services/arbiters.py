"""A tournament's arbiters: the head arbiter adds one by user name or e-mail (creating the
account when nobody has it), removes one, or hands the head arbiter's role over.

There is exactly one head arbiter: the database allows at most one (``arbiter_one_head``),
``arbiter_remove`` refuses to remove the head and ``arbiter_handover`` swaps the two roles
in one transaction. A new account gets no password: ``arbiter_add`` returns a one-time
link built with Django's password-reset tokens (valid until the password is set, or for
``PASSWORD_RESET_TIMEOUT``), which the console shows once and the new arbiter opens to
choose a password. Only the link's existence is audited, never its token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournaments.access import ARBITER, HEAD, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership
from tournaments.services.audit import audit_record
from tournaments.services.centres import arbiter_centre_set
from tournaments.services.registry import locked_tournament

MAX_LOGIN = 150
_USERNAME = re.compile(r"^[\w.@+-]+$")


@dataclass(frozen=True)
class ArbiterAdded:
    """The membership, whether the account was created here, and the path of the one-time
    link that sets its password (``None`` for an account that already has one)."""

    membership: ArbiterMembership
    created_user: bool
    password_path: str | None


def password_path(user: Any) -> str:
    """The console's address where ``user`` chooses a password (Django's reset token: it
    stops working once the password is set)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("console:password_set", args=[uid, token])


def _free_username(base: str) -> str:
    users = get_user_model().objects
    base = re.sub(r"[^\w.+-]", "", base)[: MAX_LOGIN - 4] or "arbitre"
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


def _user_for(login: str) -> tuple[Any, bool]:
    """The account named by ``login`` (a user name or an e-mail address), created without a
    password when nobody has it; and whether it was created."""
    users = get_user_model().objects
    login = login.strip()
    if not login or len(login) > MAX_LOGIN:
        raise ServiceError("arbiter.login", "Give a user name or an e-mail address.")
    if "@" in login:
        try:
            validate_email(login)
        except ValidationError:
            raise ServiceError("arbiter.email", f"'{login}' is not an e-mail address.",
                               login=login) from None  # fmt: skip
        found = list(users.filter(email__iexact=login)[:2])
        if len(found) > 1:
            raise ServiceError("arbiter.ambiguous", f"Several accounts use {login}.", login=login)
        if found:
            return found[0], False
        named = users.filter(username__iexact=login).first()
        if named is not None:
            return named, False
        user = users.create_user(_free_username(login.split("@")[0]), email=login)
        return user, True
    if not _USERNAME.match(login):
        raise ServiceError("arbiter.username", f"'{login}' is not a user name.", login=login)
    existing = users.filter(username__iexact=login).first()
    if existing is not None:
        return existing, False
    return users.create_user(login), True


def arbiter_add(
    *, actor: Any, tournament_id: int, login: str, centre_id: int | None = None,
    centre_head: bool = False,
) -> ArbiterAdded:  # fmt: skip
    """Make the account ``login`` (user name or e-mail) an arbiter of the tournament, creating
    it when unknown. Head arbiter only. An account without a usable password (just created,
    or created earlier and never opened) gets a new one-time link; adding an arbiter twice
    changes nothing but that link. With ``centre_id`` (a simultaneous event) the arbiter
    is bound to that centre, as its head arbiter with ``centre_head``
    (``centres.arbiter_centre_set``)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        user, created_user = _user_for(login)
        if not user.is_active:
            raise ServiceError("arbiter.inactive", f"The account {user.username} is disabled.",
                               login=user.get_username())  # fmt: skip
        membership, created = ArbiterMembership.objects.get_or_create(
            user=user, tournament=tournament, defaults={"role": ARBITER}
        )
        if created:
            audit_record(actor=actor, action="arbiter.add", obj=membership, user=user.pk,
                         username=user.get_username(), created_user=created_user)  # fmt: skip
        if centre_id is not None:
            membership = arbiter_centre_set(actor=actor, tournament_id=tournament.pk,
                                            user_id=user.pk, centre_id=centre_id,
                                            centre_head=centre_head)  # fmt: skip
        link = None if user.has_usable_password() else password_path(user)
        if link is not None:
            audit_record(actor=actor, action="arbiter.password_link", obj=membership, user=user.pk)
        return ArbiterAdded(membership, created_user, link)


def _locked_membership(tournament_id: int, user_id: int) -> ArbiterMembership:
    membership = (
        ArbiterMembership.objects.select_for_update()
        .select_related("user")
        .filter(tournament_id=tournament_id, user_id=user_id)
        .first()
    )
    if membership is None:
        raise ServiceError("arbiter.unknown", f"User {user_id} does not arbitrate here.",
                           user=user_id)  # fmt: skip
    return membership


def arbiter_remove(*, actor: Any, tournament_id: int, user_id: int) -> None:
    """The user no longer arbitrates the tournament (their account stays, and so do the
    slips they entered). Head arbiter only; the head arbiter hands over before leaving."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        membership = _locked_membership(tournament.pk, user_id)
        if membership.role == HEAD:
            raise ServiceError("arbiter.remove_head", "Hand the head arbiter's role over first.")
        audit_record(actor=actor, action="arbiter.remove", obj=membership, user=user_id,
                     username=membership.user.get_username())  # fmt: skip
        membership.delete()


def arbiter_handover(*, actor: Any, tournament_id: int, user_id: int) -> ArbiterMembership:
    """The arbiter ``user_id`` becomes head arbiter and the head arbiter an arbiter, in one
    transaction (never two heads, never none). Head arbiter only (a superuser too)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        target = _locked_membership(tournament.pk, user_id)
        if target.role == HEAD:
            raise ServiceError("arbiter.already_head", "This arbiter is already the head.",
                               login=target.user.get_username())  # fmt: skip
        heads = ArbiterMembership.objects.select_for_update().filter(tournament=tournament,
                                                                     role=HEAD)  # fmt: skip
        previous = [m.user_id for m in heads]
        heads.update(role=ARBITER)  # first, so the one-head constraint holds at every step
        target.role = HEAD
        # The head arbiter directs every centre of a simultaneous event: bound to none.
        target.centre_id, target.centre_head = None, False
        target.save(update_fields=["role", "centre", "centre_head"])
        audit_record(actor=actor, action="arbiter.handover", obj=target, user=user_id,
                     previous=previous[0] if previous else None)  # fmt: skip
        return target


def arbiter_password_reset(*, actor: Any, tournament_id: int, user_id: int) -> ArbiterAdded:
    """An arbiter who lost their password gets a new one-time link from the head arbiter:
    the old password stops working at once (it is made unusable, which also voids any
    earlier link) and the link lets them choose a new one, as a new arbiter does.

    Head arbiter only, and only for an account this head arbiter answers for: never their
    own (they would lock themselves out), never a site administrator, never someone who
    also arbitrates a tournament where the actor is not head arbiter (resetting it would
    hand the actor that other tournament's console)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        membership = _locked_membership(tournament.pk, user_id)
        user = membership.user
        name = user.get_username()
        if user.pk == getattr(actor, "pk", None):
            raise ServiceError("arbiter.reset_self", "Arbiters do not reset their own password.")
        if user.is_superuser or user.is_staff:
            raise ServiceError("access.reset_staff",
                               f"{name} administers the site: not reset from a tournament.",
                               login=name)  # fmt: skip
        actor_pk: int | None = getattr(actor, "pk", None)
        headed = ArbiterMembership.objects.filter(role=HEAD)
        headed = headed.filter(user_id=actor_pk) if actor_pk is not None else headed.none()
        elsewhere = (
            ArbiterMembership.objects.filter(user=user)
            .exclude(tournament_id=tournament.pk)
            .exclude(tournament_id__in=headed.values("tournament_id"))
        )
        if not getattr(actor, "is_superuser", False) and elsewhere.exists():
            raise ServiceError("access.reset_elsewhere",
                               f"{name} also arbitrates a tournament you do not head.",
                               login=name)  # fmt: skip
        user.set_unusable_password()
        user.save(update_fields=["password"])
        audit_record(actor=actor, action="arbiter.password_reset", obj=membership, user=user.pk)
        return ArbiterAdded(membership, False, password_path(user))
