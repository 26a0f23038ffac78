"""The paged rankings against the whole ones (issue 16, item 2): every table a ranking
page can show (``ranking_pages.RankingReader``: ranks from the stored totals, lines read
a slice at a time) compared line by line with the rankings every printed sheet and export
builds (``rankings.results_data`` and ``rankings.sub_rankings``, the engine's standings of
the games' figures). ``manage.py tirage_standings_check`` and the tests' check after every
scenario game run it, so the two paths cannot drift apart unseen."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments.models import Tournament
from tournaments.selectors.ranking_pages import OVERALL, SUB_KEYS, RankingReader, RankingTable
from tournaments.selectors.rankings import results_data, sub_rankings
from tournaments.selectors.values import RankingLine


def _line(line: RankingLine) -> tuple:
    """What a ranking line shows (the player's names aside)."""
    return (line.player.player_id, line.rank, line.ex_aequo, line.total, line.negatif,
            line.percent, line.solos, line.warnings, line.penalties, line.game_totals)  # fmt: skip


def ranking_differences(tournament: Tournament) -> list[str]:
    """French sentences, one per table whose paged lines differ from the whole ranking's
    (none: every table agrees)."""
    reader = RankingReader(tournament)
    results = results_data(tournament)
    expected: dict[RankingTable, list[tuple]] = {}
    expected[OVERALL] = [_line(line) for line in results.main.lines]
    for game, ranking in zip(reader.games, results.games, strict=True):
        expected[RankingTable("game", str(game.number))] = [_line(x) for x in ranking.lines]
    for attribute in SUB_KEYS:
        for group in sub_rankings(results.main, attribute):
            key = "" if group.unclassed else group.label
            expected[RankingTable(attribute, key)] = [
                (rank, tied, *_line(line)) for rank, tied, line in group.lines
            ]
    out = []
    tables = reader.tables()
    tables += [t for t in expected if t.kind == "game" and t not in tables]  # a lone game
    for table in expected.keys() - set(tables):
        out.append(gettext("Tournoi « %(t)s » : tableau %(table)s absent des pages.")
                   % {"t": tournament.slug, "table": table.code})  # fmt: skip
    for table in tables:
        page = reader.page(table)
        if table.kind in SUB_KEYS:
            got = [(r, t, *_line(line)) for (r, t), line in zip(page.group_ranks, page.lines,
                                                                 strict=True)]  # fmt: skip
        else:
            got = [_line(line) for line in page.lines]
        if got != expected.get(table):
            out.append(gettext("Tournoi « %(t)s », tableau %(table)s : lignes paginées "
                               "différentes du classement complet.")
                       % {"t": tournament.slug, "table": table.code})  # fmt: skip
    return out
