"""The two escaping helpers every document writer goes through (docs/security.md).

Text typed by users (player names, clubs, words, reasons, anything imported) is hostile
until escaped, and each output format has its own way to be fooled:

* a spreadsheet reads a cell beginning with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage
  return a spreadsheet strips before parsing) as a formula — ``=HYPERLINK(...)`` becomes a
  live link, ``+cmd|' /C calc'!A0`` a DDE call (CSV injection); openpyxl itself stores any
  string starting with ``=`` as a formula and refuses the control characters XML 1.0 cannot
  hold (``IllegalCharacterError``, a 500);
* reportlab's ``Paragraph`` parses its text as markup: ``<b>Unclosed`` stops the whole
  document and ``<img src=...>`` is read as an image.

:func:`safe_cell` is the only way a value reaches a CSV or XLSX cell and
:func:`pdf_text` / :func:`pdf_paragraph` the only way user text reaches a ``Paragraph``.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from openpyxl.cell.cell import Cell
from reportlab.platypus import Paragraph

#: What a spreadsheet may take for the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Control characters: illegal in XLSX (XML 1.0) except tab, newline and carriage return;
#: DEL and the C1 block are legal XML but print as nothing useful.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: What stands in for a removed control character, so a reader sees something was there.
REPLACEMENT = "\ufffd"


def clean_text(value: Any) -> str:
    """``value`` as text with every control character (but tab and line breaks) replaced."""
    return _CONTROL.sub(REPLACEMENT, str(value))


def safe_cell(value: Any) -> Any:
    """A value ready for a CSV or XLSX cell: numbers, dates and ``None`` unchanged; text
    cleaned of control characters and, when it could start a formula, prefixed with an
    apostrophe (the spreadsheets' own "this is text" mark, shown by none of them in XLSX
    where the cell is also typed as a string by :func:`write_row`)."""
    if value is None or isinstance(value, bool | int | float | Decimal | date | datetime):
        return value
    text = clean_text(value)
    if text.startswith(FORMULA_START):
        return "'" + text
    return text


def line_text(value: Any) -> str:
    """:func:`safe_cell` for a one-line format (the SIGLES file): line breaks and tabs
    become spaces before the formula check."""
    flat = " ".join(clean_text(value).split())
    return str(safe_cell(flat))


def write_row(ws: Any, values: list[Any], formats: dict[int, str] | None = None) -> None:
    """Append ``values`` to an openpyxl worksheet through :func:`safe_cell`, text cells
    typed as strings (``data_type="s"``) so that no text is ever stored as a formula;
    ``formats`` gives some columns (1-based) a number format.

    The cells are made here and appended whole: reading the row back (``ws[ws.max_row]``)
    scanned every cell of the sheet for each row, quadratic (a 5,000-line ranking sheet
    took most of a workbook's time)."""
    cells = []
    for column, value in enumerate(values, start=1):
        cell = Cell(ws, value=safe_cell(value))
        if isinstance(cell.value, str):
            cell.data_type = "s"
        if formats and column in formats:
            cell.number_format = formats[column]
        cells.append(cell)
    ws.append(cells)


def pdf_text(value: Any, *, thin_space: str = "\u202f", fallback_space: str = "") -> str:
    """User text as reportlab paragraph markup that says exactly the text: control
    characters replaced, ``& < >`` escaped (so ``<b>`` or ``<img>`` are printed, never
    obeyed). ``fallback_space`` replaces the thin space for fonts without it."""
    text = clean_text(value).replace("\t", " ")
    if fallback_space:
        text = text.replace(thin_space, fallback_space)
    return escape(text)


def pdf_paragraph(value: Any, style: Any, *, fallback_space: str = "") -> Paragraph:
    """A ``Paragraph`` of user text (escaped by :func:`pdf_text`)."""
    return Paragraph(pdf_text(value, fallback_space=fallback_space), style)
