#!/usr/bin/env bash
# Benchmarks of issue 3 for compress, ocr and extract-text, each against the raw tool on the same input in the
# same run, median of 3 runs. Prints a Markdown report on stdout.
#
#   bench/engines.sh                      builds the jar, starts a private service on port 18093 (temp data dir)
#   BASE_URL=... API_KEY=... bench/engines.sh   uses a service that is already running
#   SECTIONS="level target ocr cer once" (default: all) picks sections; RUNS=3 (default) sets the runs per figure
#
# A file's OCR is kept with it and reused for the same bytes in the same account (issue 12 item 4): figures that
# must time a real OCR upload a copy made unique by a trailing PDF comment (readers ignore bytes after %%EOF).
#
# Needs: curl, python3 (JSON and the character error rate), gs, ocrmypdf, tesseract.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${DOCAPI_CORPUS:-$(cd "$ROOT/.." && pwd)/shared/corpus}"
[[ -d "$CORPUS" ]] || CORPUS="$ROOT/../shared/corpus"
RUNS="${RUNS:-3}"
SECTIONS="${SECTIONS:-level target ocr cer once}"
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
WORK="$(mktemp -d /tmp/docapi-bench-XXXXXX)"
SERVICE_PID=""
cleanup() {
  if [[ -n "$SERVICE_PID" ]]; then kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [[ -z "${BASE_URL:-}" ]]; then
  for d in /usr/lib/jvm/temurin-25*; do export JAVA_HOME="$d"; done
  (cd "$ROOT" && mvn -q -B -o -DskipTests package >&2)
  # a management port of its own: the admin CLI below reaches the running service through it (H2 is its alone)
  export DOCAPI_DATA_DIR="$WORK/data" DOCAPI_PORT=18093 DOCAPI_MANAGEMENT_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  "$JAVA_HOME/bin/java" -Xmx1g -jar "$ROOT/target/docapi.jar" > "$WORK/service.log" 2>&1 &
  SERVICE_PID=$!
  BASE_URL="http://localhost:18093/v1"
  for _ in $(seq 1 300); do curl -sf "$BASE_URL" > /dev/null && break; sleep 1; done
  API_KEY="$("$JAVA_HOME/bin/java" -Xmx256m -jar "$ROOT/target/docapi.jar" admin create-account --email "bench-$$@example.com" --plan pro 2>/dev/null | tail -1)"
fi

now() { date +%s.%N; }
median() { python3 -c 'import sys,statistics; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.2f}")' "$@"; }
size() { stat -c %s "$1"; }
mb() { python3 -c 'import sys; print(f"{int(sys.argv[1])/1e6:.3f}")' "$1"; }
json() { python3 -c 'import sys,json; d=json.load(sys.stdin); print(eval(sys.argv[1], {"d": d}))' "$1"; }
upload() { curl -sf -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/octet-stream' \
  --data-binary "@$1" "$BASE_URL/files?name=$(basename "$1")" | json 'd["id"]'; }
# unique <file> → prints the path of a copy with a trailing comment: new bytes, so no kept OCR applies
unique() { local u; u="$WORK/unique-$(date +%s%N)-$(basename "$1")"; cp "$1" "$u"; printf '\n%% bench copy %s\n' "$u" >> "$u"; echo "$u"; }
# op <operation> <json body> → prints the job JSON (the request waits up to 300 s)
op() { curl -s -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' -d "$2" "$BASE_URL/$1"; }
cer() { python3 - "$1" "$2" <<'PY'
import re, sys
def norm(s):
    s = re.sub('[\u200e\u200f\u202a-\u202e\u2066-\u2069\f]', '', s)
    return re.sub(r'\s+', ' ', s).strip()
h, t = norm(open(sys.argv[1], encoding='utf-8').read()), norm(open(sys.argv[2], encoding='utf-8').read())
prev = list(range(len(t) + 1))
for i, a in enumerate(h, 1):
    cur = [i]
    for j, b in enumerate(t, 1):
        cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a != b)))
    prev = cur
print(f"{prev[-1] / max(1, len(t)):.3f}")
PY
}

echo "# Engines benchmark (compress, ocr, extract-text)"
echo
echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB RAM, $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC'); median of $RUNS runs."
echo "Tools: gs $(gs --version), ocrmypdf $(ocrmypdf --version 2>/dev/null), $(tesseract --version 2>&1 | head -1), $(qpdf --version | head -1)."
echo

