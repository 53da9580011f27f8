#!/usr/bin/env python3
# the raw tool: what a PyMuPDF user would write for the same redaction. Debian's python3-fitz 1.21.1 (SWIG 4.1)
# breaks in Page.apply_redactions once an annotation proxy is freed (pymupdf/PyMuPDF#2328), so it keeps them and
# calls MuPDF's step itself and skips the teardown, as engines/pymupdf's script does
# Usage: redact-raw.py IN.pdf OUT.pdf WORD (bench/redact.sh and bench/redact-verify.sh time it as the raw tool).
import os, re, sys, fitz
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
doc = fitz.open(sys.argv[1])
alive = []
for page in doc:
    rects = [r for w in set(EMAIL.findall(page.get_text())) | {sys.argv[3]} for r in page.search_for(w)]
    alive.extend(page.add_redact_annot(r) for r in rects)
    if rects:
        page._apply_redactions(fitz.PDF_REDACT_IMAGE_PIXELS)
        shape = page.new_shape()
        for r in rects:
            shape.draw_rect(r)
            shape.finish(fill=(0, 0, 0), color=(0, 0, 0))
        shape.commit()
doc.save(sys.argv[2], garbage=3, deflate=True)
os._exit(0)  # the interpreter's teardown crashes on the kept proxies
