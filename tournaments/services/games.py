"""Lexicons, games, drawing racks and placing tops: the services that move a game forward.

A game is replayed from its rows (``adapter.engine_game``) under the game's row lock, so
the engine alone decides racks, rejections and which tied top may be placed; these
functions only store its verdicts and write the audit log.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.duplicate import EndOfGame
from engine.errors import EngineError
from engine.lexicon.automaton import Lexicon as EngineLexicon
from tournaments import adapter
from tournaments.access import Actor, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import (
    Game,
    GameKind,
    GameState,
    Lexicon,
    Round,
    RoundState,
    SealedGame,
    Tournament,
)
from tournaments.parsing import MAX_ROUND
from tournaments.queueing import queue_after_commit
from tournaments.services.audit import audit_record
from tournaments.services.rounds import (
    computed_top,
    ensure_top,
    lexicon_of,
    locked_round,
    rounds_until,
)
from tournaments.services.sealing import is_sealed, sealed_store
from tournaments.services.standings import standings_update


def lexicon_register(*, path: str | Path, official: bool = False, actor: Actor) -> Lexicon:
    """Record a lexicon file by the identity it carries; the same words register once."""
    try:
        identity = EngineLexicon.load(path).identity
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    with transaction.atomic():
        row, created = Lexicon.objects.get_or_create(
            sha256=identity.sha256,
            defaults=dict(
                name=identity.name,
                source=identity.source,
                version=identity.version,
                word_count=identity.word_count,
                path=str(path),
                official=official,
            ),
        )
        if created:
            audit_record(actor=actor, action="lexicon.register", obj=row, sha256=row.sha256)
    return row


def game_create(
    *,
    tournament_id: int,
    kind: str = GameKind.SEEDED,
    seed: int | None = None,
    predrawn: str = "",
    variant_code: str | None = None,
    sealed: bool = False,
    rounds: int | None = None,
    actor: Actor,
) -> Game:
    """A new game numbered after the tournament's last one; a seeded game without a seed
    gets a random one (stored, so the game replays). A ``sealed`` pre-drawn game keeps its
    racks encrypted (``services.sealing``), released round by round (``services.release``).
    ``rounds``: the number of rounds announced (:func:`game_rounds_set`), else to the end
    of the bag."""
    if rounds is not None and not 1 <= rounds <= MAX_ROUND:
        raise ServiceError("game.rounds", f"A game has 1 to {MAX_ROUND} rounds.", high=MAX_ROUND)
    if kind not in GameKind.values:
        raise ServiceError(
            "game.kind", f"'{kind}' is not a game kind: seeded, manual, predrawn.", kind=kind
        )
    if kind == GameKind.PREDRAWN and not predrawn.strip():
        raise ServiceError("game.predrawn", "A pre-drawn game needs its racks, one line a round.")
    if sealed and kind != GameKind.PREDRAWN:
        raise ServiceError("seal.kind", "Only a pre-drawn game can be sealed.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
        require_arbiter(actor=actor, tournament_id=tournament.pk, head=True)
        if tournament.simultaneous and kind != GameKind.PREDRAWN:
            raise simultaneous_kind(kind)
        # A simultaneous event's pre-drawn racks are known to nobody before each release,
        # the centres' arbiters included (issue 16, docs/simultaneous.md): always sealed.
        sealed = sealed or (tournament.simultaneous and kind == GameKind.PREDRAWN)
        # Refuses an unknown code with the engine's sentence; an old code becomes today's.
        code = adapter.variant(variant_code or tournament.variant_code).code
        last = tournament.games.order_by("-number").values_list("number", flat=True).first()
        game = Game.objects.create(
            tournament=tournament,
            number=(last or 0) + 1,
            kind=kind,
            seed=(secrets.randbits(62) if seed is None else seed)
            if kind == GameKind.SEEDED
            else None,
            predrawn="" if sealed else predrawn,
            variant_code=code,
            rounds_announced=rounds,
        )
        if sealed:
            sealed_store(game=game, text=predrawn, actor=actor)
        standings_update(actor=actor, game_id=game.pk)  # every registration's empty line
        announced = {"rounds": rounds} if rounds is not None else {}
        audit_record(actor=actor, action="game.create", obj=game, kind=kind, seed=game.seed,
                     **announced)  # fmt: skip
        return game


def simultaneous_kind(kind: str) -> ServiceError:
    """``game.simultaneous_seeded`` or ``game.simultaneous_manual`` (409): every centre of
    a simultaneous event plays the same pre-drawn racks, sealed until each round's release
    (docs/simultaneous.md). A seeded game draws its racks live from a seed the organiser
    can read, so they are neither fixed ahead for every centre nor secret; a hand-typed
    (« manuelle ») game takes the letters one room's bag gives, which the other centres
    do not have. Refused when such a game is created in a simultaneous tournament, and
    when a tournament with one becomes simultaneous (``tournament_update``)."""
    if kind == GameKind.MANUAL:
        return ServiceError(
            "game.simultaneous_manual",
            "A simultaneous event plays pre-drawn, sealed games only, never a hand-typed one.",
        )
    return ServiceError(
        "game.simultaneous_seeded",
        "A simultaneous event plays pre-drawn, sealed games only, never a seeded one.",
    )


def _finish(game: Game, end: EndOfGame, actor: Actor) -> None:
    game.state = GameState.FINISHED
    game.end = {"code": end.code, "remaining": end.remaining, "message": end.sentence()}
    game.save(update_fields=["state", "end", "pending_draws"])
    audit_record(actor=actor, action="game.end", obj=game, **game.end)


def _game_over(game: Game) -> ServiceError:
    message = (game.end or {}).get("message") or "The game is over."
    return ServiceError("game.over", message)


def round_draw(*, game_id: int, letters: str | None = None, actor: Actor) -> Round:
    """Draw the next round's rack: by the game's source, or ``letters`` typed by the arbiter
    (manual games). A typed rack the rules refuse is recorded as a rejection and refused
    with the rule's sentence. Queues ``compute_top`` once the round is committed. A sealed
    game's rounds are drawn only by their release (``release.hand_draw``)."""
    return draw_next(game_id=game_id, letters=letters, actor=actor, release=False)


