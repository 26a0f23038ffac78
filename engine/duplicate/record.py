"""The game record (rules §7 P5, P7): export, import with coded errors, and replay.

Schema ``{"format": "tirage-game", "version": 1}`` (documented in docs/rules-choices.md):

* ``variant``: the variant's parameters (``Variant.to_json``), so a record stays readable
  if the registry changes; ``source``: ``{"kind": "seeded", "seed": N}``, ``{"kind":
  "manual"}`` or ``{"kind": "predrawn"}``; ``lexicon``: the identity (name, source, version,
  word_count, sha256, optional ``path`` hint) or ``null``.
* ``rounds``: the history in order, cancelled rounds included. Each: ``number``, ``status``
  (``played``/``cancelled``), ``minimum``, ``rack`` (N5), ``draws`` (every rack drawn,
  rejected ones first: ``rack``, ``reliquat``, ``new``, ``rejected``, ``message``), ``top``
  and ``tied`` (moves: ``coord``, ``word``, ``score``, ``placed``), ``eligible`` (indexes into
  ``tied``), ``chosen_by``, ``joker_swap``, ``next_reliquat``, ``cumulative``,
  ``cancel_reason`` and ``players``: a list of plain JSON objects (proposals, outcomes,
  warnings, penalties, solos) that this module stores and returns without reading them.
* ``players`` (who played) and ``totals.players``: opaque lists too; ``totals.top``: the top
  total; ``end``: ``{"code", "remaining", "message"}`` or ``null`` while the game goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.board import Rack
from engine.check import check_move
from engine.duplicate.game import Game, Round
from engine.duplicate.racks import PredrawnSource, RackSource, SeededSource
from engine.duplicate.top import TopChoice, TopFinder
from engine.duplicate.values import ANNOUNCED
from engine.duplicate.variants import LEGACY_CODES, VARIANTS, Variant
from engine.errors import EngineError
from engine.lexicon import identity_json
from engine.moves import Move, move_to_json
from engine.notation import parse_reference

FORMAT = "tirage-game"
VERSION = 1
_STATUSES = ("played", "cancelled", "void")  # "pending" only in a site's own replay
_REJECTIONS = (None, "minimum", "repeat", "no_move")
_CHOOSERS = ("default", "arbiter", "record")


def round_json(rnd: Round, players: Sequence[Mapping] = ()) -> dict:
    choice = rnd.choice
    tied = list(choice.tied) if choice else []
    return {
        "number": rnd.number,
        "status": rnd.status,
        "minimum": rnd.minimum,
        "rack": rnd.rack,
        "draws": [
            {"rack": d.rack, "reliquat": d.reliquat, "new": d.new, "rejected": d.rejected}
            | ({"message": d.message} if d.message else {})
            for d in rnd.draws
        ],
        "top": move_to_json(choice.chosen) if choice else None,
        "chosen_by": choice.chosen_by if choice else "default",
        "tied": [move_to_json(m) for m in tied],
        "eligible": [i for i, m in enumerate(tied) if m in choice.eligible] if choice else [],
        "joker_swap": rnd.joker_swap,
        "next_reliquat": rnd.next_reliquat,
        "cumulative": rnd.cumulative,
        "cancel_reason": rnd.cancel_reason,
        "players": [dict(p) for p in players],
    }


def game_to_record(
    game: Game,
    *,
    lexicon: Any = None,
    lexicon_path: str | None = None,
    players: Sequence[Mapping] = (),
    round_players: Mapping[int, Sequence[Mapping]] | None = None,
    player_totals: Sequence[Mapping] = (),
) -> dict:
    """The record of a game so far. ``round_players`` is keyed by position in the history."""
    round_players = round_players or {}
    end = game.end
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant.to_json(),
        "source": game.source.to_json(),
        "lexicon": identity_json(lexicon, lexicon_path),
        "players": [dict(p) for p in players],
        "rounds": [round_json(r, round_players.get(i, ())) for i, r in enumerate(game.history)],
        "end": {"code": end.code, "remaining": end.remaining, "message": end.message}
        if end
        else None,
        "totals": {"top": game.cumulative, "players": [dict(p) for p in player_totals]},
    }


# -- import --------------------------------------------------------------------------------
def _fail(code: str, message: str) -> EngineError:
    return EngineError(f"record.{code}", message)


def _get(obj: Any, key: str, kind: type | tuple, where: str, *, nullable: bool = False) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _fail("field", f"The record lacks '{key}' in {where}.")
    value = obj[key]
    if value is None and nullable:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _fail("field", f"'{key}' in {where} has the wrong type ({value!r}).")
    return value


def move_from_json(data: Any, where: str) -> Move:
    try:
        ref = parse_reference(_get(data, "coord", str, where))
    except EngineError as exc:
        raise _fail("move", f"{where}: {exc}") from None
    word = _get(data, "word", str, where)
    if not word.isascii() or not word.isalpha() or len(word) < 2:
        raise _fail("move", f"{where}: '{word}' is not a word.")
    return Move(ref, word, _get(data, "score", int, where), _get(data, "placed", int, where))


def _check_rack(text: str, where: str) -> None:
    try:
        Rack.parse(text)
    except EngineError as exc:
        raise _fail("rack", f"{where}: {exc}") from None


def _check_round(data: Any, i: int) -> None:
    where = f"round entry {i + 1}"
    number = _get(data, "number", int, where)
    where = f"round {number} (entry {i + 1})"
    if number < 1:
        raise _fail("field", f"{where}: rounds are numbered from 1.")
    _check_rack(_get(data, "rack", str, where), where)
    if _get(data, "status", str, where) not in _STATUSES:
        raise _fail("field", f"{where}: status is one of {', '.join(_STATUSES)}.")
    if _get(data, "minimum", int, where) not in (1, 2):
        raise _fail("field", f"{where}: the minimum is 1 or 2.")
    draws = _get(data, "draws", list, where)
    if not draws:
        raise _fail("field", f"{where}: no rack drawn.")
    for j, d in enumerate(draws):
        here = f"{where}, draw {j + 1}"
        for key in ("rack", "reliquat", "new"):
            _check_rack(_get(d, key, str, here), here)
        rejected = _get(d, "rejected", str, here, nullable=True)
        kept = j == len(draws) - 1 and data["status"] != "void"
        if rejected not in _REJECTIONS or (rejected is None) != kept:
            raise _fail("field", f"{here}: only the last rack drawn is kept (none if void).")
    top = _get(data, "top", dict, where, nullable=True)
    if top is None and data["status"] == "played":
        raise _fail("field", f"{where}: a played round has a top.")
    if top is not None:
        move_from_json(top, f"{where}, top")
    for j, m in enumerate(_get(data, "tied", list, where)):
        move_from_json(m, f"{where}, tied move {j + 1}")
    if _get(data, "chosen_by", str, where) not in _CHOOSERS:
        raise _fail("field", f"{where}: chosen_by is one of {', '.join(_CHOOSERS)}.")
    _get(data, "cumulative", int, where)
    for key in ("joker_swap", "next_reliquat", "cancel_reason"):
        _get(data, key, str, where)
    if not all(isinstance(p, dict) for p in _get(data, "players", list, where)):
        raise _fail("field", f"{where}: 'players' holds one JSON object per player.")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A validated record. ``data`` is the JSON as read: exporting it round-trips as is."""

    data: Mapping[str, Any] = field(repr=False)
    variant: Variant

    @property
    def rounds(self) -> list[dict]:
        return self.data["rounds"]

    @property
    def source(self) -> dict:
        return self.data["source"]

    def to_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, indent=1)


