"""Scores PDF → Markdown output against reference Markdown, with opendataloader-bench's metrics.

    python3 score.py REF_DIR PRED_DIR [PRED_DIR ...]   prints one row of means per PRED_DIR (tool)
    python3 score.py --per-doc REF_DIR PRED_DIR ...    and one row per document
    python3 score.py --keep-comments REF_DIR ...        compares HTML comments and images as text, as the original

REF_DIR holds NAME.md, each PRED_DIR the tool's NAME.md for the same names (a missing prediction scores as an empty
text). Every score lies in [0, 1], higher is better; a document whose reference has no table (no heading) has no table
(heading) score and is left out of that mean, as opendataloader-bench does. Needs rapidfuzz and lxml.

Metrics (https://github.com/opendataloader-project/opendataloader-bench, README section 3 and src/evaluator_*.py):
- NID: normalised indel similarity of the whole text with whitespace runs collapsed, rapidfuzz `fuzz.ratio` / 100
  = 1 - indel distance / (len(ref) + len(pred)), a pipe table written as one line of HTML as the original converts
  it (an HTML table stays as written). NID-S: the same with every table removed (narrative order only; none when the reference is only tables).
- MHS / MHS-S: Markdown heading-level similarity. Both texts become a flat tree: the document's children are its
  `#`...`######` headings in order (all levels alike, as the original), each with one child holding the text up to
  the next heading (text before the first heading hangs from the document). Similarity = 1 - tree edit distance /
  the larger tree's node count; renaming a heading or text node costs its normalised Levenshtein distance (MHS) or
  nothing (MHS-S, structure only). 0 when the prediction has no heading.
- TEDS / TEDS-S: tree edit distance similarity of tables (Zhong et al., "Image-based table recognition", ECCV
  Workshops 2020, arXiv:1911.10683): table → tr → td trees, a td carrying colspan, rowspan and its text; renaming td
  costs 1 when the spans differ, else the normalised Levenshtein distance of the texts (TEDS) or 0 (TEDS-S).
  opendataloader-bench scores the first table of a page; these documents have many, so each reference table is
  paired with the unused predicted table that shares most cells, and the document's score is the mean over
  max(reference tables, predicted tables): a missed table and a false table both count 0.
- heading F1 (ours): reference and predicted heading texts matched one to one when rapidfuzz `fuzz.ratio` ≥ 85.
- cell F1 (ours): the multiset of non-empty table cell texts of the document, predicted against reference.
The tree edit distance is Zhang and Shasha's algorithm ("Simple fast algorithms for the editing distance between
trees and related problems", SIAM J. Comput. 18(6), 1989), exact as APTED is, with unit insert and delete costs:
APTED (opendataloader-bench's choice) and zss cannot be installed here.
Both texts lose HTML comments (Docling writes `<!-- image -->` where a picture stands) and Markdown images first:
neither is text of the page (opendataloader-bench keeps them; its references have none).
Checked against opendataloader-bench's published figures (commit b4b9505, prediction/*/evaluation.json): with
--keep-comments, its 200 references and its committed docling, opendataloader and pymupdf4llm predictions give its
NID, NID-S, MHS and MHS-S to the third decimal; TEDS differs (0.874 / 0.466 / 0.387 here against 0.887 / 0.494 /
0.401) by the table pairing above.
"""

import html
import re
import statistics
import sys
from pathlib import Path

from lxml import html as lxml_html
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
NOT_TEXT = re.compile(r"<!--.*?-->|!\[[^\]]*\]\([^)]*\)", re.DOTALL)
HTML_TABLE = re.compile(r"<table\b.*?</table>", re.IGNORECASE | re.DOTALL)


def normalize(text):
    return re.sub(r"\s+", " ", text).strip()


# ---- tables in Markdown: GitHub pipe tables and HTML <table> blocks ----

