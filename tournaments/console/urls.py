"""Arbiter console routes, mounted under /arbitre/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournaments.console import (
    admin_pages,
    batches,
    centres_pages,
    decisions,
    exports,
    players_pages,
    rankings,
    release,
    round_control,
    settings_pages,
    views,
)

app_name = "console"
urlpatterns = [
    path(
        "connexion/",
        auth_views.LoginView.as_view(template_name="console/login.html"),
        name="login",
    ),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.index, name="index"),
    # Settings, a club's word list, arbiters and their passwords (console/settings_pages.py).
    path("tournoi/<slug:slug>/reglages/", settings_pages.tournament_settings, name="settings"),
    path("tournoi/<slug:slug>/lexique/", settings_pages.lexicon_upload_view,
         name="lexicon_upload"),
    path("lexique/<int:build_id>/etat/", settings_pages.lexicon_build_status,
         name="lexicon_build_status"),
    path("tournoi/<slug:slug>/arbitres/", settings_pages.arbiters, name="arbiters"),
    path("tournoi/<slug:slug>/arbitres/centre/", centres_pages.arbiter_centre,
         name="arbiter_centre"),
    path("tournoi/<slug:slug>/centres/", centres_pages.centres, name="centres"),
    path("centre/<int:centre_id>/modifier/", centres_pages.centre_edit, name="centre_edit"),
    path("centre/<int:centre_id>/supprimer/", centres_pages.centre_delete,
         name="centre_delete"),
    path("centre/<int:centre_id>/documents/<str:kind>/", centres_pages.centre_download,
         name="centre_document"),
    path("tour/<int:round_id>/fermer-centre/", centres_pages.centre_close, name="centre_close"),
    path("tournoi/<slug:slug>/arbitres/retirer/", settings_pages.arbiter_remove_view,
         name="arbiter_remove"),
    path("tournoi/<slug:slug>/arbitres/passer-la-main/", settings_pages.arbiter_handover_view,
         name="arbiter_handover"),
    path("tournoi/<slug:slug>/arbitres/nouveau-lien/", settings_pages.arbiter_password_view,
         name="arbiter_password"),
    path("mot-de-passe/<uidb64>/<token>/", settings_pages.PasswordSetView.as_view(),
         name="password_set"),
    path("tournoi/<slug:slug>/", views.tournament, name="tournament"),
    path("tournoi/<slug:slug>/parties/", views.game_create, name="game_create"),
    path("tournoi/<slug:slug>/classement/", rankings.rankings, name="rankings"),
    path("tournoi/<slug:slug>/joueurs/", views.players, name="players"),
    path("partie/<int:game_id>/", views.game, name="game"),
    path("partie/<int:game_id>/etat/", views.game_status, name="game_status"),
    path("partie/<int:game_id>/tirage/", views.draw, name="draw"),
    path("partie/<int:game_id>/scellee/", release.release_page, name="release"),
    path("tour/<int:round_id>/ouvrir/", views.round_open, name="round_open"),
    # Round control: close (confirmed with time left), reopen, the clock; the dispute
    # checker (console/round_control.py).
    path("tour/<int:round_id>/fermer/", round_control.round_close, name="round_close"),
    path("tour/<int:round_id>/rouvrir/", round_control.round_reopen, name="round_reopen"),
    path("tour/<int:round_id>/pause/", round_control.round_pause, name="round_pause"),
    path("tour/<int:round_id>/reprise/", round_control.round_resume, name="round_resume"),
    path("tour/<int:round_id>/prolonger/", round_control.round_extend, name="round_extend"),
    path("partie/<int:game_id>/contestation/", round_control.dispute, name="dispute"),
    path("tour/<int:round_id>/placer/", views.round_place, name="round_place"),
    path("tour/<int:round_id>/saisie/", views.slips, name="slips"),
    path("tour/<int:round_id>/correction/", views.correction, name="correction"),
    # Arbiters' decisions, cancel, stop, conflicts, recomputations (console/decisions.py).
    path("tour/<int:round_id>/arbitrage/", decisions.round_decisions, name="decisions"),
    path("tour/<int:round_id>/revision/<int:version_id>/", decisions.review, name="review"),
    path("tour/<int:round_id>/annuler/", decisions.round_cancel, name="round_cancel"),
    path("tour/<int:round_id>/recalcul/", decisions.round_recompute, name="round_recompute"),
    path("partie/<int:game_id>/arreter/", decisions.game_stop, name="game_stop"),
    path("partie/<int:game_id>/coups/", round_control.game_rounds, name="game_rounds"),
    path("partie/<int:game_id>/recalcul/", decisions.game_recompute, name="game_recompute"),
    path("tournoi/<slug:slug>/conflits/", decisions.conflicts, name="conflicts"),
    path("conflit/<int:conflict_id>/garder/", decisions.conflict_keep, name="conflict_keep"),
    # Players: tablet links, late arrivals (console/admin_pages.py).
    path("inscription/<int:registration_id>/jeton/", admin_pages.token_issue, name="token_issue"),
    path("inscription/<int:registration_id>/jeton/revoquer/", admin_pages.token_revoke,
         name="token_revoke"),
    path("tournoi/<slug:slug>/arrivee/", admin_pages.arrive, name="arrive"),
    # A player's page (edit, table, arrival, withdrawal), every tablet link at once
    # (console/players_pages.py).
    path("inscription/<int:registration_id>/modifier/", players_pages.registration_edit,
         name="registration_edit"),
    path("tournoi/<slug:slug>/joueurs/liens/", players_pages.tokens_issue_all,
         name="tokens_issue_all"),
    # Documents and exports, report jobs, game record import (console/exports.py).
    path("tournoi/<slug:slug>/documents/", exports.documents, name="documents"),
    path("tournoi/<slug:slug>/documents/<str:kind>/", exports.download, name="document"),
    path("tournoi/<slug:slug>/documents/<str:kind>/preparer/", exports.job_create,
         name="report_job_create"),
    path("document/<int:job_id>/", exports.job_page, name="report_job"),
    path("document/<int:job_id>/etat/", exports.job_status, name="report_job_status"),
    path("document/<int:job_id>/fichier/", exports.job_file, name="report_job_file"),
    path("tournoi/<slug:slug>/importer-partie/", exports.record_import, name="record_import"),
    # Batches of pre-drawn games prepared by the workers (console/batches.py).
    path("tournoi/<slug:slug>/prepartie/", batches.prepare, name="batch_prepare"),
    path("lot/<int:job_id>/", batches.batch, name="batch"),
    path("lot/<int:job_id>/etat/", batches.batch_status, name="batch_status"),
    path("partie-preparee/<int:prepared_id>/creer/", batches.prepared_create,
         name="prepared_create"),
]  # fmt: skip
