"""Eliot's saved games ↔ Tirage's game record (``tirage-game`` v1), by replaying them.

:func:`record_from_eliot` replays an Eliot file with the engine: its racks become a
pre-drawn source, every round's top is searched again with our lexicon and compared with
the move Eliot put on the board, each player's move is judged again and compared with the
points Eliot gave, and the result is a record that ``load_record`` accepts, with the list
of differences. :func:`eliot_from_record` writes a record as an Eliot file. The choices
(notation, jokers, rejected racks, variants, what is refused) are in docs/eliot.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.board import Rack
from engine.check import check_move
from engine.duplicate.game import Game
from engine.duplicate.proposals import Proposal, ScoringSettings, score_proposal
from engine.duplicate.racks import PredrawnSource, meets_minimum, required_minimum
from engine.duplicate.record import Difference, GameRecord, game_to_record, load_record
from engine.duplicate.scoresheet import game_scores, player_entry, scoring_settings, totals_json
from engine.duplicate.top import TopFinder
from engine.duplicate.totals import game_result
from engine.duplicate.variants import VARIANTS, Variant
from engine.errors import EngineError
from engine.interop.eliot_xml import (
    EliotDictionary,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotRejected,
    EliotTurn,
)
from engine.lexicon import identity_json
from engine.moves import Move
from engine.tiles import CONSONANTS, JOKER, VOWELS

#: Eliot's ``<Variant>`` names and our formulas: ``bingo`` is Eliot's joker game (a joker
#: on every rack), ``7among8`` a rack of 8 from which at most 7 tiles go down.
VARIANT_CODES: Mapping[tuple[str, ...], str] = {(): "standard", ("bingo",): "joker",
                                                ("7among8",): "7sur8"}  # fmt: skip
ELIOT_VARIANTS = {code: names for names, code in VARIANT_CODES.items()}
#: Eliot's modes with one rack for every player and a master move: the others (free game,
#: training, topping) are not duplicate games.
DUPLICATE_MODES = ("duplicate", "arbitration")
#: What a synthesised rejection says (Eliot writes ``-`` on the kept rack, not what it drew).
SYNTHESISED = "rejected by Eliot; the letters it drew are not in its file"


@dataclass(frozen=True, slots=True)
class EliotImport:
    """The record rebuilt from an Eliot file and every way the file and our replay differ
    (empty: the file's tops and players' points are ours)."""

    record: dict
    differences: tuple[Difference, ...]


def variant_of(game: EliotGame) -> Variant:
    code = VARIANT_CODES.get(tuple(sorted(set(game.variants))))
    if code is None:
        names = ", ".join(game.variants)
        raise EngineError(
            "eliot.variant",
            f"Tirage has no formula for Eliot's variant {names} (it plays the standard game, "
            "bingo as the joker game and 7among8 as 7 sur 8).",
            variant=names,
        )
    return VARIANTS[code]


def _synthesised_rejection(game: Game, variant: Variant, round_number: int) -> str:
    """A rack Tirage itself rejects for the minimum: the reliquat completed with consonants
    (or vowels) from the bag. Eliot's ``-`` says the draw after this reliquat was rejected
    and every tile went back, not which letters came out; which ones did changes nothing
    after it (they all return to the bag), so any rejected completion replays the same."""
    reliquat, bag = game.rack, game.bag
    minimum = required_minimum(round_number, game.remaining(), variant.minimum_strict_until)
    joker = JOKER if variant.joker_game and JOKER not in reliquat and game.reserve else ""
    needed = min(variant.rack_size - len(reliquat) - len(joker), len(bag))
    for side in (CONSONANTS, VOWELS):
        new = "".join(t for t in sorted(bag) if t in side)[:needed]
        if len(new) == needed and not meets_minimum(reliquat + joker + new, minimum):
            return f"{reliquat}+{new}"
    raise EngineError(
        "eliot.rejection",
        f"Round {round_number}: Eliot rejected the rack after the reliquat {reliquat}, but "
        "no rack Tirage would reject can be drawn here.",
        round=round_number,
        reliquat=reliquat,
    )


def _checked(game: Game, variant: Variant, move: EliotMove, n: int, what: str) -> Move:
    try:
        c = check_move(game.board, Rack(game.rack), move.coord, move.word,
                       bonuses=variant.bonuses, max_tiles=variant.max_tiles)  # fmt: skip
    except EngineError as exc:
        raise EngineError(
            "eliot.move",
            f"Round {n}: {what} {move.coord} {move.word} does not fit ({exc}).",
            round=n,
            move=f"{move.coord} {move.word}",
        ) from None
    return Move(c.reference, c.word, c.score, c.placed)


def _played_turns(game: EliotGame) -> list[EliotTurn]:
    """The turns whose move went on the board; Eliot ends its file with the turn it began
    after the last move (the reliquat, no game move), which has nothing to replay."""
    turns = list(game.turns)
    while turns and turns[-1].game_move is None:
        turns.pop()
    for i, turn in enumerate(turns, start=1):
        move = turn.game_move
        if turn.rack is None or move is None or move.type != "valid":
            raise EngineError(
                "eliot.turn",
                f"Turn {i} has no rack or no move on the board (Tirage reads finished turns).",
                round=i,
            )
    return turns


def _player_line(game: Game, lexicon: Any, n: int, top: Move, pid: int, move: EliotMove | None,
                 settings: ScoringSettings) -> tuple[dict, int | None]:  # fmt: skip
    """One player's entry of a round (before the top is placed) and the points we give."""
    if move is None:  # not in the file for this turn: absent
        return player_entry(str(pid), None, None), None
    proposal = None
    if move.type in ("valid", "invalid"):
        claimed = move.points if move.type == "valid" else None
        proposal = Proposal(word=move.word, reference=move.coord, claimed_score=claimed,
                            source="arbiter")  # fmt: skip
    try:
        outcome = score_proposal(board=game.board, rack=Rack(game.rack), round_number=n,
                                 top_score=top.score, proposal=proposal or Proposal(),
                                 lexicon=lexicon, settings=settings,
                                 top_move=(top.coord, top.word))  # fmt: skip
    except EngineError as exc:
        raise EngineError(
            "eliot.move",
            f"Round {n}: the move of player {pid} cannot be read ({exc}).",
            round=n,
            move=f"{move.coord} {move.word}",
        ) from None
    return player_entry(str(pid), proposal, outcome), outcome.score