def load_record(data: str | bytes | Mapping) -> GameRecord:
    """Read and validate a record; every problem is an ``EngineError`` coded ``record.*``."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise _fail("json", f"The record is not valid JSON ({exc}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail("format", f"This is not a Tirage game record ('format': '{FORMAT}').")
    version = data.get("version")
    if version != VERSION:
        raise _fail("version", f"This record is version {version!r}; this program reads version 1.")
    variant = _variant_from_json(_get(data, "variant", dict, "the record"))
    source = _get(data, "source", dict, "the record")
    kind = _get(source, "kind", str, "the source")
    if kind not in ("seeded", "manual", "predrawn"):
        raise _fail("source", f"The rack source '{kind}' is unknown.")
    if kind == "seeded":
        seed = _get(source, "seed", int, "the source")
        if not 0 <= seed < 2**64:
            raise _fail("source", f"The seed {seed} is not between 0 and 2**64 - 1.")
    _get(data, "lexicon", dict, "the record", nullable=True)
    _get(data, "players", list, "the record")
    for i, rnd in enumerate(_get(data, "rounds", list, "the record")):
        _check_round(rnd, i)
    end = _get(data, "end", dict, "the record", nullable=True)
    if end is not None:
        _get(end, "code", str, "the end")
    totals = _get(data, "totals", dict, "the record")
    _get(totals, "top", int, "the totals")
    return GameRecord(data, variant)


def _variant_from_json(data: dict) -> Variant:
    """The record's own parameters; an old code (``classic``) is read under today's code and
    name, since the parameters it stored are the same game's."""
    try:
        bonuses = {int(k): int(v) for k, v in _get(data, "bonuses", dict, "the variant").items()}
        code, name = _get(data, "code", str, "the variant"), _get(data, "name", str, "the variant")
        if code in LEGACY_CODES:
            code = LEGACY_CODES[code]
            name = VARIANTS[code].name
        return Variant(
            code=code,
            name=name,
            rack_size=_get(data, "rack_size", int, "the variant"),
            bonuses=MappingProxyType(bonuses),
            max_tiles=_get(data, "max_tiles", int, "the variant", nullable=True),
            joker_game=_get(data, "joker_game", bool, "the variant"),
            seconds_per_move=_get(data, "seconds_per_move", int, "the variant"),
            warning_before_end=_get(data, "warning_before_end", int, "the variant"),
            warning_penalty_from=_get(data, "warning_penalty_from", int, "the variant"),
            minimum_strict_until=_get(data, "minimum_strict_until", int, "the variant"),
        )
    except (TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, EngineError):
            raise
        raise _fail("variant", f"The variant's parameters cannot be read ({exc}).") from None


