"""docapi's redaction engine (issue 27), run by engines/pymupdf/PyMuPdf.java in the sandbox with Debian's
python3-fitz (PyMuPDF 1.21). Two commands, so the patterns are matched in Java (one regex dialect, bounded there):

  read IN OUT.json     where a document holds text: each page's characters with their boxes (points, from the page's
                       top-left as seen, i.e. after /Rotate), metadata, bookmarks and embedded files (annotations and
                       form fields are redacted with PDFBox: engines/pdfbox/AnnotationRedactor)
  apply IN PLAN.json OUT.pdf
                       redacts what PLAN names: boxes per page (MuPDF's apply_redactions removes the glyphs under
                       them and blanks the image pixels, then fills the box), and the metadata keys, bookmarks and
                       embedded files to remove; saved without the old objects
"""
import json
import os
import sys

try:
    import fitz
except ImportError:
    sys.exit(3)

EMBEDDED_TEXT_MAX = 1 << 20
# python3-fitz 1.21.1 is built with SWIG 4.1, whose proxies of annotations break once one of them is freed
# (pymupdf/PyMuPDF#2328, #2209: "'SwigPyObject' object has no attribute 'thisown'"). The redaction annotations this
# script makes are kept here until it ends, and apply_redactions' own loop over the annotations is not used (apply).
ALIVE = []  # embedded files up to 1 MiB that decode as UTF-8 are searched by content too


def open_pdf(src):
    try:
        doc = fitz.open(src, filetype="pdf")
    except RuntimeError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    if doc.needs_pass or not doc.is_pdf:
        sys.exit(2)
    return doc


def read(src, out):
    doc = open_pdf(src)
    pages = []
    for page in doc:
        m = page.rotation_matrix
        text, boxes = [], []
        for block in page.get_text("rawdict", flags=fitz.TEXT_PRESERVE_WHITESPACE | fitz.TEXT_MEDIABOX_CLIP)["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    for ch in span["chars"]:
                        r = fitz.Rect(ch["bbox"]) * m
                        text.append(ch["c"])
                        boxes.extend(round(v, 2) for v in (r.x0, r.y0, r.x1, r.y1))
                text.append("\n")
                boxes.extend((0, 0, 0, 0))
            text.append("\n")
            boxes.extend((0, 0, 0, 0))
        r = page.rect
        pages.append({"width": round(r.width, 2), "height": round(r.height, 2), "text": "".join(text), "boxes": boxes})
    embedded = []
    for name in doc.embfile_names():
        info = doc.embfile_info(name)
        words = [name, info.get("filename", ""), info.get("ufilename", ""), info.get("desc", "")]
        if info.get("size", EMBEDDED_TEXT_MAX + 1) <= EMBEDDED_TEXT_MAX:
            try:
                words.append(doc.embfile_get(name).decode("utf-8"))
            except UnicodeDecodeError:
                pass
        embedded.append({"name": name, "text": "\n".join(w for w in words if w)})
    result = {"pages": pages,
              "metadata": {k: v for k, v in (doc.metadata or {}).items() if v and k not in ("format", "encryption")},
              "xmp": doc.get_xml_metadata() or "",
              "bookmarks": [t[1] for t in doc.get_toc(simple=True)],
              "embeddedFiles": embedded}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)


def apply(src, plan_path, out):
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    doc = open_pdf(src)
    fill = tuple(plan["fill"])
    for item in plan["pages"]:
        page = doc[item["page"] - 1]
        unrotate = page.derotation_matrix
        rects = [fitz.Rect(box) * unrotate for box in item.get("boxes", [])]
        for r in rects:
            ALIVE.append(page.add_redact_annot(r, cross_out=False))
        if rects:
            # what Page.apply_redactions does, without its loop over the annotations (see ALIVE): MuPDF removes the
            # glyphs, image pixels and links under the redaction annotations and the annotations; then the boxes are filled
            if not page._apply_redactions(fitz.PDF_REDACT_IMAGE_PIXELS):
                raise ValueError("MuPDF could not apply the redactions")
            shape = page.new_shape()
            for r in rects:
                shape.draw_rect(r)
                shape.finish(fill=fill, color=fill)
            shape.commit()
    if plan.get("metadata"):
        meta = dict(doc.metadata)
        for key in plan["metadata"]:
            meta[key] = ""
        doc.set_metadata({k: v for k, v in meta.items() if k not in ("format", "encryption")})
    if plan.get("xmp"):
        doc.del_xml_metadata()
    if plan.get("bookmarks"):
        # the outline is written anew without them (del_toc_item would keep their titles); their children move up
        removed = set(plan["bookmarks"])
        toc, previous = [], 0
        for index, entry in enumerate(doc.get_toc(simple=False)):
            if index in removed:
                continue
            entry[0] = min(entry[0], previous + 1)
            previous = entry[0]
            toc.append(entry)
        doc.set_toc(toc)
    for name in plan.get("embeddedFiles", []):
        doc.embfile_del(name)
    # garbage=3: the replaced content streams and deleted objects are not written; nothing redacted stays in the file
    # encryption: a PDF that opened without a password is written plain (as watermark does: it cannot be re-encrypted)
    doc.save(out, garbage=3, deflate=True, clean=True, encryption=fitz.PDF_ENCRYPT_NONE)


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "apply":
        apply(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: redact.py read IN OUT.json | apply IN PLAN.json OUT.pdf")
    # done: skip the interpreter's teardown, where SWIG reports the objects kept in ALIVE as leaks
    sys.stdout.flush()
    os._exit(0)
