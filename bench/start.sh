#!/usr/bin/env bash
# bench/start.sh — how long a node takes to start (issue 41): seconds from launching the JVM to GET /v1 answering 200
# and to the management port's readiness answering UP, median of RUNS (5) starts each way, run alternately so that
# both ways see the same load:
#   before  java -XX:+UseZGC -Xmx2g -jar BEFORE_JAR      (how bin/docapi serve started before issue 41)
#   after   what bin/docapi serve does now: G1 and the extracted jar with its JDK AOT cache (scripts/aot-cache; the cache is
#           made before the first timed start and not counted; its one-off cost is printed)
# Each start also prints the CPU seconds the JVM had spent when both answered (/proc/PID/stat's utime + stime), which
# depend far less on the machine's other load than the wall time does.
# BEFORE_JAR defaults to target/docapi.jar; give the jar of the commit before issue 41 to also count readiness's old
# wait for LibreOffice's warm-up. Each start gets a fresh data dir (H2, so Flyway migrates an empty database: the
# first start of a node, the slowest). LibreOffice warms at start in both (the default).
#   bench/start.sh [RUNS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
RUNS="${1:-5}"
BEFORE_OPTS=(-XX:+UseZGC -Xmx2g)
OPTS=(-XX:+UseG1GC -Xmx2g)   # bin/docapi serve's
BEFORE_JAR="${BEFORE_JAR:-$JAR}"
[[ -f "$JAR" ]] || (cd "$ROOT" && mvn -q -B -DskipTests package >&2)

t0=$(date +%s.%N)
mapfile -t AFTER < <("$ROOT/scripts/aot-cache" "$JAR" "$ROOT/target/start" "${OPTS[@]}")
echo "start cache: $(echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f') s (once per build; ${AFTER[0]})"

# the CPU seconds (user + system, all threads) the JVM PID has spent so far: unlike wall time, nearly the same on a
# loaded machine (LibreOffice's warm-up runs in child processes, not counted)
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"; }

# one start: prints "V1 READY CPU" in seconds (wall, wall, the JVM's CPU when both answered); the service is stopped after
start_once() {
  local work port mgmt pid t0 now v1="" ready="" cpu
  work="$(mktemp -d /tmp/docapi-bench-start.XXXXXX)"; port="$(bench_free_port)"; mgmt="$(bench_free_port)"
  t0=$(date +%s.%N)
  DOCAPI_DATA_DIR="$work" DOCAPI_PORT="$port" DOCAPI_MANAGEMENT_PORT="$mgmt" "$JAVA_HOME/bin/java" "$@" \
    >"$work/service.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 6000); do
    kill -0 "$pid" 2>/dev/null || { echo "the service exited; its log:" >&2; tail -20 "$work/service.log" >&2; exit 1; }
    now=$(date +%s.%N)
    [[ -z "$v1" ]] && curl -fs -o /dev/null "http://127.0.0.1:$port/v1" 2>/dev/null && v1=$(echo "$now - $t0" | bc)
    [[ -z "$ready" ]] && curl -fs "http://127.0.0.1:$mgmt/actuator/health/readiness" 2>/dev/null | grep -q '"status":"UP"' \
      && ready=$(echo "$now - $t0" | bc)
    [[ -n "$v1" && -n "$ready" ]] && { cpu=$(cpu_seconds "$pid"); break; }
    sleep 0.05
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$work"
  printf '%.3f %.3f %s\n' "$v1" "$ready" "$cpu"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

before=(); after=()
for i in $(seq 1 "$RUNS"); do
  b=$(start_once "${BEFORE_OPTS[@]}" -jar "$BEFORE_JAR"); a=$(start_once "${OPTS[@]}" "${AFTER[@]}")
  echo "run $i: before $b   after $a   (load $(cut -d' ' -f1-3 /proc/loadavg))"
  before+=("$b"); after+=("$a")
done
for way in before after; do
  declare -n runs="$way"
  v1=$(printf '%s\n' "${runs[@]}" | cut -d' ' -f1 | median); ready=$(printf '%s\n' "${runs[@]}" | cut -d' ' -f2 | median)
  cpu=$(printf '%s\n' "${runs[@]}" | cut -d' ' -f3 | median)
  echo "$way: median of $RUNS starts: GET /v1 200 after $v1 s, readiness UP after $ready s, JVM CPU $cpu s"
done
