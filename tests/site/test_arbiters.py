"""Issue 15: the head arbiter adds arbiters by user name or e-mail (a new account gets a
one-time password link), removes them, hands the head arbiter's role over; the console
shows who is connected on which round. Services, then the pages with Django's client."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments.console.presence import presence_text
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, AuditLog, Tournament
from tournaments.services import (
    arbiter_add,
    arbiter_handover,
    arbiter_password_reset,
    arbiter_remove,
    game_create,
    round_draw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(tournament_setup, django_user_model):
    t = tournament_setup["tournament"]
    second = django_user_model.objects.create_user("marie", email="marie@club.fr", password="m")
    ArbiterMembership.objects.create(user=second, tournament=t, role="arbiter")
    outsider = django_user_model.objects.create_user("dehors", password="d")
    return {**tournament_setup, "head": tournament_setup["arbiter"], "second": second,
            "outsider": outsider}  # fmt: skip


def _code(call, **kwargs) -> str:
    with pytest.raises(ServiceError) as info:
        call(**kwargs)
    return info.value.code


# --- Services --------------------------------------------------------------------------------


def test_an_unknown_name_creates_the_account_with_a_one_time_link(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    added = arbiter_add(actor=head, tournament_id=t.pk, login="paul")
    user = added.membership.user
    assert (user.username, added.created_user, added.membership.role) == ("paul", True, "arbiter")
    assert not user.has_usable_password()
    assert added.password_path.startswith("/arbitre/mot-de-passe/")
    rows = AuditLog.objects.filter(object_type="arbitermembership").order_by("id")
    assert [r.action for r in rows] == ["arbiter.add", "arbiter.password_link"]
    assert rows[0].payload == {"user": user.pk, "username": "paul", "created_user": True}
    token = added.password_path.rstrip("/").rsplit("/", 1)[1]
    assert all(token not in str(r.payload) for r in rows)  # never the token itself
    # Added again: no second membership, a fresh link while no password is set.
    again = arbiter_add(actor=head, tournament_id=t.pk, login="PAUL")
    assert again.membership.pk == added.membership.pk and not again.created_user
    assert again.password_path is not None
    assert AuditLog.objects.filter(action="arbiter.add").count() == 1


def test_an_e_mail_finds_the_account_or_creates_one(staff) -> None:
    t, head = staff["tournament"], staff["head"]
    found = arbiter_add(actor=head, tournament_id=t.pk, login="Marie@Club.fr")
    assert found.membership.user == staff["second"] and found.password_path is None
    made = arbiter_add(actor=head, tournament_id=t.pk, login="luc.b@club.fr")
    assert (made.membership.user.username, made.membership.user.email) == ("luc.b", "luc.b@club.fr")
    # A user name already taken gets a number.
    other = arbiter_add(actor=head, tournament_id=t.pk, login="marie@autre.fr")
    assert other.membership.user.username == "marie2"


@pytest.mark.parametrize(
    ("login", "code"),
    [("", "arbiter.login"), ("   ", "arbiter.login"), ("a b", "arbiter.username"),
     ("x" * 151, "arbiter.login"), ("paul@", "arbiter.email"), ("é<script>", "arbiter.username")],
)  # fmt: skip
def test_bad_logins_are_refused_and_create_nothing(staff, login, code) -> None:
    users = get_user_model().objects.count()
    assert _code(arbiter_add, actor=staff["head"], tournament_id=staff["tournament"].pk,
                 login=login) == code  # fmt: skip
    assert get_user_model().objects.count() == users


def test_two_accounts_with_one_address_are_ambiguous(staff, django_user_model) -> None:
    django_user_model.objects.create_user("marie-bis", email="MARIE@club.fr")
    assert _code(arbiter_add, actor=staff["head"], tournament_id=staff["tournament"].pk,
                 login="marie@club.fr") == "arbiter.ambiguous"  # fmt: skip


def test_only_the_head_arbiter_manages_arbiters(staff) -> None:
    t, second, outsider = staff["tournament"], staff["second"], staff["outsider"]
    users = get_user_model().objects.count()
    assert _code(arbiter_add, actor=second, tournament_id=t.pk, login="neuf") == (
        "access.head_arbiter"
    )
    assert _code(arbiter_add, actor=outsider, tournament_id=t.pk, login="neuf") == (
        "access.arbiter"
    )
    assert get_user_model().objects.count() == users  # no account made for a refused call
    assert _code(arbiter_remove, actor=second, tournament_id=t.pk, user_id=second.pk) == (
        "access.head_arbiter"
    )
    assert _code(arbiter_handover, actor=second, tournament_id=t.pk, user_id=second.pk) == (
        "access.head_arbiter"
    )


def test_remove_an_arbiter_but_never_the_head(staff) -> None:
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    assert _code(arbiter_remove, actor=head, tournament_id=t.pk, user_id=head.pk) == (
        "arbiter.remove_head"
    )
    assert _code(arbiter_remove, actor=head, tournament_id=t.pk, user_id=staff["outsider"].pk) == (
        "arbiter.unknown"
    )
    arbiter_remove(actor=head, tournament_id=t.pk, user_id=second.pk)
    assert not ArbiterMembership.objects.filter(tournament=t, user=second).exists()
    row = AuditLog.objects.get(action="arbiter.remove")
    assert (row.actor, row.payload["username"]) == (head, "marie")


def test_handover_keeps_exactly_one_head(staff) -> None:
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    assert _code(arbiter_handover, actor=head, tournament_id=t.pk, user_id=head.pk) == (
        "arbiter.already_head"
    )
    assert _code(arbiter_handover, actor=head, tournament_id=t.pk,
                 user_id=staff["outsider"].pk) == "arbiter.unknown"  # fmt: skip
    arbiter_handover(actor=head, tournament_id=t.pk, user_id=second.pk)
    roles = dict(ArbiterMembership.objects.filter(tournament=t).values_list("user", "role"))
    assert roles == {head.pk: "arbiter", second.pk: "head"}
    row = AuditLog.objects.get(action="arbiter.handover")
    assert row.payload == {"user": second.pk, "previous": head.pk}
    # The former head no longer directs; the new one may hand back.
    assert _code(arbiter_handover, actor=head, tournament_id=t.pk, user_id=head.pk) == (
        "access.head_arbiter"
    )
    arbiter_handover(actor=second, tournament_id=t.pk, user_id=head.pk)
    assert ArbiterMembership.objects.filter(tournament=t, role="head").get().user == head


# --- Pages -----------------------------------------------------------------------------------


def test_the_arbiters_page_adds_one_and_shows_the_printable_link(client, staff) -> None:
    t, head = staff["tournament"], staff["head"]
    client.force_login(head)
    url = reverse("console:arbiters", args=[t.slug])
    page = client.get(url)
    assert page.status_code == 200 and "Arbitres du tournoi" in page.content.decode()
    response = client.post(url, {"login": "nadia@club.fr"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Le compte nadia a été créé." in body and "Imprimer ce lien" in body
    assert "http://testserver/arbitre/mot-de-passe/" in body and "/admin/" not in body
    # An existing account with a password: a message, no link.
    response = client.post(url, {"login": "marie"}, follow=True)
    assert "marie arbitre ce tournoi." in response.content.decode()
    assert "mot-de-passe" not in response.content.decode()


def test_the_arbiters_page_refuses_bad_input_with_a_reason(client, staff) -> None:
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    client.force_login(head)
    url = reverse("console:arbiters", args=[t.slug])
    for data, text in (
        ({"login": ""}, "Tapez un nom d&#x27;utilisateur"),
        ({"login": "a b"}, "n&#x27;est pas un nom d&#x27;utilisateur"),
    ):
        response = client.post(url, data)
        assert response.status_code == 400 and text in response.content.decode()  # fmt: skip
    remove = reverse("console:arbiter_remove", args=[t.slug])
    response = client.post(remove, {"user": head.pk})
    assert response.status_code == 400
    assert "passez d&#x27;abord la main" in response.content.decode()
    assert client.post(remove, {"user": "x"}).status_code == 404
    assert client.post(remove, {"user": 10**9}).status_code == 404
    handover = reverse("console:arbiter_handover", args=[t.slug])
    assert client.post(handover, {"user": second.pk}).status_code == 302
    # Now an arbiter: reads the page, may not change it.
    assert client.get(url).status_code == 200
    assert client.post(url, {"login": "x"}).status_code == 403
    client.force_login(staff["outsider"])
    assert client.get(url).status_code == 403


def test_the_one_time_link_sets_the_password_once(client, staff) -> None:
    t, head = staff["tournament"], staff["head"]
    added = arbiter_add(actor=head, tournament_id=t.pk, login="paul")
    step = client.get(added.password_path)
    assert step.status_code == 302  # Django moves the token into the session
    form = client.get(step["Location"])
    body = form.content.decode()
    assert form.status_code == 200 and "Choisir votre mot de passe" in body
    assert "Nouveau mot de passe" in body  # Django's own French labels
    weak = client.post(step["Location"], {"new_password1": "a", "new_password2": "b"})
    assert weak.status_code == 200 and "ne correspondent pas" in weak.content.decode()
    chosen = {"new_password1": "Scrabble-2026!", "new_password2": "Scrabble-2026!"}
    done = client.post(step["Location"], chosen, follow=True)
    assert "Mot de passe enregistré : connectez-vous." in done.content.decode()
    assert client.login(username="paul", password="Scrabble-2026!")
    client.logout()
    used = client.get(added.password_path, follow=True)
    assert used.status_code == 404 and "est plus valable : il a déjà servi" in used.content.decode()
    assert client.get("/arbitre/mot-de-passe/xx/yy/").status_code == 404


def test_a_lost_password_gets_a_new_one_time_link_from_the_head(client, staff) -> None:
    """The afternoon's arbiter who forgot her password: the head arbiter gives a new link on
    the arbiters page; the old password stops working at once, the link works once."""
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    assert client.login(username="marie", password="m")
    client.logout()
    client.force_login(head)
    page = client.get(reverse("console:arbiters", args=[t.slug])).content.decode()
    assert "Nouveau mot de passe" in page
    response = client.post(reverse("console:arbiter_password", args=[t.slug]),
                           {"user": second.pk})  # fmt: skip
    body = response.content.decode()
    assert response.status_code == 200
    assert "L'ancien mot de passe de marie ne fonctionne plus." in body
    assert "http://testserver/arbitre/mot-de-passe/" in body and "/admin/" not in body
    second.refresh_from_db()
    assert not second.has_usable_password()
    assert AuditLog.objects.filter(action="arbiter.password_reset").count() == 1
    client.logout()
    assert not client.login(username="marie", password="m")
    path = body.split("http://testserver", 2)[1].split('"', 1)[0]
    step = client.get(path)
    assert step.status_code == 302
    chosen = {"new_password1": "Scrabble-2026!", "new_password2": "Scrabble-2026!"}
    client.post(step["Location"], chosen)
    assert client.login(username="marie", password="Scrabble-2026!")


def test_a_password_is_reset_only_for_an_account_the_head_answers_for(
    staff, django_user_model
) -> None:
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    call = arbiter_password_reset
    assert _code(call, actor=head, tournament_id=t.pk, user_id=head.pk) == "arbiter.reset_self"
    assert _code(call, actor=second, tournament_id=t.pk, user_id=head.pk) == "access.head_arbiter"
    outsider = staff["outsider"]
    assert _code(call, actor=head, tournament_id=t.pk, user_id=outsider.pk) == "arbiter.unknown"
    admin = django_user_model.objects.create_user("root", password="r", is_staff=True)
    ArbiterMembership.objects.create(user=admin, tournament=t, role="arbiter")
    assert _code(call, actor=head, tournament_id=t.pk, user_id=admin.pk) == "access.reset_staff"
    # Marie also arbitrates a tournament headed by someone else: not this head's to reset.
    other = Tournament.objects.create(name="Autre club", slug="autre-club", lexicon=t.lexicon)
    boss = django_user_model.objects.create_user("boss", password="b")
    ArbiterMembership.objects.create(user=boss, tournament=other, role="head")
    ArbiterMembership.objects.create(user=second, tournament=other, role="arbiter")
    assert _code(call, actor=head, tournament_id=t.pk, user_id=second.pk) == (
        "access.reset_elsewhere"
    )
    second.refresh_from_db()
    assert second.check_password("m")  # nothing changed by a refusal


def test_presence_says_who_is_where(client, staff) -> None:
    t, head, second = staff["tournament"], staff["head"], staff["second"]
    game = game_create(tournament_id=t.pk, seed=7, actor=head)
    rnd = round_draw(game_id=game.pk, actor=head)
    client.force_login(second)
    assert client.get(reverse("console:slips", args=[rnd.pk])).status_code == 200
    membership = ArbiterMembership.objects.get(tournament=t, user=second)
    assert membership.last_seen_at is not None and membership.last_seen_round == rnd
    later = membership.last_seen_at + datetime.timedelta(minutes=3, seconds=5)
    assert presence_text(membership, later) == "actif il y a 3 min, coup 1"
    assert presence_text(membership, membership.last_seen_at) == "actif à l'instant, coup 1"
    page = client.get(reverse("console:arbiters", args=[t.slug])).content.decode()
    assert "actif à l&#x27;instant, coup 1" in page
    dashboard = client.get(reverse("console:tournament", args=[t.slug])).content.decode()
    assert "marie (actif à l&#x27;instant, coup 1)" in dashboard
    head_row = ArbiterMembership.objects.get(tournament=t, user=head)
    assert presence_text(head_row, timezone.now()) == "jamais connecté"
    # A page of another tournament's subject, or none, records nothing for this one.
    client.force_login(staff["outsider"])
    client.get(reverse("console:slips", args=[rnd.pk]))
    assert not ArbiterMembership.objects.filter(user=staff["outsider"]).exists()
