"""Celery task compiling a club's uploaded word list (``LexiconBuild``).

Imported at the end of ``tournaments.tasks`` so Celery's autodiscovery registers it. It
takes the build's id and calls one service, ``lexicon_build_run``, which is safe to run
twice (a finished build is left alone). Compiling an ODS-sized list takes about 15 s."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tournaments.build_lexicon", soft_time_limit=540, time_limit=600)
def build_lexicon(build_id: int) -> str | None:
    """Build the uploaded list; return the build's state, None when it no longer exists."""
    from tournaments.access import SYSTEM
    from tournaments.services.lexicons import lexicon_build_run

    build = lexicon_build_run(actor=SYSTEM, build_id=build_id)
    return build.state if build is not None else None
