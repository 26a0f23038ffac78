"""Domain models: lexicons, tournaments and their settings, players, games, rounds,
append-only proposal versions, arbiter decisions, slip conflicts, batches and the audit log.

Rules live in ``engine.duplicate``; these tables only keep what was decided, so every figure
can be recomputed. Invariants that matter (one current version per player and round, one
table per player, valid states) are database constraints, not just code. The tables are in
``core`` (the game) and ``work`` (audit, conflicts, batches), their states and kinds in
``choices``; import them from here."""

from tournaments.models.arrivals import ProposalArrival
from tournaments.models.cards import CardEvent, CardSeat, CardSettings, CardTable
from tournaments.models.centres import Centre, CentreClose
from tournaments.models.choices import (
    ArbiterRole,
    BatchState,
    CardEventKind,
    CardSeatKind,
    CardTableState,
    ClassicForfeit,
    ClassicSource,
    DecisionKind,
    GameKind,
    GameState,
    JobState,
    OutcomeKind,
    PairingSystem,
    ProposalSource,
    ReportState,
    RoundState,
    SheetLineKind,
    SheetTieBreak,
    TieBreak,
)
from tournaments.models.classic import (
    ClassicEvent,
    ClassicReport,
    ClassicResult,
    ClassicRound,
    ClassicSeat,
    ClassicTable,
    Division,
    DivisionEntry,
)
from tournaments.models.clock import ClockChange, RoundDeadline
from tournaments.models.core import (
    ArbiterMembership,
    Decision,
    Game,
    Lexicon,
    Player,
    ProposalVersion,
    Registration,
    Round,
    Tournament,
    TournamentManager,
)
from tournaments.models.lexicons import LexiconBuild
from tournaments.models.release import SealedGame, SealedRound
from tournaments.models.reports import ReportJob
from tournaments.models.score_sheets import ScoreSheet, ScoreSheetEnd, ScoreSheetLine
from tournaments.models.standings import (
    GameFigure,
    PlayerGameFigure,
    PlayerRoundFigure,
    RoundFigure,
)
from tournaments.models.work import AuditLog, BatchJob, PreparedGame, SlipConflict

__all__ = [
    "ScoreSheet",
    "ScoreSheetEnd",
    "ScoreSheetLine",
    "SheetLineKind",
    "SheetTieBreak",
    "SealedGame",
    "SealedRound",
    "ArbiterRole",
    "BatchState",
    "Centre",
    "CentreClose",
    "ClockChange",
    "RoundDeadline",
    "ClassicForfeit",
    "ClassicSource",
    "CardEvent",
    "CardEventKind",
    "CardSeat",
    "CardSeatKind",
    "CardSettings",
    "CardTable",
    "CardTableState",
    "DecisionKind",
    "GameKind",
    "GameState",
    "OutcomeKind",
    "PairingSystem",
    "ProposalSource",
    "JobState",
    "ReportState",
    "RoundState",
    "TieBreak",
    "ArbiterMembership",
    "AuditLog",
    "BatchJob",
    "ClassicEvent",
    "ClassicReport",
    "ClassicResult",
    "ClassicRound",
    "ClassicSeat",
    "ClassicTable",
    "Decision",
    "Division",
    "DivisionEntry",
    "Game",
    "GameFigure",
    "PlayerGameFigure",
    "PlayerRoundFigure",
    "RoundFigure",
    "Lexicon",
    "LexiconBuild",
    "Player",
    "PreparedGame",
    "ProposalVersion",
    "ProposalArrival",
    "Registration",
    "ReportJob",
    "Round",
    "SlipConflict",
    "Tournament",
    "TournamentManager",
]
