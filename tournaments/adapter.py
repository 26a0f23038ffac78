"""The one bridge between database rows and engine values (and back).

Everything in ``tournaments/`` that needs a ``Board``, ``Rack``, ``Proposal``, ``Variant``,
``GameScores`` or an engine ``Game`` asks this module, so the text formats stored in the
database are read and written in exactly one place. A game is never stored as engine
state: :func:`engine_game` replays it from its source and its rounds, reading the tops
the rows keep (checked on the board, not searched again), which keeps the rows the only
truth.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.board import Board, Rack
from engine.cards import CardGame
from engine.cards import Play as CardPlay
from engine.cards import Turn as CardTurn
from engine.cards.record import game_to_record as cards_game_to_record
from engine.cards.record import turn_to_json as cards_turn_to_json
from engine.classic.pairings import Table as ClassicTableValue
from engine.classic.pairings import pair_round
from engine.classic.sheet import SheetEnd, SheetState, SheetTurn
from engine.classic.sheet import sheet_state as classic_sheet_state
from engine.classic.standings import Result as ClassicResult
from engine.classic.standings import Row as ClassicRow
from engine.classic.standings import TournamentSettings as ClassicTournamentSettings
from engine.classic.standings import standings as classic_rank
from engine.duplicate import (
    Draw,
    Game,
    ManualSource,
    PredrawnSource,
    RackSource,
    SeededSource,
    Variant,
    engine_top_finder,
    get_variant,
)
from engine.duplicate.decisions import ArbiterDecision, PlayerRound
from engine.duplicate.proposals import (
    Outcome,
    Proposal,
    ScoringSettings,
    invalid_words_of,
    make_outcome,
)
from engine.duplicate.record import GameRecord, replay_game, typed_rack
from engine.duplicate.top import StoredTop, StoredTops
from engine.duplicate.totals import GameScores, TotalsSettings
from engine.errors import EngineError
from engine.lexicon.automaton import Lexicon as EngineLexicon
from engine.moves import Move, move_to_json
from engine.notation import parse_reference
from tournaments import models
from tournaments.errors import ServiceError
from tournaments.models.choices import RoundState

_LEXICONS: dict[str, EngineLexicon] = {}
_LEXICONS_LOCK = threading.Lock()


def engine_lexicon(row: models.Lexicon) -> EngineLexicon:
    """The loaded lexicon of a row, read once per process and kept by sha256.

    A file whose words do not match the row's sha256 is refused: the top of an official
    game must never come from another word list than the one registered."""
    with _LEXICONS_LOCK:
        cached = _LEXICONS.get(row.sha256)
        if cached is not None:
            return cached
        try:
            loaded = EngineLexicon.load(row.path)
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        if loaded.identity.sha256 != row.sha256:
            raise ServiceError(
                "lexicon.mismatch",
                f"The file {row.path} holds another word list than the lexicon '{row.name}'.",
            )
        _LEXICONS[row.sha256] = loaded
        return loaded


def variant(code: str) -> Variant:
    try:
        return get_variant(code)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


def board(text: str) -> Board:
    return Board.from_text(text) if text.strip() else Board()


def board_text(value: Board) -> str:
    return value.to_text()


def rack(text: str) -> Rack:
    """A round's rack from its N5 text (``-`` and ``+`` marks ignored)."""
    return Rack.parse(text)


def move_json(move: Move) -> dict[str, Any]:
    return move_to_json(move)


def move(data: Mapping[str, Any]) -> Move:
    return Move(parse_reference(data["coord"]), data["word"], data["score"], data["placed"])


def draw_json(draw: Draw) -> dict[str, Any]:
    return {
        "rack": draw.rack,
        "reliquat": draw.reliquat,
        "new": draw.new,
        "rejected": draw.rejected,
        "message": draw.message,
    }


def _released_text(game: models.Game) -> str:
    """A sealed game's source: the lines released so far, never the sealed ones (so no
    replay can reach a rack that is not public yet). docs/simultaneous.md."""
    lines = models.SealedRound.objects.filter(sealed_id=game.pk, released_at__isnull=False)
    return "\n".join(lines.order_by("number").values_list("text", flat=True))


def predrawn_lines(text: str) -> int:
    """How many rounds a pre-drawn game's text holds (one line a round)."""
    return len(PredrawnSource.from_text(text).rounds) if text.strip() else 0


