#!/usr/bin/env bash
# Benchmark of PDF → Markdown structure (issue 36 item 5): `convert {to: "md", images: false}` scored against the
# reference Markdown of the public set in bench/structure/ (MANIFEST.tsv says where each file comes from) with
# opendataloader-bench's metrics (bench/structure/score.py), beside, on the same files in the same run:
#   pdftotext -layout      poppler's text in page layout (the raw tool: no headings, no tables)
#   pymupdf-sort           PyMuPDF's page.get_text(sort=True) (Debian python3-fitz; plain text in block order)
#   opendataloader-pdf     the rule-based Java parser's CLI jar from npm @opendataloader/pdf, pinned below,
#                          `-f markdown --table-method cluster --image-output off` as opendataloader-bench runs it
# pymupdf4llm, Docling and marker are not on the package indexes this machine reaches, so they are not run; their
# published figures on opendataloader-bench are in bench/RESULTS.md as anchors.
# Seconds per page: the whole set's wall time over its pages, median of RUNS passes (docapi: a warm service after
# WARMUP conversions, upload excluded, job and download included, each pass under an account of its own, so that no pass
# reads back the document model an earlier one kept; opendataloader-pdf: one JVM per pass over the folder).
#   bench/structure.sh     (RUNS=3, WARMUP=3; JAR=/path/to/docapi.jar times another build; KEEP=dir keeps the outputs;
#                          SET=bench/structure-heldout scores the held-out set, which no rule was tuned on;
#                          SET=bench/structure-icdar2013 scores tables alone against the ICDAR 2013 table
#                          competition's hand-made cell structure (67 EU and US government PDFs; its references
#                          hold only the tables, so only TEDS and cell F1 mean anything there);
#                          SET=bench/structure-ocr scores Docling's one-line OCR test scan upright and shown turned
#                          (reading order and word recall only);
#                          SCANNED=1 scores the set's pages as scans: each printed to a 200 dpi grey image, which
#                          docapi OCRs, against the same references; the peers read no text from an image)
# Needs `scripts/install-deps --bench` (poppler, python3-fitz, python3-lxml, python3-venv, npm). Peers install into
# target/bench-structure/ (npm registry; pip's configured index for rapidfuzz). Starts its own
# service on a free port with a throw-away data directory and stops it at the end. A benchmark, not a test: it
# asserts nothing and prints a table for bench/RESULTS.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/service.sh"
cd "$ROOT"
RUNS="${RUNS:-3}"
WARMUP="${WARMUP:-3}"
ODL_VERSION=2.5.11
RAPIDFUZZ_VERSION=3.14.6
TOOLS="$ROOT/target/bench-structure"
SET="$(realpath "${SET:-$ROOT/bench/structure}")"
SCORER="$ROOT/bench/structure/score.py"

mkdir -p "$TOOLS"
# checked by importing it: a venv whose install was interrupted has a python but no rapidfuzz
if ! "$TOOLS/venv/bin/python" -c "import rapidfuzz" 2>/dev/null; then
  # the system Python: PyMuPDF comes from Debian's python3-fitz
  /usr/bin/python3 -m venv --system-site-packages "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install -q --retries 0 "rapidfuzz==$RAPIDFUZZ_VERSION"
fi
ODL_JAR="$TOOLS/opendataloader-pdf-$ODL_VERSION/package/lib/opendataloader-pdf-cli.jar"
if [[ ! -f "$ODL_JAR" ]]; then
  mkdir -p "$TOOLS/opendataloader-pdf-$ODL_VERSION"
  (cd "$TOOLS/opendataloader-pdf-$ODL_VERSION" && npm pack -q "@opendataloader/pdf@$ODL_VERSION" >/dev/null && tar xzf opendataloader-pdf-*.tgz)
fi

bench_service structure
# an account a timed pass: the kept model is an account's, by the file's bytes
PASS_KEYS="$(for i in $(seq 1 "$RUNS"); do
  env DOCAPI_DATA_DIR="$WORK/data" DOCAPI_MANAGEMENT_PORT="$MGMT" "$JAVA_HOME/bin/java" -jar "$JAR" admin create-account \
    --email "bench-structure-pass$i-$(date +%s)@example.com" --plan pro 2>/dev/null | tail -1
done | paste -sd,)"
if [[ "${SCANNED:-}" == 1 ]]; then
  # the set's PDFs as scans: each page an image of what it shows, with no text layer
  mkdir -p "$WORK/scanned/pdf"
  cp -r "$SET/ref" "$SET/MANIFEST.tsv" "$WORK/scanned/"
  "$TOOLS/venv/bin/python" - "$SET/pdf" "$WORK/scanned/pdf" <<'PY'
