"""The one read layer (issue 20): every audience (console, API, tablets, projector, printed
documents, the home page) reads rows through ``tournaments.selectors``; the five read
modules it replaced are gone or only re-export. A check on the source, no database."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "tournaments"

#: The modules that answer users: they call selectors (reads) and services (writes).
AUDIENCES = [
    *sorted((SITE / "console").glob("*.py")),
    *sorted((SITE / "api").glob("*.py")),
    *sorted((SITE / "api" / "views").glob("*.py")),
    *sorted((SITE / "tablet").glob("*.py")),
    *sorted((SITE / "projector").glob("*.py")),
    *sorted((SITE / "cards").glob("*.py")),
    *sorted((SITE / "reports").glob("*.py")),
    SITE / "views.py",
    SITE / "management" / "commands" / "tirage_export.py",
]

#: A query written in place: a manager, Django's shortcut, or a related manager queried.
QUERY = re.compile(
    r"\.objects\b|get_object_or_404\(|_set\.\w+\("
    r"|\.(rounds|games|proposals|decisions|registrations|arbiters|conflicts)"
    r"\.(all|filter|exclude|order_by|get|first|last|count|exists|select_related|values"
    r"|values_list|aggregate|annotate)\("
)

#: The places allowed to touch a model directly, each with its reason.
ALLOWED = {
    # The presence stamp is a write, not a read (allowed in test_layers.py for that reason);
    # the page it is about is read through selectors.console_page_place.
    ("console/presence.py", "ArbiterMembership.objects.filter(user=user"): "presence stamp",
    ("api/views/auth.py", "Token.objects.get_or_create"): "DRF's login token row",
    ("api/permissions.py", "ArbiterMembership.objects"): "the access rule, not a read",
}


def _relative(path: Path) -> str:
    return path.relative_to(SITE).as_posix()


def test_the_replaced_read_modules_are_gone() -> None:
    for gone in ("selectors.py", "console/reads.py", "api/queries.py"):
        assert not (SITE / gone).exists(), f"tournaments/{gone} came back: use the selectors"
    assert (SITE / "selectors" / "__init__.py").exists()
    imports = re.compile(r"tournaments\.(console\.reads|api\.queries)|import (reads|queries)\b")
    for path in [*SITE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        if path == Path(__file__).resolve():
            continue
        assert not imports.search(path.read_text(encoding="utf-8")), path


def test_reports_data_only_re_exports_the_values() -> None:
    tree = ast.parse((SITE / "reports" / "data.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.ImportFrom):
            assert node.module in {"__future__", "tournaments.selectors.values"}, node.module
            continue
        assert isinstance(node, ast.Assign) and node.targets[0].id == "__all__", ast.dump(node)


def test_audiences_read_only_through_the_selectors() -> None:
    found = []
    for path in AUDIENCES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not QUERY.search(line):
                continue
            if any(rel == _relative(path) and what in line for rel, what in ALLOWED):
                continue
            found.append(f"tournaments/{_relative(path)}:{number}: {line.strip()}")
    assert not found, "read through tournaments.selectors instead:\n" + "\n".join(found)


def test_the_allow_list_is_still_needed() -> None:
    # An entry whose line is gone (say the report job moved into a service) is dropped here.
    for (rel, what), why in ALLOWED.items():
        assert what in (SITE / rel).read_text(encoding="utf-8"), (rel, what, why)


def test_the_selector_modules_stay_small() -> None:
    for path in (SITE / "selectors").glob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines < 400, f"{path.name} has {lines} lines: split it by aggregate"
