"""The game sheet (feuille de partie, rules §7 P5): every round's rack, top, reference,
score, scrabble mark and cumulative top, then the final board."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from engine.tiles import DOUBLE_LETTER, DOUBLE_WORD, ROWS, SIZE, TRIPLE_LETTER, TRIPLE_WORD
from tournaments.reports.base import PDF, Rendered, number, slug
from tournaments.reports.data import GameData
from tournaments.reports.pdf import (
    BODY,
    CELL,
    FONT,
    FONT_BOLD,
    GRID,
    JOKER_COLOUR,
    SMALL,
    SUBTITLE,
    TITLE,
    build_pdf,
    markup,
    para,
    table_style,
    word_markup,
)

#: Premium colours of the printed board.
TW_COLOUR = colors.HexColor("#D93A3A")  # mot compte triple: red
DW_COLOUR = colors.HexColor("#F4AFC0")  # mot compte double: pink
TL_COLOUR = colors.HexColor("#2E5AAC")  # lettre compte triple: dark blue
DL_COLOUR = colors.HexColor("#A9D3F2")  # lettre compte double: light blue
PLAIN_COLOUR = colors.HexColor("#E9F0E4")
TILE_COLOUR = colors.HexColor("#F6E7C1")
JOKER_TILE = colors.white


def square_colour(row: int, col: int) -> colors.Color:
    """The premium colour of a square (rules §9 A3, ``engine.tiles``)."""
    if (row, col) in TRIPLE_WORD:
        return TW_COLOUR
    if (row, col) in DOUBLE_WORD:
        return DW_COLOUR
    if (row, col) in TRIPLE_LETTER:
        return TL_COLOUR
    if (row, col) in DOUBLE_LETTER:
        return DL_COLOUR
    return PLAIN_COLOUR


class BoardFlowable(Flowable):
    """A 15×15 board: coloured premium squares, tiles inset so the premium still shows,
    jokers as red lowercase letters on white tiles; rows A–O and columns 1–15 labelled."""

    def __init__(self, cells: str, cell: float = 6.2 * mm) -> None:
        super().__init__()
        self.cells = cells
        self.cell = cell
        self.label = 4 * mm
        self.width = self.height = self.label + SIZE * cell

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c, s, lab = self.canv, self.cell, self.label
        top = self.height - lab
        c.setFont(FONT, 6.5)
        c.setFillColor(colors.black)
        for col in range(SIZE):
            c.drawCentredString(lab + col * s + s / 2, top + 1.2 * mm, str(col + 1))
        for row in range(SIZE):
            c.drawCentredString(lab / 2, top - row * s - s / 2 - 2, ROWS[row])
        for row in range(SIZE):
            for col in range(SIZE):
                x, y = lab + col * s, top - (row + 1) * s
                c.setFillColor(square_colour(row, col))
                c.setStrokeColor(colors.white)
                c.setLineWidth(0.6)
                c.rect(x, y, s, s, stroke=1, fill=1)
                ch = self.cells[row * SIZE + col]
                if ch == ".":
                    continue
                joker = ch.islower()
                inset = 0.55 * mm
                c.setFillColor(JOKER_TILE if joker else TILE_COLOUR)
                c.setStrokeColor(JOKER_COLOUR if joker else colors.HexColor("#8C6D3A"))
                c.setLineWidth(0.5)
                c.rect(x + inset, y + inset, s - 2 * inset, s - 2 * inset, stroke=1, fill=1)
                c.setFillColor(JOKER_COLOUR if joker else colors.black)
                c.setFont(FONT_BOLD, s * 0.55)
                # A joker is printed as its capital (a lowercase l reads as I) in red on a
                # white, red-edged tile: colour and tile tell it apart, not the case.
                c.drawCentredString(x + s / 2, y + s * 0.3, ch.upper())
        c.setStrokeColor(GRID)
        c.setLineWidth(0.8)
        c.rect(lab, top - SIZE * s, SIZE * s, SIZE * s, stroke=1, fill=0)


def _legend() -> Table:
    items = [
        (TW_COLOUR, _("mot compte triple")),
        (DW_COLOUR, _("mot compte double")),
        (TL_COLOUR, _("lettre compte triple")),
        (DL_COLOUR, _("lettre compte double")),
    ]
    row, styles = [], []
    for i, (colour, label) in enumerate(items):
        row += ["", para(label, SMALL)]
        styles.append(("BACKGROUND", (2 * i, 0), (2 * i, 0), colour))
    joker = markup(_("joker (en rouge sur la grille)"))
    row += [Paragraph(f"{word_markup('e')} = {joker}", SMALL)]
    widths = [4 * mm, 27 * mm] * len(items) + [40 * mm]
    return Table([row], colWidths=widths, style=styles)


def _rack(rack: str, rejected: tuple[str, ...]) -> Paragraph:
    body = markup(rack)
    if rejected:
        label = markup(_("rejet : %(racks)s") % {"racks": ", ".join(rejected)})
        body += f'<br/><font size="6.5">{label}</font>'
    return Paragraph(body, CELL)


def game_sheet_pdf(game: GameData) -> Rendered:
    """Render the game sheet of ``game`` (A4 portrait, one or two pages)."""
    title = _("Feuille de partie — partie %(n)s") % {"n": game.number}
    story: list = [para(title, TITLE)]
    facts = [
        _("%(n)s coups") % {"n": len(game.rounds)},
        _("total des tops : %(total)s") % {"total": number(game.top_total)},
    ]
    if game.tournament.lexicon:
        facts.append(_("lexique : %(lexicon)s") % {"lexicon": game.tournament.lexicon})
    if not game.finished:
        facts.append(_("partie en cours"))
    story.append(para(" · ".join(facts), BODY))
    story.append(Spacer(1, 3 * mm))
    header = [_("N°"), _("Tirage"), _("Top"), _("Réf."), _("Points"), "", _("Cumul")]
    rows: list[list] = [header]
    for r in game.rounds:
        rows.append(
            [
                str(r.number),
                _rack(r.rack, r.rejected),
                Paragraph(word_markup(r.word), CELL),
                r.reference,
                number(r.score),
                "*" if r.scrabble else "",
                number(r.cumulative),
            ]
        )
    rows.append(["", "", para(_("Total"), CELL), "", number(game.top_total), "", ""])
    widths = [10 * mm, 38 * mm, 50 * mm, 14 * mm, 16 * mm, 6 * mm, 18 * mm]
    extra = [
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (3, 0), (3, -1), "CENTER"),
        ("ALIGN", (4, 0), (6, -1), "RIGHT"),
        ("ALIGN", (5, 0), (5, -1), "CENTER"),
        ("FONT", (4, -1), (4, -1), FONT_BOLD, 8.5),
        ("LINEABOVE", (0, -1), (-1, -1), 1, colors.black),
    ]
    story.append(Table(rows, colWidths=widths, repeatRows=1, style=table_style(1, extra)))
    story.append(para(_("* scrabble (toutes les lettres du tirage posées)"), SMALL))
    board = [para(_("Grille finale"), SUBTITLE), BoardFlowable(game.board), Spacer(1, 2 * mm)]
    board.append(_legend())
    story.append(KeepTogether(board))
    content = build_pdf(story, info=game.tournament, title=title)
    name = f"{slug(game.tournament.slug)}-partie-{game.number}-feuille.pdf"
    return Rendered(name, PDF, content)