def record_from_eliot(
    game: EliotGame, top_finder: TopFinder, lexicon: Any, *, judge_players: bool = True
) -> EliotImport:
    """Replay an Eliot file with our lexicon into a ``tirage-game`` record (pre-drawn
    source); refusals ``eliot.*``, differences listed (the caller decides what they cost).
    ``judge_players=False`` leaves the players out (a caller that only wants the racks and
    tops need not judge thousands of moves)."""
    if game.mode not in DUPLICATE_MODES:
        raise EngineError(
            "eliot.mode",
            f"This Eliot game is a {game.mode or 'game of unknown mode'}: Tirage imports "
            "duplicate and arbitration games.",
            mode=game.mode,
        )
    variant = variant_of(game)
    source = PredrawnSource([])
    replay = Game(source, top_finder, variant)
    settings = ScoringSettings(score_required=False, bonuses=variant.bonuses,
                               max_tiles=variant.max_tiles)  # fmt: skip
    diffs: list[Difference] = []
    round_players: dict[int, list[dict]] = {}
    synthesised: set[int] = set()
    for n, turn in enumerate(_played_turns(game), start=1):
        assert turn.rack is not None and turn.game_move is not None  # _played_turns checked
        racks = [r.rack for r in turn.rejected]
        if not racks and turn.rack.startswith("-") and replay.rack:
            racks.append(_synthesised_rejection(replay, variant, n))
            synthesised.add(n)
        source.rounds.append((*racks, turn.rack))
        try:
            pending = replay.draw()
        except EngineError as exc:
            raise EngineError(
                "eliot.rack", f"Round {n}: the rack {turn.rack} cannot be drawn here ({exc}).",
                round=n, rack=turn.rack,
            ) from None  # fmt: skip
        if pending is None:
            end = replay.end.code if replay.end else ""
            diffs.append(Difference(n, "end", turn.rack, end))  # the game is over here
            break
        placed = _checked(replay, variant, turn.game_move, n, "the move on the board")
        choice = pending.top_choice
        if placed.score != turn.game_move.points:
            diffs.append(Difference(n, "move.points", turn.game_move.points, placed.score))
        if placed.score != choice.score:
            diffs.append(Difference(n, "top", str(placed), str(choice.chosen)))
        moves = dict(turn.players)
        entries = []
        for p in game.players if judge_players else ():
            entry, points = _player_line(replay, lexicon, n, choice.chosen, p.id,
                                         moves.get(p.id), settings)  # fmt: skip
            entries.append(entry)
            given = moves.get(p.id)
            if given is not None and points is not None and points != given.points:
                diffs.append(Difference(n, f"players[{p.id}].points", given.points, points))
        round_players[len(replay.history)] = entries
        key = (placed.reference, placed.word)
        if key == (choice.chosen.reference, choice.chosen.word):
            replay.place()
        elif any(key == (m.reference, m.word) for m in choice.tied):
            replay.place(placed)
        else:
            replay.place_forced(placed)
    record = _record(game, replay, lexicon, round_players, judge_players)
    for rnd in record["rounds"]:
        if rnd["number"] in synthesised:
            first = rnd["draws"][0]
            first["message"] = f"{first.get('message') or ''} ({SYNTHESISED})".strip()
    return EliotImport(record, tuple(diffs))


