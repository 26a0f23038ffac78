"""Issue 15: the console's settings page (every setting, the fixed ones read-only with their
reason), a club's word list compiled by the worker with its progress, the new-tournament
form that requires a lexicon, and the tournament's language on the projector and tablets.
Django's client, French pages, 4xx with a reason on bad input, never ``/admin/``."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from engine.duplicate.variants import VARIANTS
from tournaments.models import ArbiterMembership, AuditLog, Lexicon, LexiconBuild, Tournament
from tournaments.services import game_create, registration_token_issue, round_draw
from tournaments.tablet import views as tablet_views

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _uploads_in_tmp(settings, tmp_path: Path) -> None:
    """Uploaded word lists and the lexicons built from them land in the test's folder."""
    settings.VAR_DIR = tmp_path


@pytest.fixture
def head(client: Client, tournament_setup) -> Client:
    client.force_login(tournament_setup["arbiter"])
    return client


def _form(tournament: Tournament, **changes) -> dict:
    """The settings form as the page sends it, with ``changes``."""
    data = {
        "name": tournament.name, "description": tournament.description, "starts_on": "",
        "ends_on": "", "lexicon_id": str(tournament.lexicon_id),
        "variant_code": tournament.variant_code, "seconds_per_move": "",
        "warning_before_end": "", "warning_penalty_from": "", "solo_value": tournament.solo_value,
        "solo_min_players": tournament.solo_min_players, "tie_break": tournament.tie_break,
        "language": tournament.language,
    }  # fmt: skip
    if tournament.score_required:
        data["score_required"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_settings_page_shows_every_setting_in_french(head, tournament_setup) -> None:
    t = tournament_setup["tournament"]
    page = head.get(reverse("console:settings", args=[t.slug]))
    body = page.content.decode()
    assert page.status_code == 200 and "Réglages du tournoi" in body
    for label in (
        "Date de début",
        "Lexique",
        "Formule",
        "Secondes par coup",
        "Valeur du solo",
        "Joueurs minimum pour un solo",
        "Score obligatoire",
        "Départage",
        "Classement public",
        "Langue",
        "Liste de mots du club",
    ):
        assert label in body, label  # fmt: skip
    # The formulas offered are the engine's registry, whatever their codes are named.
    offered = re.findall(r'<option value="([^"]+)"', body.split('name="variant_code"')[1])
    assert offered[: len(VARIANTS)] == list(VARIANTS)
    assert "/admin/" not in body and "disabled" not in body.split("<form")[1].split("</form>")[0]
    ids = re.findall(r' id="([^"]+)"', body)
    assert len(ids) == len(set(ids)), "two elements share an id (the two forms' fields)"


def test_the_head_arbiter_saves_settings_through_the_service(head, tournament_setup) -> None:
    t = tournament_setup["tournament"]
    url = reverse("console:settings", args=[t.slug])
    response = head.post(url, _form(t, name="Open d'hiver", solo_value="5", language="en",
                                    starts_on="2026-12-05", seconds_per_move="120",
                                    public_rankings="on"), follow=True)  # fmt: skip
    assert response.status_code == 200 and "Réglages enregistrés." in response.content.decode()
    t.refresh_from_db()
    assert (t.name, t.solo_value, t.language, t.seconds_per_move, t.public_rankings) == (
        "Open d'hiver", 5, "en", 120, True)  # fmt: skip
    row = AuditLog.objects.get(action="tournament.update")
    assert row.payload["changes"]["solo_value"] == [10, 5]
    # The console stays in the arbiter's language (French): only the room's pages change.
    assert "Réglages du tournoi" in response.content.decode()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"solo_value": "abc"}, "Saisissez un nombre entier."),
        ({"solo_value": "101"}, "inférieure ou égale à 100"),
        ({"solo_value": "٣"}, "Saisissez un nombre entier."),
        ({"seconds_per_move": "0"}, "supérieure ou égale à 1"),
        ({"language": "de"}, "Sélectionnez un choix valide"),
        ({"variant_code": "nope"}, "Sélectionnez un choix valide"),
        ({"lexicon_id": "999999"}, "Sélectionnez un choix valide"),
        ({"starts_on": "hier"}, "Saisissez une date valide."),
        ({"name": ""}, "Ce champ est obligatoire."),
        ({"starts_on": "2026-12-06", "ends_on": "2026-12-05"},
         "La date de fin ne peut pas précéder la date de début."),
    ],
)  # fmt: skip
def test_bad_settings_are_a_400_with_the_reason(head, tournament_setup, changes, reason) -> None:
    t = tournament_setup["tournament"]
    response = head.post(reverse("console:settings", args=[t.slug]), _form(t, **changes))
    body = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 400 and reason in body
    assert Tournament.objects.get(pk=t.pk).name == t.name
    assert not AuditLog.objects.filter(action="tournament.update").exists()