import sys, fitz
from pathlib import Path
for pdf in sorted(Path(sys.argv[1]).glob("*.pdf")):
    with fitz.open(pdf) as src, fitz.open() as out:
        for page in src:
            image = page.get_pixmap(dpi=200, colorspace=fitz.csGRAY).tobytes("png")
            out.new_page(width=page.rect.width, height=page.rect.height).insert_image(page.rect, stream=image)
        out.save(Path(sys.argv[2]) / pdf.name, deflate=True)
PY
  SET="$WORK/scanned"
fi
"$TOOLS/venv/bin/python" - "$PORT" "$KEY,$PASS_KEYS" "$SET" "$WORK/pred" "$RUNS" "$WARMUP" "$ODL_JAR" "$ODL_VERSION" "$JAVA_HOME/bin/java" "$SCORER" <<'PY'
import csv, json, re, shutil, statistics, subprocess, sys, time, unicodedata, urllib.error, urllib.request
from collections import Counter
from pathlib import Path
import fitz
port, keys, set_dir, out, runs, warmup, odl_jar, odl_version, java, scorer = sys.argv[1:]
keys = keys.split(",")
set_dir, out, runs, warmup = Path(set_dir), Path(out), int(runs), int(warmup)
base = f"http://127.0.0.1:{port}/v1"
pdfs = sorted((set_dir / "pdf").glob("*.pdf"))
page_count = {p: int(next(l.split()[1] for l in subprocess.run(["pdfinfo", str(p)], capture_output=True, text=True,
                                                                check=True).stdout.splitlines() if l.startswith("Pages:")))
              for p in pdfs}
pages = sum(page_count.values())

def name(pdf): return pdf.name[:-4] + ".md"

def call(method, path, body, ctype="application/json", key=keys[0]):
    req = urllib.request.Request(base + path, data=body, method=method, headers={"Authorization": "Bearer " + key, "Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=900) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path}: {e.code} {e.read().decode()}")

def timed_passes(tool, one_pass):
    """Median wall seconds of RUNS passes over the whole set; the last pass's Markdown stays in out/tool."""
    (out / tool).mkdir(parents=True, exist_ok=True)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        one_pass(out / tool)
        times.append(time.perf_counter() - t)
    return statistics.median(times)

def upload(key):
    return {pdf: call("POST", "/files?name=" + pdf.name, pdf.read_bytes(), "application/octet-stream", key)["id"] for pdf in pdfs}

# the warm-up's account, then one a timed pass (uploads are not timed)
uploads = [(key, upload(key)) for key in keys]

def docapi_one(pdf, key, ids):
    job = call("POST", "/convert", json.dumps({"file": ids[pdf], "to": "md", "images": False, "wait": 300}).encode(), key=key)
    while job["status"] in ("queued", "running"):
        time.sleep(0.2)
        job = call("GET", f"/jobs/{job['id']}", None, key=key)
    if job["status"] != "succeeded":
        print(f"docapi: {pdf.name}: {job['status']} {job.get('error')}", file=sys.stderr)
        return ""
    with urllib.request.urlopen(job["output"]["files"][0]["download_url"], timeout=60) as r:
        return r.read().decode()

call_seconds = {pdf: [] for pdf in pdfs}  # docapi's seconds per document, one entry per pass

def docapi(target):
    key, ids = uploads[1 + len(call_seconds[pdfs[0]])]
    for pdf in pdfs:
        t = time.perf_counter()
        (target / name(pdf)).write_text(docapi_one(pdf, key, ids))
        call_seconds[pdf].append(time.perf_counter() - t)

def pdftotext(target):
    for pdf in pdfs:
        subprocess.run(["pdftotext", "-q", "-layout", str(pdf), str(target / name(pdf))], check=True)

def pymupdf_sort(target):
    for pdf in pdfs:
        with fitz.open(pdf) as doc:
            (target / name(pdf)).write_text("\n".join(page.get_text("text", sort=True) for page in doc))

def opendataloader(target):
    subprocess.run([java, "-jar", odl_jar, "-f", "markdown", "--table-method", "cluster", "--image-output", "off",
                    "-q", "-o", str(target), str(set_dir / "pdf")], check=True, capture_output=True)

for i in range(warmup):
    docapi_one(pdfs[i % len(pdfs)], *uploads[0])
versions = {
    "docapi": "service under test",
    "pdftotext -layout": subprocess.run(["pdftotext", "-v"], capture_output=True, text=True).stderr.split("\n")[0].split()[-1],
    "pymupdf-sort": fitz.VersionBind,
    "opendataloader-pdf": odl_version,
}
seconds = {}
for tool, fn in [("docapi", docapi), ("pdftotext -layout", pdftotext), ("pymupdf-sort", pymupdf_sort),
                 ("opendataloader-pdf", opendataloader)]:
    seconds[tool] = timed_passes(tool, fn)
print(f"{len(pdfs)} documents, {pages} pages; time: median of {runs} passes over the set\n")
print("| tool | version | s/page |")
print("|---|---|---:|")
for tool, s in seconds.items():
    print(f"| {tool} | {versions[tool]} | {s / pages:.3f} |")
longest = max(pdfs, key=lambda p: page_count[p])
print(f"\ndocapi per document: median {statistics.median(statistics.median(v) for v in call_seconds.values()):.2f} s "
      f"(most are 1-2 pages: about the fixed cost of a call); the longest, {longest.name} ({page_count[longest]} pages): "
      f"{statistics.median(call_seconds[longest]) / page_count[longest]:.3f} s/page\n")
sys.stdout.flush()
subprocess.run([sys.executable, scorer, "--per-doc", str(set_dir / "ref"),
                *[str(out / tool) for tool in seconds]], check=True)
# word recall (issue 36: "word recall stays >= 0.98 everywhere"): the share of the words (NFKC, lower case, a multiset;
# Markdown's escapes undone, a word hyphenated at a line's end joined) of the page's own text as pdftotext reads it, and
# of the reference, that each tool's Markdown holds. Running headers, footers and page numbers, which docapi's Markdown
# leaves out on purpose, count as missed
def words(text):
    text = re.sub(r"<!--.*?-->", " ", unicodedata.normalize("NFKC", text), flags=re.S).lower()
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", r"\1", text)  # Markdown's escapes ("tax\_id")
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)  # a word hyphenated at a line's end is one word
    return Counter(re.findall(r"\w+", text))