if want level; then
echo "## compress level=ebook vs \`gs -dPDFSETTINGS=/ebook\` alone"
echo
echo "| file | input MB | docapi MB | gs MB | docapi s | gs s |"
echo "|---|---|---|---|---|---|"
for f in pdf-scanned/multipage-6p-mixed.pdf pdf-text/two-column-paper-2p.pdf pdf-text/indesign-2p-linearized-pdf17.pdf pdf-text/geotopo-117p-linearized-links.pdf pdf-text/annotations-text-highlight-ink.pdf; do
  in="$CORPUS/$f"; id="$(upload "$in")"; ta=(); tg=(); sa=""; sg=""
  for _ in $(seq 1 "$RUNS"); do
    t0=$(now); job="$(op compress "{\"file\":\"$id\",\"level\":\"ebook\",\"wait\":300}")"; t1=$(now)
    ta+=("$(python3 -c "print($t1-$t0)")"); sa="$(echo "$job" | json 'd["output"]["files"][0]["size"]')"
    t0=$(now); gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook -sOutputFile="$WORK/gs.pdf" "$in"; t1=$(now)
    tg+=("$(python3 -c "print($t1-$t0)")"); sg="$(size "$WORK/gs.pdf")"
  done
  echo "| $(basename "$f") | $(mb "$(size "$in")") | $(mb "$sa") | $(mb "$sg") | $(median "${ta[@]}") | $(median "${tg[@]}") |"
done
echo

fi

if want target; then
echo "## compress target_mb: how close it lands"
echo
echo "| file | input MB | target MB | result MB | result/target | reached | s |"
echo "|---|---|---|---|---|---|---|"
for spec in "pdf-scanned/multipage-6p-mixed.pdf 0.5" "pdf-scanned/multipage-6p-mixed.pdf 0.3" "pdf-scanned/flattened-lorem-ipsum.pdf 0.2" \
            "pdf-scanned/huckfinn-page-c02-22.pdf 0.1" "pdf-scanned/english-skewed-brochure.pdf 0.05"; do
  set -- $spec; in="$CORPUS/$1"; target="$2"; id="$(upload "$in")"; ts=(); s=""
  for _ in $(seq 1 "$RUNS"); do
    t0=$(now); job="$(op compress "{\"file\":\"$id\",\"target_mb\":$target,\"wait\":300}")"; t1=$(now)
    ts+=("$(python3 -c "print($t1-$t0)")"); s="$(echo "$job" | json 'd["output"]["files"][0]["size"]')"
  done
  ratio="$(python3 -c "print(f'{$s/($target*1e6):.2f}')")"; reached="$(python3 -c "print('yes' if $s <= $target*1e6 else 'no')")"
  echo "| $(basename "$1") | $(mb "$(size "$in")") | $target | $(mb "$s") | $ratio | $reached | $(median "${ts[@]}") |"
done
echo

fi

if want ocr; then
echo "## ocr vs \`ocrmypdf\` alone (same flags: -l eng+ara --skip-text --deskew --rotate-pages --jobs $(nproc), OMP_THREAD_LIMIT=1)"
echo
echo "| file | pages | docapi s | ocrmypdf s | docapi pages/min | ocrmypdf pages/min | ratio |"
echo "|---|---|---|---|---|---|---|"
for f in pdf-scanned/english-skewed-brochure.pdf pdf-scanned/multipage-6p-mixed.pdf; do
  in="$CORPUS/$f"; pages="$(qpdf --show-npages "$in")"; ta=(); tr=()
  for _ in $(seq 1 "$RUNS"); do
    id="$(upload "$(unique "$in")")"
    t0=$(now); op ocr "{\"file\":\"$id\",\"wait\":300}" > /dev/null; t1=$(now); ta+=("$(python3 -c "print($t1-$t0)")")
    t0=$(now); OMP_THREAD_LIMIT=1 ocrmypdf -q -l eng+ara --output-type pdf --pdf-renderer sandwich --sidecar "$WORK/side.txt" \
      --skip-text --deskew --rotate-pages --jobs "$(nproc)" "$in" "$WORK/ocr.pdf"; t1=$(now); tr+=("$(python3 -c "print($t1-$t0)")")
  done
  a="$(median "${ta[@]}")"; r="$(median "${tr[@]}")"
  echo "| $(basename "$f") | $pages | $a | $r | $(python3 -c "print(f'{$pages*60/$a:.1f}')") | $(python3 -c "print(f'{$pages*60/$r:.1f}')") | $(python3 -c "print(f'{$r/$a:.2f}')") |"
done
echo

fi