def rack_source(game: models.Game) -> RackSource:
    if game.kind == "seeded":
        return SeededSource(game.seed)
    if game.kind == "predrawn":
        return PredrawnSource.from_text(game.predrawn or _released_text(game))
    return ManualSource()


def _status(row: models.Round) -> str:
    if row.state == RoundState.CANCELLED:
        return "cancelled"
    return "played" if row.top_placed_at is not None else "pending"


def _chosen_by(top: Mapping[str, Any]) -> str:
    """Who chose the placed top, read from the stored tops: "default" when it is the first
    eligible tied move (the engine's default), else "arbiter", so a top kept by a
    recomputation that is no longer the default still replays as the arbiter's choice."""
    tied, eligible = top.get("tied") or [], top.get("eligible") or []
    default = tied[eligible[0]] if eligible and eligible[0] < len(tied) else None
    chosen = top.get("chosen")
    if default is None or chosen is None:
        return "arbiter"
    same = (chosen["coord"], chosen["word"]) == (default["coord"], default["word"])
    return "default" if same else "arbiter"


def round_record(row: models.Round) -> dict[str, Any]:
    """A stored round as a round of a game record (``engine.duplicate.record``), with the
    fields the rows keep: what the one replayer needs to draw it again and place its top."""
    kept = {"rack": row.rack, "reliquat": row.reliquat, "new": row.new_letters, "rejected": None}
    top = row.top or {}
    return {
        "number": row.number,
        "status": _status(row),
        "minimum": row.minimum,
        "rack": row.rack,
        "draws": [*({k: d.get(k) for k in kept} for d in row.rejections), kept],
        "top": top.get("chosen") if row.top_placed_at is not None else None,
        "tied": top.get("tied"),
        "chosen_by": _chosen_by(top),
        "next_reliquat": row.next_reliquat if row.top_placed_at is not None else None,
        "cancel_reason": row.cancel_reason,
    }


def stored_tops(rows: Iterable[models.Round]) -> dict[tuple[str, str], StoredTop]:
    """The tops the rows keep, keyed as :class:`StoredTops` asks: each round's tied moves
    on the board before it, and the racks rejected for having no move (none)."""
    known: dict[tuple[str, str], StoredTop] = {}
    for row in rows:
        board_before = board(row.board_before)
        tied = (row.top or {}).get("tied")
        if tied and row.top_score is not None:
            moves = tuple(move(m) for m in tied)
            known[StoredTops.key(board_before, row.rack)] = StoredTop(row.top_score, moves)
        for d in row.rejections:
            if d.get("rejected") == "no_move":
                known[StoredTops.key(board_before, d["rack"])] = StoredTop(0)
    return known


def engine_game(game: models.Game, rounds: Iterable[models.Round], lexicon: EngineLexicon) -> Game:
    """Replay ``game`` from its source with the one replayer
    (``engine.duplicate.record.replay_game``): every stored round is drawn again and its
    placed top put down, then (manual games) the typed racks already rejected for the next
    round. The tops come from the rows (:func:`stored_tops`), checked on the board but
    never searched again, so drawing, placing or cancelling round N under the game's lock
    costs at most the search of the round being drawn, not N.

    The result is the engine game as it stands now: a pending round when the last stored
    round is not placed yet. A cancelled round (§1.5) is drawn again and cancelled, which
    puts every tile back and excludes its rack, exactly as when it was cancelled (``rounds``
    must then come in play order, cancelled rows first among equal numbers). A replay that
    disagrees with the rows is a bug, not a refusal.
    """
    rows = list(rounds)
    var = variant(game.variant_code)
    finder = StoredTops(stored_tops(rows), engine_top_finder(lexicon, var), lexicon=lexicon,
                        variant=var)  # fmt: skip
    record = GameRecord({"rounds": [round_record(r) for r in rows]}, var)
    eg, diffs = replay_game(record, finder, source=rack_source(game), through_end=False)
    if diffs:
        raise RuntimeError(f"replay of game {game.pk} diverges: {diffs[0]}")
    if game.kind == "manual" and eg.pending is None:
        for draw in game.pending_draws:
            eg.offer_rack(typed_rack(draw))
    return eg


