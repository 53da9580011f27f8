#!/usr/bin/env bash
# Benchmark of generate (issue 28): a .docx invoice template filled with 3 and with 200 line items and printed to PDF
# through the API's warm LibreOffice pool, against a raw `soffice --headless --convert-to pdf` of the same filled .docx
# (fetched from the API with to: docx) per document, and the filling alone (to: docx). Median of RUNS timed runs after
# WARMUP untimed ones; each raw soffice run is a new process (one warm-up run, for the disk cache).
#   bench/generate.sh           (RUNS=5, WARMUP=10 by default: short runs, the machine is shared;
#                                JAR=/path/to/docapi.jar to time another build)
# Starts its own service on a free port with a throw-away data directory, and stops it at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-10}"
bench_service generate DOCAPI_OFFICE_PROCESSES=1

python3 - "$PORT" "$KEY" "$WORK" "$RUNS" "$WARMUP" <<'PY'
import json, os, statistics, subprocess, sys, time, urllib.request, zipfile
port, key, work, runs, warmup = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
BASE = f"http://127.0.0.1:{port}/v1"

def call(method, path, body=None, ctype="application/json"):
    req = urllib.request.Request(BASE + path, data=body, method=method, headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read() or b"{}")

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
def p(text): return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'
def cell(text): return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{p(text)}</w:tc>'
# the invoice template: a heading, a loop row, a total and a conditional paragraph (the test's template, minus the logo)
body = (p("Invoice for {{customer}}") + '<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr>'
        + "<w:tr>" + cell("Item") + cell("Qty") + cell("Price") + "</w:tr>"
        + "<w:tr>" + cell("{{#items}}{{name}}") + cell("{{qty}}") + cell('{{number price "0.00"}}{{/items}}') + "</w:tr></w:tbl>"
        + p('Total: {{number total "#,##0.00"}}') + p("{{^paid}}") + p('Payment due by {{date due "d MMMM yyyy"}}') + p("{{/paid}}"))
template = os.path.join(work, "invoice.docx")
with zipfile.ZipFile(template, "w") as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
               '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
               '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    z.writestr("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
    z.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}</w:body></w:document>')
with open(template, "rb") as f:
    tid = call("POST", "/files?name=invoice.docx", f.read(), "application/octet-stream")["id"]

def data(n):
    items = [{"name": f"Item {i:03d}", "qty": 1, "price": i * 10} for i in range(1, n + 1)]
    return {"customer": "Smith & Sons", "items": items, "total": sum(i["price"] for i in items), "paid": False, "due": "2026-12-05"}

def generate(n, to):
    t = time.perf_counter()
    job = call("POST", "/generate", json.dumps({"file": tid, "data": data(n), "to": to, "wait": 300}).encode())
    assert job["status"] == "succeeded", job
    return time.perf_counter() - t, job

def median_of(fn, warm):
    for _ in range(warm): fn()
    return statistics.median(fn() for _ in range(runs))

out = os.path.join(work, "out"); os.makedirs(out, exist_ok=True)
profile = f"file://{work}/soffice-profile"
rows = []
for n in (3, 200):
    api_pdf = median_of(lambda: generate(n, "pdf")[0], warmup)
    api_docx = median_of(lambda: generate(n, "docx")[0], warmup)
    _, job = generate(n, "docx")
    filled = os.path.join(work, f"filled-{n}.docx")
    with urllib.request.urlopen(job["output"]["files"][0]["download_url"], timeout=60) as r, open(filled, "wb") as f:
        f.write(r.read())
    def raw():
        t = time.perf_counter()
        subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf", "--outdir", out, filled],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=600)
        return time.perf_counter() - t
    rows.append((n, api_pdf, api_docx, median_of(raw, 1)))

print(f"\ngenerate (docx template → PDF), median of {runs} runs after {warmup} warm-up requests; raw soffice a new process per document (seconds per document)\n")
print("| line items | docapi generate → pdf (warm) | of which filling (to: docx) | raw soffice --convert-to pdf of the filled docx | speed-up vs raw |")
print("|---:|---:|---:|---:|---:|")
for n, a, d, r in rows:
    print(f"| {n} | {a:.3f} | {d:.3f} | {r:.3f} | {r / a:.1f}× |")
PY
