"""Layout of the printed rankings and sheets, on hand-built data (no database): séries
1–7 and categories in the federation's order (rules §5 K6, K7), the same column widths in
every ranking table, header labels that fit their column, bulletins for every round."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table

from tournaments.reports import pdf
from tournaments.reports.data import (
    GameData,
    PlayerGameLine,
    PlayerInfo,
    PlayerMove,
    Ranking,
    RankingLine,
    TopLine,
    TournamentInfo,
    mark_ex_aequo,
)
from tournaments.reports.groups import SUPER_SERIES, group_order, series_group
from tournaments.reports.results import ranking_table, sub_ranking_table
from tournaments.reports.sheets import _record_story
from tournaments.selectors.rankings import sub_rankings

INFO = TournamentInfo("Festival de Quimper", "quimper", date(2026, 11, 30))


@pytest.mark.parametrize(
    ("series", "group"),
    [("1A", "1"), ("1B", "1"), ("2a", "2"), ("4D", "4"), ("7", "7"), ("Série 3", "3"),
     ("Super-série", SUPER_SERIES), ("super serie", SUPER_SERIES), ("", ""),
     ("N2", "N2"), ("8", "8")],
)  # fmt: skip
def test_series_group_by_number(series: str, group: str) -> None:
    # K6: Super-série, 1A, 1B, 2A… 6D, 7; another federation's series stays as written.
    assert series_group(series) == group


def test_categories_in_the_federations_order() -> None:
    # K7: youngest first, Vermeil (62+) then Diamant (72+), Émeraude the oldest; plural and
    # accents ignored; an unknown name after them, and séries before categories.
    labels = ["Émeraude", "Senior", "Diamants", "Vermeil", "Cadet", "Espoir", "Junior",
              "Benjamin", "Vétéran", "3", "1", SUPER_SERIES]  # fmt: skip
    assert sorted(labels, key=group_order) == [
        SUPER_SERIES, "1", "3", "Benjamin", "Cadet", "Junior", "Espoir", "Senior",
        "Vermeil", "Diamants", "Émeraude", "Vétéran",
    ]  # fmt: skip
    assert group_order("Emeraudes") == group_order("Émeraude")


def line(rank: int, name: str, total: int, series: str, category: str) -> RankingLine:
    player = PlayerInfo(rank, name, rank, club="Club de Quimper", series=series,
                        category=category)  # fmt: skip
    pct = (Decimal(total) * 100 / 1000).quantize(Decimal("0.01"))
    return RankingLine(rank, player, total, total - 1000, pct)


def ranking() -> Ranking:
    lines = [
        line(1, "Zoé", 990, "1B", "Émeraude"),
        line(2, "Yves", 950, "2A", "Senior"),
        line(3, "Xavier", 940, "1A", "Vermeil"),
        line(4, "Wanda", 900, "2B", "Diamant"),
        line(5, "Victor", 880, "1A", "Junior"),
    ]
    return Ranking("Partie 1", 1000, mark_ex_aequo(lines), (1,))


def test_sub_rankings_by_serie_number_with_the_sub_series_as_detail() -> None:
    groups = sub_rankings(ranking(), "series")
    assert [(g.label, [(r, x.player.name, x.player.series) for r, _tied, x in g.lines])
            for g in groups] == [
        ("1", [(1, "Zoé", "1B"), (2, "Xavier", "1A"), (3, "Victor", "1A")]),
        ("2", [(1, "Yves", "2A"), (2, "Wanda", "2B")]),
    ]  # fmt: skip
    categories = [g.label for g in sub_rankings(ranking(), "category")]
    assert categories == ["Junior", "Senior", "Vermeil", "Diamant", "Émeraude"]
    table = _table(sub_ranking_table(groups[0], "series")._content)
    assert [_text(c) for c in table._cellvalues[1]] == [
        "1", "Zoé", "Club de Quimper", "1B", "Émeraude", "990", "-10", "99,00", "1",
    ]  # fmt: skip


def _table(flowables: list) -> Table:
    return next(f for f in flowables if isinstance(f, Table))


def _text(cell: object) -> str:
    return cell.getPlainText() if isinstance(cell, Paragraph) else str(cell)


def test_every_ranking_table_has_the_same_columns() -> None:
    main = _table(ranking_table(ranking()))
    groups = sub_rankings(ranking(), "series")
    sub = _table(sub_ranking_table(groups[0], "series")._content)
    # The sub-rankings share the first eight columns and end at the same right edge.
    assert sub._colWidths[:8] == main._colWidths[:8]
    assert sum(sub._colWidths) == pytest.approx(sum(main._colWidths))
    usable = 210 * mm - 2 * pdf.MARGIN
    assert sum(main._colWidths) <= usable + 0.01


def header_overflows(table: Table) -> list[str]:
    """Header words wider than their column (less the cell padding of ``table_style``), and
    header cells that cannot wrap (a plain string runs over the next column)."""
    out = []
    for cell, width in zip(table._cellvalues[0], table._colWidths, strict=True):
        label = _text(cell)
        if not isinstance(cell, Paragraph):
            out.append(f"{label!r} cannot wrap")
        for word in label.split():
            if stringWidth(word, pdf.FONT_BOLD, pdf.HEAD_CELL.fontSize) > width - 6:
                out.append(f"{label!r} ({word!r}) in {width / mm:.0f} mm")
    return out


def record_game() -> GameData:
    rounds = tuple(
        TopLine(n, "ESIUHAN", "HAINES", "H4", 26, 26 * n) for n in range(1, 21)
    )  # a 20-round game
    moves = tuple(PlayerMove(n, "HAINES", "H4", 26) for n in range(1, 21))
    player = PlayerGameLine(PlayerInfo(1, "Anne", 1), moves, 520)
    return GameData(INFO, 1, rounds, (player,))


def test_header_labels_fit_their_columns() -> None:
    # "Cumul top" ran over "Cumul" on the feuille de route: every header word now fits
    # its column and a label wraps between words.
    record = _table(_record_story(record_game(), record_game().players[0]))
    groups = sub_rankings(ranking(), "category")
    tables = [record, _table(ranking_table(ranking())),
              _table(sub_ranking_table(groups[0], "category")._content)]  # fmt: skip
    assert [overflow for t in tables for overflow in header_overflows(t)] == []


def test_a_rank_shared_inside_a_group_says_ex() -> None:
    # Two players of série 2 on 950: both 1st of the série, "1 ex" (K2), overall 2 and 3.
    lines = [line(1, "Zoé", 990, "1B", ""), line(2, "Yves", 950, "2A", ""),
             line(2, "Wanda", 950, "2B", "")]  # fmt: skip
    ranking = Ranking("Partie 1", 1000, mark_ex_aequo(lines), (1,))
    group = sub_rankings(ranking, "series")[1]
    table = _table(sub_ranking_table(group, "series")._content)
    assert [[_text(c) for c in row][:2] for row in table._cellvalues[1:]] == [
        ["1 ex", "Yves"], ["1 ex", "Wanda"],
    ]  # fmt: skip