def seconds_per_move(tournament: models.Tournament, var: Variant) -> int:
    return tournament.seconds_per_move or var.seconds_per_move


def proposal(
    *, word: str, reference: str, claimed_score: int | None, source: str, late: bool
) -> Proposal:
    return Proposal(word, reference, claimed_score, source, late)


def top_move(rnd: models.Round) -> tuple[str, str] | None:
    """The chosen top of a round as ``(reference, word)``, once computed."""
    chosen = (rnd.top or {}).get("chosen")
    return (chosen["coord"], chosen["word"]) if chosen else None


def scoring_settings(tournament: models.Tournament, var: Variant) -> ScoringSettings:
    return ScoringSettings(tournament.score_required, var.bonuses, var.max_tiles)


def totals_settings(tournament: models.Tournament, var: Variant | None = None) -> TotalsSettings:
    var = var or variant(tournament.variant_code)
    return TotalsSettings(
        warning_penalty_from=tournament.warning_penalty_from or var.warning_penalty_from,
        solo_value=tournament.solo_value,
        solo_min_players=tournament.solo_min_players,
        tie_break=tournament.tie_break,
    )


def outcome_fields(outcome: Outcome) -> dict[str, Any]:
    """The columns of a ``ProposalVersion`` that keep an outcome. A slip left to the
    arbiter's judgement keeps its ``review`` reason and the ``alternative`` outcome in the
    params, so the console's review list and a change of mind need no re-judging."""
    params = dict(outcome.params)
    if outcome.review and outcome.alternative is not None:
        params["review"] = outcome.review
        params["alternative"] = _outcome_json(outcome.alternative)
    return {
        "outcome_kind": outcome.kind,
        "outcome_score": outcome.score,
        "outcome_raw_score": outcome.raw_score,
        "outcome_code": outcome.code,
        "outcome_reason": outcome.reason,
        "outcome_params": params,
    }


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "kind": outcome.kind, "score": outcome.score, "raw_score": outcome.raw_score,
        "code": outcome.code, "reason": outcome.reason, "params": dict(outcome.params),
        "reference": outcome.reference, "word": outcome.word,
        "invalid_words": list(outcome.invalid_words),
    }  # fmt: skip


def _outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    return Outcome(
        data["kind"], data["score"], data["raw_score"], data["code"], data.get("reason", ""),
        data.get("params") or {}, reference=data.get("reference", ""),
        word=data.get("word", ""), invalid_words=tuple(data.get("invalid_words") or ()),
    )  # fmt: skip


def outcome(version: models.ProposalVersion) -> Outcome:
    params = dict(version.outcome_params or {})
    alternative = params.pop("alternative", None)
    review = str(params.pop("review", "")) if alternative else ""
    invalid = invalid_words_of(params)
    return Outcome(
        version.outcome_kind,
        version.outcome_score,
        version.outcome_raw_score,
        version.outcome_code,
        version.outcome_reason,
        params,
        reference=version.reference,
        word=version.word,
        invalid_words=invalid,
        review=review,
        alternative=_outcome_from_json(alternative) if alternative else None,
    )


def review_choice(
    version: models.ProposalVersion | None, decisions: Iterable[models.Decision]
) -> str | None:
    """The arbiter's last word on a slip left to his judgement: "default", "alternative",
    or None while it waits. A review decision binds the version it was taken on only: a
    corrected slip is judged, and reviewed, afresh."""
    if version is None:
        return None
    choice = None
    for d in decisions:
        if d.kind == "review" and d.params.get("version") == version.pk:
            choice = d.params.get("choice")
    return choice


def no_proposal() -> Outcome:
    return make_outcome("zero", "zero.no_proposal", 0, 0)


def decision(row: models.Decision) -> ArbiterDecision:
    """A ``Decision`` row as the engine's value (the rules applying it live in
    ``engine.duplicate.decisions``)."""
    return ArbiterDecision(
        kind=row.kind,
        reason=row.reason,
        disciplinary=row.disciplinary,
        score=row.score,
        params=row.params if row.kind == "moyenne" else {},
    )


