#!/usr/bin/env bash
# Admin in under a second (issue 24): `bin/docapi admin list-accounts` and `create-key` against a running service
# (thin client of its admin API), a bare `curl` of POST /admin/commands (the floor), and the same commands with
# `admin --direct` once the service is stopped (a JVM that starts Spring against the database: the only way before). Medians of RUNS runs (7);
# prints a Markdown table for bench/RESULTS.md. Starts target/docapi.jar (built if missing) on free loopback ports with
# its own data dir, removed at exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-7}"
for d in /usr/lib/jvm/temurin-25*; do [[ -x "$d/bin/java" ]] && export JAVA_HOME="$d"; done
[[ -f target/docapi.jar ]] || mvn -q -B -DskipTests package
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
DATA="$(mktemp -d -t docapi-bench-admin-XXXXXX)"
export DOCAPI_DATA_DIR="$DATA" DOCAPI_PORT="$(free_port)" DOCAPI_MANAGEMENT_PORT="$(free_port)" DOCAPI_OFFICE_WARM=false
"$JAVA_HOME/bin/java" -jar target/docapi.jar >"$DATA/service.log" 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$DOCAPI_PORT/v1" && break; sleep 0.5; done
ACCOUNT="$(bin/docapi admin create-account --email bench@example.com | sed -n 's/^account \(acct_[^ ]*\).*/\1/p')"
bin/docapi admin list-accounts >/dev/null # makes the client's class-data archive (first use only)
TOKEN="$(python3 - "$DATA" <<'PY'
import base64, hashlib, hmac, sys
# the token the service derives when DOCAPI_ADMIN_TOKEN is unset (MasterKey.adminToken): HKDF-SHA256 of the master key
props = dict(l.strip().split("=", 1) for l in open(sys.argv[1] + "/secrets.key") if "=" in l and not l.startswith("#"))
master = base64.b64decode(props["master"].replace("\\=", "=").replace("\\:", ":"))
prk = hmac.new(b"docapi master key", master, hashlib.sha256).digest()
okm = hmac.new(prk, b"admin api token" + b"\x01", hashlib.sha256).digest()
print(base64.urlsafe_b64encode(okm).decode().rstrip("="))
PY
)"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_runs() { # <command...>: median wall time in seconds of RUNS runs
  for _ in $(seq 1 "$RUNS"); do
    local t0; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$(date +%s.%N) - $t0" | bc
  done | median
}
curl_admin() { curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$1" "http://127.0.0.1:$DOCAPI_MANAGEMENT_PORT/admin/commands"; }
curl_admin '{"args":["list-accounts"]}' | grep -q exit_code || { echo "admin API did not answer (token?)" >&2; exit 1; }

rows=()
for c in "list-accounts" "create-key --account $ACCOUNT"; do
  read -r -a args <<<"$c"
  json="$(printf '"%s",' "${args[@]}")"
  rows+=("${args[0]}|$(time_runs bin/docapi admin "${args[@]}")|$(time_runs curl_admin "{\"args\":[${json%,}]}")")
done
load="$(cut -d' ' -f1 /proc/loadavg)"
kill $SERVICE; wait $SERVICE 2>/dev/null || true
echo "| command (median of $RUNS, load $load) | bin/docapi admin, service running (s) | curl alone (s) | admin --direct, service stopped (s) |"
echo "|---|---|---|---|"
i=0
for c in "list-accounts" "create-key --account $ACCOUNT"; do
  read -r -a args <<<"$c"
  echo "| ${rows[$i]//|/ | } | $(time_runs bin/docapi admin --direct "${args[@]}") |"
  i=$((i + 1))
done
