#!/usr/bin/env bash
# Benchmark of convert → pdf (issue 3): Office → PDF through the API's warm LibreOffice pool vs
# `soffice --headless --convert-to pdf` per file, and HTML → PDF through the API's warm Chromium vs
# `chromium --headless --print-to-pdf` per file, and the same API with the engine sandbox switched off
# (DOCAPI_UNSANDBOXED=true: what the sandbox costs, issue 9). Same inputs, same run; median of RUNS timed runs.
# Each raw tool run is a new process (one warm-up run, for the disk cache); the API is timed as a service that has
# been running: WARMUP conversions of the same file first (default 100: the first requests after start run in a
# JVM not yet compiled, 0.20 s instead of 0.14 s for a one-page HTML; Chromium's own start is not in either).
#   bench/convert.sh            (RUNS=5 by default; WARMUP=100; CORPUS=/path/to/shared/corpus to override;
#                                DIRECTIONS="html" to time only HTML → PDF, default "office html"; "xlsx" and "docx"
#                                time PDF → xlsx / docx against the Tabula child JVM alone, as the service starts it;
#                                JAR=/path/to/docapi.jar to time another build, e.g. the previous one, in the same session)
# Starts its own service on a free port with a throw-away data directory, and stops it at the end.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-100}"
DIRECTIONS="${DIRECTIONS:-office html}"
CORPUS="${CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$CORPUS" ]] || CORPUS=/work/shared/corpus
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAR="${JAR:-$ROOT/target/docapi.jar}"  # JAR=... to time another build (e.g. the previous one) without rebuilding
if [[ "$JAR" == "$ROOT/target/docapi.jar" ]] && { [[ ! -f "$JAR" ]] || [[ -n "$(find src pom.xml -newer "$JAR" -print -quit)" ]]; }; then
  echo "building $JAR" >&2; mvn -q -B -DskipTests package >&2
fi

WORK="$(mktemp -d /tmp/docapi-bench-convert.XXXXXX)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
# start_service NAME [VAR=value...]: a service on a free port with its own data dir; sets SVC_PORT and SVC_KEY
start_service() {
  local name="$1"; shift
  local port; port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  # a management port of its own: the admin CLI below reaches the running service through it (H2 is its alone)
  local mgmt; mgmt="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  # the rate limit (120 a minute per key) is not what is timed: warm-ups and runs of three files exceed it
  env DOCAPI_DATA_DIR="$WORK/$name" DOCAPI_PORT="$port" DOCAPI_MANAGEMENT_PORT="$mgmt" DOCAPI_OFFICE_PROCESSES="${DOCAPI_OFFICE_PROCESSES:-1}" \
    DOCAPI_REQUESTS_PER_MINUTE=1000000 "$@" \
    "$JAVA_HOME/bin/java" -jar "$JAR" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$port/v1" >/dev/null 2>&1 && break; sleep 0.5; done
  local key; key="$(env DOCAPI_DATA_DIR="$WORK/$name" DOCAPI_MANAGEMENT_PORT="$mgmt" "$JAVA_HOME/bin/java" -jar "$JAR" admin create-account \
    --email "bench-$name-$(date +%s)@example.com" --plan pro 2>/dev/null | tail -1)"
  SVC_PORT="$port" SVC_KEY="$key"
}
start_service sandboxed; PORT="$SVC_PORT" KEY="$SVC_KEY"
start_service unsandboxed DOCAPI_UNSANDBOXED=true; OPEN_PORT="$SVC_PORT" OPEN_KEY="$SVC_KEY"

python3 - "$PORT" "$KEY" "$CORPUS" "$WORK" "$RUNS" "$OPEN_PORT" "$OPEN_KEY" "$DIRECTIONS" "$WARMUP" "$JAR" "$JAVA_HOME" <<'PY'
import glob, json, os, shutil, statistics, subprocess, sys, time, urllib.request, zipfile
port, key, corpus, work, runs, open_port, open_key = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7]
directions = sys.argv[8].split()
warmup = int(sys.argv[9])
jar, java_home = sys.argv[10], sys.argv[11]
SANDBOXED = (f"http://127.0.0.1:{port}/v1", key)
UNSANDBOXED = (f"http://127.0.0.1:{open_port}/v1", open_key)

def call(method, path, body=None, ctype="application/json", service=SANDBOXED):
    base, key = service
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

def upload(path, service=SANDBOXED):
    with open(path, "rb") as f:
        st, body = call("POST", "/files?name=" + os.path.basename(path), f.read(), "application/octet-stream", service)
    assert st == 201, (st, body)
    return body["id"]

def api(file_id, service=SANDBOXED, to="pdf"):
    t = time.perf_counter()
    st, body = call("POST", "/convert", json.dumps({"file": file_id, "to": to, "wait": 300}).encode(), service=service)
    assert st == 200, (st, body)
    return time.perf_counter() - t

def timed(cmd, before=None):
    if before: before()
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=600)
    return time.perf_counter() - t

def median_of(fn, warm=1):
    for _ in range(warm): fn()  # not counted
    return statistics.median(fn() for _ in range(runs))

