#!/usr/bin/env bash
# Benchmarks of issue 15 (the durable job queue on db-scheduler), all in one run; prints Markdown tables (medians of
# RUNS runs) for bench/RESULTS.md:
#   1. pickup latency, submit → running (p50/p99): a node with a free worker (H2 and PostgreSQL), and a job submitted to
#      a node whose one worker is busy, run by a second node (two nodes, PostgreSQL + S3Proxy)
#   2. dispatch scaling: jobs/s of 1-s `test-sleep` jobs on 1 vs 3 nodes (same DOCAPI_WORKERS each)
#   3. before/after, alternating in the same run: rotate round trip and GET /v1/jobs/{id} (wrk) on one H2 node, the jar
#      of e46f7eb (in-memory dispatch) vs this checkout's
#
#   bench/queue.sh                        RUNS=3; BENCH_SECTIONS="compare local scaling remote" picks sections
#   JAR_NOW=... JAR_BEFORE=... bench/queue.sh   use jars built elsewhere
#
# Builds target/docapi.jar (with the test classes and target/s3proxy.jar) if missing, and the e46f7eb jar in a
# throw-away worktree if JAR_BEFORE is not given. Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust; PGHOST
# etc. override), wrk, curl, python3. Everything listens on 127.0.0.1. Its services, S3Proxy and database are removed
# at exit, also on failure.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export RUNS="${RUNS:-3}"
BEFORE_REV="${BEFORE_REV:-e46f7eb}"
for d in /usr/lib/jvm/temurin-25*; do [[ -x "$d/bin/java" ]] && export JAVA_HOME="$d"; done
command -v wrk >/dev/null || { echo "needs wrk (apt-get install -y wrk)" >&2; exit 1; }
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"

WORK="$(mktemp -d /tmp/docapi-bench-queue.XXXXXX)"
DB="bench_queue_$$"
DB_CREATED=""
cleanup() {
  local pids; pids="$(cat "$WORK/pids" 2>/dev/null || true)"
  for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    local alive=""; for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [[ -z "$alive" ]] && break; sleep 0.2
  done
  for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done
  [[ -n "$DB_CREATED" ]] && psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  if [[ -n "${BEFORE_TREE:-}" ]]; then git worktree remove --force "$BEFORE_TREE" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export JAR_NOW="${JAR_NOW:-$ROOT/target/docapi.jar}"
export S3PROXY_JAR="${S3PROXY_JAR:-$(dirname "$JAR_NOW")/s3proxy.jar}"
TEST_CLASSES="${TEST_CLASSES:-$(dirname "$JAR_NOW")/test-classes}"
if [[ ! -f "$JAR_NOW" || ! -f "$S3PROXY_JAR" || ! -f "$TEST_CLASSES/dev/docapi/support/TestOperations.class" ]]; then
  echo "building $JAR_NOW" >&2; mvn -q -B -o -DskipTests package >&2
fi
if [[ -z "${JAR_BEFORE:-}" ]]; then
  BEFORE_TREE="$WORK/before-src"
  echo "building the jar of $BEFORE_REV in $BEFORE_TREE" >&2
  git worktree add --detach "$BEFORE_TREE" "$BEFORE_REV" >/dev/null 2>&1
  (cd "$BEFORE_TREE" && mvn -q -B -o -DskipTests package >&2)
  JAR_BEFORE="$BEFORE_TREE/target/docapi.jar"
fi
export JAR_BEFORE
# Only the test operations go on loader.path: the other test classes (ApiTestBase's CleanDatabase...) must not load.
export TEST_OPS_DIR="$WORK/test-ops"
mkdir -p "$TEST_OPS_DIR/dev/docapi/support"
cp "$TEST_CLASSES"/dev/docapi/support/TestOperations*.class "$TEST_OPS_DIR/dev/docapi/support/"

psql -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
DB_CREATED=1
export BENCH_PG_URL="jdbc:postgresql://$PGHOST:$PGPORT/$DB" BENCH_WORK="$WORK"
export BENCH_CORPUS="${BENCH_CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$BENCH_CORPUS" ]] || BENCH_CORPUS=/work/shared/corpus

# Measurements on a busy machine mean nothing: wait (at most BENCH_IDLE_WAIT s) for the 1-minute load average to drop
# below BENCH_MAX_LOAD.
for _ in $(seq 1 "${BENCH_IDLE_WAIT:-600}"); do
  awk -v max="${BENCH_MAX_LOAD:-1.0}" '{ exit !($1 < max) }' /proc/loadavg && break; sleep 1
done

echo "## Job queue (issue 15) — \`bench/queue.sh\`"
echo
echo "Machine: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), $(free -h | awk '/^Mem:/{print $2}') RAM ($(free -h | awk '/^Mem:/{print $7}') available), $(uname -sr);" \
  "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $(psql -At -d postgres -c 'show server_version' | cut -d' ' -f1 | sed 's/^/PostgreSQL /')."
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg); jars: now $(git -C "$ROOT" log -1 --format=%h -- src pom.xml) (last commit of src/ and pom.xml), before $BEFORE_REV."
python3 "$ROOT/bench/jobqueue.py"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