def _pipe_cells(line):
    """The cells of one pipe-table row, or None when the line is not one."""
    line = line.strip()
    if "|" not in line:
        return None
    cells = re.split(r"(?<!\\)\|", line)
    if line.startswith("|"):
        cells = cells[1:]
    if line.endswith("|") and cells:
        cells = cells[:-1]
    return [c.strip() for c in cells] or None


def _is_rule(cells):
    return all(c.replace(" ", "") and set(c.replace(" ", "")) <= set("-:") for c in cells)


def _html_rows(fragment):
    """Rows of an HTML table as lists of (text, colspan, rowspan)."""
    root = lxml_html.fromstring(fragment)
    return [[(normalize(td.text_content()), int(td.get("colspan", "1") or 1), int(td.get("rowspan", "1") or 1))
             for td in tr.xpath("./td|./th")] for tr in root.xpath(".//tr")]


def as_html(table):
    """One line of HTML for a table, its first row as header cells (opendataloader-bench's converter)."""
    def cell(tag, text, colspan, rowspan):
        spans = (f' colspan="{colspan}"' if colspan > 1 else "") + (f' rowspan="{rowspan}"' if rowspan > 1 else "")
        return f"<{tag}{spans}>{html.escape(text)}</{tag}>"
    return "<table>" + "".join("<tr>" + "".join(cell("th" if r == 0 else "td", *c) for c in row) + "</tr>"
                               for r, row in enumerate(table)) + "</table>"


def split_tables(markdown):
    """(the Markdown with each table written as one line of HTML, the Markdown without its tables, the tables as
    lists of rows of (cell text, colspan, rowspan)). A pipe table is a header row, a rule row and the rows that
    follow (an all-empty header row gives way to the first body row, as opendataloader-bench's converter does)."""
    tables, written = [], []  # written: each table as the HTML line NID compares (an HTML table as it stands)

    def take_html(match):
        tables.append(_html_rows(match.group(0)))
        written.append(match.group(0))
        return f"\n\0{len(tables) - 1}\0\n"

    lines = HTML_TABLE.sub(take_html, markdown).splitlines()
    kept, i = [], 0
    while i < len(lines):
        head = _pipe_cells(lines[i])
        rule = _pipe_cells(lines[i + 1]) if head and i + 1 < len(lines) else None
        if not rule or not _is_rule(rule):
            kept.append(lines[i])
            i += 1
            continue
        rows, i = [head], i + 2
        while i < len(lines) and (cells := _pipe_cells(lines[i])):
            rows.append(cells)
            i += 1
        if not any(rows[0]) and len(rows) > 1:
            rows.pop(0)
        tables.append([[(normalize(html.unescape(c.replace("\\|", "|"))), 1, 1) for c in row] for row in rows])
        written.append(as_html(tables[-1]))
        kept.append(f"\0{len(tables) - 1}\0")
    text = "\n".join(kept)
    return (re.sub(r"\0(\d+)\0", lambda m: written[int(m.group(1))], text),
            re.sub(r"\0\d+\0", "", text), tables)


# ---- tree edit distance (Zhang-Shasha) ----

class Node:
    def __init__(self, label, *children):
        self.label, self.children = label, list(children)

    def size(self):
        return 1 + sum(c.size() for c in self.children)


def _postorder(tree):
    """Nodes in post-order, each node's leftmost leaf descendant (index), and the keyroots."""
    nodes, leftmost = [], []

    def walk(node):
        first = None
        for child in node.children:
            leaf = walk(child)
            first = leaf if first is None else first
        nodes.append(node)
        leftmost.append(len(nodes) - 1 if first is None else first)
        return leftmost[-1]

    walk(tree)
    keyroots = sorted({l: i for i, l in enumerate(leftmost)}.values())
    return nodes, leftmost, keyroots


