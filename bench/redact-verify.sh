#!/usr/bin/env bash
# What redact's verification costs (issue 35): for each corpus PDF, the median of RUNS (5) runs of `POST /redact` (the
# email preset and the word "the") in ms per page, timed in two real runs of the service: one as shipped (the check of
# the output on) and one started with DOCAPI_REDACT_VERIFY=false (the operator's switch; no API option turns the
# check off); next to bench/redact-raw.py, a bare PyMuPDF script (apply_redactions) on the same file and terms, run
# alone. Each job's own check time (output.data.verification.ms) is given too. The machine may be shared: the load
# average is printed per mode. Prints a Markdown table. FILES="pdf-text/a.pdf ..." to choose other corpus files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-5}"
FILES="${FILES:-pdf-text/two-column-paper-2p.pdf pdf-text/rotated-pages-20p.pdf pdf-text/geotopo-117p-linearized-links.pdf}"
RESULTS="$(mktemp -d /tmp/docapi-bench-redact-verify-results.XXXXXX)"

# one service per mode: MODE (on/off) → $RESULTS/MODE.json
measure() {
  python3 - "$PORT" "$KEY" "$CORPUS" "$RUNS" "$FILES" "$1" "$RESULTS/$1.json" <<'PY'
import json, os, statistics, sys, time, urllib.error, urllib.request
port, key, corpus, runs, files, mode, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split(), sys.argv[6], sys.argv[7]
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
    check = body["output"]["data"].get("verification")
    assert (check is not None) == (mode == "on"), body["output"]["data"]  # the switch really turned the check off
    return took, (check or {}).get("ms", 0) / 1000

result = {"load_start": open("/proc/loadavg").read().split()[0], "files": {}}
for rel in files:
    fid, pages = upload(os.path.join(corpus, rel))
    redact(fid)  # warm-up, not counted
    times = [redact(fid) for _ in range(runs)]
    result["files"][rel] = {"pages": pages, "ms_per_page": statistics.median(t for t, _ in times) * 1000 / pages,
                            "check_ms_per_page": statistics.median(c for _, c in times) * 1000 / pages}
result["load_end"] = open("/proc/loadavg").read().split()[0]
json.dump(result, open(out, "w"))
PY
}

bench_service redact-verify DOCAPI_OFFICE_WARM=false
measure on
kill "$SERVICE"; wait "$SERVICE" 2>/dev/null || true; rm -rf "$WORK"
bench_service redact-verify DOCAPI_OFFICE_WARM=false DOCAPI_REDACT_VERIFY=false
measure off

python3 - "$CORPUS" "$RUNS" "$FILES" "$RESULTS" "$ROOT/bench/redact-raw.py" "$WORK" <<'PY'
import json, os, statistics, subprocess, sys, time
corpus, runs, files, results, raw_script, work = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5], sys.argv[6]
on, off = (json.load(open(os.path.join(results, m + ".json"))) for m in ("on", "off"))

def raw(path):
    t = time.perf_counter()
    subprocess.run(["/usr/bin/python3", raw_script, path, os.path.join(work, "raw.pdf"), "the"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=900)
    return time.perf_counter() - t

print(f"| file | pages | with verification ms/page | without (DOCAPI_REDACT_VERIFY=false) ms/page | check's own ms/page | raw PyMuPDF ms/page |")
print("|---|---:|---:|---:|---:|---:|")
for rel in files:
    path = os.path.join(corpus, rel)
    w, wo = on["files"][rel], off["files"][rel]
    r = statistics.median(raw(path) for _ in range(runs)) * 1000 / w["pages"]
    print(f"| {os.path.basename(rel)} | {w['pages']} | {w['ms_per_page']:.0f} | {wo['ms_per_page']:.0f} | {w['check_ms_per_page']:.0f} | {r:.0f} |")
print(f"\nmedians of {runs} runs each; load average with the check on {on['load_start']} → {on['load_end']}, off {off['load_start']} → {off['load_end']}, "
      f"raw at the end {open('/proc/loadavg').read().split()[0]}; {os.cpu_count()} cores")
PY
rm -rf "$RESULTS"
