"""A real Celery worker on Redis compiles a club's uploaded word list (issue 15): the
settings page's status goes to done and the lexicon holds the list's words."""

from __future__ import annotations

import pytest

from engine.lexicon.automaton import Lexicon as EngineLexicon
from tests.integration.test_worker_games import wait_until
from tournaments.models import LexiconBuild
from tournaments.selectors import lexicon_build_progress
from tournaments.services.lexicons import lexicon_upload

pytestmark = pytest.mark.integration


@pytest.mark.django_db(transaction=True)
def test_worker_compiles_an_uploaded_word_list(celery_worker, tournament_setup) -> None:
    t, head = tournament_setup["tournament"], tournament_setup["arbiter"]
    words = b"zythum\nabaca\nkayak\nkayak\n?\n"
    build = lexicon_upload(actor=head, tournament_id=t.pk, name="Liste du club", content=words,
                           filename="club.txt")  # fmt: skip
    done = wait_until(
        lambda: LexiconBuild.objects.filter(pk=build.pk, state="done").first(),
        "the worker's lexicon build",
    )
    assert lexicon_build_progress(build.pk) == {
        "id": build.pk, "state": "done", "progress": 100, "lexicon": done.lexicon_id,
        "rejected": 1, "error_code": "",
    }  # fmt: skip
    compiled = EngineLexicon.load(done.lexicon.path)
    assert len(compiled) == 3 and "KAYAK" in compiled and "ZYTHUM" in compiled