def tree_edit_distance(a, b, rename):
    """Least cost to edit tree a into b: insert 1, delete 1, relabel rename(label_a, label_b)."""
    na, la, ka = _postorder(a)
    nb, lb, kb = _postorder(b)
    td = [[0.0] * len(nb) for _ in na]
    for i in ka:
        for j in kb:
            li, lj = la[i], lb[j]
            m, n = i - li + 2, j - lj + 2
            fd = [[0.0] * n for _ in range(m)]
            for x in range(1, m):
                fd[x][0] = fd[x - 1][0] + 1
            for y in range(1, n):
                fd[0][y] = fd[0][y - 1] + 1
            for x in range(1, m):
                ai = li + x - 1
                for y in range(1, n):
                    bj = lj + y - 1
                    if la[ai] == li and lb[bj] == lj:
                        fd[x][y] = min(fd[x - 1][y] + 1, fd[x][y - 1] + 1,
                                       fd[x - 1][y - 1] + rename(na[ai].label, nb[bj].label))
                        td[ai][bj] = fd[x][y]
                    else:
                        fd[x][y] = min(fd[x - 1][y] + 1, fd[x][y - 1] + 1,
                                       fd[la[ai] - li][lb[bj] - lj] + td[ai][bj])
    return td[-1][-1]


def _text_distance(s, t):
    return Levenshtein.distance(s, t) / max(len(s), len(t)) if s or t else 0.0


# ---- the metrics ----

def reading_order(ref, pred):
    """(NID, NID-S)."""
    ref_html, ref_plain, _ = split_tables(ref)
    pred_html, pred_plain, _ = split_tables(pred)
    nid_s = fuzz.ratio(normalize(ref_plain), normalize(pred_plain)) / 100 if normalize(ref_plain) else None
    return fuzz.ratio(normalize(ref_html), normalize(pred_html)) / 100, nid_s


def heading_tree(markdown):
    """Flat tree: document → heading (→ its text) or text before the first heading. Labels are (kind, text)."""
    root = Node(("document", ""))
    owner, pending = root, []

    def flush():
        if text := normalize(" ".join(pending)):
            owner.children.append(Node(("content", text)))
        pending.clear()

    for line in markdown.splitlines():
        if match := HEADING.match(line):
            flush()
            owner = Node(("heading", normalize(match.group(2))))
            root.children.append(owner)
        elif line.strip():
            pending.append(line)
    flush()
    return root


def heading_similarity(ref, pred):
    """(MHS, MHS-S), or (None, None) when the reference has no heading."""
    # tables stay in the text nodes as HTML, as opendataloader-bench's code has them
    ref_tree, pred_tree = heading_tree(split_tables(ref)[0]), heading_tree(split_tables(pred)[0])
    if not any(c.label[0] == "heading" for c in ref_tree.children):
        return None, None
    if not any(c.label[0] == "heading" for c in pred_tree.children):
        return 0.0, 0.0
    nodes = max(ref_tree.size(), pred_tree.size())

    def score(with_text):
        def rename(p, q):
            return 1.0 if p[0] != q[0] else _text_distance(p[1], q[1]) if with_text else 0.0
        return max(0.0, 1 - tree_edit_distance(ref_tree, pred_tree, rename) / nodes)

    return score(True), score(False)


def headings(markdown):
    return [normalize(m.group(2)) for line in markdown.splitlines() if (m := HEADING.match(line))]


def f1(matched, n_ref, n_pred):
    return 2 * matched / (n_ref + n_pred) if n_ref + n_pred else 1.0


def heading_f1(ref, pred):
    ref_h, pred_h = headings(split_tables(ref)[1]), headings(split_tables(pred)[1])
    if not ref_h:
        return None
    pairs = sorted(((fuzz.ratio(r, p), i, j) for i, r in enumerate(ref_h) for j, p in enumerate(pred_h)), reverse=True)
    used_r, used_p = set(), set()
    for score, i, j in pairs:
        if score < 85:
            break
        if i not in used_r and j not in used_p:
            used_r.add(i)
            used_p.add(j)
    return f1(len(used_r), len(ref_h), len(pred_h))


def _cells(table):
    return [text for row in table for text, _, _ in row if text]


