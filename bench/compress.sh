#!/usr/bin/env bash
# Compress by images against raw Ghostscript (issue 25 item 1): for each scanned or image-heavy PDF of the corpus and
# each level (screen, ebook), the size and median wall time of RUNS (5) runs of `POST /compress` on a running service
# (target/docapi.jar, rebuilt when older than src/) against `gs -dPDFSETTINGS=/<level>` on the same file, and what
# the note says won. Prints a Markdown table for bench/RESULTS.md. The service runs on free loopback ports with its
# own data dir, removed at exit. FILES="pdf-scanned/a.pdf ..." to choose other corpus files.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
CORPUS="${CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$CORPUS" ]] || CORPUS=/work/shared/corpus
FILES="${FILES:-pdf-scanned/multipage-6p-mixed.pdf pdf-scanned/flattened-lorem-ipsum.pdf pdf-scanned/huckfinn-page-c02-22.pdf
  pdf-scanned/arabic-paragraph-capr12-imageonly.pdf pdf-scanned/ccitt-g4-pdf11.pdf pdf-scanned/english-skewed-brochure.pdf
  pdf-text/indesign-2p-linearized-pdf17.pdf}"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAR="${JAR:-$ROOT/target/docapi.jar}"
if [[ "$JAR" == "$ROOT/target/docapi.jar" ]] && { [[ ! -f "$JAR" ]] || [[ -n "$(find src pom.xml -newer "$JAR" -print -quit)" ]]; }; then
  echo "building $JAR" >&2; mvn -q -B -DskipTests package >&2
fi

WORK="$(mktemp -d /tmp/docapi-bench-compress.XXXXXX)"
SERVICE=""
cleanup() { [[ -n "$SERVICE" ]] && { kill "$SERVICE" 2>/dev/null || true; wait "$SERVICE" 2>/dev/null || true; }; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT="$(free_port)"
# the admin command reaches the running service on its management port (the database is the service's while it runs)
export DOCAPI_MANAGEMENT_PORT="$(free_port)"
env DOCAPI_DATA_DIR="$WORK/data" DOCAPI_PORT="$PORT" DOCAPI_OFFICE_WARM=false \
  DOCAPI_REQUESTS_PER_MINUTE=1000000 "$JAVA_HOME/bin/java" -jar "$JAR" >"$WORK/service.log" 2>&1 &
SERVICE=$!
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PORT/v1" >/dev/null 2>&1 && break; sleep 0.5; done
KEY="$(env DOCAPI_DATA_DIR="$WORK/data" "$JAVA_HOME/bin/java" -jar "$JAR" admin create-account \
  --email "bench-compress-$(date +%s)@example.com" --plan pro 2>/dev/null | tail -1)"

python3 - "$PORT" "$KEY" "$CORPUS" "$WORK" "$RUNS" "$FILES" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.error, urllib.request
port, key, corpus, work, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6].split()
BASE = f"http://127.0.0.1:{port}/v1"

def call(method, path, body=None, ctype="application/json"):
    req = urllib.request.Request(BASE + path, data=body, method=method,
                                 headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=900) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

def upload(path):
    with open(path, "rb") as f:
        st, body = call("POST", "/files?name=" + os.path.basename(path), f.read(), "application/octet-stream")
    assert st == 201, (st, body)
    return body["id"]

def docapi(file_id, level):
    t = time.perf_counter()
    st, body = call("POST", "/compress", json.dumps({"file": file_id, "level": level, "wait": 300}).encode())
    took = time.perf_counter() - t
    assert st == 200 and body.get("status") == "succeeded", (st, body)
    return took, body["output"]["files"][0]["size"], body["output"].get("note", "")

def gs(path, level):
    out = os.path.join(work, "gs.pdf")
    t = time.perf_counter()
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite", "-dPDFSETTINGS=/" + level,
                    "-sOutputFile=" + out, path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=900)
    return time.perf_counter() - t, os.path.getsize(out)

def winner(note):
    if note.startswith("Returned the input unchanged"): return "unchanged"
    for word, name in (("images re-encoded", "images"), ("Ghostscript preset", "gs preset"), ("lossless", "lossless")):
        if word in note: return name
    return "?"

load = open("/proc/loadavg").read().split()[0]
print(f"| file (input) | level | docapi (bytes) | gs (bytes) | docapi / gs | docapi s (median of {runs}) | gs s (median of {runs}) | docapi's choice |")
print("|---|---|---:|---:|---:|---:|---:|---|")
for rel in files:
    path = os.path.join(corpus, rel)
    fid = upload(path)
    for level in ("screen", "ebook"):
        docapi(fid, level)  # warm-up, not counted
        d = [docapi(fid, level) for _ in range(runs)]
        g = [gs(path, level) for _ in range(runs)]
        size, note = d[0][1], d[0][2]
        gsize = g[0][1]
        print(f"| {os.path.basename(rel)} ({os.path.getsize(path):,}) | {level} | {size:,} | {gsize:,} | {size / gsize:.2f} "
              f"| {statistics.median(x[0] for x in d):.2f} | {statistics.median(x[0] for x in g):.2f} | {winner(note)} |", flush=True)
print(f"\nload average at the end: {open('/proc/loadavg').read().split()[0]} (at the start: {load}); {os.cpu_count()} cores")
PY
