"""Gunicorn configuration for Tirage (``gunicorn -c deploy/gunicorn.conf.py``).

Every value comes from the environment so the same file serves the systemd unit, the
container and ``deploy/stack``. Sync workers, one per core by default: tablets poll with
short conditional requests (docs/live-updates.md), so no request holds a worker for long,
and ``bench/tablets.py`` measured one sync worker per core as the best setting on 2 cores.
A tablet's move (the submissions' fast lane) waits on the database's commit: where the disk
is slow or shared, more workers (GUNICORN_WORKERS=4 to 8 on 2 cores) keep the cores busy
through the moves' peak (docs/benchmarks.md, "Session 7: the lane at 300/s").
"""

import multiprocessing
import os

wsgi_app = os.environ.get("GUNICORN_WSGI_APP", "tournaments.wsgi:application")

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
# The application is NOT preloaded in the master: a HUP (`systemctl reload tirage-web`)
# then starts new workers that import the code on disk, and the old ones finish their
# requests: an upgrade's new code is served without dropping a connection. (Preloaded, a
# HUP would fork the master's old code again.) GUNICORN_PRELOAD=true trades that for
# faster worker starts; reload then needs a restart.
preload_app = os.environ.get("GUNICORN_PRELOAD", "false").lower() in {"1", "true", "yes"}
# A request (the longest is a ranking page or an inline top) never needs 30 s; a stuck
# worker is killed and replaced by the master.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle workers now and then (bounded memory growth), not all at once. Rarely: a new
# worker starts cold (imports, the lexicon, the judgement and round caches), and workers
# sharing a load reach the count together. At 5,000 an event's 4 workers (bench/
# stack_event.py, 5,000 players) recycled within 10 s every third round, and each wave
# made that round ~30 s longer (docs/benchmarks.md, "Session 8"); 100,000 is a few times
# an event day.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "100000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "10000"))
# Behind nginx on the same machine: trust its X-Forwarded-* headers only from loopback.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# Limits on what a client can send (the API bodies are small JSON documents).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

pidfile = os.environ.get("GUNICORN_PIDFILE") or None
# Prometheus multiprocess mode (tournaments/metrics.py): each worker writes its own files.
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)


def _control_socket() -> str:
    """One control socket (gunicornc) per instance: named after the bound port, in the
    service's runtime directory ($RUNTIME_DIRECTORY from systemd's RuntimeDirectory=,
    else beside the pid file), never the per-user default ~/.gunicorn/gunicorn.ctl that a
    second instance of the same user would take over and remove."""
    explicit = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
    if explicit:
        return explicit
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    directory = runtime or (os.path.dirname(pidfile) if pidfile else "")
    if not directory:
        return ""
    name = bind[0].rsplit(":", 1)[-1] if ":" in bind[0] else os.path.basename(bind[0])
    return os.path.join(directory, f"gunicorn-{name}.ctl")


control_socket = _control_socket() or "off"
# No directory of its own (a bare `gunicorn -c` in a shell): no control socket at all.
control_socket_disable = control_socket == "off"
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
errorlog = os.environ.get("GUNICORN_ERRORLOG", "-")
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# Path without query string. Tablet URLs carry the player's token (/tablette/<token>/):
# the access log is as private as the database (mode 0640, owned by the service user).
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms "%(a)s"'
proc_name = "tirage-web"


def child_exit(server, worker) -> None:  # noqa: ANN001 - gunicorn's hook signature
    """Prometheus multiprocess mode: drop the dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