# -- replay --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Difference:
    """One field where the record and the recomputation disagree (``round`` 0: the game)."""

    round: int
    field: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        where = f"round {self.round}" if self.round else "game"
        return f"{where}: {self.field}: recorded {self.recorded!r}, recomputed {self.recomputed!r}"


#: ``(game, round_record, player_entry) -> recomputed fields`` (the players' scoring fills it).
OutcomeHook = Callable[[Game, Mapping, Mapping], Mapping | None]


def source_for(record: GameRecord) -> RackSource:
    """Seeded records redraw from the seed; the others take the recorded racks."""
    if record.source["kind"] == "seeded":
        return SeededSource(record.source["seed"])
    return PredrawnSource([[d["rack"] for d in r["draws"]] for r in record.rounds])


def _moves(moves: Sequence[Move]) -> list[str]:
    return [f"{m.coord} {m.word} {m.score}" for m in moves]


def replay(
    record: GameRecord,
    top_finder: TopFinder,
    *,
    lexicon: Any = None,
    outcome_hook: OutcomeHook | None = None,
) -> list[Difference]:
    """Replay a record and list every difference from what it says (empty: it reproduces).

    The recorded top is followed whenever it fits, so one divergence (another lexicon, a
    different arbiter choice) does not hide the later ones.
    """
    return replay_game(record, top_finder, lexicon=lexicon, outcome_hook=outcome_hook)[1]


_ABSENT = object()