def test_only_the_head_arbiter_changes_settings(client, tournament_setup, django_user_model):
    t = tournament_setup["tournament"]
    url = reverse("console:settings", args=[t.slug])
    assert client.get(url).status_code == 302  # to the login page
    second = django_user_model.objects.create_user("second")
    ArbiterMembership.objects.create(user=second, tournament=t, role="arbiter")
    client.force_login(second)
    page = client.get(url).content.decode()
    assert "lecture seule" in page and "Enregistrer les réglages" not in page
    assert client.post(url, _form(t, name="X")).status_code == 403
    client.force_login(django_user_model.objects.create_user("dehors"))
    assert client.get(url).status_code == 403
    assert client.put(url).status_code in {403, 405}


def test_a_drawn_round_shows_lexicon_and_formula_read_only_with_the_reason(
    head, tournament_setup, tmp_path: Path
) -> None:
    t = tournament_setup["tournament"]
    formula = t.variant_code
    assert formula != "blitz"
    game = game_create(tournament_id=t.pk, seed=7, actor=tournament_setup["arbiter"])
    round_draw(game_id=game.pk, actor=tournament_setup["arbiter"])
    url = reverse("console:settings", args=[t.slug])
    body = head.get(url).content.decode().replace("&#x27;", "'")
    assert re.search(r'<select name="lexicon_id"[^>]*disabled', body)
    assert re.search(r'<select name="variant_code"[^>]*disabled', body)
    assert not re.search(r'<input type="number" name="solo_value"[^>]*disabled', body)
    assert "le coup 1 de la partie 1 a déjà été tiré avec ce réglage" in body
    # A tampered form cannot change them: Django keeps a disabled field's value.
    response = head.post(url, _form(t, variant_code="blitz", solo_value="7"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.variant_code, t.solo_value) == (formula, 7)


def test_a_club_word_list_is_compiled_by_the_worker(
    head, tournament_setup, eager_celery, django_capture_on_commit_callbacks
) -> None:
    t = tournament_setup["tournament"]
    words = "maison\nchat\nÉTÉ\nchat\nx\n12\n".encode()
    upload = SimpleUploadedFile("ods-club.txt.gz", gzip.compress(words))
    with django_capture_on_commit_callbacks(execute=True):
        response = head.post(reverse("console:lexicon_upload", args=[t.slug]),
                             {"liste-name": "ODS du club", "liste-file": upload})  # fmt: skip
    assert response.status_code == 302
    build = LexiconBuild.objects.get()
    assert (build.state, build.progress, build.rejected) == ("done", 100, 2)  # "x" and "12"
    assert (build.lexicon.name, build.lexicon.word_count) == ("ODS du club", 3)  # CHAT once
    status = head.get(reverse("console:lexicon_build_status", args=[build.pk])).json()
    assert status == {"id": build.pk, "state": "done", "progress": 100,
                      "lexicon": build.lexicon.pk, "rejected": 2, "error_code": ""}  # fmt: skip
    body = head.get(reverse("console:settings", args=[t.slug])).content.decode()
    assert "prête : 3 mots" in body and "2 lignes écartées" in body
    assert f'<option value="{build.lexicon.pk}">ODS du club' in body
    rows = AuditLog.objects.filter(object_type="lexiconbuild")
    actions = list(rows.values_list("action", flat=True))
    assert actions == ["lexicon.upload", "lexicon.build_done"]
    # Chosen on the settings page like any other lexicon.
    head.post(reverse("console:settings", args=[t.slug]), _form(t, lexicon_id=build.lexicon.pk))
    assert Tournament.objects.get(pk=t.pk).lexicon == build.lexicon


def test_a_bad_word_list_fails_with_a_french_reason(
    head, tournament_setup, eager_celery, django_capture_on_commit_callbacks
) -> None:
    t = tournament_setup["tournament"]
    url = reverse("console:lexicon_upload", args=[t.slug])
    with django_capture_on_commit_callbacks(execute=True):
        head.post(
            url, {"liste-name": "Latin-1", "liste-file": SimpleUploadedFile("l.txt", b"caf\xe9\n")}
        )
    assert LexiconBuild.objects.get().state == "failed"
    body = head.get(reverse("console:settings", args=[t.slug])).content.decode()
    assert "La ligne 1 de la liste n&#x27;est pas en UTF-8" in body
    empty = head.post(
        url, {"liste-name": "Vide", "liste-file": SimpleUploadedFile("v.txt", b"\n\n")}
    )
    assert (
        empty.status_code == 400 and "La liste de mots envoyée est vide." in empty.content.decode()
    )
    assert head.post(url, {"liste-name": "Sans fichier"}).status_code == 400
    assert LexiconBuild.objects.count() == 1


def test_a_new_tournament_needs_a_lexicon_and_starts_on_the_default(
    client, django_user_model, conformance_lexicon_file, settings
) -> None:
    settings.TIRAGE_LEXICON = conformance_lexicon_file
    client.force_login(django_user_model.objects.create_superuser("chef", password="z"))
    page = client.get(reverse("console:index")).content.decode()
    assert '<option value="default" selected>Lexique libre par défaut du site</option>' in page
    assert "<title>Mes tournois · Tirage</title>" in page
    missing = client.post(reverse("console:index"), {"name": "Open", "slug": "open"})
    assert missing.status_code == 400 and "Ce champ est obligatoire." in missing.content.decode()
    created = client.post(reverse("console:index"),
                          {"name": "Open", "slug": "open", "lexicon": "default"})  # fmt: skip
    assert created.status_code == 302
    lexicon = Tournament.objects.get(slug="open").lexicon
    assert lexicon is not None and lexicon.path == str(conformance_lexicon_file)
    # Registered now: offered by its id, still preselected.
    page = client.get(reverse("console:index")).content.decode()
    assert f'<option value="{lexicon.pk}" selected>' in page and 'value="default"' not in page
    assert Lexicon.objects.count() == 1


def test_projector_and_tablets_speak_the_tournament_language(client, tournament_setup) -> None:
    t = tournament_setup["tournament"]
    reg = t.registrations.get(table_number=1)
    token = registration_token_issue(registration_id=reg.pk, actor=tournament_setup["arbiter"])
    french = {"Accept-Language": "fr"}
    for url in (f"/projecteur/{t.slug}/", f"/tablette/{token}/"):
        assert '<html lang="fr">' in client.get(url, headers=french).content.decode()
    Tournament.objects.filter(pk=t.pk).update(language="en")
    tablet_views._LANGUAGES.clear()  # each process re-reads it every few seconds
    for url in (f"/projecteur/{t.slug}/", f"/tablette/{token}/"):
        assert '<html lang="en">' in client.get(url, headers=french).content.decode(), url
    assert '<html lang="fr">' in client.get(f"/projecteur/{t.slug}/?langue=fr").content.decode()
    # An unknown token still answers in the site's language.
    assert '<html lang="fr">' in client.get("/tablette/inconnu/").content.decode()


def test_hostile_values_are_4xx_or_escaped_never_500(head, tournament_setup) -> None:
    t = tournament_setup["tournament"]
    huge = "9" * 40
    settings_url = reverse("console:settings", args=[t.slug])
    for changes in (
        {"solo_value": huge},
        {"seconds_per_move": huge},
        {"starts_on": huge},
        {"name": "N" * 201},
        {"lexicon_id": huge},
    ):
        assert head.post(settings_url, _form(t, **changes)).status_code == 400, changes  # fmt: skip
    for name in ("remove", "handover"):
        url = reverse(f"console:arbiter_{name}", args=[t.slug])
        assert head.post(url, {"user": huge}).status_code == 404
    arbiters_url = reverse("console:arbiters", args=[t.slug])
    assert head.post(arbiters_url, {"login": "<b>x@y"}).status_code == 400
    assert head.post(arbiters_url, {"login": huge * 5}).status_code == 400
    assert head.get(reverse("console:lexicon_build_status", args=[10**9])).status_code == 404
    response = head.post(settings_url, _form(t, name="<b>Unclosed"), follow=True)
    body = response.content.decode()
    assert response.status_code == 200 and "&lt;b&gt;Unclosed" in body and "<b>Unclosed" not in body


def test_a_tablet_reads_its_language_at_most_every_few_seconds(tournament_setup, monkeypatch):
    t = tournament_setup["tournament"]
    reg = t.registrations.get(table_number=1)
    token = registration_token_issue(registration_id=reg.pk, actor=tournament_setup["arbiter"])
    tablet_views._LANGUAGES.clear()
    assert tablet_views.tablet_language(token) == "fr"
    Tournament.objects.filter(pk=t.pk).update(language="en")
    assert tablet_views.tablet_language(token) == "fr"  # cached: no query per poll
    monkeypatch.setattr(tablet_views, "LANGUAGE_SECONDS", 0.0)
    assert tablet_views.tablet_language(token) == "en"
    assert tablet_views.tablet_language("inconnu") is None
    monkeypatch.setattr(tablet_views, "_LANGUAGES_KEPT", 1)
    tablet_views.tablet_language(token)
    assert len(tablet_views._LANGUAGES) == 1  # bounded


def test_a_classic_tournament_shows_its_classic_settings_not_the_duplicate_ones(
    head, tournament_setup
) -> None:
    from tournaments.services import classic as classic_svc

    t, arbiter = tournament_setup["tournament"], tournament_setup["arbiter"]
    classic_svc.classic_event_create(tournament_id=t.pk, rounds_planned=5, actor=arbiter)
    classic_svc.classic_event_update(
        tournament_id=t.pk, actor=arbiter, bye_spread=40, tie_breaks=["points", "buchholz"]
    )
    url = reverse("console:settings", args=[t.slug])
    body = head.get(url).content.decode()
    form = body.split('id="settings-form"')[1].split("</form>")[0]
    # The duplicate formula's settings are gone...
    for name in ("variant_code", "seconds_per_move", "solo_value", "score_required", "tie_break"):
        assert f'name="{name}"' not in form, name
    assert "Valeur du solo" not in form and "Secondes par coup" not in form
    # ... and the classic ones are shown, as set: Swiss, 5 rounds, a bye worth a win and
    # +40, a forfeit +50 (the default), points then Buchholz after wins and spread.
    classic = " ".join(form.split('id="classic-settings"')[1].split())
    for text in (
        "<dt>Appariement</dt><dd>système suisse</dd>",
        "<dt>Nombre de rondes</dt><dd>5</dd>",
        "<dt>Un exempt compte</dt><dd>une victoire</dd>",
        "<dt>Écart d&#x27;un exempt</dt><dd>40</dd>",
        "<dt>Écart d&#x27;un forfait</dt><dd>50</dd>",
        "points marqués, Buchholz (somme des victoires des adversaires)",
        "ex aequo",
    ):
        assert text in classic, text
    assert reverse("classic:event", args=[t.slug]) in classic
    # The shared settings still save, without the duplicate fields.
    data = {"name": "Open classique", "description": "", "starts_on": "", "ends_on": "",
            "lexicon_id": str(t.lexicon_id), "language": "fr"}  # fmt: skip
    response = head.post(url, data, follow=True)
    assert response.status_code == 200 and "Réglages enregistrés." in response.content.decode()
    t.refresh_from_db()
    assert t.name == "Open classique"
