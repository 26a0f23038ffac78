"""Every text colour of the site against its background: WCAG 2.1 AA, a contrast ratio of
at least 4.5:1 (success criterion 1.4.3), computed from the colours in the stylesheets and
the printed documents, so a new colour that reads badly fails here.

The ratio is WCAG's: (L1 + 0.05) / (L2 + 0.05) with L the relative luminance of the sRGB
colour (each channel c/255 linearised as c/12.92 below 0.04045, else ((c+0.055)/1.055)^2.4;
L = 0.2126 R + 0.7152 G + 0.0722 B). Known values check the formula first: black on white
is 21, #777 on white 4.48 (the classic just-failing grey).

Pairs come from two places: every rule that sets both ``color`` and a solid
``background``; and the text that sits on a background set by another rule (a legend chip
whose text colour is inherited from ``.legend``, the page background), listed below with
the rule each colour is read from.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments.reports import game_sheet, pdf

STATIC = Path(__file__).resolve().parents[2] / "tournaments" / "static" / "tournaments"
AA = 4.5


def luminance(hex_colour: str) -> float:
    value = hex_colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = []
    for i in (0, 2, 4):
        c = int(value[i : i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rules(name: str) -> dict[str, dict[str, str]]:
    """Selector → property → value for one stylesheet, ``var(--x)`` resolved from
    ``:root``; a rule with several selectors is filed under each."""
    css = re.sub(r"/\*.*?\*/", "", (STATIC / name).read_text(), flags=re.S)
    out: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        props = {}
        for decl in body.split(";"):
            if ":" in decl:
                key, value = decl.split(":", 1)
                props[key.strip()] = value.strip()
        for sel in selectors.split(","):
            out.setdefault(" ".join(sel.split()), {}).update(props)
    variables = out.get(":root", {})

    def resolve(value: str) -> str:
        return re.sub(r"var\((--[\w-]+)\)", lambda m: variables.get(m.group(1), m.group(0)), value)

    return {sel: {k: resolve(v) for k, v in props.items()} for sel, props in out.items()}


HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


def colour(value: str | None) -> str | None:
    """The solid colour of a ``color`` / ``background`` value, None when it has none."""
    if not value or "transparent" in value or "rgba" in value:
        return None
    match = HEX.search(value)
    return match.group(0) if match else ("#ffffff" if value.strip() == "#fff" else None)


#: Rules whose text colour is for a letter that never shows on their own background: a
#: projector square without a tile is empty (its letter colour is for the tile classes).
NO_TEXT = {("projector.css", ".pboard .sq")}


def own_pairs() -> list[tuple[str, str, str, str]]:
    """(sheet, selector, text, background) of every rule that sets both."""
    pairs = []
    for name in ("site.css", "console.css", "tablet.css", "projector.css"):
        for sel, props in rules(name).items():
            fg = colour(props.get("color"))
            bg = colour(props.get("background") or props.get("background-color"))
            if fg and bg and (name, sel) not in NO_TEXT:
                pairs.append((name, sel, fg, bg))
    return pairs


#: Text on a background another rule sets: (sheet, text rule, background rule).
INHERITED = [
    # The game screen's legend: chips coloured like the board, text from ``.legend``.
    ("console.css", ".legend", ".legend .md"),
    ("console.css", ".legend", ".legend .ld"),
    ("console.css", ".legend", ".legend .last"),
    ("console.css", ".legend .joker", None),
    ("console.css", ".help, .legend", None),
    ("console.css", "table.board th", None),
    ("console.css", ".rack .mark", None),
    ("console.css", ".late-attempt", None),
    ("console.css", ".computing", None),
    ("console.css", "#countdown.late", None),
    ("console.css", "tr.cancelled", None),
    ("console.css", ".board td.joker", ".board td.tile"),
    ("console.css", "body", ".error"),
    ("console.css", "body", ".messages li"),
    ("console.css", "body", ".slip-log li.valid"),
    ("console.css", "body", ".slip-log li.zero"),
    ("console.css", "body", ".slip-log li.warning"),
    ("console.css", "body", ".slip-log li.penalty"),
    ("console.css", "body", ".board .md"),
    ("console.css", "body", ".board .ld"),
    ("console.css", "body", "table.board td"),
    ("site.css", ".tagline", None),
    ("site.css", "footer", None),
    ("site.css", ".brand", None),
    # Tablet: page background is --bg; letters on the board squares in --tile-ink.
    ("tablet.css", ".muted", "body.tablet"),
    ("tablet.css", ".countdown.soon", "body.tablet"),
    ("tablet.css", ".countdown.over", "body.tablet"),
    ("tablet.css", ".connection.ok", "body.tablet"),
    ("tablet.css", ".hint", "body.tablet"),
    ("tablet.css", ".error", "body.tablet"),
    ("tablet.css", ".outcome.zero", "body.tablet"),
    ("tablet.css", ".bar .muted", ".bar"),
    ("tablet.css", ".sq", ".sq.tile"),
    ("tablet.css", ".sq", ".sq.new"),
    ("tablet.css", ".sq", ".sq.top"),
    ("tablet.css", ".sq.joker", ".sq.tile"),
    ("tablet.css", ".rtile.joker", ".rtile"),
    # Projector: light text on the dark room background, dark letters on the tiles.
    ("projector.css", ".pboard .label", "body.projector"),
    ("projector.css", ".ptop h2", "body.projector"),
    ("projector.css", ".topline .pts", "body.projector"),
    ("projector.css", ".pbest li.istop", "body.projector"),
    ("projector.css", ".pcountdown.soon", "body.projector"),
    ("projector.css", ".fs", "body.projector"),
    ("projector.css", ".pboard .sq", ".pboard .sq.tile"),
    ("projector.css", ".pboard .sq", ".pboard .sq.last"),
    ("projector.css", ".pboard .sq.joker", ".pboard .sq.tile"),
]

PAGE_BACKGROUND = "#ffffff"


def inherited_pairs() -> list[tuple[str, str, str, str]]:
    pairs = []
    for name, text_rule, background_rule in INHERITED:
        sheet = rules(name)
        base = rules("site.css")
        text_sel = text_rule.split(",")[0].strip()
        fg = colour((sheet.get(text_sel) or base.get(text_sel) or {}).get("color"))
        assert fg, f"{name}: {text_rule} has no text colour"
        if background_rule is None:
            bg = PAGE_BACKGROUND
        else:
            props = sheet.get(background_rule) or base.get(background_rule) or {}
            bg = colour(props.get("background") or props.get("background-color"))
            assert bg, f"{name}: {background_rule} has no background"
        pairs.append((name, f"{text_rule} on {background_rule or 'page'}", fg, bg))
    return pairs


def test_the_formula_gives_the_known_ratios() -> None:
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert ratio("#595959", "#ffffff") == pytest.approx(7.0, abs=0.01)


def test_every_page_text_reads_at_aa() -> None:
    pairs = own_pairs() + inherited_pairs()
    assert len(pairs) > 60
    low = [(n, s, fg, bg, round(ratio(fg, bg), 2)) for n, s, fg, bg in pairs
           if ratio(fg, bg) < AA]  # fmt: skip
    assert not low, low


def test_printed_colours_read_at_aa() -> None:
    """Red warnings and jokers on white paper, black letters on the printed tiles, the
    header text on its grey band."""
    hexval = lambda c: "#" + c.hexval()[2:]  # noqa: E731 (reportlab's 0xRRGGBB)
    white, black = "#ffffff", "#000000"
    pairs = [
        (hexval(pdf.WARN_COLOUR), white),
        (hexval(pdf.JOKER_COLOUR), white),
        (black, hexval(pdf.HEAD_BG)),
        (black, hexval(game_sheet.TILE_COLOUR)),
        (hexval(game_sheet.JOKER_COLOUR), hexval(game_sheet.JOKER_TILE)),
    ]
    assert all(ratio(fg, bg) >= AA for fg, bg in pairs), [
        (fg, bg, round(ratio(fg, bg), 2)) for fg, bg in pairs
    ]
