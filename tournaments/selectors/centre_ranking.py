"""One centre's ranking in a simultaneous event (issue 16): what a centre's documents print
(``reports.centres``). The event has one ranking; a centre's sheet keeps its own players
from it, each with their rank in the whole event and their rank in the centre.

The filter is by the centre's registrations, never by a name the renderer compares: the
data a centre's document is made from holds no other centre's player."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Centre, Game, Registration, Tournament
from tournaments.selectors.rankings import group_ranks, results_data
from tournaments.selectors.values import RankingLine, TournamentInfo


@dataclass(frozen=True, slots=True)
class CentreRanking:
    """A centre's players in the event's order: ``(rank in the centre, shared?, the event's
    line)``; ``title`` is the event's ranking's (« Classement général », « Partie 2 »),
    ``entrants`` how many players the whole event ranks, ``game`` the game's number (None:
    the whole tournament)."""

    tournament: TournamentInfo
    centre: str
    club: str
    address: str
    title: str
    top_total: int
    entrants: int
    lines: tuple[tuple[int, bool, RankingLine], ...]
    game: int | None = None


def centre_ranking(
    tournament: Tournament, centre: Centre, game: Game | None = None
) -> CentreRanking:
    """Centre ``centre``'s ranking over the tournament (or its ``game``): the event's ranking
    (ranks over every centre) kept to the centre's registered players; equal totals share
    the centre's rank, in the event's tie-break order."""
    results = results_data(tournament, game)
    main = results.main
    mine = set(Registration.objects.filter(tournament=tournament, centre=centre)
               .values_list("player_id", flat=True))  # fmt: skip
    lines = [line for line in main.lines if line.player.player_id in mine]
    ranks = group_ranks([line.total for line in lines])
    return CentreRanking(
        tournament=results.tournament,
        centre=centre.name,
        club=centre.club,
        address=centre.address,
        title=main.title,
        top_total=main.top_total,
        entrants=len(main.lines),
        lines=tuple((rank, tied, line) for (rank, tied), line in zip(ranks, lines, strict=True)),
        game=game.number if game is not None else None,
    )
