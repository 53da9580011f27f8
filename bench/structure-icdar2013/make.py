"""Builds this set from the ICDAR 2013 Table Competition's ground truth as tabula-java keeps it
(src/test/resources/technology/tabula/icdar2013-dataset in github:tabulapdf/tabula-java): each PDF beside a reference
Markdown that holds its tables only, in document order, written as Docling writes a table (a pipe table whose first
row is the header; a cell that spans rows or columns repeats its text in every position it covers).

  python3 make.py <tabula-java checkout or git dir> <commit>

Only the "-str.xml" structure files are read (cells with start/end row and column, per region; a table that goes on
over pages has a region a page with row and column increments). Where the competition gives two readings of one PDF
(eu-009a/b, us-011a/b, us-031a/b, us-035a/b), the "a" one is used. No text outside the tables is in a reference, so
only the table scores (TEDS, cell F1) of this set mean anything; reading order and headings do not.
"""
import hashlib, subprocess, sys, xml.etree.ElementTree as ET
from pathlib import Path

repo, commit = sys.argv[1], sys.argv[2]
here = Path(__file__).parent
base = "src/test/resources/technology/tabula/icdar2013-dataset"


def git(*args, binary=False):
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, check=True).stdout
    return out if binary else out.decode()


def cell_text(cell):
    return " ".join((cell.findtext("content") or "").split()).replace("|", "\\|")


def table_markdown(table):
    grid = {}
    for region in table.iter("region"):
        dr, dc = int(region.get("row-increment", 0)), int(region.get("col-increment", 0))
        for cell in region.iter("cell"):
            r0, c0 = int(cell.get("start-row")) + dr, int(cell.get("start-col")) + dc
            r1 = int(cell.get("end-row", cell.get("start-row"))) + dr
            c1 = int(cell.get("end-col", cell.get("start-col"))) + dc
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    grid[r, c] = cell_text(cell)
    # some files count rows or columns from 1: the table starts at its first cell
    r0, c0 = min(r for r, _ in grid), min(c for _, c in grid)
    rows, cols = max(r for r, _ in grid) + 1 - r0, max(c for _, c in grid) + 1 - c0
    lines = ["| " + " | ".join(grid.get((r + r0, c + c0), "") for c in range(cols)) + " |" for r in range(rows)]
    return "\n".join([lines[0], "|" + "---|" * cols, *lines[1:]])


names = [p for p in git("ls-tree", "-r", "--name-only", commit, base).split() if p.endswith(".pdf")]
with open(here / "MANIFEST.tsv", "w") as manifest:
    manifest.write("pdf\treference\tsource_repo\tsource_pdf\treference_path\tsnapshot_commit\tlicense_note\t"
                   "reference_made_by\tpages\tbytes\tsha256\tdescription\n")
    for name in names:
        stem = Path(name).stem
        truth = name[:-4] + "-str.xml"
        if not git("ls-tree", commit, truth).strip():
            truth = name[:-5] + "a-str.xml"
        pdf = git("show", f"{commit}:{name}", binary=True)
        (here / "pdf" / f"{stem}.pdf").write_bytes(pdf)
        tables = ET.fromstring(git("show", f"{commit}:{truth}").encode()).iter("table")
        (here / "ref" / f"{stem}.md").write_text("\n\n".join(table_markdown(t) for t in tables) + "\n")
        pages = next(l.split()[1] for l in subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True,
                                                           check=True).stdout.decode().splitlines()
                     if l.startswith("Pages:"))
        manifest.write("\t".join([f"pdf/{stem}.pdf", f"ref/{stem}.md", "github:tabulapdf/tabula-java", name, truth,
                                  commit, "ICDAR 2013 Table Competition data set, redistributed in tabula-java's "
                                  "tests (MIT repo licence; EU and US government documents)",
                                  "ICDAR 2013 Table Competition ground truth (hand-made cell structure)", pages,
                                  str(len(pdf)), hashlib.sha256(pdf).hexdigest(),
                                  "ICDAR 2013 table competition document " + stem]) + "\n")
