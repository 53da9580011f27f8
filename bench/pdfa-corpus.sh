#!/usr/bin/env bash
# Every corpus PDF and Office file through `POST /pdfa` (conformance 2b) and every PDF through `POST /validate-pdfa` on a
# running service (issue 37): per file, pdfa's answer (converted, or the HTTP status and why it refused: veraPDF's
# failed rules, the content check's "lost ...", or the 4xx code of an unreadable input) and validate-pdfa's HTTP
# status. pdfa answers only when veraPDF accepts its output and the text, links and outline check passed, so
# "converted" is "veraPDF-valid with its text kept". Prints a Markdown table and the counts.
# JAR=/path/to/other.jar measures another build; FILES="pdf-text/a.pdf ..." chooses other corpus files.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
FILES="${FILES:-$(cd "$CORPUS" && ls pdf-*/*.pdf office/*.* | tr '\n' ' ')}"
bench_service pdfa-corpus DOCAPI_OFFICE_WARM=false

python3 - "$PORT" "$KEY" "$CORPUS" "$FILES" <<'PY'
import collections, json, os, sys, time, urllib.error, urllib.request
port, key, corpus, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
BASE = f"http://127.0.0.1:{port}/v1"

def call(method, path, body=None, ctype="application/json"):
    req = urllib.request.Request(BASE + path, data=body, method=method,
                                 headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=1200) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

def job(operation, file_id, **options):
    """POST /operation and, past the 300 s wait, poll the job; (HTTP status of the answer, body)."""
    body = {"file": file_id, "wait": 300, **options}
    st, answer = call("POST", "/" + operation, json.dumps(body).encode())
    while st == 202 or answer.get("status") in ("queued", "running"):
        time.sleep(3)
        st, answer = call("GET", "/jobs/" + answer["id"])
        if answer.get("status") == "failed":
            return 502 if answer["error"]["code"] in ("internal_error", "service_unavailable") else 400, {"job": answer, "error": answer["error"]}
    return st, answer

def why(st, body):
    rules = [r["rule"] for r in ((body.get("job") or {}).get("output") or {}).get("data", {}).get("failed_rules", [])]
    err = body.get("error", {})
    msg = err.get("message", "?")
    kept = msg[msg.find("Kept as it was"):msg.find("No PDF/A")].strip() if "Kept as it was" in msg else ""
    kept = (" (" + kept[:120] + ")") if kept else ""
    if rules:
        return "rules " + ",".join(rules) + kept
    return err.get("code", "?") + ": " + (msg[msg.find("lost "):msg.find(", so no")] if "lost " in msg else msg[:90]) + kept

counts, vcounts = collections.Counter(), collections.Counter()
print("| file | pdfa | why refused | validate-pdfa |")
print("|---|---|---|---|")
for rel in files:
    path = os.path.join(corpus, rel)
    with open(path, "rb") as f:
        st, up = call("POST", "/files?name=" + os.path.basename(path), f.read(), "application/octet-stream")
    if st != 201:
        print(f"| {rel} | upload {st} {up.get('error', {}).get('code')} | | |", flush=True)
        counts["upload refused"] += 1
        continue
    st, body = job("pdfa", up["id"], conformance="2b")
    result = "converted" if st == 200 else f"{st}"
    counts["converted" if st == 200 else ("4xx" if st < 500 else "5xx")] += 1
    v = ""
    if rel.endswith(".pdf"):
        vst, vbody = job("validate-pdfa", up["id"])
        v = f"{vst}" + (" compliant" if vst == 200 and vbody["output"]["data"]["compliant"] else "") \
            + ("" if vst == 200 else " " + vbody.get("error", {}).get("message", "")[:80])
        vcounts["5xx" if vst >= 500 else str(vst)] += 1
    print(f"| {rel} | {result} | {'' if st == 200 else why(st, body)} | {v} |", flush=True)
print()
print("pdfa:", dict(counts), " validate-pdfa:", dict(vcounts))
PY
