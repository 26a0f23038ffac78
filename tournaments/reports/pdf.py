"""PDF plumbing shared by every printed document: fonts, styles, A4 pages with the
tournament in the header and "page 2/5" in the footer.

DejaVu Sans is registered when the system has it (Debian: fonts-dejavu-core): it covers
every French character, the narrow no-break space of French numbers and the typographic
quotes. Without it we fall back on reportlab's built-in Helvetica, whose WinAnsi encoding
still covers é è à ç œ « » but not U+202F, which is then printed as a plain no-break space.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate

from tournaments.reports.base import THIN_SPACE, french_date
from tournaments.reports.data import TournamentInfo
from tournaments.reports.safe import clean_text, pdf_paragraph, pdf_text

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
MARGIN = 14 * mm
JOKER_COLOUR = colors.HexColor("#C00000")
WARN_COLOUR = colors.HexColor("#C00000")
GRID = colors.HexColor("#808080")
HEAD_BG = colors.HexColor("#E8E8E8")


def _register_fonts() -> tuple[str, str, str]:
    """(regular, bold, italic) font names: DejaVu Sans when present, else Helvetica."""
    files = {
        "TirageSans": "DejaVuSans.ttf",
        "TirageSans-Bold": "DejaVuSans-Bold.ttf",
        "TirageSans-Oblique": "DejaVuSans-Oblique.ttf",
    }
    if all((DEJAVU_DIR / f).is_file() for f in files.values()):
        for name, file in files.items():
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(name, str(DEJAVU_DIR / file)))
        from reportlab.lib.fonts import addMapping

        addMapping("TirageSans", 0, 0, "TirageSans")
        addMapping("TirageSans", 1, 0, "TirageSans-Bold")
        addMapping("TirageSans", 0, 1, "TirageSans-Oblique")
        addMapping("TirageSans", 1, 1, "TirageSans-Bold")
        return "TirageSans", "TirageSans-Bold", "TirageSans-Oblique"
    return "Helvetica", "Helvetica-Bold", "Helvetica-Oblique"


FONT, FONT_BOLD, FONT_ITALIC = _register_fonts()
UNICODE_FONT = FONT != "Helvetica"


_FALLBACK_SPACE = "" if UNICODE_FONT else "\u00a0"


def text(value: str) -> str:
    """Plain text for the canvas (``drawString``, never parsed as markup): control
    characters replaced, the thin space degraded to a no-break space without DejaVu."""
    value = clean_text(value)
    return value if UNICODE_FONT else value.replace(THIN_SPACE, _FALLBACK_SPACE)


def markup(value: str) -> str:
    """User text to embed in paragraph markup: escaped by :func:`safe.pdf_text`."""
    return pdf_text(value, thin_space=THIN_SPACE, fallback_space=_FALLBACK_SPACE)


def style(size: float = 9, *, bold: bool = False, align: int = 0, **kw: Any) -> ParagraphStyle:
    return ParagraphStyle(
        "s",
        fontName=FONT_BOLD if bold else FONT,
        fontSize=size,
        leading=size * 1.2,
        alignment=align,
        **kw,
    )


TITLE = style(15, bold=True, spaceAfter=2 * mm)
SUBTITLE = style(11, bold=True, spaceBefore=4 * mm, spaceAfter=2 * mm)
H3 = style(9.5, bold=True, spaceBefore=2 * mm, spaceAfter=1 * mm)
BODY = style(9)
SMALL = style(7.5)
CELL = style(8.5)
CELL_C = style(8.5, align=TA_CENTER)
HEAD_CELL = style(8, bold=True, align=TA_CENTER, splitLongWords=0)


def header_row(labels: Sequence[str]) -> list[Paragraph]:
    """A table's header as paragraphs, so a label wider than its column wraps onto a
    second line instead of running over the next column ("Cumul top")."""
    return [para(str(label), HEAD_CELL) for label in labels]


def para(value: str, st: ParagraphStyle = BODY) -> Paragraph:
    """A paragraph of plain (user) text, escaped: the one way user text becomes a
    ``Paragraph`` (:func:`tournaments.reports.safe.pdf_paragraph`)."""
    return pdf_paragraph(value, st, fallback_space=_FALLBACK_SPACE)


def word_markup(word: str) -> str:
    """A word as paragraph markup: jokers (lowercase) in red and underlined, so they stay
    lowercase in the text and also stand out on paper."""
    out = []
    for ch in word:
        if ch.islower():
            out.append(f'<font color="{JOKER_COLOUR.hexval()}"><u>{markup(ch)}</u></font>')
        else:
            out.append(markup(ch))
    return "".join(out)


def table_style(header_rows: int = 1, extra: Sequence[tuple] = ()) -> list[tuple]:
    """The grid every table uses: thin grey rules, shaded header, small font."""
    return [
        ("FONT", (0, 0), (-1, -1), FONT, 8.5),
        ("FONT", (0, 0), (-1, header_rows - 1), FONT_BOLD, 8.5),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        *extra,
    ]


def build_pdf(
    story: list,
    *,
    info: TournamentInfo,
    title: str,
    wide: bool = False,
    margin: float = MARGIN,
) -> bytes:
    """Lay ``story`` out on A4 (landscape if ``wide``) with the running header and footer."""
    pagesize = landscape(A4) if wide else A4
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin + 8 * mm,
        bottomMargin=margin + 6 * mm,
        title=f"{info.name} — {title}",
        author="Tirage",
        creator="Tirage",
        invariant=True,
    )
    header_left = text(info.name)
    header_right = text(title)
    footer_left = text(french_date(info.date) if info.date else "")
    page_label = _("page %(n)s/%(total)s")

    class NumberedCanvas(rl_canvas.Canvas):
        """Draws the header and "page n/N" once the page count is known."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict] = []

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                self._decorate(total)
                super().showPage()
            super().save()

        def _decorate(self, total: int) -> None:
            width, height = pagesize
            self.saveState()
            self.setFont(FONT_BOLD, 9)
            self.drawString(margin, height - margin, header_left)
            self.setFont(FONT, 9)
            self.drawRightString(width - margin, height - margin, header_right)
            self.setStrokeColor(GRID)
            self.setLineWidth(0.5)
            self.line(margin, height - margin - 2 * mm, width - margin, height - margin - 2 * mm)
            self.setFont(FONT, 8)
            self.drawString(margin, margin, footer_left)
            self.drawCentredString(width / 2, margin, "Tirage")
            self.drawRightString(
                width - margin, margin, text(page_label % {"n": self._pageNumber, "total": total})
            )
            self.restoreState()

    doc.build(story, canvasmaker=NumberedCanvas)
    return buffer.getvalue()
