"""The one read layer of the site: every page, API view, tablet, the projector and the
printed documents read rows through these functions, never through the models.

Organised by aggregate (docs/architecture.md, "Reads"):

* ``tournament``: a tournament by slug, an arbiter's tournaments, its games, **the
  current game**, whether its rankings are public, its printed header;
* ``games``: a game or round by id, a game's rounds, **the current round**, the rounds
  that count, the game's revision (the key of its caches);
* ``slips``: a round's proposal versions, late attempts, missing slips, slips to review,
  decisions;
* ``players``: registrations by tournament, token, id and **table** (``table.unknown``),
  who plays a round, the players as the sheets name them;
* ``outcomes``: a game's figures and standings, cached per game;
* ``rankings``: rankings with names, a player's results, the **sub-rankings** (one rule:
  players without a series or category under "Non classés");
* ``documents``: a game as the sheets print it, the room's tables, the game record;
* ``work``: batches, slip conflicts, report jobs;
* ``values``: the frozen values the reads return to renderers and pages.

Nothing here writes. Import the package (``from tournaments import selectors``) and call
``selectors.<name>``: the names below are the public reads."""

from __future__ import annotations

from tournaments.selectors.cards import (
    card_live,
    card_public_view,
    card_record,
    card_revision,
    card_seat_by_token,
    card_seat_view,
    card_seats,
    card_table_by_id,
    card_tables_of,
)
from tournaments.selectors.documents import eg_identity, game_data, game_record, tables_data
from tournaments.selectors.games import (
    counted_rounds,
    current_round,
    game_by_id,
    game_revision,
    game_rounds,
    previous_placed_round,
    round_by_id,
    round_by_number,
)
from tournaments.selectors.outcomes import (
    forget_game_outcomes,
    game_outcomes,
    game_standings,
    tournament_results,
    tournament_standings,
)
from tournaments.selectors.players import (
    arrivals,
    expected_count,
    expected_registrations,
    last_move_from,
    names_by_player,
    players_of,
    registration_at_table,
    registration_by_id,
    registration_by_token,
    registrations,
    table_of,
    tables_by_player,
    withdrawal_start,
)
from tournaments.selectors.rankings import (
    game_ranking,
    player_results,
    ranking_lines,
    results_data,
    sub_rankings,
    tournament_ranking,
)
from tournaments.selectors.settings import (
    DRAW_SETTINGS,
    SCORE_SETTINGS,
    arbiters_presence,
    console_page_place,
    default_lexicon,
    language_by_slug,
    language_by_token,
    lexicon_build_by_id,
    lexicon_build_progress,
    lexicon_builds,
    lexicons_offered,
    tournament_settings_locks,
)
from tournaments.selectors.slips import (
    best_moves,
    current_proposal,
    current_versions,
    decisions_by_player,
    entered_by_names,
    last_late_attempt,
    late_attempts,
    missing_slips,
    own_versions_mark,
    player_versions,
    proposal_by_id,
    received_count,
    recent_versions,
    round_decisions,
    round_proposals,
    round_version,
    slips_to_review,
    versions_by_player,
)
from tournaments.selectors.tournament import (
    arbiter_tournaments,
    current_game,
    game_by_number,
    rankings_public,
    tournament_by_slug,
    tournament_games,
    tournament_info,
    tournaments_all,
)
from tournaments.selectors.work import (
    batch_by_id,
    batch_progress,
    conflict_by_id,
    open_conflicts,
    prepared_game_by_id,
    report_job_by_id,
    report_jobs,
    resolved_conflicts,
    tournament_batches,
)

#: The name ``tournaments/selectors.py`` gave :func:`counted_rounds` (kept for callers on
#: other branches; the same function).
game_counted_rounds = counted_rounds

__all__ = [
    "card_live",
    "card_public_view",
    "card_record",
    "card_revision",
    "card_seat_by_token",
    "card_seat_view",
    "card_seats",
    "card_table_by_id",
    "card_tables_of",
    "DRAW_SETTINGS",
    "SCORE_SETTINGS",
    "arbiters_presence",
    "default_lexicon",
    "lexicon_build_progress",
    "lexicons_offered",
    "tournament_settings_locks",
    "console_page_place",
    "language_by_slug",
    "language_by_token",
    "lexicon_build_by_id",
    "lexicon_builds",
    "arbiter_tournaments",
    "arrivals",
    "batch_by_id",
    "batch_progress",
    "best_moves",
    "conflict_by_id",
    "counted_rounds",
    "current_game",
    "current_proposal",
    "current_round",
    "current_versions",
    "decisions_by_player",
    "eg_identity",
    "entered_by_names",
    "expected_count",
    "expected_registrations",
    "last_move_from",
    "withdrawal_start",
    "forget_game_outcomes",
    "game_by_id",
    "game_by_number",
    "game_counted_rounds",
    "game_data",
    "game_outcomes",
    "game_ranking",
    "game_record",
    "game_revision",
    "game_rounds",
    "game_standings",
    "last_late_attempt",
    "late_attempts",
    "missing_slips",
    "names_by_player",
    "open_conflicts",
    "own_versions_mark",
    "player_results",
    "player_versions",
    "players_of",
    "prepared_game_by_id",
    "previous_placed_round",
    "proposal_by_id",
    "ranking_lines",
    "rankings_public",
    "received_count",
    "recent_versions",
    "registration_at_table",
    "registration_by_id",
    "registration_by_token",
    "registrations",
    "report_job_by_id",
    "report_jobs",
    "resolved_conflicts",
    "results_data",
    "round_by_id",
    "round_by_number",
    "round_decisions",
    "round_proposals",
    "round_version",
    "slips_to_review",
    "sub_rankings",
    "table_of",
    "tables_by_player",
    "tables_data",
    "tournament_batches",
    "tournament_by_slug",
    "tournament_games",
    "tournament_info",
    "tournament_ranking",
    "tournament_results",
    "tournament_standings",
    "tournaments_all",
    "versions_by_player",
]