def _record(game: EliotGame, replay: Game, lexicon: Any,
            round_players: dict[int, list[dict]], with_players: bool) -> dict:  # fmt: skip
    players = [{"id": str(p.id), "name": p.name or f"Joueur {p.id}", "table": p.table}
               for p in game.players if with_players]  # fmt: skip
    identity = getattr(lexicon, "identity", None)
    record = game_to_record(replay, lexicon=identity, players=players,
                            round_players=round_players)  # fmt: skip
    d = game.dictionary
    record["origin"] = {"format": "eliot", "dictionary": d.name, "word_count": d.word_count}
    record["scoring"] = {"score_required": False}
    checked = load_record(record)
    _, totals = scoring_settings(checked)
    record["totals"]["players"] = totals_json(game_result(game_scores(checked), totals))
    return record


# -- export -----------------------------------------------------------------------------
def _eliot_move(data: Mapping | None) -> EliotMove:
    if not data:
        return EliotMove("none")
    return EliotMove("valid", int(data["score"]), str(data["word"]), str(data["coord"]))


def _player_move(entry: Mapping) -> EliotMove:
    """A player's line as Eliot's ``PlayerMove``: ``valid`` only when our judgement says
    the move counts (Eliot checks a valid move against its dictionary when it loads it)."""
    proposal, outcome = entry.get("proposal"), entry.get("outcome") or {}
    if not proposal or not proposal.get("word"):
        return EliotMove("none")
    word, coord = str(proposal["word"]), str(proposal.get("reference") or "")
    if outcome.get("kind") == "valid" and coord:
        return EliotMove("valid", int(outcome.get("raw_score") or 0), word, coord)
    return EliotMove("invalid", 0, word, coord)


def _plays_as_standard(variant: Variant) -> bool:
    standard = VARIANTS["standard"]
    return (variant.rack_size, dict(variant.bonuses), variant.max_tiles, variant.joker_game) == (
        standard.rack_size, dict(standard.bonuses), standard.max_tiles, standard.joker_game
    )  # fmt: skip


def eliot_from_record(record: GameRecord) -> EliotGame:
    """An Eliot ``arbitration`` game (the arbiter sets racks and tops, as in Tirage) from a
    record: refusals ``eliot.*`` for what Eliot cannot hold (a cancelled round, a formula
    Eliot does not have)."""
    names = ELIOT_VARIANTS.get(record.variant.code)
    if names is None and _plays_as_standard(record.variant):
        names = ()  # semi-rapide, blitz: the standard game on a shorter clock Eliot has not
    if names is None:
        raise EngineError(
            "eliot.export_variant",
            f"Eliot has no formula for {record.variant.name}.",
            variant=record.variant.name,
        )
    given = [str(p["id"]) for p in record.data["players"]]
    numeric = all(g.isdigit() and len(g) < 7 for g in given) and len(set(given)) == len(given)
    ids = {g: int(g) if numeric else i for i, g in enumerate(given)}  # Eliot's ids are numbers
    players = tuple(EliotPlayer(i, str(p.get("name") or p["id"]), True, None,
                                int(p.get("table") or 0))
                    for p, i in zip(record.data["players"], ids.values(), strict=True))  # fmt: skip
    turns = []
    for rnd in record.rounds:
        if rnd["status"] == "void":
            continue
        if rnd["status"] != "played":
            raise EngineError(
                "eliot.cancelled",
                f"Round {rnd['number']} was cancelled: Eliot's files have no cancelled rounds.",
                round=rnd["number"],
            )
        rejected = tuple(EliotRejected(d["rack"], d["rejected"] or "")
                         for d in rnd["draws"] if d["rejected"])  # fmt: skip
        moves = [(ids[e["player"]], _player_move(e)) for e in rnd["players"]
                 if e.get("player") in ids and e.get("outcome") is not None]  # fmt: skip
        top = _eliot_move(rnd["top"])
        turns.append(EliotTurn(rnd["rack"], top, top, tuple(sorted(moves)), rejected=rejected))
    lexicon = record.data.get("lexicon") or {}
    dictionary = EliotDictionary(str(lexicon.get("name") or ""), "dawg")
    known = identity_json(lexicon) if lexicon else {}
    identity = tuple(sorted((k, str(v)) for k, v in (known or {}).items()))
    return EliotGame(dictionary, "arbitration", tuple(names), players, tuple(turns), identity)


def differences_text(diffs: Sequence[Difference]) -> str:
    return "; ".join(str(d) for d in diffs)
