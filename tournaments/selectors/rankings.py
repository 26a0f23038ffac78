"""Rankings with names: one game's, the tournament's, a player's own results, and the
series and category **sub-rankings**, one rule for every audience (console, API, printed
sheets, exports): a player with no series (or category) is ranked in a last group labelled
:data:`~tournaments.selectors.values.UNCLASSED` ("Non classés"), never dropped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from django.utils.translation import gettext

from engine.duplicate.totals import GameResult, Standing
from engine.duplicate.totals import game_standings as engine_game_standings
from tournaments.errors import ServiceError
from tournaments.models import Game, Tournament
from tournaments.parsing import ascii_int
from tournaments.reports.groups import group_order, series_group
from tournaments.selectors.outcomes import (
    game_outcomes,
    tournament_results,
    tournament_standings,
)
from tournaments.selectors.players import players_of
from tournaments.selectors.tournament import tournament_info
from tournaments.selectors.values import (
    UNCLASSED,
    PlayerInfo,
    Ranking,
    RankingLine,
    ResultsData,
    SubRanking,
    mark_ex_aequo,
)

OVERALL_TITLE = "Classement général"

#: Lines of a console ranking page: a 5,000-player event shows one table at a time, a
#: hundred lines of it (docs/capacity.md); an event of at most this many players shows
#: every table whole on one page.
PAGE_LINES = 100
#: The most lines an API ranking answers at once when asked for a slice (``limit``).
MAX_LIMIT = 5000
#: Without ``limit``, the API answers every line of a ranking of at most ``API_LINES``
#: lines, as it always did, and the first ``API_PAGE`` lines of a longer one (a
#: 5,000-player event is read in slices; ``count`` says how many lines there are).
API_LINES = 500
API_PAGE = 100


def page_of(value: Any, *, field: str, low: int, high: int, default: int) -> int:
    """A page number, offset or limit from a query string: ``default`` when absent, else
    ASCII digits within ``[low, high]``, refused (``query.number``, a 400) otherwise."""
    if value is None or value == "":
        return default
    number = ascii_int(value, low=low, high=high)
    if number is None:
        raise ServiceError(
            "query.number",
            f"{field}: expected a whole number from {low} to {high}.",
            field=field, low=low, high=high,
        )  # fmt: skip
    return number


def ranking_lines(
    standings: Sequence[Standing],
    infos: dict[int, PlayerInfo],
    per_game: Sequence[GameResult] = (),
) -> tuple[RankingLine, ...]:
    """Standings with the players' names, ex aequo marked; ``per_game`` adds each game's
    total to every line (a tournament ranking)."""
    out = []
    totals = [{p.player_id: p.total for p in res.players} for res in per_game]
    for s in standings:
        info = infos.get(s.player_id) or PlayerInfo(s.player_id, f"#{s.player_id}", 0)
        games = [game.get(s.player_id, 0) for game in totals]
        out.append(
            RankingLine(
                rank=s.rank,
                player=info,
                total=s.total,
                negatif=s.negatif,
                percent=s.percent,
                solos=s.solos,
                warnings=s.warnings,
                penalties=s.penalties,
                game_totals=tuple(games),
            )
        )
    return mark_ex_aequo(out)


def _game_ranking(game: Game, result: GameResult, infos: dict[int, PlayerInfo]) -> Ranking:
    lines = ranking_lines(engine_game_standings(result), infos)
    title = gettext("Partie %(n)s") % {"n": game.number}
    return Ranking(title, result.top_total, lines, (game.number,), rounds=len(result.tops))


def game_ranking(game: Game) -> Ranking:
    """One game's ranking, players named."""
    return _game_ranking(game, game_outcomes(game), players_of(game.tournament_id))


def results_data(tournament: Tournament, game: Game | None = None) -> ResultsData:
    """One game's ranking (``game``), or every game's then the tournament's."""
    infos = players_of(tournament)
    pairs = [(game, game_outcomes(game))] if game is not None else tournament_results(tournament)
    rankings = tuple(_game_ranking(g, res, infos) for g, res in pairs)
    overall = None
    if game is None:
        results = [res for _g, res in pairs]
        overall = Ranking(
            gettext(OVERALL_TITLE),
            sum(r.top_total for r in results),
            ranking_lines(tournament_standings(tournament, results), infos, results),
            tuple(g.number for g, _res in pairs),
            rounds=sum(len(r.tops) for r in results),
        )
    return ResultsData(tournament_info(tournament), rankings, overall)


def tournament_ranking(tournament: Tournament) -> Ranking:
    """The ranking over every game of the tournament, players named."""
    overall = results_data(tournament).overall
    assert overall is not None  # asked for the whole tournament
    return overall


def _group_order(label: str) -> tuple[int, int, str]:
    """Séries 1–7 then categories in the federation's order (``reports.groups``)."""
    return group_order(label)


def sub_rankings(
    ranking: Ranking, attribute: Literal["series", "category", "centre"]
) -> tuple[SubRanking, ...]:
    """Rankings inside each série 1–7 (sub-series 1A, 1B… together) or category, in the
    order of the overall ranking: equal totals share the rank within the group. Or the
    centres of a simultaneous event (``"centre"``, by name). Groups come
    in the federation's order (``reports.groups``: super-série, séries 1–7, categories),
    then the players with none, under "Non classés". When nobody has one
    (a club game without series), there is no sub-ranking at all."""
    groups: dict[str, list[RankingLine]] = {}
    for line in ranking.lines:
        groups.setdefault(group_label(getattr(line.player, attribute), attribute), []).append(line)
    if set(groups) <= {""}:
        return ()
    out = []
    for label in groups_in_order(groups, attribute):
        ranks = group_ranks([line.total for line in groups[label]])
        pairs = zip(ranks, groups[label], strict=True)
        lines = tuple((rank, tied, line) for (rank, tied), line in pairs)
        out.append(SubRanking(label or UNCLASSED, lines, unclassed=not label))
    return tuple(out)


def group_label(value: str | None, attribute: str) -> str:
    """The sub-ranking group of a player's ``attribute`` value ("" when none): a series
    counts in its série (1A in série 1, rules K6), any other key as written."""
    label = (value or "").strip()
    return series_group(label) if attribute == "series" and label else label


def groups_in_order(labels: Iterable[str], attribute: str = "") -> list[str]:
    """Group labels in the federation's order (centres by name), the players with none
    ("") last."""
    if attribute == "centre":
        return sorted(labels, key=lambda g: (g == "", g.casefold(), g))
    return sorted(labels, key=lambda g: (g == "", _group_order(g)))


def group_ranks(totals: Sequence[int]) -> list[tuple[int, bool]]:
    """(rank within the group, shared?) of a group's lines given in the overall order:
    equal totals share the rank (the overall tie-break is already in that order)."""
    ranks: list[int] = []
    for i, total in enumerate(totals):
        ranks.append(ranks[-1] if i and totals[i - 1] == total else i + 1)
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return [(rank, counts[rank] > 1) for rank in ranks]