def replay_game(
    record: GameRecord,
    top_finder: TopFinder,
    *,
    lexicon: Any = None,
    outcome_hook: OutcomeHook | None = None,
    source: RackSource | None = None,
    through_end: bool = True,
) -> tuple[Game, list[Difference]]:
    """The one replayer: the game rebuilt round by round from ``record`` and every
    difference from what it says. A record file is replayed with :func:`replay`; the site
    replays its rows with it too (``tournaments.adapter.engine_game``), giving its own
    rack ``source`` (a manual game is offered its typed racks again), a ``top_finder`` that
    reads the stored tops (:class:`~engine.duplicate.top.StoredTops`), rounds whose
    status may be ``pending`` (drawn, top not placed: the game is returned waiting for it)
    and fields it does not keep left out (not compared). ``through_end=False`` stops after
    the last round without looking for the end of the game.
    """
    diffs: list[Difference] = []
    recorded_lexicon = record.data.get("lexicon") or {}
    if lexicon is not None and recorded_lexicon:
        mine = identity_json(lexicon) or {}
        if mine["sha256"] != recorded_lexicon.get("sha256"):
            diffs.append(Difference(0, "lexicon.sha256", recorded_lexicon.get("sha256"), mine))
    game = Game(source or source_for(record), top_finder, record.variant)
    for rec in record.rounds:
        n = rec["number"]

        def differ(name: str, recorded: Any, recomputed: Any, n: int = n) -> None:
            if recorded is not _ABSENT and recorded != recomputed:
                diffs.append(Difference(n, name, recorded, recomputed))

        try:
            pending = _draw_recorded(game, rec)
        except EngineError as exc:
            diffs.append(Difference(n, "draw", rec["rack"], f"{exc.code}: {exc}"))
            return game, diffs
        if rec["status"] == "void":
            last = game.history[-1] if game.history else None
            got = [(d.rack, d.rejected) for d in last.draws] if last and not pending else None
            differ("draws", [(d["rack"], d["rejected"]) for d in rec["draws"]], got)
            break
        if pending is None:
            diffs.append(Difference(n, "end", None, game.end.code if game.end else None))
            return game, diffs
        differ("number", n, pending.number)
        got = [(d.rack, d.rejected) for d in pending.draws]
        differ("draws", [(d["rack"], d["rejected"]) for d in rec["draws"]], got)
        differ("minimum", rec.get("minimum", _ABSENT), pending.minimum)
        choice = pending.top_choice
        if rec.get("top") is not None or rec["status"] == "played":
            differ("top.score", rec["top"]["score"] if rec["top"] else None, choice.score)
        if rec.get("tied") is not None:
            tied = [move_from_json(m, "") for m in rec["tied"]]
            differ("tied", _moves(tied), _moves(choice.tied))
        for j, entry in enumerate(rec.get("players") or ()):
            again = outcome_hook(game, rec, entry) if outcome_hook else None
            for key, value in (again or {}).items():
                differ(f"players[{j}].{key}", entry.get(key), value)
        if rec["status"] == "cancelled":
            game.cancel(rec.get("cancel_reason", ""))
            continue
        if rec["status"] == "pending":
            return game, diffs
        done = _place_recorded(game, rec, choice, differ)
        if done is None:
            return game, diffs
        differ("joker_swap", rec.get("joker_swap", _ABSENT), done.joker_swap)
        differ("next_reliquat", rec.get("next_reliquat", _ABSENT), done.next_reliquat)
        differ("cumulative", rec.get("cumulative", _ABSENT), done.cumulative)
    if through_end:
        _replay_end(record, game, diffs)
    return game, diffs


def typed_rack(draw: Mapping) -> str:
    """A recorded draw as the arbiter typed it (reliquat + new letters)."""
    return f"{draw['reliquat']}+{draw['new']}" if draw["reliquat"] else draw["new"]


def _draw_recorded(game: Game, rec: Mapping) -> Round | None:
    """Draw the round again: from the source, or (manual games) by offering the typed
    racks in the order they were offered, rejected ones first."""
    if game.source.kind != "manual":
        return game.draw()
    for draw in rec["draws"]:
        game.offer_rack(typed_rack(draw))
    return game.pending


def _place_recorded(
    game: Game, rec: Mapping, choice: TopChoice, differ: Callable[..., None]
) -> Round | None:
    """Place the recorded top: as the default, as the arbiter's choice, or forced."""
    wanted = move_from_json(rec["top"], "")
    default = choice.chosen
    if rec["chosen_by"] == "default":
        differ("top", f"{wanted.coord} {wanted.word}", f"{default.coord} {default.word}")
        if (wanted.reference, wanted.word) == (default.reference, default.word):
            return game.place()
    try:
        return game.place(wanted)
    except EngineError as exc:
        differ("top.allowed", f"{wanted.coord} {wanted.word}", f"{exc.code}: {exc}")
    try:
        checked = check_move(
            game.board, Rack(game.rack), wanted.reference, wanted.word,
            bonuses=game.variant.bonuses, max_tiles=game.variant.max_tiles,
        )  # fmt: skip
    except EngineError as exc:
        differ("replay", "continues", f"stopped: the recorded top does not fit ({exc})")
        return None
    move = Move(checked.reference, checked.word, checked.score, checked.placed)
    return game.place_forced(move)


def _replay_end(record: GameRecord, game: Game, diffs: list[Difference]) -> None:
    end = record.data["end"]
    if end and game.end is None:
        if end["code"] == "E5":
            game.stop(end.get("message", ""))
        elif end["code"] == ANNOUNCED:
            game.end_as_announced()
        else:
            try:
                game.draw()  # E2/E4 show up at the next draw
            except EngineError as exc:
                diffs.append(Difference(0, "end", end["code"], f"{exc.code}: {exc}"))
                return
    recomputed = game.end.code if game.end else None
    if (end["code"] if end else None) != recomputed:
        diffs.append(Difference(0, "end", end["code"] if end else None, recomputed))
    if record.data["totals"]["top"] != game.cumulative:
        diffs.append(Difference(0, "totals.top", record.data["totals"]["top"], game.cumulative))
