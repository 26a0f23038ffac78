"""One way for the tests to build a game (issue 20): ``tests/scenario.py``.

"Draw, open, hand in, close, place the top" used to be copied in some twenty test modules,
each copy drifting a little (who acts, whether the top is computed first). A test module
may still call a round service itself when that call is what it tests (the state order,
the lock, the replay cost), but a helper or a fixture that chains two or more of them is a
copy of the scenario builder: this check finds it by reading the modules' syntax trees.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

#: The services a round goes through; two of them in one helper make a scenario.
ROUND_SERVICES = frozenset(
    {"round_draw", "round_open", "round_close", "round_place_top", "proposal_submit"}
)

#: ``"module path: function"`` → why it drives the services itself. Empty: every helper
#: goes through tests/scenario.py.
ALLOWED: dict[str, str] = {}


def called_names(node: ast.AST) -> set[str]:
    """The names of the functions ``node`` calls, ``f()`` and ``module.f()`` alike."""
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


def round_helpers(source: str) -> list[tuple[str, list[str]]]:
    """Every function of ``source`` that is not a test and calls two round services or
    more: ``(name, the services it calls)``; nested helpers are found as well."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test_"):
                continue
            services = sorted(called_names(node) & ROUND_SERVICES)
            if len(services) >= 2:
                found.append((node.name, services))
    return found


def test_no_test_module_copies_the_round_helpers() -> None:
    copies = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == TESTS / "scenario.py":
            continue
        where = path.relative_to(TESTS).as_posix()
        for name, services in round_helpers(path.read_text(encoding="utf-8")):
            if f"{where}: {name}" not in ALLOWED:
                copies.append(f"{where}: {name} calls {', '.join(services)}")
    assert copies == [], "use tests/scenario.py instead of a copied round helper:\n" + "\n".join(
        copies
    )


def test_the_check_finds_a_copied_helper() -> None:
    """The check itself: a fixture and a nested helper chaining round services are found,
    a test calling them directly and a helper calling one service are not."""
    source = """
import pytest
from tournaments import services
from tournaments.services import round_draw, round_open, proposal_submit

@pytest.fixture
def opened(game, actor):
    return round_open(round_id=round_draw(game_id=game.pk, actor=actor).pk, actor=actor)

def outer(game):
    def finish(rnd):
        services.round_close(round_id=rnd.pk, actor=None)
        services.round_place_top(round_id=rnd.pk, actor=None)
    return finish

def submit(rnd, player):
    return proposal_submit(round_id=rnd.pk, player_id=player.pk, word="A", actor=None)

def test_state_order(game):
    rnd = round_draw(game_id=game.pk, actor=None)
    round_open(round_id=rnd.pk, actor=None)
"""
    found = dict(round_helpers(source))
    assert found == {
        "opened": ["round_draw", "round_open"],
        "outer": ["round_close", "round_place_top"],
        "finish": ["round_close", "round_place_top"],
    }


def test_allowed_helpers_still_exist() -> None:
    """An entry of the allow-list names a helper that is still there (no stale excuse)."""
    for entry in ALLOWED:
        where, name = entry.split(": ")
        source = (TESTS / where).read_text(encoding="utf-8")
        assert name in dict(round_helpers(source)), entry
