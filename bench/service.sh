# Sourced by the benchmarks that time a running service. After `bench_service NAME [VAR=value ...]`:
#   PORT, MGMT   the service's API and management ports (free loopback ports)
#   WORK         a throw-away directory (the service's data dir is $WORK/data, its log $WORK/service.log)
#   EMAIL, KEY   a pro account made for the run and its API key
# The jar is target/docapi.jar, rebuilt when src/ or pom.xml is newer (JAR=... times another build as it is). The
# service is stopped and $WORK removed when the script exits. The extra VAR=value pairs go to the service's environment.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$CORPUS" ]] || CORPUS=/work/shared/corpus
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAR="${JAR:-$ROOT/target/docapi.jar}"

bench_service() {
  local name="$1"; shift
  if [[ "$JAR" == "$ROOT/target/docapi.jar" ]] && { [[ ! -f "$JAR" ]] || [[ -n "$(cd "$ROOT" && find src pom.xml docapi.pom.xml -newer "$JAR" -print -quit)" ]]; }; then
    echo "building $JAR" >&2; (cd "$ROOT" && mvn -q -B -DskipTests package >&2)
  fi
  WORK="$(mktemp -d "/tmp/docapi-bench-$name.XXXXXX")"
  # the script's own exit status, not the stopped service's (errexit holds inside the trap too)
  trap 'status=$?; kill $SERVICE 2>/dev/null || true; wait $SERVICE 2>/dev/null || true; rm -rf "$WORK"; exit $status' EXIT
  PORT="$(bench_free_port)"; MGMT="$(bench_free_port)"
  env DOCAPI_DATA_DIR="$WORK/data" DOCAPI_PORT="$PORT" DOCAPI_MANAGEMENT_PORT="$MGMT" DOCAPI_REQUESTS_PER_MINUTE=1000000 "$@" \
    "$JAVA_HOME/bin/java" -jar "$JAR" >"$WORK/service.log" 2>&1 &
  SERVICE=$!
  # up to 300 s: a start beside other work on 2 cores was seen past a minute
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$PORT/v1" >/dev/null 2>&1 && break
    kill -0 "$SERVICE" 2>/dev/null || { echo "the service exited; its log:" >&2; tail -30 "$WORK/service.log" >&2; exit 1; }
    sleep 0.5
  done
  EMAIL="bench-$name-$(date +%s)@example.com"
  # the admin command reaches the running service on its management port (the database is the service's while it runs)
  KEY="$(env DOCAPI_DATA_DIR="$WORK/data" DOCAPI_MANAGEMENT_PORT="$MGMT" "$JAVA_HOME/bin/java" -jar "$JAR" admin create-account \
    --email "$EMAIL" --plan pro 2>/dev/null | tail -1)"
}

bench_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# A one-time sign-in link of the developer area for $EMAIL.
bench_login_link() {
  env DOCAPI_DATA_DIR="$WORK/data" DOCAPI_MANAGEMENT_PORT="$MGMT" "$JAVA_HOME/bin/java" -jar "$JAR" admin login-link --email "$EMAIL" 2>/dev/null | tail -1
}
