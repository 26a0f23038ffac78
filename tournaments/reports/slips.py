"""Slips: blank bulletins for paper play (§7 P1), correction slips (billets de correction,
§7 P2) and the players' tablet links as QR codes."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from tournaments.reports.base import PDF, Rendered, number, outcome_label, slug
from tournaments.reports.data import GameData, PlayerInfo, TournamentInfo
from tournaments.reports.pdf import (
    BODY,
    CELL,
    FONT,
    FONT_BOLD,
    SMALL,
    TITLE,
    build_pdf,
    markup,
    para,
    table_style,
    text,
    word_markup,
)
from tournaments.wording import decision_label

SLIPS_PER_PAGE = 10
#: Bulletins printed per table: a game has about 18 to 25 rounds (rules, glossary).
BULLETIN_ROUNDS = 25
GREY = colors.HexColor("#D0D0D0")


class BulletinFlowable(Flowable):
    """One paper bulletin (P1): squared area for the word and connecting letters, right
    column with table (top), reference (middle) and score (bottom), a grey strip for the
    arbiter at the bottom."""

    W, H = 88 * mm, 48 * mm

    def __init__(
        self,
        *,
        game_number: int | None,
        table: int | None,
        tournament: str,
        round_number: int | None = None,
    ) -> None:
        super().__init__()
        self.game_number, self.table, self.tournament = game_number, table, tournament
        self.round_number = round_number
        self.width, self.height = self.W, self.H

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.W, self.H

    def draw(self) -> None:
        c = self.canv
        w, h = self.W, self.H
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        c.rect(0, 0, w, h)
        # Head line.
        c.setFont(FONT_BOLD, 7)
        partie = _("Partie %(n)s") % {"n": self.game_number or "____"}
        coup = _("Coup %(n)s") % {"n": self.round_number or "____"}
        c.drawString(2 * mm, h - 4 * mm, text(f"{partie}    {coup}"))
        c.setFont(FONT, 6)
        c.drawRightString(w - 25 * mm, h - 4 * mm, text(self.tournament)[:40])
        # Grey arbiter strip.
        strip = 7 * mm
        c.setFillColor(GREY)
        c.rect(0, 0, w, strip, stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont(FONT, 5.5)
        c.drawString(1.5 * mm, strip - 2.5 * mm, text(_("Réservé à l'arbitre")))
        # Squared area.
        cols, rows, sq = 15, 7, 4.1 * mm
        x0, y0 = 2 * mm, strip + 2 * mm
        c.setStrokeColor(colors.HexColor("#7A9CC6"))
        c.setLineWidth(0.3)
        for i in range(cols + 1):
            c.line(x0 + i * sq, y0, x0 + i * sq, y0 + rows * sq)
        for j in range(rows + 1):
            c.line(x0, y0 + j * sq, x0 + cols * sq, y0 + j * sq)
        # Right column: table, reference, score.
        bx, bw = w - 22 * mm, 20 * mm
        boxes = [(_("Table"), str(self.table) if self.table else ""), (_("Référence"), ""),
                 (_("Score"), "")]  # fmt: skip
        bh = (h - strip - 8 * mm) / 3
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.6)
        for k, (label, value) in enumerate(boxes):
            by = h - 6 * mm - (k + 1) * bh
            c.rect(bx, by, bw, bh - 1 * mm)
            c.setFont(FONT, 5.5)
            c.drawString(bx + 1 * mm, by + bh - 3.5 * mm, text(label))
            if value:
                c.setFont(FONT_BOLD, 12)
                c.drawCentredString(bx + bw / 2, by + 2.5 * mm, value)


def bulletins_pdf(
    info: TournamentInfo,
    *,
    tables: Sequence[int] = (),
    game_number: int | None = None,
    rounds: int = BULLETIN_ROUNDS,
) -> Rendered:
    """Blank bulletins numbered by round, ``Coup 1`` to ``Coup {rounds}``, for each table
    in ``tables`` (its number printed in the table box): a game of about 18 to 25 rounds
    (rules, glossary) needs that many per table. Each table's bulletins start on a new
    page of 10, so a table's pack is handed out whole; without ``tables``, one unnumbered
    pack."""
    rounds = max(rounds, 1)
    per_page = SLIPS_PER_PAGE
    pages = -(-rounds // per_page)
    slots: list[tuple[int | None, int] | None] = []
    for table in tables or [None]:
        pack: list[tuple[int | None, int] | None] = [(table, n) for n in range(1, rounds + 1)]
        slots += pack + [None] * (pages * per_page - rounds)
    rows = []
    for i in range(0, len(slots), 2):
        rows.append(
            [
                BulletinFlowable(
                    game_number=game_number,
                    table=slot[0],
                    round_number=slot[1],
                    tournament=info.name,
                )  # fmt: skip
                if slot
                else ""
                for slot in slots[i : i + 2]
            ]
        )
    table = Table(rows, colWidths=[92 * mm, 92 * mm], rowHeights=[50.5 * mm] * len(rows))
    title = (
        _("Bulletins de jeu — partie %(n)s") % {"n": game_number}
        if game_number
        else _("Bulletins de jeu")
    )
    content = build_pdf([table], info=info, title=title, margin=10 * mm)
    suffix = f"-partie-{game_number}" if game_number else ""
    return Rendered(f"{slug(info.slug)}{suffix}-bulletins.pdf", PDF, content)


def _slip(game: GameData, player: PlayerInfo, rows: list[list]) -> KeepTogether:
    what = _("partie %(n)s — table %(table)s — %(name)s") % {
        "n": game.number,
        "table": player.table,
        "name": player.name,
    }
    label = _("Billet de correction")
    head = f"<b>{markup(label)}</b> — {markup(what)}"
    table = Table(
        [[_("Coup"), _("Proposition"), _("Points"), _("Décision")], *rows],
        colWidths=[12 * mm, 45 * mm, 15 * mm, 108 * mm],
        style=table_style(
            1, [("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (2, 0), (2, -1), "RIGHT")]
        ),  # fmt: skip
    )
    box = Table(
        [[Paragraph(head, BODY)], [table]],
        colWidths=[184 * mm],
        style=[
            ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
            ("LINEBELOW", (0, -1), (-1, -1), 0.6, colors.black, None, (3, 3)),
        ],  # fmt: skip
    )
    return KeepTogether([box, Spacer(1, 5 * mm)])


def corrections_pdf(game: GameData, *, include_no_proposal: bool = True) -> Rendered:
    """A correction slip per player with a warning, a penalty or a zero in the game (with
    its reason), plus the arbiter's disciplinary decisions; cut along the dashed rules."""
    title = _("Billets de correction — partie %(n)s") % {"n": game.number}
    story: list = [para(title, TITLE)]
    decisions: dict[int, list] = {}
    for d in game.decisions:
        decisions.setdefault(d.player_id, []).append(d)
    count = 0
    for line in game.players:
        rows = []
        for m in line.moves:
            if m.kind not in ("warning", "penalty", "zero"):
                continue
            if m.code == "zero.no_proposal" and not include_no_proposal:
                continue
            proposal = " ".join(x for x in (m.word, m.reference) if x)
            if m.claimed_score is not None:
                proposal += f" ({m.claimed_score})"
            decision = outcome_label(m.code)
            if m.kind == "warning" and m.reason:
                # A warning's sentence names the warning itself (« … vaut 45, pas 47 :
                # avertissement. »): the label before it said « avertissement » twice.
                decision = m.reason
            elif m.reason and m.reason != decision:
                decision += f" — {m.reason}"
            if m.correction:
                decision += " " + _("(correction : %(reason)s)") % {"reason": m.correction}
            rows.append(
                [
                    str(m.number),
                    Paragraph(word_markup(proposal), CELL) if proposal else "",
                    number(m.score),
                    para(decision, CELL),
                ]
            )
        for d in decisions.get(line.player.player_id, ()):
            label = decision_label(d.kind, disciplinary=d.disciplinary)
            rows.append([str(d.round_number), "", "", para(f"{label} — {d.reason}", CELL)])
        if rows:
            count += 1
            story.append(_slip(game, line.player, rows))
    if not count:
        story.append(para(_("Aucun avertissement, pénalité ni zéro dans cette partie."), BODY))
    content = build_pdf(story, info=game.tournament, title=title)
    return Rendered(f"{slug(game.tournament.slug)}-partie-{game.number}-corrections.pdf", PDF,
                    content)  # fmt: skip


