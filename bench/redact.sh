#!/usr/bin/env bash
# Redact time per page against a raw PyMuPDF script (issue 27 item 2): for each corpus PDF, the median wall time of
# RUNS (3) runs of `POST /redact` (the email preset and one word) on a running service (target/docapi.jar, rebuilt
# when older than src/), divided by its pages, against a bare PyMuPDF script (search_for, add_redact_annot,
# apply_redactions, save with garbage collection) on the same file and terms, run alone. A scan's first run OCRs it
# (kept with the file; reported apart), later runs reuse that OCR. Short runs: the machine may be shared; the load
# average is printed. Prints a Markdown table. FILES="pdf-text/a.pdf ..." to choose other corpus files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-3}"
FILES="${FILES:-pdf-text/two-column-paper-2p.pdf pdf-text/rotated-pages-20p.pdf pdf-text/geotopo-117p-linearized-links.pdf
  pdf-scanned/huckfinn-page-c02-22.pdf}"
bench_service redact DOCAPI_OFFICE_WARM=false

# the raw tool: bench/redact-raw.py, what a PyMuPDF user would write for the same redaction
python3 - "$PORT" "$KEY" "$CORPUS" "$WORK" "$RUNS" "$FILES" "$ROOT/bench/redact-raw.py" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.error, urllib.request
port, key, corpus, work, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6].split()
BASE = f"http://127.0.0.1:{port}/v1"
WORD = "the"

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
    return body["id"], body.get("pages") or 1

def docapi(file_id):
    t = time.perf_counter()
    st, body = call("POST", "/redact", json.dumps({"file": file_id, "presets": ["email"], "text": [WORD], "wait": 300}).encode())
    took = time.perf_counter() - t
    assert st == 200 and body.get("status") == "succeeded", (st, body)
    return took, body["output"]["data"]["redactions"]

def raw(path):
    t = time.perf_counter()
    subprocess.run(["/usr/bin/python3", sys.argv[7], path, os.path.join(work, "raw.pdf"), WORD],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=900)
    return time.perf_counter() - t

load = open("/proc/loadavg").read().split()[0]
print(f"| file | pages | redactions | first run s | docapi ms/page (median of {runs}) | raw PyMuPDF ms/page (median of {runs}) | docapi / raw |")
print("|---|---:|---:|---:|---:|---:|---:|")
for rel in files:
    path = os.path.join(corpus, rel)
    fid, pages = upload(path)
    first, count = docapi(fid)  # a scan's OCR runs here and is kept; not counted below
    d = statistics.median(docapi(fid)[0] for _ in range(runs)) * 1000 / pages
    r = statistics.median(raw(path) for _ in range(runs)) * 1000 / pages
    print(f"| {os.path.basename(rel)} | {pages} | {count} | {first:.2f} | {d:.0f} | {r:.0f} | {d / r:.2f} |", flush=True)
print(f"\nload average at the end: {open('/proc/loadavg').read().split()[0]} (at the start: {load}); {os.cpu_count()} cores")
PY
