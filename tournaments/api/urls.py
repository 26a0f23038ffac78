"""API routes, mounted under /api/ (see docs/api.md)."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView

from tournaments.api.permissions import ApiDocsAllowed
from tournaments.api.views import (
    auth,
    cards,
    classic,
    common,
    control,
    play,
    player,
    registrations,
    release,
    reports,
    score_sheets,
    tournaments,
)
from tournaments.api.views.common import SchemaView

_DOCS = {"permission_classes": [ApiDocsAllowed]}

urlpatterns = [
    path("schema/", SchemaView.as_view(**_DOCS), name="schema"),
    # The split view serves Swagger UI's start script as a separate request (no inline
    # script for the Content-Security-Policy to refuse) and its files from this site.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", **_DOCS),
         name="api-docs"),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    # Tournaments: public reads, arbiters' set-up.
    path("tournaments/", tournaments.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", tournaments.TournamentDetailView.as_view(),
         name="api-tournament"),
    path("tournaments/<slug:slug>/players/", tournaments.PlayerListView.as_view(),
         name="api-players"),
    path("tournaments/<slug:slug>/players/import", tournaments.PlayersImportView.as_view(),
         name="api-players-import"),
    path("registrations/<int:registration_id>/token", tournaments.RegistrationTokenView.as_view(),
         name="api-registration-token"),
    # A registration: edit, table, arrival, withdrawal; every tablet link at once.
    path("tournaments/<slug:slug>/registrations/tokens",
         registrations.RegistrationTokensView.as_view(), name="api-registration-tokens"),
    path("tournaments/<slug:slug>/registrations/<int:registration_id>/",
         registrations.RegistrationDetailView.as_view(), name="api-registration"),
    path("tournaments/<slug:slug>/registrations/<int:registration_id>/arrival",
         registrations.RegistrationArrivalView.as_view(), name="api-registration-arrival"),
    path("tournaments/<slug:slug>/registrations/<int:registration_id>/withdraw",
         registrations.RegistrationWithdrawView.as_view(), name="api-registration-withdraw"),
    path("tournaments/<slug:slug>/registrations/<int:registration_id>/reinstate",
         registrations.RegistrationReinstateView.as_view(), name="api-registration-reinstate"),
    path("tournaments/<slug:slug>/games/", tournaments.GameListView.as_view(), name="api-games"),
    path("tournaments/<slug:slug>/rankings/", tournaments.TournamentRankingView.as_view(),
         name="api-rankings"),
    path("tournaments/<slug:slug>/games/<int:number>/rankings/",
         tournaments.GameRankingView.as_view(), name="api-game-rankings"),
    path("tournaments/<slug:slug>/documents/<str:kind>", reports.DocumentView.as_view(),
         name="api-document"),
    path("tournaments/<slug:slug>/centres/<int:centre_id>/documents/<str:kind>",
         reports.CentreDocumentView.as_view(), name="api-centre-document"),
    # A game and its rounds (arbiters).
    path("games/<int:game_id>/", play.GameDetailView.as_view(), name="api-game"),
    path("games/<int:game_id>/rounds/draw", play.DrawView.as_view(), name="api-draw"),
    path("games/<int:game_id>/release", release.ReleaseView.as_view(), name="api-release"),
    path("games/<int:game_id>/release/seal", release.SealView.as_view(), name="api-seal"),
    path("games/<int:game_id>/release/<int:number>", release.ReleaseRoundView.as_view(),
         name="api-release-round"),
    path("rounds/<int:round_id>/", play.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:round_id>/open", play.RoundOpenView.as_view(), name="api-round-open"),
    path("rounds/<int:round_id>/close", play.RoundCloseView.as_view(), name="api-round-close"),
    path("rounds/<int:round_id>/place", play.RoundPlaceView.as_view(), name="api-round-place"),
    path("rounds/<int:round_id>/top/choose", play.TopChooseView.as_view(),
         name="api-round-choose"),
    path("rounds/<int:round_id>/cancel", play.RoundCancelView.as_view(), name="api-round-cancel"),
    # Round control: the clock, undoing a close; the dispute checker (views/control.py).
    path("rounds/<int:round_id>/pause", control.RoundPauseView.as_view(), name="api-round-pause"),
    path("rounds/<int:round_id>/resume", control.RoundResumeView.as_view(),
         name="api-round-resume"),
    path("rounds/<int:round_id>/extend", control.RoundExtendView.as_view(),
         name="api-round-extend"),
    path("rounds/<int:round_id>/centres/", control.RoundCentresView.as_view(),
         name="api-round-centres"),
    path("rounds/<int:round_id>/centres/<int:centre_id>/close",
         control.CentreCloseView.as_view(), name="api-centre-close"),
    path("rounds/<int:round_id>/reopen", control.RoundReopenView.as_view(),
         name="api-round-reopen"),
    path("games/<int:game_id>/dispute", control.DisputeView.as_view(), name="api-dispute"),
    path("rounds/<int:round_id>/proposals/", play.RoundProposalsView.as_view(),
         name="api-round-proposals"),
    path("rounds/<int:round_id>/slips/", play.SlipView.as_view(), name="api-round-slips"),
    path("rounds/<int:round_id>/decisions/", play.DecisionView.as_view(),
         name="api-round-decisions"),
    path("proposals/<int:proposal_id>/", play.ProposalDetailView.as_view(), name="api-proposal"),
    path("proposals/<int:proposal_id>/correct", play.ProposalCorrectView.as_view(),
         name="api-proposal-correct"),
    # The player's tablet (Authorization: Player <token>).
    path("player/round/", player.PlayerRoundView.as_view(), name="api-player-round"),
    path("player/proposals/", player.PlayerProposalView.as_view(), name="api-player-proposals"),
    path("player/results/", player.PlayerResultsView.as_view(), name="api-player-results"),
    # Classic tournaments (tournaments/api/views/classic.py, docs/classic.md).
    path("tournaments/<slug:slug>/classic/", classic.ClassicView.as_view(), name="api-classic"),
    path("tournaments/<slug:slug>/classic/divisions/<int:division>/pair",
         classic.ClassicPairView.as_view(), name="api-classic-pair"),
    path("classic/tables/<int:table_id>/result", classic.ClassicResultView.as_view(),
         name="api-classic-result"),
    # Card tables (tournaments/api/views/cards.py, docs/cards.md): arbiters, the player who
    # opened one; a seat by its private token.
    path("tournaments/<slug:slug>/cards/tables/", cards.CardTablesView.as_view(),
         name="api-card-tables"),
    path("cards/tables/<int:table_id>/", cards.CardTableView.as_view(), name="api-card-table"),
    path("cards/tables/<int:table_id>/view", cards.CardTablePublicView.as_view(),
         name="api-card-table-view"),
    path("cards/tables/<int:table_id>/close", cards.CardTableCloseView.as_view(),
         name="api-card-table-close"),
    path("cards/tables/<int:table_id>/record", cards.CardTableRecordView.as_view(),
         name="api-card-table-record"),
    path("cards/seats/<str:token>/", cards.CardSeatView.as_view(), name="api-card-seat"),
    path("cards/seats/<str:token>/actions", cards.CardSeatActionView.as_view(),
         name="api-card-seat-actions"),
    path("cards/seats/<str:token>/record", cards.CardSeatRecordView.as_view(),
         name="api-card-seat-record"),
    # Classic score sheets (tournaments/api/views/score_sheets.py).
    path("tournaments/<slug:slug>/classic/sheets", score_sheets.SheetsView.as_view(),
         name="api-sheets"),
    path("classic/sheets/<int:sheet_id>", score_sheets.SheetDetailView.as_view(),
         name="api-sheet"),
    path("classic/sheets/<int:sheet_id>/lines", score_sheets.SheetLinesView.as_view(),
         name="api-sheet-lines"),
    path("classic/sheets/<int:sheet_id>/lines/<int:number>", score_sheets.SheetLineView.as_view(),
         name="api-sheet-line"),
    path("classic/sheets/<int:sheet_id>/end", score_sheets.SheetEndView.as_view(),
         name="api-sheet-end"),
    # Anything else under /api/ is a JSON 404 {code, detail}, never the site's HTML page.
    re_path(r"^[\s\S]*$", common.not_found, name="api-not-found"),  # newlines too
]  # fmt: skip
