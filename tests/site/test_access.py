"""Who may act on a tournament (tournaments.access)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from tournaments.access import SYSTEM, PlayerActor, arbiter_role, require_arbiter
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
    require_arbiter(actor=SYSTEM, tournament_id=two.id)  # the system, named explicitly
    with pytest.raises(ServiceError) as caught:
        require_arbiter(actor=arbiter, tournament_id=one.id, head=True)
    assert caught.value.code == "access.head_arbiter"
    with pytest.raises(ServiceError) as caught:
        require_arbiter(actor=head, tournament_id=two.id)
    assert caught.value.code == "access.arbiter"


def test_a_forgotten_actor_is_a_logged_bug_never_the_system(two_tournaments, caplog) -> None:
    one, _two, _head, _arbiter = two_tournaments
    with pytest.raises(TypeError):
        require_arbiter(actor=None, tournament_id=one.id)
    assert "without an actor" in caplog.text


def test_players_and_anonymous_users_are_outsiders(two_tournaments) -> None:
    one, _two, _head, _arbiter = two_tournaments
    for outsider in (
        AnonymousUser(),
        PlayerActor(registration_id=1, player_id=1, tournament_id=one.id),
    ):
        with pytest.raises(ServiceError) as caught:
            require_arbiter(actor=outsider, tournament_id=one.id)
        assert caught.value.code == "access.arbiter"


def test_every_service_takes_a_required_keyword_actor() -> None:
    """``tournaments.services``' public functions named <noun>_<verb> (the services) all
    take ``actor`` as a keyword-only argument without a default."""
    import importlib
    import inspect
    import pkgutil

    import tournaments.services as package

    helpers = {
        "request_touch",  # queues a task, changes nothing itself
        "arrival_checked",  # the refusals before a move is stored: reads, writes nothing
        "arrival_signal",  # after a commit: bumps live versions and queues the ingest
        "deadline_record",  # a clock row written inside its caller's service (audited there)
    }
    checked = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, function in vars(module).items():
            if (
                name.startswith("_")
                or name in helpers
                or not inspect.isfunction(function)
                or function.__module__ != module.__name__
            ):
                continue
            params = inspect.signature(function).parameters
            if not params or any(p.kind is not p.KEYWORD_ONLY for p in params.values()):
                continue  # a positional helper (``lexicon_of``, ``register``), not a service
            checked.append(name)
            actor = params.get("actor")
            assert actor is not None, f"{info.name}.{name} takes no actor"
            assert actor.default is inspect.Parameter.empty, f"{name}: actor has a default"
    assert {"round_open", "round_draw", "round_place_top", "proposal_submit"} <= set(checked)


def test_the_audit_log_tells_the_system_a_player_and_a_user_apart(tournament_setup) -> None:
    from tournaments.models import AuditLog, Registration
    from tournaments.services import game_create, proposal_submit, round_draw, round_open

    arbiter = tournament_setup["arbiter"]
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=arbiter)
    rnd = round_open(round_id=round_draw(game_id=game.pk, actor=arbiter).pk, actor=SYSTEM)
    reg = Registration.objects.filter(tournament=tournament_setup["tournament"]).first()
    proposal_submit(round_id=rnd.pk, player_id=reg.player_id, word="HAINES", reference="H4",
                    actor=PlayerActor.of(reg))  # fmt: skip
    kinds = {
        action: (kind, user)
        for action, kind, user in AuditLog.objects.values_list("action", "actor_kind", "actor")
    }
    assert kinds["round.draw"] == ("user", arbiter.pk)
    assert kinds["round.open"] == ("system", None)
    assert kinds["round.top_computed"] == ("system", None)  # the site's own computation
    assert kinds["proposal.submit"] == ("player", None)


def test_a_player_token_hands_in_only_its_own_proposal(tournament_setup) -> None:
    from tournaments.models import Registration
    from tournaments.services import game_create, proposal_submit, round_draw, round_open

    arbiter = tournament_setup["arbiter"]
    game = game_create(tournament_id=tournament_setup["tournament"].pk, seed=7, actor=arbiter)
    rnd = round_open(round_id=round_draw(game_id=game.pk, actor=arbiter).pk, actor=arbiter)
    anne, bruno = Registration.objects.filter(tournament=tournament_setup["tournament"]).order_by(
        "table_number"
    )[:2]
    for actor in (PlayerActor.of(bruno), arbiter):  # another player; a user is no tablet
        with pytest.raises(ServiceError) as caught:
            proposal_submit(round_id=rnd.pk, player_id=anne.player_id, word="HAINES",
                            reference="H4", source="tablet", actor=actor)  # fmt: skip
        assert caught.value.code == "access.player"
