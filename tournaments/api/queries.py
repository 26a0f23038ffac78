"""Reads the API needs besides ``tournaments.selectors``: rows by id with a 404 that has a
code, the current round of a player's game, standings with names. Nothing here writes."""

from __future__ import annotations

from typing import Any

from engine.duplicate.totals import game_standings
from tournaments import selectors
from tournaments.errors import ServiceError
from tournaments.models import Game, ProposalVersion, Registration, Round, Tournament

MAX_ID = 2**63 - 1  # a larger id would overflow PostgreSQL's bigint: nothing has it


def tournament_by_slug(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament '{slug}'.")
    return tournament


def game_by_id(game_id: int) -> Game:
    game = None
    if 0 < game_id <= MAX_ID:
        game = Game.objects.select_related("tournament").filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game.unknown", f"There is no game {game_id}.")
    return game


def round_by_id(round_id: int) -> Round:
    rnd = None
    if 0 < round_id <= MAX_ID:
        rnd = Round.objects.select_related("game__tournament").filter(pk=round_id).first()
    if rnd is None:
        raise ServiceError("round.unknown", f"There is no round {round_id}.")
    return rnd


def proposal_by_id(proposal_id: int) -> ProposalVersion:
    version = None
    if 0 < proposal_id <= MAX_ID:
        version = (
            ProposalVersion.objects.select_related("round__game__tournament", "player")
            .filter(pk=proposal_id)
            .first()
        )
    if version is None:
        raise ServiceError("proposal.unknown", f"There is no proposal {proposal_id}.")
    return version


def registration_at_table(tournament_id: int, table_number: int) -> Registration:
    reg = Registration.objects.filter(tournament_id=tournament_id, table_number=table_number)
    reg = reg.select_related("player").first()
    if reg is None:
        raise ServiceError("table.unknown", f"Nobody is registered at table {table_number}.")
    return reg


def registration_by_id(registration_id: int) -> Registration:
    reg = None
    if 0 < registration_id <= MAX_ID:
        reg = Registration.objects.select_related("player").filter(pk=registration_id).first()
    if reg is None:
        raise ServiceError("registration.unknown", f"There is no registration {registration_id}.")
    return reg


def registrations(tournament_id: int) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament_id=tournament_id)
        .select_related("player")
        .order_by("table_number")
    )


def game_rounds(game: Game) -> list[Round]:
    return list(game.rounds.exclude(state="cancelled").order_by("number"))


def current_game(tournament_id: int) -> Game | None:
    """The game being played: the last one still playing, else the last one."""
    games = Game.objects.filter(tournament_id=tournament_id).order_by("-number")
    return games.filter(state="playing").first() or games.first()


def current_round(game: Game | None) -> Round | None:
    if game is None:
        return None
    return game.rounds.exclude(state="cancelled").order_by("-number").first()


def current_proposal(round_id: int, player_id: int) -> ProposalVersion | None:
    return ProposalVersion.objects.filter(
        round_id=round_id, player_id=player_id, is_current=True
    ).first()


def round_proposals(rnd: Round, *, all_versions: bool = False) -> list[ProposalVersion]:
    versions = ProposalVersion.objects.filter(round=rnd).select_related("player")
    if not all_versions:
        versions = versions.filter(is_current=True)
    return list(versions.order_by("player__registrations__table_number", "version").distinct())


def rankings_public(tournament: Tournament) -> bool:
    """Whether anyone (anonymous, a player token) may read the tournament's rankings: its
    ``public_rankings`` setting. Its arbiters always may."""
    return bool(tournament.public_rankings)


def _lines(standings: Any, tournament_id: int) -> list[dict[str, Any]]:
    regs = {r.player_id: r for r in registrations(tournament_id)}
    lines = []
    for s in standings:
        reg = regs.get(s.player_id)
        lines.append(
            {
                "rank": s.rank,
                "player_id": s.player_id,
                "name": reg.player.name if reg else str(s.player_id),
                "table_number": reg.table_number if reg else None,
                "total": s.total,
                "negatif": s.negatif,
                "negatif_text": s.negatif_text,
                "percent": s.percent,
                "solos": s.solos,
                "warnings": s.warnings,
                "penalties": s.penalties,
            }
        )
    return lines


def game_ranking(game: Game) -> dict[str, Any]:
    result = selectors.game_outcomes(game)
    return {
        "tournament": game.tournament.slug,
        "game": game.number,
        "top_total": result.top_total,
        "standings": _lines(game_standings(result), game.tournament_id),
    }


def tournament_ranking(tournament: Tournament) -> dict[str, Any]:
    results = [selectors.game_outcomes(g) for g in tournament.games.order_by("number")]
    return {
        "tournament": tournament.slug,
        "game": None,
        "top_total": sum(r.top_total for r in results),
        "standings": _lines(selectors.tournament_standings(tournament, results), tournament.pk),
    }


def player_results(reg: Registration) -> list[dict[str, Any]]:
    """Per game: the closed rounds with the top and the player's current proposal, and the
    player's line of the game's standings."""
    out = []
    for game in reg.tournament.games.order_by("number"):
        result = selectors.game_outcomes(game)
        mine = next((s for s in game_standings(result) if s.player_id == reg.player_id), None)
        pg = result.player(reg.player_id)
        rounds = selectors.game_counted_rounds(game)
        versions = {
            v.round_id: v
            for v in ProposalVersion.objects.filter(
                round__in=rounds, player_id=reg.player_id, is_current=True
            ).select_related("player")
        }
        out.append(
            {
                "game": game.number,
                "top_total": result.top_total,
                "standing": _lines([mine], reg.tournament_id)[0] if mine else None,
                "rounds": [
                    {
                        "number": r.number,
                        "rack": r.rack,
                        "top": (r.top or {}).get("chosen") if r.top_placed_at else None,
                        "top_score": r.top_score,
                        "proposal": versions.get(r.pk),
                        "score": pg.rounds[i] if pg and i < len(pg.rounds) else 0,
                    }
                    for i, r in enumerate(rounds)
                ],
            }
        )
    return out
