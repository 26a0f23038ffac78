"""The one settings module of Tirage, driven entirely by environment variables.

Two profiles, chosen by ``TIRAGE_ENV``:

* ``development`` (default): DEBUG on, a fixed insecure SECRET_KEY, local hosts allowed.
* ``production``: DEBUG off, SECRET_KEY and ALLOWED_HOSTS required, secure cookies, HSTS,
  HTTPS redirect (``SECURE_SSL_REDIRECT=false`` turns it off).

Independently of the profile, services are optional so that the whole site runs with none:

* no ``DATABASE_URL``: SQLite file under ``var/`` (``TIRAGE_VAR_DIR``);
* no ``REDIS_URL``: Celery runs tasks eagerly, in-process, and propagates their errors.

With ``DATABASE_URL=postgres://...`` and ``REDIS_URL=redis://...`` the site uses PostgreSQL and
a real Celery worker (broker and result backend on Redis). See ``docs/development.md``.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from tournaments.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Profile -------------------------------------------------------------------------------

TIRAGE_ENV = env_str("TIRAGE_ENV", "development").lower()
if TIRAGE_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(
        f"TIRAGE_ENV={TIRAGE_ENV!r} is unknown; use 'development' (default) or 'production'."
    )
PRODUCTION = TIRAGE_ENV == "production"

# Writable state (SQLite database, collected static files, lexicons) lives outside the code.
VAR_DIR = Path(env_str("TIRAGE_VAR_DIR", str(BASE_DIR / "var"))).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when TIRAGE_ENV=production; unset DEBUG.")

_DEV_SECRET_KEY = "django-insecure-tirage-development-only-never-use-this-key-in-production"
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when TIRAGE_ENV=production; generate one "
            "with: python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    SECRET_KEY = _DEV_SECRET_KEY
elif PRODUCTION and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY is the public development key; set a real secret.")

# Sealed games (docs/simultaneous.md): the AES key(s) their racks are encrypted with,
# comma-separated, the first one sealing (the others still open older seals, for a key
# rotation). Unset: derived from SECRET_KEY in development; in production sealing and
# releasing are refused until it is set (``manage.py check --deploy`` says so).
TIRAGE_SEAL_KEY = env_str("TIRAGE_SEAL_KEY")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if PRODUCTION:
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must list the site's host names (comma-separated) when "
            "TIRAGE_ENV=production, e.g. ALLOWED_HOSTS=tirage.example.org."
        )
    if "*" in ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must not contain '*' when TIRAGE_ENV=production.")
elif not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --- Applications --------------------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments.apps.TournamentsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournaments.headers.ContentSecurityPolicyMiddleware",
    "tournaments.login_guard.LoginThrottleMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.console.presence.ConsolePresenceMiddleware",
    "tournaments.console.time_zone.CentreTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tournaments.urls"
WSGI_APPLICATION = "tournaments.wsgi.application"
ASGI_APPLICATION = "tournaments.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.states",
            ],
        },
    },
]

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# --- Database ------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "tirage.sqlite3",
            # Writers take the lock when their transaction starts, and readers don't block
            # them (WAL): concurrent tablet submissions then wait instead of failing.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The arbiter console signs in on its own page (tournaments/console).
LOGIN_URL = "console:login"
LOGIN_REDIRECT_URL = "console:index"
LOGOUT_REDIRECT_URL = "console:login"

# --- Internationalisation: French first ----------------------------------------------------

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "tournaments" / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise) ---------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "tournaments.static_storage.StaticStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Security (production profile) ---------------------------------------------------------

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    if env_bool("TIRAGE_BEHIND_PROXY", default=False):
        # Only when a reverse proxy that sets X-Forwarded-Proto terminates TLS.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind our proxy, the client's address is the last one it adds to X-Forwarded-For.
TIRAGE_BEHIND_PROXY = env_bool("TIRAGE_BEHIND_PROXY", default=False)

# Django's admin is for developers: everything an arbiter does is in the console. Off by
# default in production (TIRAGE_ADMIN=true turns it on, behind the login throttling).
TIRAGE_ADMIN = env_bool("TIRAGE_ADMIN", default=not PRODUCTION)
# The API schema (/api/schema/) and its browsable docs (/api/docs/): public in development,
# arbiters only in production unless TIRAGE_API_DOCS_PUBLIC=true.
TIRAGE_API_DOCS_PUBLIC = env_bool("TIRAGE_API_DOCS_PUBLIC", default=not PRODUCTION)
# Failed sign-ins (console, admin, API token) before a pause, counted in the shared cache
# per user name and per address (tournaments/login_guard.py, docs/security.md).
TIRAGE_LOGIN_FAILURES_PER_USER = env_int("TIRAGE_LOGIN_FAILURES_PER_USER", 5)
TIRAGE_LOGIN_FAILURES_PER_ADDRESS = env_int("TIRAGE_LOGIN_FAILURES_PER_ADDRESS", 20)
TIRAGE_LOGIN_WINDOW_SECONDS = env_int("TIRAGE_LOGIN_WINDOW_SECONDS", 900)
# Content-Security-Policy of every page: nothing from another host, no inline script or
# style (tournaments/headers.py).
TIRAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

# --- Engine --------------------------------------------------------------------------------

# Default lexicon, built by `make lexicon` (python -m engine lexicon build-default -o FILE).
TIRAGE_LEXICON = Path(env_str("TIRAGE_LEXICON", str(VAR_DIR / "lexicons" / "fr-libre.lex")))

# --- Celery --------------------------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Embedded: tasks run in-process at .delay() time, and their exceptions surface. Eager
    # calls still open an in-memory connection: it gets a host so kombu does not warn.
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = env_str("TIRAGE_CELERY_QUEUE", "tirage")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task a dead worker machine had taken is handed out again after this delay (Redis's
# default, one hour, would leave a round without its top far too long).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900)}
# Separate queues for the tops of a running game and for batch work (deploy/celery.sh), only
# when the deployment names them: otherwise every task goes to the default queue.
_TOPS_QUEUE, _BATCH_QUEUE = env_str("TIRAGE_TOPS_QUEUE"), env_str("TIRAGE_BATCH_QUEUE")
CELERY_TASK_ROUTES = {
    **(
        {
            name: {"queue": _TOPS_QUEUE}
            for name in (
                "tournaments.compute_top",
                "tournaments.recompute_round",
                "tournaments.release_round",
                "tournaments.release_sweep_game",
                "tournaments.release_sweep",
            )
        }
        if _TOPS_QUEUE
        else {}
    ),
    **(
        {
            name: {"queue": _BATCH_QUEUE}
            for name in (
                "tournaments.prepare_game",
                "tournaments.recompute_game",
                "tournaments.build_report",
                "tournaments.build_lexicon",
            )
        }
        if _BATCH_QUEUE
        else {}
    ),
}

# --- Cache: shared by every web process when Redis is there (player rate limits) ----------

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tirage",
            # Fail fast when Redis is down: callers then carry on without the cache.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
TIRAGE_PLAYER_RATE_PER_MINUTE = env_int("TIRAGE_PLAYER_RATE_PER_MINUTE", 180)
# Tablets' moves through the queued ingestion path (services/arrivals.py): on in production
# (with Redis), off in the embedded profile; docs/api.md (202) and docs/capacity.md.
TIRAGE_QUEUED_PROPOSALS = env_bool(
    "TIRAGE_QUEUED_PROPOSALS", default=PRODUCTION and bool(REDIS_URL)
)
# Polls answered "nothing changed" from the cache alone (tournaments/live_versions.py);
# false: every poll takes the database path (a comparison, or a cache not trusted).
TIRAGE_LIVE_VERSIONS = env_bool("TIRAGE_LIVE_VERSIONS", default=True)
# Those 304s answered in front of Django's handler (tournaments/poll_lane.py, the WSGI
# entry point); false: they go through Django's middleware and views.
TIRAGE_POLL_LANE = env_bool("TIRAGE_POLL_LANE", default=True)
# A queued tablet move (TIRAGE_QUEUED_PROPOSALS) received in front of Django's handler
# (tournaments/proposal_lane.py); false: through Django and DRF.
TIRAGE_PROPOSAL_LANE = env_bool("TIRAGE_PROPOSAL_LANE", default=True)
# The lines of the game's ranking the projector's state carries (its top N; the count of
# players is sent beside them): 343 KiB a poll at 5,000 players when it carried them all.
TIRAGE_PROJECTOR_LINES = env_int("TIRAGE_PROJECTOR_LINES", 200)

# --- Documents -----------------------------------------------------------------------------

# Above this many cells (players x games covered) a document whose cost grows with the
# players is not built during the request: the console sends the arbiter to "Préparer" it
# on the worker (ReportJob), the API answers 409 document.by_worker (docs/reports.md).
TIRAGE_DOCUMENT_DIRECT_CELLS = env_int("TIRAGE_DOCUMENT_DIRECT_CELLS", 2000)

# --- API -----------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Arbiters: DRF token or the site's session; players: "Authorization: Player <token>".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "tournaments.api.auth.PlayerTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies only (the players' import alone takes a multipart file): one encoding
    # to validate, no form quirks such as an empty field read as "not given".
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Every error is a 4xx body {"code": ..., "detail": sentence} (tournaments.api.exceptions).
    "EXCEPTION_HANDLER": "tournaments.api.exceptions.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"token": "20/minute"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tirage API",
    "DESCRIPTION": (
        "Gestion de tournois de Scrabble duplicate (règles FISF). Arbitres : session ou "
        "`Authorization: Token <clé>` ; joueurs : `Authorization: Player <jeton>`. "
        'Chaque erreur est un 4xx `{"code": ..., "detail": phrase}`. Voir docs/api.md.'
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI comes from drf-spectacular-sidecar, served by the site itself:
    # nothing is loaded from another host (no CDN), so /api/docs/ works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI would otherwise ask validator.swagger.io about the schema.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.add_framework_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "tournaments.models.Game.KINDS",
        "GameStateEnum": "tournaments.models.Game.STATES",
        "RoundStateEnum": "tournaments.models.Round.STATES",
        "DecisionKindEnum": "tournaments.models.Decision.KINDS",
        "TieBreakEnum": "tournaments.services.registry.TIE_BREAKS",
        "CardSeatKindEnum": "tournaments.api.serializers_cards.SEAT_KINDS",
        "CardTableStateEnum": "tournaments.api.serializers_cards.TABLE_STATES",
        "CardEventKindEnum": "tournaments.api.serializers_cards.EVENT_KINDS",
    },
}

# --- Logging: everything to stderr ---------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        # Times carry their UTC offset (tournaments/logs.py): the clock may be in UTC.
        "plain": {
            "()": "tournaments.logs.ZonedFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        },
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        # runserver's request lines, stamped like the rest.
        "django.server": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
    },
}
if CELERY_TASK_ALWAYS_EAGER and not env_str("LOG_LEVEL"):
    # Embedded profile: tasks run inside the request or command; a line per task ("compute_top:
    # round 1 top 18", "Task ... succeeded") is worker chatter there. Warnings still show.
    for _name in ("celery", "tournaments.tasks", "tournaments.tasks_reports"):
        LOGGING["loggers"][_name] = {"level": "WARNING"}

# --- Health and metrics (tournaments/health.py, tournaments/metrics.py, docs/deploy.md) ----

# /healthz and /metrics answer first (before the host check and the HTTPS redirect);
# django-prometheus times everything else (django_http_* metrics).
INSTALLED_APPS += ["django_prometheus"]
MIDDLEWARE = [
    "tournaments.health.HealthMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    *MIDDLEWARE,
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
# Who may read /metrics (directly, not through the proxy): Prometheus on this machine.
TIRAGE_METRICS_ALLOWED_IPS = env_list("TIRAGE_METRICS_ALLOWED_IPS", ["127.0.0.1", "::1"])