def recall(expected, actual):
    total = sum(expected.values())
    return None if total == 0 else sum(min(n, actual[w]) for w, n in expected.items()) / total

page_words = {pdf: words((out / "pdftotext -layout" / name(pdf)).read_text()) for pdf in pdfs}
ref_words = {pdf: words((set_dir / "ref" / name(pdf)).read_text()) for pdf in pdfs}
print("\nword recall: the share of the words of the page's text (pdftotext) and of the reference in each tool's output, "
      "mean over the documents (docapi's lowest document after it)\n")
print("| tool | of the page's words | of the reference's words |")
print("|---|---:|---:|")
for tool in seconds:
    got = {pdf: words((out / tool / name(pdf)).read_text()) if (out / tool / name(pdf)).exists() else Counter() for pdf in pdfs}
    of_page = [r for pdf in pdfs if (r := recall(page_words[pdf], got[pdf])) is not None]
    of_ref = [r for pdf in pdfs if (r := recall(ref_words[pdf], got[pdf])) is not None]
    line = f"| {tool} | {statistics.mean(of_page):.3f} | {statistics.mean(of_ref):.3f} |" if of_page else f"| {tool} | — | {statistics.mean(of_ref):.3f} |"
    print(line)
    if tool == "docapi" and of_page:
        low = min((p for p in pdfs if page_words[p]), key=lambda p: recall(page_words[p], got[p]))
        under = [f"{p.name[:-4]} {recall(page_words[p], got[p]):.3f}" for p in pdfs if page_words[p] and recall(page_words[p], got[p]) < 0.98]
        docapi_note = f"docapi's lowest: {low.name[:-4]} {recall(page_words[low], got[low]):.3f}; under 0.98: {', '.join(under) or 'none'}"
print("\n" + docapi_note if "docapi_note" in dir() else "")
sys.stdout.flush()
# the same means apart by where the reference comes from: a Docling model's output, the source document's markup, or
# a hand-made ground truth (the ICDAR 2013 set); a set of one kind only has its table above
with open(set_dir / "MANIFEST.tsv") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
def kind(made_by):
    return "model" if made_by.startswith("Docling's PDF pipeline") else "hand" if made_by.startswith("ICDAR") else "source"
kinds = {kind(row["reference_made_by"]) for row in rows}
for label, made in [("references made by Docling's PDF models", "model"), ("references from the source markup", "source"),
                    ("references made by hand", "hand")]:
    if len(kinds) < 2 or made not in kinds:
        continue
    part = out.parent / f"ref-{made}"
    part.mkdir()
    for row in rows:
        if kind(row["reference_made_by"]) == made:
            shutil.copy(set_dir / row["reference"], part)
    print(f"\n{label} ({len(list(part.iterdir()))} documents):\n")
    sys.stdout.flush()
    subprocess.run([sys.executable, scorer, str(part), *[str(out / tool) for tool in seconds]], check=True)
PY
if [[ -n "${KEEP:-}" ]]; then mkdir -p "$KEEP" && cp -r "$WORK/pred/." "$KEEP/"; fi
