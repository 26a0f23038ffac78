"""``manage.py tirage_setup`` and ``manage.py check``."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Registration, Tournament

LOGIN = "identifiant : arbitre, mot de passe : arbitre"


@pytest.fixture(autouse=True)
def demo_lexicon(settings, conformance_lexicon_file: Path) -> Path:
    """The demo is built on the conformance word list (``make run`` uses var/lexicons/)."""
    settings.TIRAGE_LEXICON = conformance_lexicon_file
    return conformance_lexicon_file


def setup(*args: str) -> str:
    out = StringIO()
    call_command("tirage_setup", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_setup_is_idempotent_and_prints_the_login() -> None:
    first = setup()
    assert "« Tournoi de démonstration » créé" in first
    assert "liste libre et non officielle, en remplacement de l'ODS" in first
    assert "Compte arbitre « arbitre » créé" in first
    assert LOGIN in first
    assert "http://127.0.0.1:8000/arbitre/connexion/" in first

    second = setup()
    assert "déjà présent" in second
    assert "existe déjà" in second
    assert LOGIN in second

    assert Tournament.objects.count() == 1
    arbiter = get_user_model().objects.get(username="arbitre")
    assert arbiter.is_superuser and arbiter.is_staff
    assert arbiter.check_password("arbitre")
    demo = Tournament.objects.get(slug="demo")
    assert demo.arbiters.get().user == arbiter
    assert demo.registrations.count() == 20


@pytest.mark.django_db
def test_setup_prints_the_addresses_to_try() -> None:
    output = setup("--base-url", "http://127.0.0.1:8811/")
    game = Tournament.objects.get(slug="demo").games.get()
    for path in (
        "/arbitre/",
        f"/arbitre/partie/{game.pk}/",
        "/arbitre/tournoi/demo/classement/",
        "/projecteur/demo/",
        "/api/docs/",
    ):
        assert f"http://127.0.0.1:8811{path}\n" in output, path
    tokens = Registration.objects.order_by("table_number").values_list("access_token", flat=True)
    assert f"http://127.0.0.1:8811/tablette/{tokens[0]}/" in output
    assert f"http://127.0.0.1:8811/tablette/{tokens[1]}/" in output
    assert f"/tablette/{tokens[2]}/" not in output
    assert "Le coup 5 est tiré, pas encore ouvert" in output
    links = output[output.index("À ouvrir") :]
    assert setup("--base-url", "http://127.0.0.1:8811").endswith(links)  # the same, again


@pytest.mark.django_db
def test_setup_retires_the_old_empty_demo_fixture() -> None:
    Tournament.objects.create(slug="demonstration", name="Tournoi de démonstration")
    output = setup()
    assert "Ancienne démonstration vide « demonstration » retirée." in output
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["demo"]


@pytest.mark.django_db
def test_a_missing_lexicon_says_how_to_build_it(settings, tmp_path: Path) -> None:
    settings.TIRAGE_LEXICON = tmp_path / "absent.lex"
    with pytest.raises(CommandError) as excinfo:
        setup()
    assert excinfo.value.returncode == 2
    assert f"Le lexique {tmp_path / 'absent.lex'} est absent" in str(excinfo.value)
    assert "make lexicon" in str(excinfo.value)
    assert not Tournament.objects.exists()
    assert not get_user_model().objects.exists()
    assert "Compte arbitre « arbitre » créé" in setup("--no-demo")  # no lexicon needed


@pytest.mark.django_db
def test_setup_hides_a_changed_password() -> None:
    setup()
    arbiter = get_user_model().objects.get(username="arbitre")
    arbiter.set_password("un autre secret bien long")
    arbiter.save()
    output = setup()
    assert "mot de passe : (non affiché)" in output
    assert "mot de passe : arbitre" not in output


@pytest.mark.django_db
def test_setup_without_demo() -> None:
    assert "Démonstration" not in setup("--no-demo")
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_production_refuses_the_development_password(settings, monkeypatch) -> None:
    settings.TIRAGE_ENV = "production"
    monkeypatch.delenv("TIRAGE_ARBITER_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="mot de passe de développement est refusé"):
        setup()
    monkeypatch.setenv("TIRAGE_ARBITER_PASSWORD", "arbitre")
    with pytest.raises(CommandError, match="refusé en production"):
        setup()
    assert not get_user_model().objects.exists()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_production_takes_the_password_from_the_environment(settings, monkeypatch) -> None:
    settings.TIRAGE_ENV = "production"
    monkeypatch.setenv("TIRAGE_ARBITER_PASSWORD", "Correct-Horse-Battery-Staple-42")
    output = setup()
    assert "mot de passe : (non affiché)" in output
    arbiter = get_user_model().objects.get(username="arbitre")
    assert arbiter.check_password("Correct-Horse-Battery-Staple-42")
    assert not Tournament.objects.exists()  # production: no demo unless asked
    assert "« Tournoi de démonstration » créé" in setup("--demo")


@pytest.mark.parametrize("username", ["", "   ", "pas valide !"])
def test_bad_username_is_a_usage_error(username: str) -> None:
    with pytest.raises(CommandError) as excinfo:
        setup("--username", username)
    assert excinfo.value.returncode == 2
    assert "--username" in str(excinfo.value)


def test_bad_arguments_exit_2_from_the_command_line(run_cli) -> None:
    result = run_cli("manage.py", "tirage_setup", "--username", "pas valide !")
    assert result.returncode == 2
    assert "--username 'pas valide !' est invalide" in result.stderr
    unknown = run_cli("manage.py", "tirage_setup", "--bogus")
    assert unknown.returncode == 2
    assert "unrecognized arguments: --bogus" in unknown.stderr


def test_manage_check_is_clean(run_cli) -> None:
    result = run_cli("manage.py", "check")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.django_db
def test_summary_file_holds_the_login_and_links_and_the_server_prints_them_last(
    tmp_path: Path,
) -> None:
    from tournaments.management.commands.tirage_serve import Command as Serve

    summary = tmp_path / "run-summary.txt"
    output = setup("--base-url", "http://127.0.0.1:8811", "--summary", str(summary))
    written = summary.read_text(encoding="utf-8")
    assert "« Tournoi de démonstration » créé" in output  # status lines stay on stdout
    assert LOGIN not in output and "À ouvrir" not in output
    assert LOGIN in written and "http://127.0.0.1:8811/projecteur/demo/\n" in written

    serve, out = Serve(stdout=StringIO()), None
    serve.summary_path, serve.addr, serve._raw_ipv6, serve.protocol = (
        summary,
        "127.0.0.1",
        False,
        "http",
    )
    serve.on_bind(8811)
    out = serve.stdout._out.getvalue()
    banner_end = out.index("Starting development server at http://127.0.0.1:8811/")
    ready = out.index("Tirage est prêt.")
    assert banner_end < ready
    tail = out[ready:]
    assert LOGIN in tail
    for line in written.splitlines():
        if line.startswith("  "):  # every link, whole, after the banner
            assert f"  {line}\n" in tail, line
    assert tail.rstrip().endswith("=" * 60)
    # A wrapped sentence never starts a line with French punctuation (« ; les tablettes »),
    # and the arbiter is sent to the console, not to Django's admin.
    assert not [ln for ln in tail.splitlines() if ln.strip()[:1] in {";", ":", "!", "?", "»"}]
    assert "/admin/" not in tail


def test_setup_on_the_embedded_profile_prints_no_warning(
    run_cli, conformance_lexicon_file: Path, tmp_path: Path
) -> None:
    """What ``make run`` shows: no kombu warning, no Celery line per task, nothing on stderr."""
    env = {"TIRAGE_LEXICON": str(conformance_lexicon_file)}
    migrate = run_cli("manage.py", "migrate", "--noinput", "--verbosity", "0", env=env)
    assert migrate.returncode == 0, migrate.stderr
    result = run_cli(
        "manage.py", "tirage_setup", "--summary", str(tmp_path / "summary.txt"), env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 2, lines  # two status lines; the login and links went to the file
    assert lines[0] == "Compte arbitre « arbitre » créé."
    assert lines[1].startswith("Démonstration : « Tournoi de démonstration » créé (20 joueurs")