def player_round(
    version: models.ProposalVersion | None, rows: Sequence[models.Decision]
) -> PlayerRound:
    """One player's round as the rows say: the proposal handed in (None: no slip), its
    judged outcome, the arbiter's review and decisions (``rows`` in the order taken). The
    standings and the game record both read rounds through here, so they count the same
    outcome (``PlayerRound.counted``)."""
    judged = outcome(version) if version is not None else no_proposal()
    handed = None
    if version is not None:
        handed = proposal(word=version.word, reference=version.reference,
                          claimed_score=version.claimed_score, source=version.source,
                          late=version.late)  # fmt: skip
    decisions = tuple(decision(d) for d in rows if d.kind != "review")
    return PlayerRound(handed, judged, review_choice(version, rows), decisions)


def game_scores(
    *,
    game: models.Game,
    rounds: Sequence[models.Round],
    registrations: Sequence[models.Registration],
    current: Mapping[tuple[int, int], models.ProposalVersion],
    warnings: Mapping[int, Sequence[int]],
    decisions: Mapping[tuple[int, int], Sequence[models.Decision]] | None = None,
) -> GameScores:
    """``GameScores`` of the counted ``rounds``: a registered player with no proposal scores
    "no proposal" (present, counted for solos); one who arrives in a later game is absent.
    ``current`` maps (round id, player id) to the current version; ``warnings`` lists the
    rounds of each player's disciplinary warnings; ``decisions`` (same keys) the arbiter's
    decisions, applied in order to the current outcome (:func:`player_round`)."""
    decisions = decisions or {}

    def judged(rnd: models.Round, player_id: int) -> Outcome:
        taken = decisions.get((rnd.pk, player_id), ())
        return player_round(current.get((rnd.pk, player_id)), taken).counted

    players: dict[int, tuple[Outcome | None, ...]] = {}
    arrivals: dict[int, int] = {}
    for reg in registrations:
        if reg.arrival_game > game.number:
            players[reg.player_id] = (None,) * len(rounds)
            continue
        if reg.arrival_game == game.number and reg.arrival_round > 1:
            arrivals[reg.player_id] = reg.arrival_round
        # A withdrawn player is absent from the withdrawal round on (0, no solo rival);
        # the rounds before keep what was judged (docs/rules-choices.md, « abandon »).
        players[reg.player_id] = tuple(
            None if reg.gone_by(game.number, r.number) else judged(r, reg.player_id) for r in rounds
        )
    tops = tuple(r.top_score or 0 for r in rounds)
    disciplinary = {p: tuple(rs) for p, rs in warnings.items() if p in players}
    return GameScores(tops, players, arrivals, disciplinary)


# --- The classic family (engine.classic.pairings and standings) ----------------------------


def classic_settings(event: Any) -> ClassicTournamentSettings:
    """A ``ClassicEvent`` row's standings settings as the engine's value."""
    try:
        return ClassicTournamentSettings(
            bye_halves=event.bye_halves,
            bye_spread=event.bye_spread,
            forfeit_spread=event.forfeit_spread,
            tie_breaks=tuple(t for t in event.tie_breaks.split(",") if t),
        )
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


def classic_result(table: Any, round_number: int, current: Any | None) -> ClassicResult:
    """A ``ClassicTable`` and its current ``ClassicResult`` (or None: not played yet) as the
    engine's result, the players named by their division entry ids."""
    first, second = table.first_id, table.second_id
    if current is None or second is None:
        return ClassicResult(round_number, first, second)
    if current.forfeit:
        absent = first if current.forfeit == "first" else second
        return ClassicResult(round_number, first, second, forfeit=absent)
    return ClassicResult(round_number, first, second, current.score_first, current.score_second)


def classic_pair(
    system: str,
    entries: Sequence[int],
    results: Sequence[ClassicResult],
    *,
    round_number: int,
    event: Any,
    manual: Sequence[tuple[int, int | None]] | None = None,
) -> tuple[ClassicTableValue, ...]:
    """The engine's tables for the next round; an engine refusal becomes a ServiceError."""
    try:
        return pair_round(
            system, entries, results, round_number=round_number,
            settings=classic_settings(event), fontes_rounds=event.fontes_rounds,
            seed=event.seed, manual=manual,
        )  # fmt: skip
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


def classic_standings(
    entries: Sequence[int], results: Sequence[ClassicResult], event: Any
) -> tuple[ClassicRow, ...]:
    try:
        return classic_rank(entries, results, classic_settings(event))
    except EngineError as error:
        raise ServiceError.from_engine(error) from error


