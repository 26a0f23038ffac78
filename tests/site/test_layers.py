"""The layers hold: writes only in the services, and the services never import the tasks.

Both are read from the source (``ast``), not from a run: a write added to a view, or an
import of ``tournaments.tasks`` added to a service, fails here before any page is tried.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"

#: Method names that write rows (model instances, managers, querysets, the user model).
WRITES = frozenset(
    {
        "save",
        "delete",
        "create",
        "bulk_create",
        "bulk_update",
        "get_or_create",
        "update_or_create",
        "create_user",
        "create_superuser",
        "update",
    }
)

#: Writes allowed outside ``tournaments/services/`` and the migrations, each with its reason
#: (file, the call as written).
ALLOWED = {
    # DRF's API token of a user who just proved their password: sign-in bookkeeping, like
    # the session Django's login writes; no tournament state changes.
    ("tournaments/api/views/auth.py", "Token.objects.get_or_create"),
    # Presence bookkeeping (when an arbiter last opened a console page, at most once a
    # minute), like the session Django writes at login; no tournament state changes.
    (
        "tournaments/console/presence.py",
        "ArbiterMembership.objects.filter(user=user, tournament_id=tournament_id).update",
    ),
    # AuditLog.save itself: the append-only guard calling Django's save.
    ("tournaments/models/work.py", "super().save"),
    # CardEvent.save: the same append-only guard for a card table's events (issue 18).
    ("tournaments/models/cards.py", "super().save"),
    # Not a model: the console session's mark in the cache, removed at logout (issue 16).
    ("tournaments/live_versions.py", "cache.delete"),
    # Not models: ReportLab's canvas and an openpyxl workbook written to memory.
    ("tournaments/reports/pdf.py", "super().save"),
    ("tournaments/reports/tables.py", "wb.save"),
    ("tournaments/reports/classic.py", "wb.save"),
    ("tournaments/reports/centres.py", "wb.save"),
}


def _writes(path: Path) -> list[tuple[str, int]]:
    """``(call, line)`` of every write-looking call. ``x.update(...)`` counts only on a
    queryset expression (``….filter(…).update``, ``Model.objects.update``), not on a dict;
    a queryset first bound to a name and then updated is not seen (a known limit)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITES:
            continue
        receiver = node.func.value
        if node.func.attr == "update" and not (
            isinstance(receiver, ast.Call) or ast.unparse(receiver).endswith("objects")
        ):
            continue
        found.append((ast.unparse(node.func), node.lineno))
    return found


def test_no_model_write_outside_the_services() -> None:
    outside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("tournaments/services/", "tournaments/migrations/")):
            continue
        for call, line in _writes(path):
            if (rel, call) not in ALLOWED:
                outside.append(f"{rel}:{line}: {call}(…)")
    assert outside == [], "writes belong in tournaments/services/:\n" + "\n".join(outside)


def test_the_scan_sees_writes() -> None:
    """The scan itself finds what it must (so an empty answer above means something)."""
    writes = {call for call, _line in _writes(PACKAGE / "services" / "rounds.py")}
    assert "rnd.save" in writes
    sample = PACKAGE / "services" / "reports.py"
    assert "ReportJob.objects.filter(pk=job.pk).update" in {c for c, _ in _writes(sample)}


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_services_never_import_the_tasks() -> None:
    """Tasks call services; services queue tasks by name (``tournaments.queueing``)."""
    offenders = []
    for path in sorted((PACKAGE / "services").rglob("*.py")):
        for name in _imported_modules(path):
            if name in {"tournaments.tasks", "tournaments.tasks_reports"} or name.startswith(
                ("tournaments.tasks.", "tournaments.tasks_reports.")
            ):
                offenders.append(f"{path.relative_to(ROOT).as_posix()}: {name}")
    assert offenders == []


def test_every_queued_name_is_a_registered_task() -> None:
    """The names the services queue resolve in the Celery app (a typo would be lost)."""
    from tournaments.queueing import queued_task

    queued = set()
    for path in sorted((PACKAGE / "services").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "queue_after_commit"
                and isinstance(node.args[0], ast.Constant)
            ):
                queued.add(node.args[0].value)
    assert {"tournaments.compute_top", "tournaments.build_report"} <= queued
    for name in queued:
        assert queued_task(name).name == name