if want cer; then
echo "## OCR character error rate against the ground truth (extract-text, and raw tesseract on the same image)"
echo
echo "docapi picks each page's languages by script (issue 12); the raw columns run \`tesseract IMAGE out -l L\` on the image."
echo "The 150 % row re-rasterises the Arabic scan with \`pdftoppm -r 144\` (its image is 96 dpi) and sends docapi that PNG."
echo
echo "| file | language | docapi CER | raw \`ara\` | raw \`eng\` | raw \`eng+ara\` |"
echo "|---|---|---|---|---|---|"
pdftoppm -r 144 -gray -png -singlefile "$CORPUS/pdf-scanned/arabic-paragraph-capr12-imageonly.pdf" "$WORK/capr12-150"
for spec in "$CORPUS/pdf-scanned/arabic-paragraph-capr12-imageonly.pdf pdf-scanned/arabic-paragraph-capr12.truth.txt $CORPUS/pdf-scanned/arabic-paragraph-capr12.png Arabic" \
            "$WORK/capr12-150.png pdf-scanned/arabic-paragraph-capr12.truth.txt $WORK/capr12-150.png Arabic-150%" \
            "$CORPUS/images/phototest.tif images/phototest.txt $CORPUS/images/phototest.tif English"; do
  set -- $spec; id="$(upload "$1")"
  op extract-text "{\"file\":\"$id\",\"wait\":300}" | json 'd["output"]["text"]' > "$WORK/out.txt"
  row="| $(basename "$1") | $4 | $(cer "$WORK/out.txt" "$CORPUS/$2") |"
  for l in ara eng eng+ara; do
    OMP_THREAD_LIMIT=1 tesseract "$3" "$WORK/raw" -l "$l" txt 2>/dev/null
    row="$row $(cer "$WORK/raw.txt" "$CORPUS/$2") |"
  done
  echo "$row"
done
fi

if want once; then
echo "## docx + xlsx + extract-text on one scan: an OCR per operation (before) vs one OCR per file (after)"
echo
echo "Before: each operation on its own unique copy of the file, so each OCRs it (as every operation did before issue 12"
echo "item 4). After: the three on one upload, in that order; docx runs the OCR, xlsx and extract-text take the kept one."
echo "Raw: one \`ocrmypdf\` with docapi's flags on the same file. Seconds, median of $RUNS runs."
echo
echo "| file | pages | before s | after s | after: docx s | after: xlsx s | after: extract-text s | raw ocrmypdf s | before / after |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in pdf-scanned/english-skewed-brochure.pdf pdf-scanned/arabic-paragraph-capr12-imageonly.pdf; do
  in="$CORPUS/$f"; pages="$(qpdf --show-npages "$in")"; tb=(); ta=(); td=(); tx=(); tt=(); tr=()
  for _ in $(seq 1 "$RUNS"); do
    before=0
    for body in '"to":"docx",' '"to":"xlsx",' ''; do
      operation=convert; [[ -z "$body" ]] && operation=extract-text
      id="$(upload "$(unique "$in")")"
      t0=$(now); op "$operation" "{\"file\":\"$id\",$body\"wait\":300}" > /dev/null; t1=$(now)
      before="$(python3 -c "print($before+$t1-$t0)")"
    done
    tb+=("$before")
    id="$(upload "$(unique "$in")")"
    t0=$(now); op convert "{\"file\":\"$id\",\"to\":\"docx\",\"wait\":300}" > /dev/null; t1=$(now)
    op convert "{\"file\":\"$id\",\"to\":\"xlsx\",\"wait\":300}" > /dev/null; t2=$(now)
    op extract-text "{\"file\":\"$id\",\"wait\":300}" > /dev/null; t3=$(now)
    td+=("$(python3 -c "print($t1-$t0)")"); tx+=("$(python3 -c "print($t2-$t1)")"); tt+=("$(python3 -c "print($t3-$t2)")")
    ta+=("$(python3 -c "print($t3-$t0)")")
    t0=$(now); OMP_THREAD_LIMIT=1 ocrmypdf -q -l eng+ara --output-type pdf --pdf-renderer sandwich --sidecar "$WORK/side.txt" \
      --skip-text --deskew --rotate-pages --jobs "$(nproc)" "$in" "$WORK/ocr.pdf"; t1=$(now); tr+=("$(python3 -c "print($t1-$t0)")")
  done
  b="$(median "${tb[@]}")"; a="$(median "${ta[@]}")"
  echo "| $(basename "$f") | $pages | $b | $a | $(median "${td[@]}") | $(median "${tx[@]}") | $(median "${tt[@]}") | $(median "${tr[@]}") | $(python3 -c "print(f'{$b/$a:.1f}')") |"
done
echo

fi