def _multiset_overlap(a, b):
    rest, hit = list(b), 0
    for item in a:
        if item in rest:
            rest.remove(item)
            hit += 1
    return hit


def table_tree(table):
    return Node(("table", None, None, ""), *[Node(("tr", None, None, ""), *[Node(("td", cs, rs, text))
                                                                          for text, cs, rs in row]) for row in table])


def teds(ref_table, pred_table, structure_only):
    def rename(p, q):
        if p[:3] != q[:3]:
            return 1.0
        return 0.0 if structure_only or p[0] != "td" else _text_distance(p[3], q[3])

    a, b = table_tree(ref_table), table_tree(pred_table)
    return max(0.0, 1 - tree_edit_distance(a, b, rename) / max(a.size() - 1, b.size() - 1, 1))


def table_scores(ref, pred):
    """(TEDS, TEDS-S, cell F1), or Nones when the reference has no table."""
    ref_tables, pred_tables = split_tables(ref)[2], split_tables(pred)[2]
    if not ref_tables:
        return None, None, None
    ref_cells = [c for t in ref_tables for c in _cells(t)]
    pred_cells = [c for t in pred_tables for c in _cells(t)]
    cell_f1 = f1(_multiset_overlap(ref_cells, pred_cells), len(ref_cells), len(pred_cells))
    free, content, structure = set(range(len(pred_tables))), 0.0, 0.0
    for table in ref_tables:
        if not free:
            break
        best = max(free, key=lambda j: (_multiset_overlap(_cells(table), _cells(pred_tables[j])), -j))
        free.discard(best)
        content += teds(table, pred_tables[best], False)
        structure += teds(table, pred_tables[best], True)
    pairs = max(len(ref_tables), len(pred_tables))
    return content / pairs, structure / pairs, cell_f1


METRICS = ["NID", "NID-S", "MHS", "MHS-S", "heading F1", "TEDS", "TEDS-S", "cell F1"]


def score(ref, pred, keep_comments=False):
    """Every metric of one document as a dict (None where the reference has nothing to score)."""
    if not keep_comments:
        ref, pred = NOT_TEXT.sub(" ", ref), NOT_TEXT.sub(" ", pred)
    values = [*reading_order(ref, pred), *heading_similarity(ref, pred), heading_f1(ref, pred), *table_scores(ref, pred)]
    return dict(zip(METRICS, values))


def fmt(value):
    return "—" if value is None else f"{value:.3f}"


def main(args):
    flags = {a for a in args if a.startswith("--")}
    unknown = flags - {"--per-doc", "--keep-comments"}
    if unknown or len(args) - len(flags) < 2:
        sys.exit(__doc__ if not unknown else f"unknown option {unknown.pop()}")
    ref_dir, *pred_dirs = [Path(a) for a in args if not a.startswith("--")]
    refs = sorted(ref_dir.glob("*.md"))
    print("| tool | " + " | ".join(METRICS) + " |")
    print("|---|" + "---:|" * len(METRICS))
    rows = {}
    for pred_dir in pred_dirs:
        docs = {}
        for ref in refs:
            pred = pred_dir / ref.name
            docs[ref.stem] = score(ref.read_text(), pred.read_text() if pred.exists() else "", "--keep-comments" in flags)
        rows[pred_dir.name] = docs
        means = [statistics.mean(v) if (v := [d[m] for d in docs.values() if d[m] is not None]) else None
                 for m in METRICS]
        print(f"| {pred_dir.name} | " + " | ".join(fmt(m) for m in means) + " |")
    if "--per-doc" in flags:
        print("\nPer document: NID / MHS / cell F1\n")
        print("| document | " + " | ".join(rows) + " |")
        print("|---|" + "---|" * len(rows))
        for ref in refs:
            cells = [" / ".join(fmt(rows[t][ref.stem][m]) for m in ("NID", "MHS", "cell F1")) for t in rows]
            print(f"| {ref.stem} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
