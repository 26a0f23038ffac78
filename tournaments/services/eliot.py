"""Importing an Eliot saved game (``<EliotGame format="2">``, engine.interop) into a
tournament as a pre-drawn game: the file is replayed with the tournament's lexicon, and it
becomes a game only when every round's rack draws, every top Eliot placed is the one we
find and the game goes on as long as the file's; otherwise the refusal names the first
round that differs. The players' moves of the file are neither judged nor imported here (the
room plays with its own players; ``python -m engine eliot import`` judges them);
docs/eliot.md."""

from __future__ import annotations

from engine.duplicate.record import load_record
from engine.duplicate.top import engine_top_finder
from engine.errors import EngineError
from engine.interop.eliot import record_from_eliot, variant_of
from engine.interop.eliot_xml import MAX_BYTES, read_eliot
from tournaments import adapter
from tournaments.access import Actor, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import Game, GameKind, Tournament
from tournaments.services.games import game_create
from tournaments.services.records import record_predrawn


def looks_like_eliot(content: bytes) -> bool:
    """An XML document (``<`` first, after a byte-order mark and blanks): a record is JSON."""
    return content.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def game_create_from_eliot(
    *, tournament_id: int, content: bytes, sealed: bool = False, actor: Actor
) -> Game:
    """A pre-drawn game from an Eliot file (head arbiter). Refused: a hostile or malformed
    file and what Tirage cannot play (``eliot.*``), a tournament without a lexicon
    (``eliot.lexicon``), a file whose tops or game differ from ours (``eliot.replay``,
    ``eliot.end``). :func:`tied_choices` lists the rounds where Eliot placed another of the
    tied tops than our default (the arbiter chooses it when placing the top)."""
    return eliot_import(tournament_id=tournament_id, content=content, sealed=sealed, actor=actor)[0]


def tied_choices(record: dict) -> list[tuple[int, str]]:
    """``(round, "COORD WORD")`` of the rounds whose top is a tied one chosen by Eliot."""
    return [(r["number"], f"{r['top']['coord']} {r['top']['word']}") for r in record["rounds"]
            if r["status"] == "played" and r["chosen_by"] == "arbiter"]  # fmt: skip


def eliot_import(
    *, tournament_id: int, content: bytes, sealed: bool = False, actor: Actor
) -> tuple[Game, list[tuple[int, str]]]:
    """:func:`game_create_from_eliot` with the tied tops the arbiter will have to choose."""
    tournament = Tournament.objects.select_related("lexicon").filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
    require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)  # before the replay
    if len(content) > MAX_BYTES:
        raise ServiceError("eliot.too_big", "The file is too large.", max=MAX_BYTES)
    if tournament.lexicon is None:
        raise ServiceError(
            "eliot.lexicon", "The tournament has no lexicon: the tops cannot be searched again."
        )
    lexicon = adapter.engine_lexicon(tournament.lexicon)
    try:
        parsed = read_eliot(content)
        variant = variant_of(parsed)
        finder = engine_top_finder(lexicon, variant)
        # The room plays with its own players: only the racks and tops are replayed here.
        result = record_from_eliot(parsed, finder, lexicon, judge_players=False)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    game_diffs = [d for d in result.differences if not d.field.startswith("players[")]
    if game_diffs:
        first = game_diffs[0]
        if first.field == "end":
            raise ServiceError(
                "eliot.end",
                f"Round {first.round}: the game ends here ({first.recomputed}), the file goes on.",
                round=first.round,
                end=str(first.recomputed),
            )
        raise ServiceError(
            "eliot.replay",
            f"The file differs from the replay with the tournament's lexicon: {first}.",
            round=first.round,
            recorded=str(first.recorded),
            recomputed=str(first.recomputed),
        )
    predrawn = record_predrawn(load_record(result.record))
    if not predrawn.strip():
        raise ServiceError("eliot.empty", "The Eliot file has no round played.")
    game = game_create(tournament_id=tournament.pk, kind=GameKind.PREDRAWN, predrawn=predrawn,
                       variant_code=variant.code, sealed=sealed, actor=actor)  # fmt: skip
    return game, tied_choices(result.record)
