"""A game as an Eliot saved game (``<EliotGame format="2">``, engine.interop): the game's
``tirage-game`` record written in Eliot's format, so the game can be opened, studied or
played again in Eliot (docs/eliot.md says what Eliot can and cannot hold)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.duplicate.record import load_record
from engine.interop.eliot import eliot_from_record
from engine.interop.eliot_xml import write_eliot
from tournaments.reports.base import XML, Rendered, slug


def eliot_xml(record: Mapping, *, tournament_slug: str, game_number: int) -> Rendered:
    """The XML of the record (``EngineError`` ``eliot.*`` for a cancelled round or a
    formula Eliot does not have: the documents registry turns it into a refusal)."""
    content = write_eliot(eliot_from_record(load_record(dict(record))))
    return Rendered(f"{slug(tournament_slug)}-partie-{game_number}.eliot.xml", XML, content)