# --- The card game (issue 18): a table's events replayed into an engine game ---------------


@dataclass
class CardsLive:
    """A card table's game, replayed: the engine game, who holds each seat, and the seats
    that already let the move waiting for a challenge stand (docs/cards.md, "On the site")."""

    game: CardGame
    levels: tuple[str, ...]  # per seat: "human", "strong" or "weak"
    answered: set[int] = field(default_factory=set)

    def is_human(self, seat: int) -> bool:
        return self.levels[seat] == models.CardSeatKind.HUMAN

    def waiting_for(self) -> list[int]:
        """The human seats (the mover aside) still to answer the move laid; engines never
        challenge, so a move with nobody to wait for stands at once."""
        pending = self.game.pending
        if pending is None:
            return []
        return [
            s
            for s in range(self.game.players)
            if s != pending.seat and self.is_human(s) and s not in self.answered
        ]


def card_apply(live: CardsLive, kind: str, seat: int, data: Mapping[str, Any]) -> CardTurn | None:
    """Apply one event to ``live``; the turn it closed, if any. The engine's refusals are
    raised unchanged (``EngineError``): the service turns them into ``ServiceError``."""
    game = live.game
    turn: CardTurn | None = None
    if kind == models.CardEventKind.PLAY:
        game.play(seat, CardPlay.from_json(data))
        live.answered.clear()
    elif kind == models.CardEventKind.ACCEPT:
        if game.pending is None:
            raise EngineError("challenge.nothing", "No move is waiting to be challenged.")
        if seat not in live.waiting_for():
            raise EngineError("challenge.seat", "Only another seat may answer this move.")
        live.answered.add(seat)
    elif kind == models.CardEventKind.CHALLENGE:
        if game.pending is not None and seat not in live.waiting_for():
            raise EngineError("challenge.seat", "Only another seat may challenge this move.")
        turn = game.challenge(seat)
        live.answered.clear()
    elif kind == models.CardEventKind.PASS:
        turn = game.pass_turn(seat)
    elif kind == models.CardEventKind.EXCHANGE:
        turn = game.exchange(seat, str(data.get("cards", "")))
    else:  # pragma: no cover - the column's check constraint lists the kinds
        raise ValueError(f"unknown card event {kind!r}")
    if game.pending is not None and not live.waiting_for():
        turn = game.accept()
        live.answered.clear()
    return turn


def cards_live(
    table: models.CardTable,
    seats: Sequence[models.CardSeat],
    events: Iterable[models.CardEvent],
    lexicon: EngineLexicon,
) -> CardsLive:
    """The game of ``table`` replayed from its seed and its stored events (a stored event
    the engine now refuses is a broken invariant: raised, not worded)."""
    levels = tuple(seat.kind for seat in sorted(seats, key=lambda s: s.number))
    game = CardGame(table.seats, table.seed, lexicon=lexicon)
    game.levels = list(levels)
    live = CardsLive(game, levels)
    for event in events:
        card_apply(live, event.kind, event.seat, event.data)
    return live


def card_record(live: CardsLive, lexicon_path: str = "") -> dict[str, Any]:
    """The ``tirage-cards`` v1 record of the table's game so far (finished or not)."""
    return cards_game_to_record(live.game, kinds=list(live.levels), lexicon_path=lexicon_path)


def card_turn_json(turn: CardTurn) -> dict[str, Any]:
    return cards_turn_to_json(turn)


# -- classic score sheets (engine.classic.sheet) ---------------------------------------------


def sheet_turn(row: models.ScoreSheetLine) -> SheetTurn:
    """A stored sheet line as the engine reads it (the move's score is recomputed)."""
    return SheetTurn(row.kind, coord=row.coord, word=row.word, score=row.score)


def sheet_end(row: models.ScoreSheetEnd | None) -> SheetEnd | None:
    if row is None:
        return None
    return SheetEnd(tuple(str(v) for v in row.left), row.went_out)


def sheet_state(
    sheet: models.ScoreSheet,
    lines: Sequence[models.ScoreSheetLine],
    end: models.ScoreSheetEnd | None,
) -> SheetState:
    """The sheet counted by the engine from its current line versions and end lines."""
    return classic_sheet_state(
        sheet.players, [sheet_turn(r) for r in lines], sheet_end(end), sheet.tie_break
    )
