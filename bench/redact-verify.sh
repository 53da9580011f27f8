#!/usr/bin/env bash
# What redact's verification costs (issue 35): for each corpus PDF, the median of RUNS (3) runs of `POST /redact`
# (the email preset and the word "the") on a running service, in ms per page, with the verification pass and without
# it (the job's wall time less output.data.verification.ms, the check's own wall time in the same job). Short runs:
# the machine may be shared; the load average is printed. Prints a Markdown table. FILES="pdf-text/a.pdf ..." to
# choose other corpus files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-3}"
FILES="${FILES:-pdf-text/two-column-paper-2p.pdf pdf-text/rotated-pages-20p.pdf pdf-text/geotopo-117p-linearized-links.pdf}"
bench_service redact-verify DOCAPI_OFFICE_WARM=false

python3 - "$PORT" "$KEY" "$CORPUS" "$RUNS" "$FILES" <<'PY'
import json, os, statistics, sys, time, urllib.error, urllib.request
port, key, corpus, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split()
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
    return body["id"], body.get("pages") or 1

def redact(file_id):
    t = time.perf_counter()
    st, body = call("POST", "/redact", json.dumps({"file": file_id, "presets": ["email"], "text": ["the"], "wait": 300}).encode())
    took = time.perf_counter() - t
    assert st == 200 and body.get("status") == "succeeded", (st, body)
    return took, body["output"]["data"]["verification"]["ms"] / 1000

load = open("/proc/loadavg").read().split()[0]
print(f"| file | pages | with verification ms/page (median of {runs}) | without ms/page | verification share |")
print("|---|---:|---:|---:|---:|")
for rel in files:
    fid, pages = upload(os.path.join(corpus, rel))
    redact(fid)  # warm-up, not counted
    runs_ = [redact(fid) for _ in range(runs)]
    w = statistics.median(t for t, _ in runs_) * 1000 / pages
    wo = statistics.median(t - c for t, c in runs_) * 1000 / pages
    print(f"| {os.path.basename(rel)} | {pages} | {w:.0f} | {wo:.0f} | {(w - wo) / w:.0%} |", flush=True)
print(f"\nload average at the end: {open('/proc/loadavg').read().split()[0]} (at the start: {load}); {os.cpu_count()} cores")
PY
