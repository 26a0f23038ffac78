"""States are TextChoices, never bare strings (issue 20): ``RoundState.CLOSED``, not
``"closed"``, so a typo is an ``AttributeError`` and a search for a state finds every place.

A check on the syntax trees of ``tournaments/`` (the migrations and ``models/choices.py``
aside, they hold the values): a state value written as a string literal and compared with,
assigned to, filtered on or stored under a ``state`` (``x.state``, ``game_state``,
``data["state"]``, ``state=``, ``state__in=``, ``round__state=``, ``{"state": …}``) fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tournaments.models import choices

SITE = Path(__file__).resolve().parents[2] / "tournaments"

#: Every value a state column holds, from the choices themselves.
STATE_VALUES = frozenset(
    value
    for name in dir(choices)
    if name.endswith("State")
    for value in getattr(choices, name).values
)


def _is_state(node: ast.AST) -> bool:
    """``node`` designates a state: ``x.state``, ``state``, ``x_state``, ``d["state"]``,
    ``d.get("state")``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "state" or node.attr.endswith("_state")
    if isinstance(node, ast.Name):
        return node.id == "state" or node.id.endswith("_state")
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "state"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        first = node.args[0] if node.args else None
        named = isinstance(first, ast.Constant) and first.value == "state"
        return node.func.attr == "get" and named
    return False


def _is_state_keyword(name: str | None) -> bool:
    """``state=``, ``state__in=``, ``round__state=``, ``game__state__in=``: a filter on a
    state column (or a model's ``state`` field)."""
    if not name:
        return False
    return "state" in name.split("__")


def _literals(node: ast.AST | None) -> list[str]:
    """The state values ``node`` writes as string literals (itself, or in a tuple, list or
    set)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in STATE_VALUES else []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [value for element in node.elts for value in _literals(element)]
    return []


def state_literals(source: str) -> list[tuple[int, str]]:
    """``(line, value)`` of every state literal of ``source`` used as a state."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        values: list[str] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_state(side) for side in sides):
                values = [value for side in sides for value in _literals(side)]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _is_state(target):
                    values += _literals(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for name, value in zip(target.elts, node.value.elts, strict=False):
                        if _is_state(name):
                            values += _literals(value)
        elif isinstance(node, ast.keyword) and _is_state_keyword(node.arg):
            values = _literals(node.value)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "state":
                    values += _literals(value)
        found += [(getattr(node, "lineno", 0), value) for value in values]
    return found


def test_no_state_literal_outside_the_choices() -> None:
    found = []
    for path in sorted(SITE.rglob("*.py")):
        if "migrations" in path.parts or path == SITE / "models" / "choices.py":
            continue
        for line, value in state_literals(path.read_text(encoding="utf-8")):
            found.append(f"tournaments/{path.relative_to(SITE).as_posix()}:{line}: {value!r}")
    assert not found, "use the TextChoices of tournaments/models/choices.py:\n" + "\n".join(found)


def test_the_check_finds_each_form() -> None:
    source = """
rnd.state == "closed"
game_state != "playing"
data["state"] in {"open", "drawn"}
payload.get("state") == "cancelled"
rnd.state = "open"
rnd.state, rnd.deadline = "closed", now
Round.objects.filter(state__in=("drawn", "open")).exclude(game__state="finished")
Q(state="done")
{"state": "failed", "label": "open"}
rnd.state == RoundState.CLOSED
label == "open"
word.state_of("open")
"""
    lines = sorted(state_literals(source))
    assert lines == [
        (2, "closed"), (3, "playing"), (4, "drawn"), (4, "open"), (5, "cancelled"), (6, "open"),
        (7, "closed"), (8, "drawn"), (8, "finished"), (8, "open"), (9, "done"), (10, "failed"),
    ]  # fmt: skip


def test_every_state_value_is_known() -> None:
    # The values come from the choices: a new state class is covered without editing here.
    assert {"drawn", "open", "closed", "cancelled", "playing", "finished", "running", "done",
            "pending", "failed"} <= STATE_VALUES  # fmt: skip


TEMPLATES = SITE.parent / "templates"

#: ``state == "open"``, ``x.state != 'closed'``, ``job_state == "done"`` in a template tag.
_TEMPLATE_LITERAL = re.compile(r"""\bstate\s*(?:==|!=)\s*(["'])([a-z_]+)\1""")


def template_state_literals(source: str) -> list[tuple[int, str]]:
    """``(line, value)`` of every state value a template compares a ``state`` with."""
    return [
        (source.count("\n", 0, m.start()) + 1, m.group(2))
        for m in _TEMPLATE_LITERAL.finditer(source)
        if m.group(2) in STATE_VALUES
    ]


def test_no_state_literal_in_the_templates() -> None:
    """Templates name the choices the ``tournaments.context_processors.states`` processor
    gives every page (``RoundState.OPEN``); a literal would silently never match a renamed
    state."""
    found = [
        f"templates/{path.relative_to(TEMPLATES).as_posix()}:{line}: {value!r}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for line, value in template_state_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "compare with RoundState.OPEN etc.:\n" + "\n".join(found)


def test_the_template_check_finds_each_form() -> None:
    source = '{% if r.state == "open" %}\n{% if job.state != \'done\' %}{% if x == "open" %}\n'
    assert template_state_literals(source) == [(1, "open"), (2, "done")]


def test_templates_name_only_choices_the_context_gives() -> None:
    from tournaments.context_processors import STATES

    names = {
        m.group(1)
        for path in TEMPLATES.rglob("*.html")
        for m in re.finditer(r"\b([A-Z][a-z]+State)\.", path.read_text(encoding="utf-8"))
    }
    assert names and names <= set(STATES), names - set(STATES)
    assert all(getattr(cls, "do_not_call_in_templates", False) for cls in STATES.values())