def tablet_url(base_url: str, token: str) -> str:
    """``https://site/tablette/<token>/``."""
    return f"{base_url.rstrip('/')}/tablette/{token}/"


def _qr(url: str, size: float = 34 * mm) -> Drawing:
    widget = QrCodeWidget(url)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


def tablet_links_pdf(
    info: TournamentInfo, players: Sequence[PlayerInfo], base_url: str
) -> Rendered:
    """A card per player who has a tablet token: name, table, QR code and URL. Players
    without a token are listed so the organiser knows who still needs one."""
    cards, missing = [], []
    for p in players:
        if not p.access_token:
            missing.append(p)
            continue
        url = tablet_url(base_url, p.access_token)
        table = _("Table %(n)s") % {"n": p.table}
        label = Paragraph(
            f"<b>{markup(table)}</b><br/>{markup(p.name)}<br/>"
            f'<font size="6.5">{markup(url)}</font>',
            BODY,
        )
        cards.append(Table([[_qr(url), label]], colWidths=[37 * mm, 52 * mm],
                           style=[("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
                                  ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))  # fmt: skip
    title = _("Liens des tablettes")
    story: list = [para(title, TITLE)]
    if cards:
        rows = [cards[i : i + 2] + [""] * (2 - len(cards[i : i + 2])) for i in range(0,
                len(cards), 2)]  # fmt: skip
        story.append(Table(rows, colWidths=[92 * mm, 92 * mm]))
    if missing:
        names = ", ".join(_("%(name)s (table %(n)s)") % {"name": p.name, "n": p.table}
                          for p in missing)  # fmt: skip
        story.append(para(_("Sans lien de tablette : %(names)s.") % {"names": names}, SMALL))
    content = build_pdf(story, info=info, title=title, margin=10 * mm)
    return Rendered(f"{slug(info.slug)}-tablettes.pdf", PDF, content)
