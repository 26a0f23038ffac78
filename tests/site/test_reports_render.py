"""Renderers on hand-built data (no database): ex aequo, sub-rankings, French numbers,
Latin-1 fallbacks, QR links."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from pypdf import PdfReader

from tournaments.reports import base
from tournaments.reports.data import (
    PlayerInfo,
    Ranking,
    RankingLine,
    ResultsData,
    TableLine,
    TournamentInfo,
    mark_ex_aequo,
)
from tournaments.reports.results import results_pdf
from tournaments.reports.slips import tablet_links_pdf
from tournaments.reports.tables import ranking_csv, sigles_csv
from tournaments.selectors import sub_rankings

INFO = TournamentInfo("Festival de Cœur-sur-Loire", "coeur", date(2026, 11, 30))


def pdf_text(content: bytes) -> str:
    pages = PdfReader(io.BytesIO(content)).pages
    return "\n".join(p.extract_text() for p in pages).replace("\u202f", " ")


def line(rank, name, total, top=1000, series="", category="") -> RankingLine:
    player = PlayerInfo(hash(name) % 1000, name, 1, series=series, category=category)
    pct = (Decimal(total) * 100 / top).quantize(Decimal("0.01"))
    return RankingLine(rank, player, total, total - top, pct)


def ranking() -> Ranking:
    # Totals 1000 (the top), 975 twice (ex aequo 2nd), 950: ranks 1, 2, 2, 4;
    # 975 against a top of 1000 is négatif -25 and 97,50 %.
    lines = [
        line(1, "Zoé Étienne", 1000, series="1A", category="Junior"),
        line(2, "Hervé Lœuf", 975, series="2B", category="Vermeil"),
        line(2, "Agnès Ñúñez", 975, series="1A", category="Vermeil"),
        line(4, "Paul", 950, series="2B"),
    ]
    return Ranking("Partie 1", 1000, mark_ex_aequo(lines), (1,))


def test_french_formatting() -> None:
    assert base.number(12345) == "12\u202f345" and base.number(-25) == "-25"
    assert base.percent(Decimal("98.75")) == "98,75" and base.percent(Decimal("7")) == "7,00"
    assert base.negatif(-25) == "-25" and base.negatif(0) == "0" and base.negatif(10) == "+10"
    assert base.french_date(date(2026, 11, 30)) == "30/11/2026"
    assert base.slug("Cœur d'Été") == "coeur-d-ete"


def test_ex_aequo_and_sub_rankings() -> None:
    r = ranking()
    assert [(x.rank, x.ex_aequo) for x in r.lines] == [(1, False), (2, True), (2, True),
                                                       (4, False)]  # fmt: skip
    series = {g.label: [(rank, ln.player.name) for rank, _tied, ln in g.lines]
              for g in sub_rankings(r, "series")}  # fmt: skip
    assert series == {"1": [(1, "Zoé Étienne"), (2, "Agnès Ñúñez")],
                      "2": [(1, "Hervé Lœuf"), (2, "Paul")]}  # fmt: skip
    vermeil = next(g for g in sub_rankings(r, "category") if g.label == "Vermeil")
    assert [(rank, tied) for rank, tied, _ in vermeil.lines] == [(1, True), (1, True)]


def test_results_pdf_shows_ex_aequo_and_accents() -> None:
    content = results_pdf(ResultsData(INFO, (ranking(),))).content
    text = pdf_text(content)
    lines = text.splitlines()
    assert "Festival de Cœur-sur-Loire" in text and "30/11/2026" in text
    i = lines.index("Hervé Lœuf")
    assert lines[i - 1] == "2 ex" and lines[i + 3 : i + 6] == ["975", "-25", "97,50"]
    assert lines[lines.index("Agnès Ñúñez") - 1] == "2 ex"
    assert lines[lines.index("Paul") - 1] == "4"
    # Grouped by série 1–7 (1A with 1B…), the sub-series printed as a detail (rules K6).
    assert "Série 1" in lines and "Série 2" in lines and "Catégorie Vermeil" in lines
    assert "Série 1A" not in text and "Série 2B" not in text


def test_csv_marks_ex_aequo() -> None:
    text = ranking_csv(ResultsData(INFO, (ranking(),))).content.decode("utf-8-sig")
    rows = [r.split(";") for r in text.splitlines()]
    assert [r[:2] for r in rows[1:]] == [["1", ""], ["2", "ex"], ["2", "ex"], ["4", ""]]


def test_sigles_replaces_what_latin1_lacks() -> None:
    tables = (TableLine(1, PlayerInfo(1, "Hervé Lœuf", 1), 975), TableLine(2, None))
    content = sigles_csv("coeur", tables).content
    assert content.decode("latin-1").splitlines() == [
        '"1","Hervé Loeuf",975',
        '"2","--table vide--",-1',
    ]


def test_tablet_links_only_for_players_with_a_token() -> None:
    players = [PlayerInfo(1, "Anne", 1, access_token="tok-anne"), PlayerInfo(2, "Bruno", 2)]
    text = pdf_text(tablet_links_pdf(INFO, players, "https://tirage.example/").content)
    assert "https://tirage.example/tablette/tok-anne/" in text
    assert "Sans lien de tablette : Bruno (table 2)." in text


def test_players_without_a_group_are_ranked_under_non_classes_last() -> None:
    # Paul has no category: the printed sheets rank him in a last group "Non classés"
    # (the console does the same: test_console_more), they never drop him.
    groups = sub_rankings(ranking(), "category")
    assert [g.label for g in groups] == ["Junior", "Vermeil", "Non classés"]
    assert [g.unclassed for g in groups] == [False, False, True]
    assert [(rank, ln.player.name) for rank, _tied, ln in groups[-1].lines] == [(1, "Paul")]
    text = pdf_text(results_pdf(ResultsData(INFO, (ranking(),))).content)
    section = text.split("Classements par catégorie", 1)[1]
    assert "Non classés" in section and "Paul" in section.split("Non classés", 1)[1]


def test_no_sub_ranking_when_nobody_has_a_series() -> None:
    lines = [line(1, "Zoé", 1000), line(2, "Paul", 950)]
    plain = Ranking("Partie 1", 1000, mark_ex_aequo(lines), (1,))
    assert sub_rankings(plain, "series") == ()
    assert "Classements par série" not in pdf_text(results_pdf(ResultsData(INFO, (plain,))).content)


def test_names_print_plain_when_they_fit_and_wrap_when_they_do_not() -> None:
    """A name that fits its 40 mm column on one line is printed as plain text (no
    paragraph to parse and wrap); a longer one, or one with runs of spaces, stays a
    paragraph: the long name wraps onto three lines, the spaces collapse as before."""
    from reportlab.platypus import Paragraph

    from tournaments.reports.results import _NAME_ROOM, _cell

    assert _cell("Hervé Lœuf", _NAME_ROOM) == "Hervé Lœuf"
    long_name = "Marie-Françoise Delacroix-Montmorency de Saint-Exupéry"
    assert isinstance(_cell(long_name, _NAME_ROOM), Paragraph)
    assert isinstance(_cell("Paul  Dupont", _NAME_ROOM), Paragraph)
    lines = [line(1, long_name, 1000), line(2, "Paul  Dupont", 975), line(3, "<b>Zoé", 950)]
    results = ResultsData(INFO, (Ranking("Partie 1", 1000, tuple(lines), (1,)),))
    text = pdf_text(results_pdf(results).content)
    rows = text.splitlines()
    i = rows.index("Marie-Françoise")  # wrapped in its column, on three lines
    assert rows[i : i + 3] == ["Marie-Françoise", "Delacroix-Montmorency", "de Saint-Exupéry"]
    assert "Paul Dupont" in rows and "<b>Zoé" in rows  # printed as written, never obeyed


def test_write_row_types_text_and_formats_columns() -> None:
    """Text cells are strings (a formula-looking name gets its apostrophe and stays text),
    numbers stay numbers, ``formats`` gives the listed columns their number format."""
    from openpyxl import Workbook

    from tournaments.reports.safe import write_row

    ws = Workbook().active
    write_row(ws, ["Nom", "Score"])
    write_row(ws, ["=1+1", 25, -3], {3: "+0;-0;0"})
    write_row(ws, [])
    write_row(ws, ["Total", 40])
    assert [[c.value for c in row] for row in ws.iter_rows()] == [
        ["Nom", "Score", None], ["'=1+1", 25, -3], [None, None, None], ["Total", 40, None]
    ]  # fmt: skip
    assert [ws["A2"].data_type, ws["B2"].data_type] == ["s", "n"]
    assert ws["C2"].number_format == "+0;-0;0" and ws["B2"].number_format == "General"
