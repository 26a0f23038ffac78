"""The values the reads hand to renderers and pages: small frozen dataclasses built from
the rows by the selectors (tests can also build them by hand). Nothing here touches the
database; the printed sheets, the exports, the console's rankings and the API's standings
all read these."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

from engine.duplicate.totals import format_negatif
from engine.tiles import SIZE

EMPTY_BOARD = "." * (SIZE * SIZE)

#: The label of the group of players with no series (or no category) in a sub-ranking:
#: the console and the printed sheets show them under it, last, never drop them.
UNCLASSED = "Non classés"


# -- values ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What every header prints."""

    name: str
    slug: str
    date: date | None = None
    lexicon: str = ""


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A registered player; ``access_token`` is empty until tablets get one; ``withdrawn``
    when the player left the tournament (rankings keep them, marked « abandon »)."""

    player_id: int
    name: str
    table: int
    club: str = ""
    series: str = ""
    category: str = ""
    licence: str = ""
    federation: str = ""
    access_token: str = ""
    withdrawn: bool = False
    centre: str = ""  # a simultaneous event's centre (its name), for the per-centre ranking


@dataclass(frozen=True, slots=True)
class TopLine:
    """One round of the game sheet (P5): rack in N5 notation, the top, the running total."""

    number: int
    rack: str
    word: str
    reference: str
    score: int
    cumulative: int
    scrabble: bool = False
    rejected: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerMove:
    """A player's round: what they played and what it was credited.

    ``kind`` is the outcome kind (``valid``, ``warning``, ``penalty``, ``zero``) or
    ``absent``; ``code`` the outcome code; ``reason`` the outcome's sentence in the active
    language (``wording.outcome_text``, never the engine's English); ``correction`` the
    arbiter's reason when the slip was corrected."""

    number: int
    word: str
    reference: str
    score: int
    kind: str = "valid"
    code: str = "ok"
    reason: str = ""
    claimed_score: int | None = None
    solo: bool = False
    correction: str = ""


@dataclass(frozen=True, slots=True)
class DecisionLine:
    """An arbiter's decision (warning, penalty, moyenne…) about a player on a round."""

    round_number: int
    player_id: int
    kind: str
    reason: str
    disciplinary: bool = False


@dataclass(frozen=True, slots=True)
class PlayerGameLine:
    """One player's game: every round and the game figures (``totals.PlayerGame``)."""

    player: PlayerInfo
    moves: tuple[PlayerMove, ...]
    total: int
    solo_rounds: tuple[int, ...] = ()
    solo_bonus: int = 0
    warnings: int = 0
    warning_penalty: int = 0
    penalties: int = 0

    @property
    def present(self) -> bool:
        return any(m.kind != "absent" for m in self.moves)


@dataclass(frozen=True, slots=True)
class GameData:
    """A game as the sheets print it. ``board`` holds the 225 squares after the last placed
    top, row-major from A1 (``.`` empty, uppercase tile, lowercase joker)."""

    tournament: TournamentInfo
    number: int
    rounds: tuple[TopLine, ...]
    players: tuple[PlayerGameLine, ...] = ()
    board: str = EMPTY_BOARD
    decisions: tuple[DecisionLine, ...] = ()
    finished: bool = False

    @property
    def top_total(self) -> int:
        return sum(r.score for r in self.rounds)


@dataclass(frozen=True, slots=True)
class RankingLine:
    """A line of a results sheet (P6); ``game_totals`` only in a tournament ranking."""

    rank: int
    player: PlayerInfo
    total: int
    negatif: int
    percent: Decimal
    solos: int = 0
    warnings: int = 0
    penalties: int = 0
    ex_aequo: bool = False
    game_totals: tuple[int, ...] = ()

    @property
    def negatif_text(self) -> str:
        """The négatif with its sign, as every page shows it ("-25", "0", "+10")."""
        return format_negatif(self.negatif)


@dataclass(frozen=True, slots=True)
class Ranking:
    """A ranking with its title (``Partie 2``, ``Classement général``), its top total and
    how many rounds counted."""

    title: str
    top_total: int
    lines: tuple[RankingLine, ...]
    game_numbers: tuple[int, ...] = ()
    rounds: int = 0


@dataclass(frozen=True, slots=True)
class ResultsData:
    """Per-game rankings then the cumulative one (``None`` for a single-game sheet)."""

    tournament: TournamentInfo
    games: tuple[Ranking, ...]
    overall: Ranking | None = None

    @property
    def main(self) -> Ranking:
        """The ranking the sub-rankings and exports are made from."""
        return self.overall or self.games[-1]


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table of the room for the SIGLES export; ``player`` ``None`` = empty table."""

    table: int
    player: PlayerInfo | None
    total: int = 0


@dataclass(frozen=True, slots=True)
class SubRanking:
    """A series or category ranking: its label and, in the overall order, ``(rank within
    the group, rank shared?, overall line)``. ``unclassed``: the group of the players with
    no series (or category), labelled :data:`UNCLASSED` and always last."""

    label: str
    lines: tuple[tuple[int, bool, RankingLine], ...] = field(default=())
    unclassed: bool = False


def mark_ex_aequo(lines: Sequence[RankingLine]) -> tuple[RankingLine, ...]:
    """Flag every line whose rank another line shares."""
    counts: dict[int, int] = defaultdict(int)
    for line in lines:
        counts[line.rank] += 1
    return tuple(replace(line, ex_aequo=counts[line.rank] > 1) for line in lines)