rows = []
office = ["office/fake.docx", "office/docx-tables.docx", "office/stanley-cups.xlsx",
          "office/fake-power-point.pptx", "office/sample-presentation.pptx", "office/fake.odt"] if "office" in directions else []
profile = f"file://{work}/soffice-profile"
out = f"{work}/out"; os.makedirs(out, exist_ok=True)
for rel in office:
    path = os.path.join(corpus, rel); fid = upload(path); ofid = upload(path, UNSANDBOXED)
    a = median_of(lambda: api(fid), warmup)
    u = median_of(lambda: api(ofid, UNSANDBOXED), warmup)
    r = median_of(lambda: timed(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf", "--outdir", out, path]))
    rows.append(("office→pdf", rel, a, u, r))

html = ["html-md-txt/fake-html.html", "html-md-txt/example-10k-1p.html", "html-md-txt/html-with-base64-image.html"] if "html" in directions else []
flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"]
for rel in html:
    path = os.path.join(corpus, rel); fid = upload(path); ofid = upload(path, UNSANDBOXED)
    a = median_of(lambda: api(fid), warmup)
    u = median_of(lambda: api(ofid, UNSANDBOXED), warmup)
    def chromium_once():
        udd = f"{work}/chromium-profile"; shutil.rmtree(udd, ignore_errors=True)
        return timed(["chromium", *flags, f"--user-data-dir={udd}", f"--print-to-pdf={out}/c.pdf", "file://" + path])
    r = median_of(chromium_once)
    rows.append(("html→pdf", rel, a, u, r))

# pdf → xlsx and pdf → docx: tables found by Tabula in a child JVM. The raw tool is that child run alone, unsandboxed, from the
# folder the sandboxed service unpacked its jar into (classes.jar, then the nested jars in classpath.idx order), with
# the class-data archive the service made there, and the flags engines/process/ChildJvm gives it.
tables = ["pdf-text/form-filled-by-acrobat-3p.pdf", "pdf-text/google-docs-pdf14.pdf", "pdf-text/two-column-paper-2p.pdf"]
targets = [t for t in ("xlsx", "docx") if t in directions]
def archive_ready(service_dir, upto=60):
    for _ in range(upto * 10):
        if glob.glob(f"{work}/{service_dir}/work/child-jvm-*/*.jsa"): return
        time.sleep(0.1)
if targets:
    # the services make the child's class-data archive in the background after their first table detection
    first = os.path.join(corpus, tables[0])
    api(upload(first), to=targets[0]); api(upload(first, UNSANDBOXED), UNSANDBOXED, to=targets[0])
    archive_ready("sandboxed"); archive_ready("unsandboxed")
    with zipfile.ZipFile(jar) as z:
        nested = [l.strip()[3:-1].removeprefix("BOOT-INF/lib/") for l in z.read("BOOT-INF/classpath.idx").decode().splitlines() if l.strip()]
for to, rel in [(t, r) for t in targets for r in tables]:
    path = os.path.join(corpus, rel); fid = upload(path); ofid = upload(path, UNSANDBOXED)
    a = median_of(lambda: api(fid, to=to), min(warmup, 3))
    u = median_of(lambda: api(ofid, UNSANDBOXED, to=to), min(warmup, 3))
    folder = glob.glob(f"{work}/sandboxed/work/child-jvm-*")[0]
    cp = ":".join([f"{folder}/classes.jar"] + [f"{folder}/{n}" for n in nested])
    archive = glob.glob(f"{folder}/*.jsa")
    child = [f"{java_home}/bin/java", "-Xmx512m", "-Xss2m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
             "-XX:ReservedCodeCacheSize=48m", "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m",
             "-Djava.awt.headless=true", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"] + [f"-XX:SharedArchiveFile={x}" for x in archive]
    r = median_of(lambda: timed(child + ["-cp", cp, "dev.docapi.engines.tabula.TabulaMain", path, f"{out}/t.jsonl", "1", "lattice", "all"]))
    rows.append(("pdf→" + to, rel, a, u, r))

print(f"\nconvert, median of {runs} runs; the API after {warmup} warm-up conversions ({min(warmup, 3)} for pdf → xlsx/docx), each raw tool run a new process (seconds per document)\n")
print(f"| direction | file | docapi API (warm, sandboxed) | same, unsandboxed | sandbox cost | raw tool per file | speed-up vs raw |")
print(f"|---|---|---:|---:|---:|---:|---:|")
for d, f, a, u, r in rows:
    print(f"| {d} | {f} | {a:.3f} | {u:.3f} | {100 * (a / u - 1):+.0f} % | {r:.3f} | {r / a:.1f}× |")
for d in ("office→pdf", "html→pdf", "pdf→xlsx", "pdf→docx"):
    sel = [(a, u, r) for dd, _, a, u, r in rows if dd == d]
    if not sel: continue
    ma, mu, mr = (statistics.median(x[i] for x in sel) for i in range(3))
    print(f"| {d} | **median over files** | {ma:.3f} | {mu:.3f} | {100 * (ma / mu - 1):+.0f} % | {mr:.3f} | {mr / ma:.1f}× |")
PY
