#!/usr/bin/env bash
# Start a Tirage Celery worker: `deploy/celery.sh [tops|batch|all] [extra celery options]`.
#
#   tops   the queue of top computations and round recomputes: short tasks a round waits
#          for, so several processes and no prefetch (one task at a time per process);
#   batch  batch work (preparing pre-drawn games, whole-game recomputes): long tasks, a
#          separate worker so a batch of 50 games never delays a top;
#   all    one worker on both queues (a single small machine, deploy/stack).
#
# Reliability (tournaments/settings.py): acks_late + reject_on_worker_lost, prefetch 1, so a
# worker killed during a task leaves the message to be delivered again; every task takes
# ids and is idempotent (a stored top is returned as is). Time limits: per task (compute_top
# 60 s soft / 90 s hard, batch tasks 540/600 s) and CELERY_TASK_*_TIME_LIMIT by default.
set -euo pipefail
cd "$(dirname "$0")/.."

role="${1:-all}"
shift || true
python="${TIRAGE_PYTHON:-.venv/bin/python}"
tops="${TIRAGE_TOPS_QUEUE:-tops}"
batch="${TIRAGE_BATCH_QUEUE:-batch}"
default_queue="${TIRAGE_CELERY_QUEUE:-tirage}"
host="$(hostname)"

case "$role" in
tops)
	queues="$tops,$default_queue"
	concurrency="${CELERY_TOPS_CONCURRENCY:-$(nproc)}"
	;;
batch)
	queues="$batch"
	concurrency="${CELERY_BATCH_CONCURRENCY:-$(nproc)}"
	;;
all)
	queues="$tops,$batch,$default_queue"
	concurrency="${CELERY_CONCURRENCY:-$(nproc)}"
	;;
*)
	echo "usage: $0 [tops|batch|all] [celery worker options]" >&2
	exit 2
	;;
esac

# Prometheus multiprocess mode (tournaments/metrics.py): the directory the web reads too.
[ -z "${PROMETHEUS_MULTIPROC_DIR:-}" ] || mkdir -p "$PROMETHEUS_MULTIPROC_DIR"

# The same name twice (TIRAGE_CELERY_QUEUE=tops) is listed once.
queues="$(printf '%s\n' "${queues//,/$'\n'}" | awk 'NF && !seen[$0]++' | paste -sd, -)"

# -Ofair: hand a task only to an idle process (long batch tasks never queue behind a top).
# --max-tasks-per-child bounds memory (each process keeps its lexicon loaded).
exec "$python" -m celery -A "${TIRAGE_CELERY_APP:-tournaments}" worker \
	--queues "$queues" --hostname "tirage-$role@$host" \
	--concurrency "$concurrency" --prefetch-multiplier 1 -O fair \
	--max-tasks-per-child "${CELERY_MAX_TASKS_PER_CHILD:-1000}" \
	--loglevel "${LOG_LEVEL:-info}" "$@"
