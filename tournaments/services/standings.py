"""Stored figures (issue 16): the one place that writes ``GameFigure``, ``RoundFigure``,
``PlayerRoundFigure`` and ``PlayerGameFigure``, so the rankings read rows instead of
recomputing every game from its proposals on the first view after a change.

Every service that changes what a figure depends on calls :func:`standings_update` once,
inside its own transaction, naming what it changed:

* ``round_id`` and ``player_ids``: one player's round (a proposal, a correction, a
  decision, a slip conflict resolved). An open round counts nothing yet, so a submission
  costs two indexed look-ups; on a counted round the player's cell, the round's solo and
  the game lines of the player and of the solo's old and new winners are rewritten.
* ``round_id`` alone: a round-wide change (close, top computed or placed, cancel,
  re-judging). The round's cells, its solo and every player's game line are rewritten;
  when the round is not the game's last counted one (a cancelled round in the middle, a
  reopened one) the positions move and the whole game is rewritten.
* ``game_id`` (optionally ``player_ids``), ``tournament_id`` (optionally ``player_ids``):
  a game created, a registration or arrival, a settings change, a whole-game recompute.

The rules stay in the engine: the outcome that counts is ``adapter.player_round(...)
.counted`` as the recomputation has it, the solo ``totals.solo_winner``, a player's game
``totals.player_game``. ``manage.py tirage_standings_check`` recomputes everything the old
way (``selectors.outcomes.computed_game_outcomes``) and lists every difference.

The rows are derived data: the change that caused them writes the audit row; these
writes add none (``actor`` names who asked, for the worker variant and the logs).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.access import Actor
from tournaments.models import (
    Game,
    Round,
    RoundFigure,
    RoundState,
)
from tournaments.services.standings_pass import (
    FigurePass,
    counted_rounds,
    game_pass,
    game_settings,
)

__all__ = ["game_settings", "standings_update"]


def standings_update(
    *,
    actor: Actor,
    tournament_id: int | None = None,
    game_id: int | None = None,
    round_id: int | None = None,
    player_ids: Iterable[int] | None = None,
) -> None:
    """Rewrite the stored figures that the change just made can alter (see the module's
    docstring for what to name). Call it inside the change's transaction, after the
    change's rows are written; it is idempotent (calling it twice writes the same rows)."""
    del actor  # derived rows: the change that called us is audited
    players = None if player_ids is None else sorted(set(player_ids))
    if round_id is not None:
        _round_changed(round_id, players)
        return
    if game_id is not None:
        games = list(Game.objects.filter(pk=game_id).select_related("tournament"))
    elif tournament_id is not None:
        games = list(Game.objects.filter(tournament_id=tournament_id).select_related("tournament"))
    else:
        raise TypeError("standings_update names a tournament, a game or a round")
    for game in games:
        if players is None:
            game_pass(game)
        else:
            FigurePass(game).players_all_rounds(players)


def _counts(rnd: Round) -> bool:
    """The rankings count a round closed with its top known (``selectors.counted_rounds``)."""
    return rnd.state == RoundState.CLOSED and rnd.top_score is not None


def _round_changed(round_id: int, players: list[int] | None) -> None:
    stored = RoundFigure.objects.filter(pk=round_id).first()
    if stored is None:
        state = Round.objects.filter(pk=round_id).values_list("state", "top_score").first()
        if state is None or state[0] != RoundState.CLOSED or state[1] is None:
            return  # an open round counts nothing yet (the proposal path stops here)
    rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
    same_top = stored is not None and stored.top_score == rnd.top_score
    if players is not None and stored is not None and same_top and _counts(rnd):
        work = FigurePass(rnd.game)
        cells = work.cells([stored], players)
        winners = work.solo(stored, cells, complete=False)
        work.write_cells(cells, [stored], players)
        work.player_lines(set(players) | winners)
        return
    _round_pass(rnd)


def _round_pass(rnd: Round) -> None:
    """A round-wide change: this round's cells and solo, every player's line. Positions of
    the other counted rounds must not move, else the whole game is rewritten."""
    game = rnd.game
    now = [r.pk for r in counted_rounds(game)]
    before = list(
        RoundFigure.objects.filter(game=game).order_by("position").values_list("pk", flat=True)
    )
    others = [pk for pk in now if pk != rnd.pk]
    at_now = now.index(rnd.pk) if rnd.pk in now else None
    at_before = before.index(rnd.pk) if rnd.pk in before else None
    stays = at_now == at_before or {at_now, at_before} <= {None, len(others)}
    if others != [pk for pk in before if pk != rnd.pk] or not stays:
        game_pass(game)
        return
    work = FigurePass(game)
    if rnd.pk in now:
        figure, _ = RoundFigure.objects.update_or_create(
            round=rnd,
            defaults={"game": game, "position": now.index(rnd.pk) + 1, "top_score": rnd.top_score},
        )
        cells = work.cells([figure], None)
        work.solo(figure, cells, complete=True)
        work.write_cells(cells, [figure], None)
        if at_before is None and at_now == len(others) and work.append_lines(figure, cells):
            return  # a close: each line from the stored one and the new cell
    else:
        RoundFigure.objects.filter(pk=rnd.pk).delete()
    work.player_lines(None)
