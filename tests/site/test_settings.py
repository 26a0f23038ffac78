"""The settings profiles, each loaded in a fresh interpreter with its own environment."""

from __future__ import annotations

from pathlib import Path

PRODUCTION = {
    "TIRAGE_ENV": "production",
    "SECRET_KEY": "x" * 60,
    "ALLOWED_HOSTS": "tirage.example.org",
}


def test_embedded_default_needs_no_service(load_settings, clean_env) -> None:
    values = load_settings(
        "DEBUG",
        "DATABASES",
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_TASK_EAGER_PROPAGATES",
        "CELERY_BROKER_URL",
        "LANGUAGE_CODE",
        "LANGUAGES",
        "TIME_ZONE",
        "USE_TZ",
        "TIRAGE_ENV",
        "TIRAGE_LEXICON",
    )["settings"]
    var_dir = Path(clean_env["TIRAGE_VAR_DIR"])
    assert values["TIRAGE_ENV"] == "development"
    assert values["DEBUG"] is True
    assert values["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(values["DATABASES"]["default"]["NAME"]).parent == var_dir.resolve()
    assert var_dir.is_dir()
    assert values["TIRAGE_LEXICON"] == str(var_dir.resolve() / "lexicons" / "fr-libre.lex")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True
    assert values["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert values["CELERY_BROKER_URL"] == "memory://localhost/"
    assert values["LANGUAGE_CODE"] == "fr"
    assert [code for code, _ in values["LANGUAGES"]] == ["fr", "en"]
    assert values["TIME_ZONE"] == "Europe/Paris"
    assert values["USE_TZ"] is True


def test_service_urls_select_postgresql_and_redis(load_settings) -> None:
    env = {
        "DATABASE_URL": "postgres://tirage:pw@db.example:5433/tirage",
        "REDIS_URL": "redis://cache.example:6379/3",
    }
    values = load_settings(
        "DATABASES",
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_BROKER_URL",
        "CELERY_RESULT_BACKEND",
        env=env,
    )["settings"]
    database = values["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.example", 5433, "tirage")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    assert values["CELERY_BROKER_URL"] == env["REDIS_URL"]
    assert values["CELERY_RESULT_BACKEND"] == env["REDIS_URL"]


def test_celery_defaults(load_settings) -> None:
    values = load_settings(
        "CELERY_TASK_ACKS_LATE",
        "CELERY_WORKER_PREFETCH_MULTIPLIER",
        "CELERY_TASK_SERIALIZER",
        "CELERY_ACCEPT_CONTENT",
        "CELERY_TASK_TIME_LIMIT",
        "CELERY_TASK_SOFT_TIME_LIMIT",
    )["settings"]
    assert values["CELERY_TASK_ACKS_LATE"] is True
    assert values["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1
    assert values["CELERY_TASK_SERIALIZER"] == "json"
    assert values["CELERY_ACCEPT_CONTENT"] == ["json"]
    assert 0 < values["CELERY_TASK_SOFT_TIME_LIMIT"] < values["CELERY_TASK_TIME_LIMIT"]


def test_production_requires_secret_key(load_settings) -> None:
    env = {key: value for key, value in PRODUCTION.items() if key != "SECRET_KEY"}
    error = load_settings("DEBUG", env=env)["error"]
    assert "SECRET_KEY must be set" in error
    assert "TIRAGE_ENV=production" in error


def test_production_refuses_the_development_key(load_settings) -> None:
    env = {**PRODUCTION, "SECRET_KEY": ""}
    assert "SECRET_KEY must be set" in load_settings("DEBUG", env=env)["error"]


def test_production_requires_strict_allowed_hosts(load_settings) -> None:
    missing = {key: value for key, value in PRODUCTION.items() if key != "ALLOWED_HOSTS"}
    assert "ALLOWED_HOSTS must list" in load_settings("DEBUG", env=missing)["error"]
    wildcard = {**PRODUCTION, "ALLOWED_HOSTS": "*"}
    assert "must not contain '*'" in load_settings("DEBUG", env=wildcard)["error"]


def test_production_refuses_debug(load_settings) -> None:
    error = load_settings("DEBUG", env={**PRODUCTION, "DEBUG": "true"})["error"]
    assert "DEBUG must be off" in error


def test_production_security_flags(load_settings) -> None:
    values = load_settings(
        "DEBUG",
        "ALLOWED_HOSTS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_CONTENT_TYPE_NOSNIFF",
        env=PRODUCTION,
    )["settings"]
    assert values["DEBUG"] is False
    assert values["ALLOWED_HOSTS"] == ["tirage.example.org"]
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] >= 3600 * 24 * 30
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True


def test_production_ssl_redirect_is_configurable(load_settings) -> None:
    env = {**PRODUCTION, "SECURE_SSL_REDIRECT": "false"}
    assert load_settings("SECURE_SSL_REDIRECT", env=env)["settings"]["SECURE_SSL_REDIRECT"] is False


def test_malformed_values_are_refused_with_a_sentence(load_settings) -> None:
    staging = load_settings("DEBUG", env={"TIRAGE_ENV": "staging"})["error"]
    assert "TIRAGE_ENV='staging' is unknown" in staging
    maybe = load_settings("DEBUG", env={"DEBUG": "maybe"})["error"]
    assert "DEBUG='maybe' is not a boolean" in maybe


def test_log_lines_carry_their_utc_offset() -> None:
    """Django puts the process in TIME_ZONE (Paris); each line says which offset it is in."""
    import logging
    from datetime import UTC, datetime

    from django.conf import settings
    from django.utils.module_loading import import_string

    config = settings.LOGGING["formatters"]["plain"]
    formatter = import_string(config["()"])(config["format"])
    record = logging.LogRecord("tournaments", logging.WARNING, __file__, 1, "hello", (), None)
    record.created = datetime(2026, 11, 30, 18, 0, 5, 671_000, tzinfo=UTC).timestamp()
    assert formatter.format(record) == "2026-11-30 19:00:05.671+01:00 WARNING tournaments: hello"
    record.created = datetime(2026, 7, 1, 12, 0, tzinfo=UTC).timestamp()  # summer time
    assert formatter.format(record).startswith("2026-07-01 14:00:00.000+02:00 ")
