#!/usr/bin/env bash
# Benchmarks of issue 2 on this machine: page operations vs qpdf, GET /jobs/{id} under wrk, a 100 MB upload.
# Prints Markdown tables; paste them into bench/RESULTS.md with the date.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
scripts/install-deps --bench
for d in /usr/lib/jvm/temurin-25* /usr/lib/jvm/*25*; do [[ -x "$d/bin/java" ]] && export JAVA_HOME="$d" && break; done
[[ -f target/docapi.jar ]] || mvn -q -B -DskipTests package
DATA=$(mktemp -d); PORT=${BENCH_PORT:-18090}
# The per-key rate limit (120/min) would throttle the benchmark client itself.
# a management port of its own: the admin CLI below reaches the running service through it (H2 is its alone)
export DOCAPI_DATA_DIR=$DATA DOCAPI_PORT=$PORT DOCAPI_MANAGEMENT_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')" DOCAPI_REQUESTS_PER_MINUTE=100000000
"$JAVA_HOME/bin/java" -Xmx1g -jar target/docapi.jar > "$DATA/service.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$DATA"' EXIT
until curl -sf "http://localhost:$PORT/v1" >/dev/null; do sleep 0.2; done
KEY=$("$JAVA_HOME/bin/java" -jar target/docapi.jar admin create-account --email bench@example.com --plan pro | tail -1)
export BENCH_API="http://localhost:$PORT/v1" BENCH_KEY=$KEY BENCH_CORPUS="$ROOT/../shared/corpus"

echo "## Page operations vs qpdf"
python3 bench/pageops.py

echo; echo "## GET /v1/jobs/{id} under wrk -t2 -c32 -d15s (loopback)"
FILE=$(curl -s -H "Authorization: Bearer $KEY" -F file=@"$BENCH_CORPUS/pdf-text/rotated-page-90.pdf" "$BENCH_API/files" | python3 -c 'import sys,json;print(json.load(sys.stdin)["id"])')
JOB=$(curl -s -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d "{\"file\":\"$FILE\",\"angle\":90}" "$BENCH_API/rotate" | python3 -c 'import sys,json;print(json.load(sys.stdin)["id"])')
wrk -t2 -c32 -d5s -H "Authorization: Bearer $KEY" "$BENCH_API/jobs/$JOB" >/dev/null   # warm-up
wrk -t2 -c32 -d15s -H "Authorization: Bearer $KEY" "$BENCH_API/jobs/$JOB" | grep -E "Requests/sec|Latency|requests in|Non-2xx"

echo; echo "## 100 MB upload (heap growth sampled with jstat, median of 3)"
BIG="$DATA/big.pdf"; python3 - "$BIG" <<'PY'
# A valid one-page PDF of exactly 100 MiB: a page plus an unreferenced 100 MiB random stream.
import os, sys
size = 100 * 1024 * 1024
head = [b"%PDF-1.4\n", b"1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n", b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n",
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n"]
offsets, pos = [], 0
for part in head:
    offsets.append(pos); pos += len(part)
offsets = offsets[1:]
tail_tmpl = b"\nendstream endobj\nxref\n0 5\n0000000000 65535 f \n%s%s\ntrailer<</Size 5/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n"
stream_head = b"4 0 obj<</Length %d>>stream\n"
def build(n):
    sh = stream_head % n
    xref_pos = pos + len(sh) + n + len(b"\nendstream endobj\n")
    entries = b"".join(b"%010d 00000 n \n" % o for o in offsets + [pos])
    return sh, tail_tmpl % (entries, b"", xref_pos)
n = size - pos - 200
sh, tail = build(n)
n += size - (pos + len(sh) + n + len(tail))
sh, tail = build(n)
with open(sys.argv[1], "wb") as f:
    for part in head: f.write(part)
    f.write(sh); f.write(os.urandom(n)); f.write(tail)
assert os.path.getsize(sys.argv[1]) == size, os.path.getsize(sys.argv[1])
PY
python3 - "$BIG" "$PID" <<'PY'
import os, statistics, subprocess, sys, threading, time, urllib.request
big, pid = sys.argv[1], sys.argv[2]
api, key = os.environ["BENCH_API"], os.environ["BENCH_KEY"]
def heap():
    out = subprocess.run(["jstat", "-gc", pid], capture_output=True, text=True).stdout.split("\n")[1].split()
    return (float(out[2]) + float(out[3]) + float(out[5]) + float(out[7])) / 1024  # S0U S1U EU OU, MB
rates, growths = [], []
for _ in range(3):
    subprocess.run(["jcmd", pid, "GC.run"], capture_output=True)
    base, peak, stop = heap(), [0.0], [False]
    def sample():
        while not stop[0]:
            peak[0] = max(peak[0], heap()); time.sleep(0.02)
    t = threading.Thread(target=sample); t.start()
    start = time.perf_counter()
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer " + key,
                        "-H", "Content-Type: application/octet-stream", "--data-binary", "@" + big, api + "/files?name=big.pdf"],
                       capture_output=True, text=True)
    took = time.perf_counter() - start
    stop[0] = True; t.join()
    rates.append(100 / took); growths.append(peak[0] - base)
    print(f"  run: HTTP {r.stdout}, {took:.2f} s, heap growth {peak[0] - base:.1f} MB")
print(f"| 100 MB upload | throughput {statistics.median(rates) * 1.048576:.0f} MB/s (target ≥ 150) | heap growth {statistics.median(growths):.1f} MB (target < 64) |")
PY
