#!/usr/bin/env bash
# PDF/A against raw Ghostscript (issue 27): for each corpus file, the size and median wall time of RUNS (3) runs of
# `POST /pdfa` (conformance 2b) on a running service (target/docapi.jar, rebuilt when older than src/) against a raw
# `gs -dPDFA=2` run (Ghostscript's lib/PDFA_def.ps with the sRGB profile) on the same file, and whether veraPDF accepts each
# (the service's validate-pdfa on the raw output; pdfa answers only when veraPDF accepts). Short runs: the machine is shared.
# Prints a Markdown table. The service runs on free loopback ports with its own data dir, removed at exit.
# FILES="pdf-text/a.pdf ..." to choose other corpus files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-3}"
FILES="${FILES:-pdf-text/two-column-paper-2p.pdf pdf-text/pdflatex-4-pages-objstm.pdf pdf-text/libreoffice-form.pdf
  pdf-text/geotopo-117p-linearized-links.pdf pdf-scanned/huckfinn-page-c02-22.pdf}"
bench_service pdfa DOCAPI_OFFICE_WARM=false

python3 - "$PORT" "$KEY" "$CORPUS" "$WORK" "$RUNS" "$FILES" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.error, urllib.request
port, key, corpus, work, runs, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6].split()
BASE = f"http://127.0.0.1:{port}/v1"
ICC = next(p for p in ("/usr/share/color/icc/ghostscript/srgb.icc", "/usr/share/color/icc/sRGB.icc") if os.path.exists(p))
DEF = os.path.join(work, "PDFA_def.ps")
gslib = subprocess.run(["gs", "--version"], capture_output=True, text=True).stdout.strip()
with open(f"/usr/share/ghostscript/{gslib}/lib/PDFA_def.ps") as f:
    open(DEF, "w").write(f.read().replace("(srgb.icc)", "(" + ICC + ")"))

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

def docapi(file_id):
    t = time.perf_counter()
    st, body = call("POST", "/pdfa", json.dumps({"file": file_id, "conformance": "2b", "wait": 300}).encode())
    took = time.perf_counter() - t
    if st == 200:
        return took, body["output"]["files"][0]["size"], "yes"
    rules = ",".join(r["rule"] for r in (body.get("job", {}).get("output") or {}).get("data", {}).get("failed_rules", []))
    return took, 0, "failed: " + (rules or body.get("error", {}).get("message", "?")[:60])

def gs(path):
    out = os.path.join(work, "gs-pdfa.pdf")
    t = time.perf_counter()
    subprocess.run(["gs", "-q", "-dSAFER", "--permit-file-read=" + ICC, "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite",
                    "-dPDFA=2", "-dPDFACompatibilityPolicy=1", "-sColorConversionStrategy=RGB", "-sOutputFile=" + out, DEF, path],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=900)
    return time.perf_counter() - t, os.path.getsize(out), out

def accepted(pdf):
    st, body = call("POST", "/validate-pdfa", json.dumps({"file": upload(pdf), "conformance": "2b", "wait": 300}).encode())
    assert st == 200, (st, body)
    data = body["output"]["data"]
    return "yes" if data["compliant"] else "no: " + ",".join(r["rule"] for r in data["failed_rules"])

load = open("/proc/loadavg").read().split()[0]
print(f"| file (input bytes) | docapi (bytes) | gs -dPDFA=2 (bytes) | docapi s (median of {runs}) | gs s (median of {runs}) | veraPDF accepts docapi's | veraPDF accepts gs's |")
print("|---|---:|---:|---:|---:|---|---|")
for rel in files:
    path = os.path.join(corpus, rel)
    fid = upload(path)
    docapi(fid)  # warm-up (the veraPDF child's class-data archive), not counted
    d = [docapi(fid) for _ in range(runs)]
    g = [gs(path) for _ in range(runs)]
    print(f"| {os.path.basename(rel)} ({os.path.getsize(path):,}) | {d[0][1]:,} | {g[0][1]:,} "
          f"| {statistics.median(x[0] for x in d):.2f} | {statistics.median(x[0] for x in g):.2f} | {d[0][2]} | {accepted(g[0][2])} |", flush=True)
print(f"\nload average at the end: {open('/proc/loadavg').read().split()[0]} (at the start: {load}); {os.cpu_count()} cores")
PY
