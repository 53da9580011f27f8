#!/usr/bin/env bash
# Benchmark of convert → pdf (issue 3): Office → PDF through the API's warm LibreOffice pool vs
# `soffice --headless --convert-to pdf` per file, and HTML → PDF through the API's warm Chromium vs
# `chromium --headless --print-to-pdf` per file. Same inputs, same run; median of RUNS timed runs after one warm-up.
#   bench/convert.sh            (RUNS=5 by default; CORPUS=/path/to/shared/corpus to override)
# Starts its own service on a free port with a throw-away data directory, and stops it at the end.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
CORPUS="${CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$CORPUS" ]] || CORPUS=/work/shared/corpus
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAR="$ROOT/target/docapi.jar"
if [[ ! -f "$JAR" ]] || [[ -n "$(find src pom.xml -newer "$JAR" -print -quit)" ]]; then
  echo "building $JAR" >&2; mvn -q -B -DskipTests package >&2
fi

WORK="$(mktemp -d /tmp/docapi-bench-convert.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
export DOCAPI_DATA_DIR="$WORK/data" DOCAPI_PORT="$PORT" DOCAPI_OFFICE_PROCESSES="${DOCAPI_OFFICE_PROCESSES:-1}"
"$JAVA_HOME/bin/java" -jar "$JAR" >"$WORK/service.log" 2>&1 &
SERVICE_PID=$!
cleanup() { kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$PORT/v1" >/dev/null 2>&1 && break; sleep 0.5; done
KEY="$("$JAVA_HOME/bin/java" -jar "$JAR" admin create-account --email "bench-$(date +%s)@example.com" --plan pro 2>/dev/null | tail -1)"

python3 - "$PORT" "$KEY" "$CORPUS" "$WORK" "$RUNS" <<'PY'
import json, os, shutil, statistics, subprocess, sys, time, urllib.request
port, key, corpus, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
base = f"http://127.0.0.1:{port}/v1"

def call(method, path, body=None, ctype="application/json"):
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

def upload(path):
    with open(path, "rb") as f:
        st, body = call("POST", "/files?name=" + os.path.basename(path), f.read(), "application/octet-stream")
    assert st == 201, (st, body)
    return body["id"]

def api(file_id):
    t = time.perf_counter()
    st, body = call("POST", "/convert", json.dumps({"file": file_id, "to": "pdf", "wait": 300}).encode())
    assert st == 200, (st, body)
    return time.perf_counter() - t

def timed(cmd, before=None):
    if before: before()
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=600)
    return time.perf_counter() - t

def median_of(fn):
    fn()  # warm-up, not counted
    return statistics.median(fn() for _ in range(runs))

rows = []
office = ["office/fake.docx", "office/docx-tables.docx", "office/stanley-cups.xlsx",
          "office/fake-power-point.pptx", "office/sample-presentation.pptx", "office/fake.odt"]
profile = f"file://{work}/soffice-profile"
out = f"{work}/out"; os.makedirs(out, exist_ok=True)
for rel in office:
    path = os.path.join(corpus, rel); fid = upload(path)
    a = median_of(lambda: api(fid))
    r = median_of(lambda: timed(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf", "--outdir", out, path]))
    rows.append(("office→pdf", rel, a, r))

html = ["html-md-txt/fake-html.html", "html-md-txt/example-10k-1p.html", "html-md-txt/html-with-base64-image.html"]
flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"]
for rel in html:
    path = os.path.join(corpus, rel); fid = upload(path)
    a = median_of(lambda: api(fid))
    def chromium_once():
        udd = f"{work}/chromium-profile"; shutil.rmtree(udd, ignore_errors=True)
        return timed(["chromium", *flags, f"--user-data-dir={udd}", f"--print-to-pdf={out}/c.pdf", "file://" + path])
    r = median_of(chromium_once)
    rows.append(("html→pdf", rel, a, r))

print(f"\nconvert → pdf, median of {runs} runs after a warm-up (seconds per document)\n")
print(f"| direction | file | docapi API (warm) | raw tool per file | speed-up |")
print(f"|---|---|---:|---:|---:|")
for d, f, a, r in rows:
    print(f"| {d} | {f} | {a:.3f} | {r:.3f} | {r / a:.1f}× |")
for d in ("office→pdf", "html→pdf"):
    sel = [(a, r) for dd, _, a, r in rows if dd == d]
    ma, mr = statistics.median(a for a, _ in sel), statistics.median(r for _, r in sel)
    print(f"| {d} | **median over files** | {ma:.3f} | {mr:.3f} | {mr / ma:.1f}× |")
PY