def draw_next(*, game_id: int, letters: str | None, actor: Actor, release: bool) -> Round:
    """:func:`round_draw`'s work; ``release`` is True only for ``services.release``, which
    has decrypted the line the draw reads."""
    refusal: ServiceError | None = None
    with transaction.atomic():
        games = Game.objects.select_for_update(of=("self",)).select_related("tournament__lexicon")
        game = games.filter(pk=game_id).first()
        if game is None:
            raise ServiceError("game.unknown", f"There is no game {game_id}.")
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if is_sealed(game) and not release:
            raise ServiceError(
                "release.hand_draw", "A sealed game's rounds are drawn by their release."
            )
        if game.state == GameState.FINISHED:
            raise _game_over(game)
        rounds = rounds_until(game, 10**6)
        if rounds and rounds[-1].state != RoundState.CANCELLED and rounds[-1].top_placed_at is None:
            last = rounds[-1].number
            raise ServiceError(
                "draw.pending", f"The top of round {last} has not been placed yet.", round=last
            )
        eg = adapter.engine_game(game, rounds, lexicon_of(game))
        try:
            if letters is None:
                pending = eg.draw()
            else:
                outcome = eg.offer_rack(letters)
                pending, error = outcome.round, outcome.error
                if error is not None:  # a rejected rack
                    game.pending_draws = [*game.pending_draws, adapter.draw_json(outcome.draw)]
                    game.save(update_fields=["pending_draws"])
                    audit_record(
                        actor=actor, action="round.rack_rejected", obj=game, **error.details
                    )
                    refusal = ServiceError.from_engine(error)
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        if eg.end is not None:
            _finish(game, eg.end, actor)
            refusal = refusal or _game_over(game)
        if refusal is None:
            rnd = _store_round(game, eg, pending, actor)
    if refusal is not None:  # raised after commit: the rejection stays recorded
        raise refusal
    return rnd


def _store_round(game: Game, eg: Any, pending: Any, actor: Actor) -> Round:
    rnd = Round.objects.create(
        game=game,
        number=pending.number,
        rack=pending.rack,
        reliquat=pending.reliquat,
        new_letters=pending.new,
        minimum=pending.minimum,
        rejections=[adapter.draw_json(d) for d in pending.rejections],
        board_before=adapter.board_text(eg.board),
    )
    game.pending_draws = []
    game.save(update_fields=["pending_draws"])
    audit_record(actor=actor, action="round.draw", obj=rnd, rack=rnd.rack, game=game.pk)
    queue_after_commit("tournaments.compute_top", rnd.pk)
    return rnd


