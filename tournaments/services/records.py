"""Importing a game record (``tirage-game`` v1 JSON, engine.duplicate.record) into a
tournament as a pre-drawn game: the record's racks, rejected ones first, become the new
game's pre-drawn source, so the room replays the same draws with its own players.

Not exported by ``tournaments.services`` yet (``from tournaments.services.records import
game_create_from_record``)."""

from __future__ import annotations

from engine.duplicate.record import GameRecord, load_record
from engine.errors import EngineError
from tournaments.access import Actor
from tournaments.errors import ServiceError
from tournaments.models import Game, GameKind, Tournament
from tournaments.services.games import game_create

#: Largest record file accepted (a 30-round game with 200 players is far below).
MAX_RECORD_BYTES = 5_000_000


def record_predrawn(record: GameRecord) -> str:
    """The record's racks as a pre-drawn text: one line a round (cancelled rounds too, as
    they drew racks), every rack drawn on it with the kept one last."""
    lines = []
    for rnd in record.rounds:
        if rnd["status"] == "void":
            continue
        typed = [f"{d['reliquat']}+{d['new']}" if d["reliquat"] else d["new"] for d in rnd["draws"]]
        lines.append(" ".join(typed))
    return "\n".join(lines) + ("\n" if lines else "")


def game_create_from_record(
    *, tournament_id: int, content: bytes | str, sealed: bool = False, actor: Actor
) -> Game:
    """A pre-drawn game of the tournament from a record file (head arbiter). Refused: a
    file that is not a valid record (``record.*``), a record without rounds
    (``record.empty``), one made with another word list than the tournament's
    (``record.lexicon``: the tops, hence the reliquats, would differ)."""
    if len(content) > MAX_RECORD_BYTES:
        raise ServiceError("record.size", "The record file is too large.", max=MAX_RECORD_BYTES)
    try:
        record = load_record(content)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    predrawn = record_predrawn(record)
    if not predrawn.strip():
        raise ServiceError("record.empty", "The record has no drawn rack.")
    tournament = Tournament.objects.select_related("lexicon").filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
    identity = record.data.get("lexicon") or {}
    sha = identity.get("sha256") if isinstance(identity, dict) else None
    if sha and tournament.lexicon is not None and tournament.lexicon.sha256 != sha:
        raise ServiceError(
            "record.lexicon",
            f"The record was played with another word list ({identity.get('name') or sha[:12]}).",
        )
    return game_create(tournament_id=tournament_id, kind=GameKind.PREDRAWN, predrawn=predrawn,
                       variant_code=record.variant.code, sealed=sealed, actor=actor)  # fmt: skip
