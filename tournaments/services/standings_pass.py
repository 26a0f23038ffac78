"""One pass over a game's stored figures (``services.standings``): the cells of some
rounds for some players, each round's solo, and the players' game lines, read and written
in a few statements. ``standings_update`` decides which pass a change needs; this module
does the reading, the engine's rules (``adapter.player_round``, ``totals.solo_winner``,
``totals.player_game``) and the writing. Split from ``services.standings`` to keep each
module one job (the orchestration there, the rows here)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.duplicate.proposals import Outcome
from engine.duplicate.totals import (
    LATE_ARRIVAL,
    PlayerGame,
    TotalsSettings,
    player_game,
    player_game_next,
    solo_paid,
    solo_winner,
)
from tournaments import adapter
from tournaments.models import (
    Decision,
    DecisionKind,
    Game,
    GameFigure,
    PlayerGameFigure,
    PlayerRoundFigure,
    ProposalVersion,
    Registration,
    Round,
    RoundFigure,
    RoundState,
)
from tournaments.selectors.outcomes import figures_key
from tournaments.services.figure_rows import insert_rows, json_value, upsert_rows


def game_settings(game: Game) -> TotalsSettings:
    """The totals settings of a game's formula in its tournament (as the rankings use)."""
    return adapter.totals_settings(game.tournament, adapter.variant(game.variant_code))


def counted_rounds(game: Game) -> list[Round]:
    return list(
        Round.objects.filter(game=game, state=RoundState.CLOSED, top_score__isnull=False).order_by(
            "number"
        )
    )


#: A cell as stored: (absent, competes, kind, code, score, raw_score, disciplinary).
Cell = tuple[bool, bool, str, str, int, int, int]