def round_place_top(
    *, round_id: int, coord: str | None = None, word: str | None = None, actor: Actor
) -> Round:
    """Place the closed round's top: the default one, or the arbiter's tied ``coord word``
    if the rules allow it (T2, T6). Placing the same top again is a no-op."""
    with transaction.atomic():
        game_id = Round.objects.values_list("game_id", flat=True).filter(pk=round_id).first()
        if game_id is None:
            raise ServiceError("round.unknown", f"There is no round {round_id}.")
        game = Game.objects.select_for_update().get(pk=game_id)  # lock order: game, round
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        rnd = ensure_top(locked_round(round_id))
        if rnd.state == RoundState.CANCELLED:  # no top computed nor placed: nothing to place
            raise ServiceError(
                "round.cancelled", f"Round {rnd.number} was cancelled.", round=rnd.number
            )
        top = computed_top(rnd)
        chosen = top["chosen"]
        if rnd.top_placed_at is not None:
            if coord is None or (coord, word) == (chosen["coord"], chosen["word"]):
                return rnd
            raise ServiceError(
                "round.top_placed", f"The top of round {rnd.number} is placed.", round=rnd.number
            )
        if rnd.state != RoundState.CLOSED:
            raise ServiceError(
                "round.not_closed",
                f"Round {rnd.number} is {rnd.state}: close it first.",
                round=rnd.number,
                state=rnd.state,
            )
        eg = adapter.engine_game(rnd.game, rounds_until(game, rnd.number), lexicon_of(rnd.game))
        try:
            wanted = None
            if coord is not None:
                wanted = adapter.move({"coord": coord, "word": word or "", "score": 0, "placed": 0})
            placed = eg.place(wanted)
        except EngineError as error:
            raise ServiceError.from_engine(error) from error
        rnd.top = {**top, "chosen": adapter.move_json(placed.top_choice.chosen)}
        rnd.chosen_by, rnd.top_placed_at = placed.top_choice.chosen_by, timezone.now()
        rnd.next_reliquat = placed.next_reliquat
        rnd.save(update_fields=["top", "chosen_by", "top_placed_at", "next_reliquat"])
        audit_record(actor=actor, action="round.place_top", obj=rnd, top=rnd.top["chosen"])
        announced = announced_rounds(game)
        if eg.end is None and announced is not None and rnd.number >= announced:
            eg.end_as_announced()  # the game's last announced round: a normal end
        if eg.end is not None:
            _finish(game, eg.end, actor)
        elif is_sealed(game):  # the next round, if already released, can be drawn now
            queue_after_commit("tournaments.release_sweep_game", game.pk)
        return rnd


def announced_rounds(game: Game) -> int | None:
    """How many rounds the game is played in: the announced number (``rounds_announced``), and
    for a pre-drawn game at most its lines (once they are all played there is nothing left
    to draw); None: to the end of the bag (§1.4). The game ends normally once that round's
    top is placed (docs/rules-choices.md, "A game shorter than the bag")."""
    counts = [game.rounds_announced] if game.rounds_announced is not None else []
    if game.kind == GameKind.PREDRAWN:
        sealed = SealedGame.objects.filter(game=game).values_list("lines", flat=True).first()
        lines = sealed if sealed is not None else adapter.predrawn_lines(game.predrawn)
        if lines:
            counts.append(lines)
    return min(counts, default=None)


def game_rounds_set(*, game_id: int, rounds: int | None, actor: Actor) -> Game:
    """Announce the game's number of rounds (« partie en N coups »; head arbiter), or
    ``None``: played to the end of the bag. The game ends normally once round N's top is
    placed, at once when it already is (a short game needs no E5 stop). Refused below a
    round already drawn (``game.rounds_drawn``) and once the game is over (``game.over``)."""
    if rounds is not None and not 1 <= rounds <= MAX_ROUND:
        raise ServiceError("game.rounds", f"A game has 1 to {MAX_ROUND} rounds.", high=MAX_ROUND)
    with transaction.atomic():
        games = Game.objects.select_for_update(of=("self",)).select_related("tournament__lexicon")
        game = games.filter(pk=game_id).first()
        if game is None:
            raise ServiceError("game.unknown", f"There is no game {game_id}.")
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if game.state == GameState.FINISHED:
            raise _game_over(game)
        if game.rounds_announced == rounds:
            return game
        rows = rounds_until(game, 10**6)
        last = next((r for r in reversed(rows) if r.state != RoundState.CANCELLED), None)
        if rounds is not None and last is not None and rounds < last.number:
            raise ServiceError(
                "game.rounds_drawn", f"Round {last.number} is already drawn.", round=last.number
            )
        before, game.rounds_announced = game.rounds_announced, rounds
        game.save(update_fields=["rounds_announced"])
        audit_record(actor=actor, action="game.rounds", obj=game, rounds=rounds, before=before)
        if last is not None and last.number == rounds and last.top_placed_at is not None:
            game.pending_draws = []  # racks typed for a round that will not be played
            eg = adapter.engine_game(game, rows, lexicon_of(game))
            _finish(game, eg.end_as_announced(), actor)
        return game
