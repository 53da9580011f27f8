#!/usr/bin/env bash
# Rebuilds this set from html/: each page printed by headless Chromium (as a user's browser prints it; multipage.html
# with Chromium's own header and footer, the others without), its tags, marked content flag and outline removed with
# pikepdf (most PDFs in the wild carry none, and the model must find the structure itself), and its reference Markdown
# made from the page's own markup by h2md.py. Needs chromium and python3-pikepdf (OCRmyPDF's, scripts/install-deps) and the bench
# venv's lxml (bench/structure.sh makes it). The PDFs differ from run to run only by dates and fonts' subset names.
set -euo pipefail
cd "$(dirname "$0")"
PY="${PY:-../../target/bench-structure/venv/bin/python}"
# make.sh [NAME ...] rebuilds only the pages named (html/NAME.html)
pages=("$@"); [[ ${#pages[@]} -gt 0 ]] && pages=("${pages[@]/#/html/}") && pages=("${pages[@]/%/.html}") || pages=(html/*.html)
for html in "${pages[@]}"; do
  name="$(basename "$html" .html)"
  flags=(--no-pdf-header-footer)
  [[ "$name" == multipage ]] && flags=()
  tmp="$(mktemp -d)"
  chromium --headless --no-sandbox --disable-gpu "${flags[@]}" --print-to-pdf="$tmp/$name.pdf" "file://$PWD/$html" 2>/dev/null
  /usr/bin/python3 - "$tmp/$name.pdf" "pdf/$name.pdf" <<'PY'
import sys, pikepdf
with pikepdf.open(sys.argv[1]) as pdf:
    for key in ("/StructTreeRoot", "/MarkInfo", "/Outlines"):
        if key in pdf.Root:
            del pdf.Root[key]
    pdf.save(sys.argv[2])
PY
  rm -rf "$tmp"
  "$PY" h2md.py "$html" > "ref/$name.md"
done
