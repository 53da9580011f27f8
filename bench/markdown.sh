#!/usr/bin/env bash
# Benchmark of convert pdf → md and pdf → html (issue 28): pages per second through the API (a warm service: WARMUP
# conversions of the same file first) against poppler's `pdftotext` alone on the same file (the raw text extractor,
# no layout, headings or tables), median of RUNS runs each, in the same run.
#   bench/markdown.sh     (RUNS=5, WARMUP=3 by default; CORPUS=/path/to/shared/corpus; JAR=/path/to/docapi.jar)
# Starts its own service on a free port with a throw-away data directory, and stops it at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-3}"
bench_service markdown

python3 - "$PORT" "$KEY" "$CORPUS" "$RUNS" "$WARMUP" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.request
port, key, corpus, runs, warmup = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
base = f"http://127.0.0.1:{port}/v1"

def call(method, path, body, ctype="application/json"):
    req = urllib.request.Request(base + path, data=body, method=method, headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    with urllib.request.urlopen(req, timeout=900) as r:
        return json.loads(r.read())

def median_of(fn):
    for _ in range(warmup): fn()
    return statistics.median(fn() for _ in range(runs))

def api(fid, to):
    t = time.perf_counter()
    job = call("POST", "/convert", json.dumps({"file": fid, "to": to, "images": False, "wait": 300}).encode())
    assert job["status"] == "succeeded", job
    return time.perf_counter() - t

def raw(path):
    t = time.perf_counter()
    subprocess.run(["pdftotext", "-q", path, "/dev/null"], check=True)
    return time.perf_counter() - t

files = [("pdf-text/two-column-paper-2p.pdf", 2), ("pdf-text/pdflatex-4-pages-objstm.pdf", 4), ("pdf-text/geotopo-117p-linearized-links.pdf", 117)]
print(f"| file | pages | md s | md pages/s | html s | pdftotext s | pdftotext pages/s |")
print(f"|---|---:|---:|---:|---:|---:|---:|")
for rel, pages in files:
    path = os.path.join(corpus, rel)
    with open(path, "rb") as f:
        fid = call("POST", "/files?name=" + os.path.basename(path), f.read(), "application/octet-stream")["id"]
    md, html, r = median_of(lambda: api(fid, "md")), median_of(lambda: api(fid, "html")), median_of(lambda: raw(path))
    print(f"| {rel} | {pages} | {md:.2f} | {pages / md:.1f} | {html:.2f} | {r:.3f} | {pages / r:.0f} |")
PY
