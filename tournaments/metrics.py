"""Prometheus metrics of Tirage (docs/deploy.md, "Monitoring").

Requests and latency come from django-prometheus's middleware (``django_http_*``). This
module adds what an operator of a tournament watches:

* ``tirage_proposals_total{source}``: proposals stored (tablet or arbiter); Prometheus's
  ``rate()`` of it is the proposals per second;
* ``tirage_top_computation_seconds``: time of one top search (engine + replay of the game),
  in the worker or inline in the web;
* ``tirage_task_seconds{task}``: duration of every Celery task, by name;
* ``tirage_queue_length{queue}``: messages waiting in each Celery queue, read from Redis at
  scrape time (a round waits on ``tops``);
* ``tirage_polls_fast_total{page}``: polls answered 304 by the WSGI fast lane
  (``tournaments.poll_lane``: tablet, projector, console) before Django, so before
  django-prometheus's middleware: :func:`fast_poll` also adds them to its request and
  status totals (not to its latency histograms);
* ``tirage_proposals_fast_total``: tablet moves answered 202 by the submissions' lane
  (``tournaments.proposal_lane``), counted the same way (:func:`fast_proposal`).

Several processes (gunicorn workers, Celery's pool) each count their own: with
``PROMETHEUS_MULTIPROC_DIR`` set (systemd units, compose, deploy/stack) prometheus_client
writes per-process files there and the ``/metrics`` view adds them up, the worker's too when
it shares the directory. Without it (development) the one process's registry is served.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from prometheus_client import Counter, Histogram

logger = logging.getLogger(__name__)

PROPOSALS = Counter("tirage_proposals", "Proposals stored (each version counted once).", ["source"])
TOP_SECONDS = Histogram(
    "tirage_top_computation_seconds",
    "Time of one top search: the game replayed and the best moves found.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 90),
)
TASK_SECONDS = Histogram(
    "tirage_task_seconds",
    "Duration of a Celery task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600),
)

FAST_POLLS = Counter(
    "tirage_polls_fast", "Polls answered 304 by the WSGI fast lane, before Django.", ["page"]
)
_fast: dict[str, list[Any]] = {}


FAST_PROPOSALS = Counter(
    "tirage_proposals_fast",
    "Tablet moves received (202) by the WSGI fast lane, before Django.",
)


def fast_poll(page: str) -> None:
    """Count one 304 of the fast lane: ours by page, and django-prometheus's totals of
    requests (GET) and responses (304) it would have counted."""
    _fast_count(page, lambda: FAST_POLLS.labels(page=page), "GET", "304")


def fast_proposal() -> None:
    """Count one 202 of the submissions' lane (``tournaments.proposal_lane``), as
    :func:`fast_poll` does."""
    _fast_count(":proposal", lambda: FAST_PROPOSALS, "POST", "202")


def _fast_count(name: str, ours: Any, method: str, status: str) -> None:
    counters = _fast.get(name)
    if counters is None:
        counters = [ours()]
        try:
            from django_prometheus.middleware import Metrics

            django = Metrics.get_instance()
            counters += [
                django.requests_total,
                django.responses_total,
                django.requests_by_method.labels(method=method),
                django.responses_by_status.labels(status=status),
            ]
        except Exception:  # noqa: BLE001 - without django-prometheus, our counter only
            logger.warning("metrics: django-prometheus's totals miss the fast lanes' answers")
        _fast[name] = counters
    for counter in counters:
        counter.inc()


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def queue_names() -> list[str]:
    """Every queue a Tirage worker reads (deploy/celery.sh), each once."""
    routed = [route["queue"] for route in settings.CELERY_TASK_ROUTES.values()]
    names = [settings.CELERY_TASK_DEFAULT_QUEUE, *routed, "tops", "batch"]
    return list(dict.fromkeys(name for name in names if name))


class QueueCollector:
    """``tirage_queue_length``: LLEN of each queue's Redis list (kombu's Redis transport
    keeps a queue's waiting messages in a list named after it). Nothing without Redis."""

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        family = GaugeMetricFamily(
            "tirage_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        client = redis_client()
        if client is not None:
            try:
                for name in queue_names():
                    family.add_metric([name], client.llen(name))
            except Exception:  # noqa: BLE001 - a scrape must not fail when Redis is down
                logger.warning("metrics: Redis did not answer the queue lengths")
                return
        yield family


_redis: dict[str, Any] = {}


def redis_client() -> Any:
    """One Redis client per process for REDIS_URL (short timeouts), or None without it."""
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if url not in _redis:
        import redis

        _redis[url] = redis.Redis.from_url(
            url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=30
        )
    return _redis[url]


def render() -> tuple[bytes, str]:
    """The exposition text of every metric of every process, and its content type."""
    from prometheus_client import (
        CONTENT_TYPE_LATEST,
        REGISTRY,
        CollectorRegistry,
        generate_latest,
        multiprocess,
    )

    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_Forward(REGISTRY))
    registry.register(QueueCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Forward:
    """The default registry's metrics inside another registry (single-process mode)."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def collect(self) -> Iterator[Any]:
        yield from self.source.collect()


def mark_process_dead(pid: int) -> None:
    """Drop a dead process's live gauges (gunicorn's child_exit, Celery's shutdown)."""
    if multiprocess_dir():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


# --- signals: proposals stored, tasks timed -----------------------------------------------

_task_started: dict[str, float] = {}


def _proposal_saved(sender: Any, instance: Any, created: bool, **_: Any) -> None:
    if created:
        from django.db import transaction

        source = getattr(instance, "source", "") or "unknown"
        transaction.on_commit(lambda: PROPOSALS.labels(source=source).inc())


def _task_prerun(task_id: str | None = None, **_: Any) -> None:
    if task_id:
        _task_started[task_id] = time.perf_counter()


def _task_postrun(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    started = _task_started.pop(task_id or "", None)
    if started is not None and task is not None:
        TASK_SECONDS.labels(task=task.name).observe(time.perf_counter() - started)


def _worker_process_shutdown(pid: int | None = None, **_: Any) -> None:
    mark_process_dead(pid or os.getpid())


def connect() -> None:
    """Hook the counters to Django's and Celery's signals (``TournamentsConfig.ready``)."""
    from celery import signals as celery_signals
    from django.db.models.signals import post_save

    from tournaments.models import ProposalVersion

    post_save.connect(_proposal_saved, sender=ProposalVersion, dispatch_uid="tirage-metrics")
    celery_signals.task_prerun.connect(_task_prerun, weak=False)
    celery_signals.task_postrun.connect(_task_postrun, weak=False)
    celery_signals.worker_process_shutdown.connect(_worker_process_shutdown, weak=False)
