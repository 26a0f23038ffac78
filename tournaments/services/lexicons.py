"""A club's own word list: uploaded by the head arbiter, compiled by a worker.

``lexicon_upload`` keeps the file under ``VAR_DIR/lexicons/uploads``, creates the
``LexiconBuild`` row and queues ``build_lexicon`` once committed; ``lexicon_build_run`` (the
task's work) compiles it with the engine's own functions (those of ``python -m engine
lexicon build``: ``read_word_list`` then ``build_lexicon_file``), registers the lexicon and
records the progress on the row for the settings page to poll. A build already finished is
left alone, so a redelivered task does nothing twice. The new lexicon is only offered: the
head arbiter chooses it on the settings page (``tournament_update``).
"""

from __future__ import annotations

import gzip
import io
import secrets
import zlib
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.errors import EngineError
from engine.lexicon.automaton import build_lexicon_file
from engine.lexicon.wordlist import read_word_list
from tournaments import access
from tournaments.access import require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import JobState, LexiconBuild
from tournaments.models.lexicons import lexicons_dir
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_record
from tournaments.services.games import lexicon_register
from tournaments.services.registry import locked_tournament

#: What the proxy lets through (``client_max_body_size 5m``, deploy/nginx-locations.conf):
#: an ODS-sized list is about 4.5 MB of text, under 1.5 MB gzipped.
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
#: A gzipped list is refused past this size once decompressed (a few KB must not become
#: gigabytes in the worker).
MAX_WORDS_BYTES = 40 * 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
MAX_NAME = 200
SYSTEM = access.SYSTEM


def _unpacked_size(content: bytes) -> int:
    """The list's size as the worker will read it: gunzipped (at most one byte past the
    limit is read) when it is gzip, else as sent."""
    if not content.startswith(_GZIP_MAGIC):
        return len(content)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(content)) as unpacked:
            return len(unpacked.read(MAX_WORDS_BYTES + 1))
    except (OSError, EOFError, zlib.error) as error:
        raise ServiceError("wordlist.unreadable", f"The gzip list is damaged: {error}.") from None


def lexicon_upload(
    *, actor: Any, tournament_id: int, name: str, content: bytes, filename: str = ""
) -> LexiconBuild:
    """Keep an uploaded word list (UTF-8 text or gzip, one word a line) and queue its build.
    Head arbiter only; the list is named ``name`` (the file's name when blank). Refused
    past 5 MB as sent or 40 MB once gunzipped (``lexicon.upload_size``)."""
    if len(content) > MAX_UPLOAD_BYTES or _unpacked_size(content) > MAX_WORDS_BYTES:
        raise ServiceError(
            "lexicon.upload_size",
            f"The word list has {len(content)} bytes; the limit is {MAX_UPLOAD_BYTES}.",
            limit_mb=MAX_UPLOAD_BYTES // 1_048_576,
        )
    if not content.strip():
        raise ServiceError("lexicon.upload_empty", "The word list is empty.")
    label = (name.strip() or Path(filename).name.split(".")[0].strip())[:MAX_NAME]
    if not label:
        raise ServiceError("lexicon.upload_name", "A word list needs a name.")

    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        stored = f"{secrets.token_hex(12)}.words"
        (lexicons_dir() / stored).write_bytes(content)
        build = LexiconBuild.objects.create(
            tournament=tournament, name=label, words_file=stored,
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )  # fmt: skip
        audit_record(actor=actor, action="lexicon.upload", obj=build, tournament=tournament.pk,
                     name=label, size=len(content))  # fmt: skip
        queue_after_commit("tournaments.build_lexicon", build.pk)
        return build


def _progress(build: LexiconBuild, percent: int, **fields: Any) -> None:
    LexiconBuild.objects.filter(pk=build.pk).update(progress=percent, **fields)


def _json_safe(details: dict[str, Any]) -> dict[str, Any]:
    """The refusal's details the page words it with (numbers and short texts only)."""
    return {
        k: v if isinstance(v, int | float) else str(v)[:200]
        for k, v in (details or {}).items()
        if v is not None
    }


def _fail(build: LexiconBuild, error: EngineError | ServiceError, actor: Any) -> LexiconBuild:
    LexiconBuild.objects.filter(pk=build.pk).update(
        state=JobState.FAILED, error_code=error.code, error=error.message[:2000],
        error_params=_json_safe(error.details), finished_at=timezone.now(),
    )  # fmt: skip
    audit_record(actor=actor, action="lexicon.build_failed", obj=build, code=error.code)
    build.refresh_from_db()
    return build


def lexicon_build_run(*, actor: Any, build_id: int) -> LexiconBuild | None:
    """Compile the uploaded list of build ``build_id`` and register its lexicon (the worker's
    work: ``actor`` is the system). A refused list ends the build as ``failed`` with its
    code and details."""
    build = LexiconBuild.objects.filter(pk=build_id).first()
    if build is None or build.state in {JobState.DONE, JobState.FAILED}:
        return build
    _progress(build, 5, state=JobState.RUNNING)
    try:
        words = read_word_list(build.words_path)
        _progress(build, 40, rejected=len(words.rejected))
        target = lexicons_dir() / f"club-{build.pk}.lex"
        build_lexicon_file(words.words, target, name=build.name,
                           source=f"envoi {build.pk}", version="1")  # fmt: skip
        _progress(build, 90)
        lexicon = lexicon_register(path=target, actor=actor)
    except (EngineError, ServiceError) as error:
        return _fail(build, error, actor)
    if lexicon.path != str(target):  # the same words were registered before: keep that file
        target.unlink(missing_ok=True)
    with transaction.atomic():
        row = LexiconBuild.objects.select_for_update().get(pk=build.pk)
        if row.state == JobState.DONE:
            return row
        row.state, row.progress, row.lexicon = JobState.DONE, 100, lexicon
        row.finished_at = timezone.now()
        row.save(update_fields=["state", "progress", "lexicon", "finished_at"])
        audit_record(actor=actor, action="lexicon.build_done", obj=row, lexicon=lexicon.pk,
                     words=lexicon.word_count)  # fmt: skip
        return row
