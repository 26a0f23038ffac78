"""Who may act on a tournament (tournaments.access)."""

import pytest
from django.contrib.auth import get_user_model

from tournaments.access import arbiter_role, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import ArbiterMembership, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tournaments():
    one = Tournament.objects.create(name="Un", slug="un")
    two = Tournament.objects.create(name="Deux", slug="deux")
    users = get_user_model().objects
    head = users.create_user("head")
    arbiter = users.create_user("arbiter")
    ArbiterMembership.objects.create(user=head, tournament=one, role="head")
    ArbiterMembership.objects.create(user=arbiter, tournament=one, role="arbiter")
    return one, two, head, arbiter


def test_roles_are_per_tournament(two_tournaments) -> None:
    one, two, head, arbiter = two_tournaments
    assert arbiter_role(user=head, tournament_id=one.id) == "head"
    assert arbiter_role(user=arbiter, tournament_id=one.id) == "arbiter"
    assert arbiter_role(user=head, tournament_id=two.id) is None


def test_require_arbiter_refuses_outsiders_and_non_heads(two_tournaments) -> None:
    one, two, head, arbiter = two_tournaments
    require_arbiter(actor=arbiter, tournament_id=one.id)
    require_arbiter(actor=head, tournament_id=one.id, head=True)
    require_arbiter(actor=None, tournament_id=two.id)  # the system itself
    with pytest.raises(ServiceError) as caught:
        require_arbiter(actor=arbiter, tournament_id=one.id, head=True)
    assert caught.value.code == "access.head_arbiter"
    with pytest.raises(ServiceError) as caught:
        require_arbiter(actor=head, tournament_id=two.id)
    assert caught.value.code == "access.arbiter"