@dataclass
class FigurePass:
    """One game's update: its settings and the registrations it needs, read once."""

    game: Game
    settings: TotalsSettings = field(init=False)
    _everyone: list[Registration] | None = field(init=False, default=None)
    _some: dict[tuple[int, ...], list[Registration]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.settings = game_settings(self.game)

    def registrations(self, players: Sequence[int] | None) -> list[Registration]:
        """The registrations (only the columns the figures need), in registration order;
        every one (``players`` None) read once a pass (a close needs them twice)."""
        if players is None:
            if self._everyone is None:
                self._everyone = self._registrations(None)
            return self._everyone
        key = tuple(players)  # a correction asks twice: its cells, then its lines
        if key not in self._some:
            self._some[key] = self._registrations(players)
        return self._some[key]

    def _registrations(self, players: Sequence[int] | None) -> list[Registration]:
        rows = Registration.objects.filter(tournament_id=self.game.tournament_id)
        if players is not None:
            rows = rows.filter(player_id__in=players)
        return list(
            rows.order_by("pk").only(
                "pk", "player_id", "arrival_game", "arrival_round", "withdrawn_game",
                "withdrawn_round",
            )
        )  # fmt: skip

    def cells(
        self, figures: Sequence[RoundFigure], players: Sequence[int] | None
    ) -> dict[tuple[int, int], Cell]:
        """The cells of ``figures`` for ``players`` (None: every registration), computed
        from the current versions and the decisions as the recomputation does. A slip
        with no decision counts as judged (``counted_outcome`` with nothing to apply), so
        its four outcome columns are read as they are; only the few slips with decisions
        are read whole and go through ``adapter.player_round``."""
        ids = [f.pk for f in figures]
        # No ordering (the rows go into dicts): the models' orderings join the round, the
        # game and the tournament.
        versions = ProposalVersion.objects.filter(round_id__in=ids, is_current=True).order_by()
        decisions = Decision.objects.filter(round_id__in=ids).order_by("created_at", "id")
        if players is not None:
            versions = versions.filter(player_id__in=players)
            decisions = decisions.filter(player_id__in=players)
        taken: dict[tuple[int, int], list[Decision]] = defaultdict(list)
        disciplinary: dict[tuple[int, int], int] = defaultdict(int)
        for d in decisions:
            if d.kind == DecisionKind.WARNING and d.disciplinary:
                disciplinary[(d.round_id, d.player_id)] += 1
            else:
                taken[(d.round_id, d.player_id)].append(d)
        judged = {
            (r, p): (kind, code, score, raw)
            for r, p, kind, code, score, raw in versions.values_list(
                "round_id", "player_id", "outcome_kind", "outcome_code", "outcome_score",
                "outcome_raw_score",
            )
        }  # fmt: skip
        whole: dict[tuple[int, int], ProposalVersion] = {}
        if taken:
            for v in versions.filter(player_id__in={p for _r, p in taken}):
                if (v.round_id, v.player_id) in taken:
                    whole[(v.round_id, v.player_id)] = v
        none = adapter.no_proposal()
        missing = (none.kind, none.code, none.score, none.raw_score)
        number = self.game.number
        out: dict[tuple[int, int], Cell] = {}
        numbers = dict(Round.objects.filter(pk__in=ids).order_by().values_list("pk", "number"))
        for reg in self.registrations(players):
            player, arrival_game, arrival_round = reg.player_id, reg.arrival_game, reg.arrival_round
            for f in figures:
                key = (f.pk, player)
                warned = disciplinary.get(key, 0)
                if arrival_game > number or reg.gone_by(number, numbers[f.pk]):
                    out[key] = (True, False, "", "", 0, 0, warned)
                elif arrival_game == number and f.position < arrival_round:
                    late = LATE_ARRIVAL
                    out[key] = (False, False, late.kind, late.code, 0, 0, warned)
                elif key in taken:
                    o = adapter.player_round(whole.get(key), taken[key]).counted
                    out[key] = (False, True, o.kind, o.code, o.score, o.raw_score, warned)
                else:
                    kind, code, score, raw = judged.get(key, missing)
                    out[key] = (False, True, kind, code, score, raw, warned)
        return out

    def write_cells(
        self,
        cells: dict[tuple[int, int], Cell],
        figures: Sequence[RoundFigure],
        players: Sequence[int] | None,
    ) -> None:
        stale = PlayerRoundFigure.objects.filter(round__in=figures)
        if players is not None:
            stale = stale.filter(player_id__in=players)
        stale.delete()
        columns = ("round_id", "player_id", "absent", "competes", "kind", "code", "score",
                   "raw_score", "disciplinary")  # fmt: skip
        insert_rows(PlayerRoundFigure, columns, [(r, p, *c) for (r, p), c in cells.items()])

    def solo(
        self, figure: RoundFigure, cells: dict[tuple[int, int], Cell], *, complete: bool
    ) -> set[int]:
        """Settle ``figure``'s solo from ``cells``: every player's (``complete``), or some
        players' new cells over the stored ones of the others (read before the new cells
        are written); returns the old and new winners (their lines change)."""
        raw: dict[Hashable, int]
        if complete:
            raw = {p: c[5] for (r, p), c in cells.items() if r == figure.pk and c[1]}
            competitors = len(raw)
        else:
            raw, competitors = self._solo_field(figure, cells)
        found = solo_winner(raw)
        winner = None if found is None else int(found)  # type: ignore[call-overload]
        before = figure.solo_player_id
        if (winner, competitors) != (before, figure.competitors):
            figure.solo_player_id = winner
            figure.competitors = competitors
            figure.save(update_fields=["solo_player", "competitors"])
        return {p for p in (before, winner) if p is not None}

    def _solo_field(
        self, figure: RoundFigure, cells: dict[tuple[int, int], Cell]
    ) -> tuple[dict[Hashable, int], int]:
        """Some players' new cells over the stored ones of the others: the raw scores
        that decide the solo, and how many compete. Not every stored score is read: the
        others' two best and their count are enough (``solo_winner`` looks at the best
        score, whether another equals it, and whether two compete; the two best of the
        whole field are among the others' two best and the new cells), so a correction
        reads two rows of a 5,000-player round instead of 5,000."""
        changed = {p: c for (r, p), c in cells.items() if r == figure.pk}
        others = PlayerRoundFigure.objects.filter(round=figure, competes=True).exclude(
            player_id__in=list(changed)
        )
        raw: dict[Hashable, int] = dict(
            others.order_by("-raw_score", "player_id").values_list("player_id", "raw_score")[:2]
        )
        competitors = len(raw) if len(raw) < 2 else others.count()
        for p, c in changed.items():
            if c[1]:
                raw[p] = c[5]
                competitors += 1
        return raw, competitors

    def fill(self, figures: Sequence[RoundFigure], players: list[int]) -> set[int]:
        """``players``' cells in every counted round, and the solos those rounds may now
        have; returns the players whose solos changed."""
        winners: set[int] = set()
        if figures:
            cells = self.cells(figures, players)
            for figure in figures:
                winners |= self.solo(figure, cells, complete=False)
            self.write_cells(cells, figures, players)
        return winners

    def players_all_rounds(self, players: list[int]) -> None:
        """Registrations (new, arrived, moved): their cells in every counted round, the
        solos those rounds may now have, and every line when the entrants changed."""
        figures = list(RoundFigure.objects.filter(game=self.game).order_by("position"))
        if len(figures) != len(counted_rounds(self.game)):
            game_pass(self.game)
            return
        self.player_lines(set(players) | self.fill(figures, players))

    def append_lines(self, figure: RoundFigure, cells: dict[tuple[int, int], Cell]) -> bool:
        """A round counted after the game's last one (a close): every player's line is the
        stored one with the round's cell added (``totals.player_game_next``), instead of
        every cell of the game read again. False, with nothing written, when the stored
        lines are not the ones before this round (a line missing, another round count,
        other settings) or when whether solos are paid changes (every bonus moves): the
        caller then rewrites every line from the cells."""
        game, settings = self.game, self.settings
        key = figures_key(settings)
        previous = GameFigure.objects.filter(game=game).first()
        if previous is None or previous.settings_key != key:
            return False
        if previous.rounds != figure.position - 1:
            return False
        regs = self.registrations(None)
        stored = {
            p: rest
            for p, *rest in PlayerGameFigure.objects.filter(game=game).values_list(
                "player_id", "entrant", "rounds", "solo_rounds", "warnings", "penalties"
            )
        }
        if len(stored) != len(regs) or any(
            r.player_id not in stored or (figure.pk, r.player_id) not in cells
            or len(stored[r.player_id][1]) != figure.position - 1
            for r in regs
        ):  # fmt: skip
            return False
        entrant = {
            r.player_id: stored[r.player_id][0] or not cells[(figure.pk, r.player_id)][0]
            for r in regs
        }
        entrants = sum(entrant.values())
        paid = solo_paid(entrants, settings)
        if paid != previous.solo_paid:
            return False
        lines = []
        for r in regs:
            p = r.player_id
            _e, rounds, solos, warnings, penalties = stored[p]
            c = cells[(figure.pk, p)]
            before = PlayerGame(p, tuple(rounds), tuple(solos), 0, warnings, 0, penalties, 0)
            pg = player_game_next(
                before,
                None if c[0] else Outcome(c[2], c[4], c[5], c[3], ""),
                solo=figure.position if figure.solo_player_id == p else None,
                disciplinary=c[6],
                paid=paid,
                settings=settings,
            )
            lines.append((game.pk, p, r.pk, entrant[p], json_value(list(pg.rounds)),
                          json_value(list(pg.solo_rounds)), pg.solo_bonus, pg.warnings,
                          pg.warning_penalty, pg.penalties, pg.total))  # fmt: skip
        self.write_lines(lines)
        self.write_game(figure.position, previous.top_total + figure.top_score, entrants, paid,
                        previous=previous)  # fmt: skip
        return True

    def write_lines(self, lines: list[tuple]) -> None:
        """Upsert the game's lines (one row per (game, player))."""
        upsert_rows(
            PlayerGameFigure,
            ("game_id", "player_id", "registration_id", "entrant", "rounds", "solo_rounds",
             "solo_bonus", "warnings", "warning_penalty", "penalties", "total"),
            lines,
            unique=("game_id", "player_id"),
        )  # fmt: skip

    def write_game(
        self, rounds: int, top_total: int, entrants: int, paid: bool, *,
        previous: GameFigure | None = None,
    ) -> None:  # fmt: skip
        """The game's own row; ``previous``: that row as the caller read it in this
        transaction (then one UPDATE, instead of a savepoint and a locked read)."""
        values = {
            "rounds": rounds,
            "top_total": top_total,
            "entrants": entrants,
            "solo_paid": paid,
            "settings_key": figures_key(self.settings),
        }
        if previous is None:
            GameFigure.objects.update_or_create(game=self.game, defaults=values)
            return
        for name, value in values.items():
            setattr(previous, name, value)
        previous.save(update_fields=[*values, "updated_at"])

    def player_lines(self, players: set[int] | None) -> None:
        """Rewrite the game lines of ``players`` (None: everyone) from the stored cells,
        and the game's own row; when the entrants change whether solos are paid, every
        line is rewritten."""
        game, settings = self.game, self.settings
        figures = list(RoundFigure.objects.filter(game=game).order_by("position"))
        ids = sorted(players) if players is not None else None
        regs = self.registrations(ids)
        rows = PlayerRoundFigure.objects.filter(round__in=figures)
        if ids is not None:
            rows = rows.filter(player_id__in=ids)
        cells: dict[tuple[int, int], Any] = {
            (r, p): c
            for r, p, *c in rows.values_list(
                "round_id", "player", "absent", "competes", "kind", "code", "score", "raw_score",
                "disciplinary",
            )
        }  # fmt: skip
        missing = [
            r.player_id for r in regs if any((f.pk, r.player_id) not in cells for f in figures)
        ]
        if missing:  # registered without the services (a fixture, the admin): fill them in
            winners = self.fill(figures, missing)
            self.player_lines(None if players is None else players | set(missing) | winners)
            return
        known = {r.player_id for r in regs}
        if ids is None:
            PlayerGameFigure.objects.filter(game=game).exclude(player_id__in=known).delete()
        else:
            gone = [p for p in ids if p not in known]
            PlayerGameFigure.objects.filter(game=game, player_id__in=gone).delete()
        solos: dict[int, list[int]] = defaultdict(list)
        for f in figures:
            if f.solo_player_id is not None:
                solos[f.solo_player_id].append(f.position)
        number = game.number
        entrant = {
            r.player_id: any(not cells[(f.pk, r.player_id)][0] for f in figures)
            or (r.arrival_game == number and r.arrival_round > 1)
            for r in regs
        }
        entrants = sum(entrant.values())
        if ids is not None:
            entrants += (
                PlayerGameFigure.objects.filter(game=game, entrant=True)
                .exclude(player_id__in=ids)
                .count()
            )
        paid = solo_paid(entrants, settings)
        key = figures_key(settings)
        previous = GameFigure.objects.filter(game=game).first()
        if ids is not None and (
            previous is None or previous.solo_paid != paid or previous.settings_key != key
        ):
            self.player_lines(None)
            return
        memo: dict[tuple, Outcome] = {}

        def outcome(c: list) -> Outcome | None:
            if c[0]:
                return None
            key = (c[2], c[3], c[4], c[5])
            o = memo.get(key)
            if o is None:
                o = memo[key] = Outcome(c[2], c[4], c[5], c[3], "")
            return o

        lines = []
        for r in regs:
            reg, p = r.pk, r.player_id
            mine = [cells[(f.pk, p)] for f in figures]
            pg = player_game(
                p,
                [outcome(c) for c in mine],
                solo_rounds=solos.get(p, ()),
                disciplinary=sum(c[6] for c in mine),
                paid=paid,
                settings=settings,
            )
            lines.append((game.pk, p, reg, entrant[p], json_value(list(pg.rounds)),
                          json_value(list(pg.solo_rounds)), pg.solo_bonus, pg.warnings,
                          pg.warning_penalty, pg.penalties, pg.total))  # fmt: skip
        self.write_lines(lines)
        self.write_game(len(figures), sum(f.top_score for f in figures), entrants, paid,
                        previous=previous)  # fmt: skip


def game_pass(game: Game) -> None:
    """Rewrite the whole game: rounds, cells, solos, lines (rare: a game created, a round
    cancelled in the middle, a registration, a settings change, a recompute)."""
    RoundFigure.objects.filter(game=game).delete()
    figures = RoundFigure.objects.bulk_create(
        RoundFigure(round=r, game=game, position=i, top_score=r.top_score or 0)
        for i, r in enumerate(counted_rounds(game), start=1)
    )
    work = FigurePass(game)
    if figures:
        cells = work.cells(figures, None)
        for figure in figures:
            work.solo(figure, cells, complete=True)
        work.write_cells(cells, figures, None)
    work.player_lines(None)
