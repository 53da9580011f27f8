package dev.docapi.document;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A ruled table made from its drawn cells' boxes and the page's own text: each cell takes the lines whose glyphs stand
 * in its box, and a glyph inside the table's area that no box holds (a box the ruling detector left out, a word
 * crossing a rule) goes to the nearest cell, so no word of the area is lost. The cells' edges make the table's grid: a
 * box over several grid columns or rows spans them (merged cells keep their place), and a grid row or column whose
 * cells are all blank (a double rule, a spacer) is left out.
 */
final class RuledTable {
    /** Edges closer than this (points) are one grid line: double rules and rounding. */
    private static final float SNAP = 2.5f;
    /** A grid row or column narrower than this (points) holds no line of text of its own ({@link #table}). */
    private static final float SLIVER = 4;
    /**
     * A table's cells meet their neighbours or its outline all round ({@link #tiled}): tables in the benchmark's files
     * score 0.81 and more (a missed rule, an overhanging cell), a flowchart's boxes and arrows 0.43.
     */
    private static final double MIN_TILED = 0.6;
    /** Lines of a grid column with text on both sides of a gutter, at least, for the column to be split there ({@link #gutter}). */
    private static final int MIN_GUTTER_LINES = 3;

    /** One line of text inside a cell, or a run of it between wide gaps: its text in logical order, its top, bottom, left and right edges (points). */
    private record Line(String text, float top, float bottom, float x, float right) {
        boolean covers(float at) {
            return x < at && right > at;
        }
    }

    private final List<DocumentModel.Box> cells;
    /** How many of {@link #cells} are drawn boxes (those after them stand where the detector found no box). */
    private final int drawn;
    private final List<List<Line>> lines = new ArrayList<>();
    private float[] xs, ys;
    /** The cell at each grid position, -1 where no drawn box is (a cell whose rules were not found). */
    private final int[][] at;

    /** @param cells the drawn cells' boxes, in points from the page's top-left; those inside another one are left out */
    RuledTable(List<DocumentModel.Box> cells) {
        this.cells = new ArrayList<>(outermost(cells));
        drawn = this.cells.size();
        for (int i = 0; i < drawn; i++) lines.add(new ArrayList<>());
        xs = grid(this.cells.stream().flatMap(b -> Stream.of(b.x(), b.right())).toList());
        ys = grid(this.cells.stream().flatMap(b -> Stream.of(b.y(), b.bottom())).toList());
        at = new int[Math.max(0, ys.length - 1)][Math.max(0, xs.length - 1)];
        for (int[] r : at) Arrays.fill(r, -1);
        for (int i = 0; i < this.cells.size(); i++) {
            DocumentModel.Box b = this.cells.get(i);
            for (int r = index(ys, b.y()); r < index(ys, b.bottom()); r++) for (int c = index(xs, b.x()); c < index(xs, b.right()); c++) if (at[r][c] < 0) at[r][c] = i;
        }
    }

    /**
     * The boxes not inside another one: a table nested in a cell (a Word table in a table cell) is that cell's text,
     * and its rules would cut the outer table's columns.
     */
    private static List<DocumentModel.Box> outermost(List<DocumentModel.Box> boxes) {
        List<DocumentModel.Box> out = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            DocumentModel.Box b = boxes.get(i);
            boolean inside = false;
            for (int j = 0; j < boxes.size() && !inside; j++) {
                DocumentModel.Box o = boxes.get(j);
                boolean same = o.equals(b);
                inside = j != i && (!same || j < i) && o.x() <= b.x() + 1 && o.y() <= b.y() + 1 && o.right() >= b.right() - 1 && o.bottom() >= b.bottom() - 1
                        && (same || o.width() * o.height() > b.width() * b.height());
            }
            if (!inside) out.add(b);
        }
        return out;
    }

    /**
     * The cell that holds {@code (x, y)}: a drawn box, or else the grid position no box covers (a cell whose rules the
     * detector missed, such as a column of row heads without rules between them: it becomes a cell of its own), or else
     * the nearest box.
     */
    int cellAt(float x, float y) {
        int r = interval(ys, y), c = interval(xs, x);
        if (r >= 0 && c >= 0) {
            if (at[r][c] < 0) {
                at[r][c] = cells.size();
                cells.add(new DocumentModel.Box(xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r]));
                lines.add(new ArrayList<>());
            }
            return at[r][c];
        }
        int best = 0;
        float bestDistance = Float.MAX_VALUE;
        for (int i = 0; i < cells.size(); i++) {
            DocumentModel.Box b = cells.get(i);
            float dx = Math.max(0, Math.max(b.x() - x, x - b.right())), dy = Math.max(0, Math.max(b.y() - y, y - b.bottom()));
            float d = dx * dx + dy * dy;
            if (d < bestDistance) {
                best = i;
                bestDistance = d;
            }
        }
        return best;
    }

    /**
     * Adds a line of text (logical order) to cell {@code cell}, with its top, bottom, left and right edges: the whole
     * of the cell's text on one line of the page, or a run of it between gaps wider than {@link PageReader#CELL_RUN_GAP}
     * (which may be columns of the cell's own, {@link #splitAtGutters}).
     */
    void add(int cell, String text, float top, float bottom, float x, float right) {
        if (!text.isBlank()) lines.get(cell).add(new Line(text.strip(), top, bottom, x, right));
    }

    /** Whether the table has its cells' boxes (a table given only as text has none). */
    boolean hasCells() {
        return !cells.isEmpty();
    }

    /**
     * Each cell's text: its lines top to bottom (those sharing a line left to right), joined by spaces; a symbol font's
     * bullet (a private-use code point) reads as the character it shows ({@link Structure#symbols}).
     */
    private List<String> texts() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) out.add(String.join(" ", visualLines(i).stream().map(Line::text).toList()).strip());
        return out;
    }

    /**
     * Cell {@code cell}'s lines as seen, top to bottom: lines whose tops lie within half the first's height share its
     * line (a cell's text split by a gap), joined left to right.
     */
    private List<Line> visualLines(int cell) {
        List<Line> out = new ArrayList<>();
        for (List<Line> row : levels(lines.get(cell))) {
            String text = Structure.symbols(String.join(" ", row.stream().map(Line::text).toList())).replaceAll("\\s+", " ").strip();
            Line first = row.stream().min(Comparator.comparingDouble(Line::top)).orElseThrow();
            out.add(new Line(text, first.top(), first.bottom(), row.getFirst().x(), (float) row.stream().mapToDouble(Line::right).max().orElse(0)));
        }
        return out;
    }

    /** {@code lines} by the line they stand on, top to bottom (within half the first's height), each left to right. */
    private static List<List<Line>> levels(List<Line> lines) {
        List<Line> byTop = new ArrayList<>(lines);
        byTop.sort(Comparator.comparingDouble(Line::top));
        List<List<Line>> out = new ArrayList<>();
        int i = 0;
        while (i < byTop.size()) {
            Line first = byTop.get(i);
            int j = i + 1;
            while (j < byTop.size() && byTop.get(j).top() < first.top() + 0.5f * (first.bottom() - first.top())) j++;
            List<Line> row = new ArrayList<>(byTop.subList(i, j));
            row.sort(Comparator.comparingDouble(Line::x));
            out.add(row);
            i = j;
        }
        return out;
    }

    /**
     * A ruled row's lines as rows of their own, when its rules are only around its columns (each column one box of
     * many lines, as a table with no rules between its rows draws them): the row's lines fall on 3 or more levels, a
     * cell of numbers has a line on every one (or a cell of labels has, beside cells of 2 numbers or more: group rows
     * without figures, "3-Year-Old Cohort" over its groups' rows), and every other cell with text has 2 lines or more,
     * each on a level of its own. Null when the row is one row (its cells' wrapped text beside a number, a group's number centred beside
     * its lines).
     *
     * @param cells the row's cells (indexes into {@link #cells}, -1 for none), each spanning this row only
     */
    private List<List<String>> stacked(List<Integer> cells) {
        List<List<Line>> columns = new ArrayList<>();
        List<Line> all = new ArrayList<>();
        for (int i : cells) {
            List<Line> col = i < 0 ? List.of() : visualLines(i);
            columns.add(col);
            all.addAll(col);
        }
        all.sort(Comparator.comparingDouble(Line::top));
        List<Line> levels = new ArrayList<>(); // each level's first line
        for (Line l : all) if (levels.isEmpty() || l.top() >= levels.getLast().top() + 0.5f * (levels.getLast().bottom() - levels.getLast().top())) levels.add(l);
        if (levels.size() < 3) return null;
        int filled = 0;
        boolean numbers = false, someNumbers = false, stub = false;
        List<int[]> at = new ArrayList<>(); // each column's lines' levels
        for (List<Line> col : columns) {
            int[] level = new int[col.size()];
            for (int k = 0; k < col.size(); k++) {
                Line l = col.get(k);
                int lv = levels.size() - 1;
                while (lv > 0 && levels.get(lv).top() > l.top() + 0.5f * (l.bottom() - l.top())) lv--;
                level[k] = lv;
                if (k > 0 && level[k] == level[k - 1]) return null;
            }
            at.add(level);
            if (col.isEmpty()) continue;
            filled++;
            boolean numeric = col.stream().allMatch(l -> Layout.NUMBER.matcher(l.text()).matches());
            if (numeric && col.size() == levels.size()) numbers = true;
            else if (numeric && col.size() >= 2) someNumbers = true;
            else if (!numeric && col.size() < 2) return null;
            if (!numeric && col.size() == levels.size()) stub = true;
        }
        if (filled < 2 || !(numbers || someNumbers && stub)) return null;
        List<List<String>> rows = new ArrayList<>();
        for (int k = 0; k < levels.size(); k++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) row.add("");
            rows.add(row);
        }
        for (int c = 0; c < columns.size(); c++) for (int k = 0; k < columns.get(c).size(); k++) rows.get(at.get(c)[k]).set(c, columns.get(c).get(k).text());
        return rows;
    }

    /**
     * The table: its grid from the cells' edges, each cell at its top-left grid position with its spans; a cell that
     * holds the centre of one of the page's {@code pictures} (points from the page's top-left) keeps its place, empty,
     * though it has no text. Null when no two cells with content (text, or a picture beside text) stand side by side
     * in a row: boxes stacked one above another are a box around text (a code
     * listing's line backgrounds, a framed note, a figure of boxes drawn inside a box), not a table, unless the grid is
     * one column of two boxes or more each with text of its own ({@link #column}); null too when the
     * drawn boxes do not tile their area ({@link #tiled}): frames standing apart, joined by lines (a flowchart's boxes
     * and arrows, text boxes), are no table however their edges line up.
     */
    DocumentModel.Table table(List<DocumentModel.Box> pictures) {
        if (ys.length < 2 || xs.length < 2 || tiled() < MIN_TILED) return null;
        splitAtGutters();
        List<String> texts = texts();
        int rows = ys.length - 1, cols = xs.length - 1;
        int[][] place = new int[rows][cols];
        for (int[] r : place) Arrays.fill(r, -1);
        int[][] span = new int[cells.size()][];
        for (int i = 0; i < cells.size(); i++) {
            DocumentModel.Box b = cells.get(i);
            int c0 = index(xs, b.x()), c1 = Math.max(c0 + 1, index(xs, b.right()));
            int r0 = index(ys, b.y()), r1 = Math.max(r0 + 1, index(ys, b.bottom()));
            c1 = Math.min(c1, cols);
            r1 = Math.min(r1, rows);
            if (c0 >= cols || r0 >= rows || place[r0][c0] >= 0) continue; // a box inside another one's place: its text is the other's
            span[i] = new int[] {r0, c0, r1, c1};
            for (int r = r0; r < r1; r++) for (int c = c0; c < c1; c++) if (place[r][c] < 0) place[r][c] = i;
        }
        // a cell whose place another took gives its text to that cell
        for (int i = 0; i < cells.size(); i++) {
            if (span[i] != null || texts.get(i).isEmpty()) continue;
            DocumentModel.Box b = cells.get(i);
            int r = Math.min(rows - 1, index(ys, b.y())), c = Math.min(cols - 1, index(xs, b.x()));
            int owner = place[r][c];
            if (owner >= 0) texts.set(owner, (texts.get(owner) + " " + texts.get(i)).strip());
        }
        // a cell that holds a picture has content though no text (a photo beside its description)
        boolean[] content = new boolean[cells.size()];
        for (int i = 0; i < cells.size(); i++) {
            DocumentModel.Box b = cells.get(i);
            content[i] = !texts.get(i).isEmpty() || pictures.stream().anyMatch(p -> {
                float x = p.x() + p.width() / 2, y = p.y() + p.height() / 2;
                return x > b.x() && x < b.right() && y > b.y() && y < b.bottom();
            });
        }
        if (!sideBySide(place, texts, content) && !column(place, texts)) return null;
        // a row or column is kept where a cell with content stands in it; a sliver too thin for a line of text (two
        // rules drawn a little apart, a cell's fill short of its rules) only where such a cell starts in it
        boolean[] keepRow = new boolean[rows], keepCol = new boolean[cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int i = place[r][c];
                if (i < 0 || !content[i]) continue;
                if (ys[r + 1] - ys[r] >= SLIVER || span[i][0] == r) keepRow[r] = true;
                if (xs[c + 1] - xs[c] >= SLIVER || span[i][1] == c) keepCol[c] = true;
            }
        }
        int[] rowIndex = kept(keepRow), colIndex = kept(keepCol);
        int keptRows = rowIndex[rows], keptCols = colIndex[cols];
        if (keptRows < 1 || keptCols < 1) return null;
        List<List<DocumentModel.Cell>> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (!keepRow[r]) continue;
            List<Integer> own = new ArrayList<>(); // the row's cells, when each spans this row only
            for (int c = 0; c < cols && own != null; c++) {
                if (!keepCol[c]) continue;
                int i = place[r][c];
                if (i >= 0 && (span[i][0] != r || span[i][2] != r + 1 || colIndex[span[i][3]] - colIndex[span[i][1]] != 1)) own = null;
                else if (own != null) own.add(i);
            }
            List<List<String>> stacked = own == null ? null : stacked(own);
            if (stacked != null) {
                for (List<String> line : stacked) out.add(line.stream().map(t -> new DocumentModel.Cell(t, 1, 1)).toList());
                continue;
            }
            List<DocumentModel.Cell> row = new ArrayList<>();
            for (int c = 0; c < cols; c++) {
                if (!keepCol[c]) continue;
                int i = place[r][c];
                if (i < 0) {
                    row.add(new DocumentModel.Cell("", 1, 1));
                    continue;
                }
                int[] s = span[i];
                // a spanning cell stands once, at its first kept row and column
                if (rowIndex[r] != rowIndex[first(keepRow, s[0], s[2])] || colIndex[c] != colIndex[first(keepCol, s[1], s[3])]) continue;
                int rowSpan = Math.max(1, rowIndex[s[2]] - rowIndex[s[0]]), colSpan = Math.max(1, colIndex[s[3]] - colIndex[s[1]]);
                row.add(new DocumentModel.Cell(texts.get(i), rowSpan, colSpan));
            }
            out.add(row);
        }
        return new DocumentModel.Table(keptCols, true, out);
    }

    /**
     * Splits each grid column that holds columns of text of its own, with no rule between them (a table ruled around
     * column groups only: "Male" and "Female" under "Non-Hispanic white", their figures side by side in one box), at the
     * gutter between them ({@link #gutter}). A cell of the column with text on both sides of the gutter becomes two;
     * one whose first lines run across it (the group's head over its sub-heads) keeps those lines whole above the
     * split, a row of their own spanning both; a cell with text across it lower down stays whole. The grid's lines are
     * then made again from the cells' edges.
     */
    private void splitAtGutters() {
        int columns = xs.length - 1;
        // a table of one ruled column is read by its text's own alignment when it is no table of boxes (DocumentReader)
        if (columns < 2) return;
        for (int c = 0; c < columns; c++) {
            List<Integer> own = ownCells(c);
            java.util.Set<Integer> heads = new java.util.HashSet<>(); // the group's heads over its sub-columns, whole
            for (float g : gutters(own)) {
                for (int i : List.copyOf(own)) {
                    DocumentModel.Box b = cells.get(i);
                    if (!heads.contains(i) && g > b.x() + 1 && g < b.right() - 1) own.addAll(split(i, g, heads));
                }
            }
        }
        xs = grid(cells.stream().flatMap(b -> Stream.of(b.x(), b.right())).toList());
        ys = grid(cells.stream().flatMap(b -> Stream.of(b.y(), b.bottom())).toList());
    }

    /** The cells that lie in grid column {@code c} alone. */
    private List<Integer> ownCells(int c) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            DocumentModel.Box b = cells.get(i);
            if (index(xs, b.x()) == c && index(xs, b.right()) == c + 1) out.add(i);
        }
        return out;
    }

    /**
     * The x (points) of each gutter through the lines of {@code own}'s cells, left to right: at least
     * {@value #MIN_GUTTER_LINES} lines have text on both sides of it (runs a gap apart, {@link #add}), no line of two
     * runs or more has one across it, and at most a quarter of the lines are one run across it (a head spanning the
     * sub-columns, a wrapped text). Each is the middle of such a band 2 points wide or more.
     */
    private List<Float> gutters(List<Integer> own) {
        List<List<Line>> levels = new ArrayList<>();
        for (int i : own) levels.addAll(levels(lines.get(i)));
        List<Float> out = new ArrayList<>();
        if (levels.stream().filter(l -> l.size() >= 2).count() < MIN_GUTTER_LINES) return out;
        float from = Float.MAX_VALUE, to = -Float.MAX_VALUE;
        for (List<Line> level : levels) {
            from = Math.min(from, level.getFirst().x());
            to = Math.max(to, level.getLast().right());
        }
        float runFrom = Float.NaN;
        for (float x = from; x <= to + 0.5f; x += 0.5f) {
            boolean open = x <= to && opensAt(levels, x);
            if (open && Float.isNaN(runFrom)) runFrom = x;
            if (!open && !Float.isNaN(runFrom)) {
                if (x - runFrom >= 2) out.add((runFrom + x) / 2);
                runFrom = Float.NaN;
            }
        }
        return out;
    }

    private static boolean opensAt(List<List<Line>> levels, float x) {
        int split = 0, across = 0;
        for (List<Line> level : levels) {
            boolean covered = level.stream().anyMatch(l -> l.covers(x));
            if (covered && level.size() >= 2) return false;
            if (covered) across++;
            else if (level.getFirst().right() <= x && level.getLast().x() >= x) split++;
        }
        return split >= MIN_GUTTER_LINES && across * 4 <= levels.size();
    }

    /**
     * Splits cell {@code i} at {@code gutter} as {@link #splitAtGutters} says; returns the indexes of the cells it
     * added, and adds {@code i} to {@code heads} when it keeps the lines across the gutter above the split.
     */
    private List<Integer> split(int i, float gutter, java.util.Set<Integer> heads) {
        DocumentModel.Box b = cells.get(i);
        List<List<Line>> levels = levels(lines.get(i));
        int k = 0; // the lines running across the gutter at the top of the cell
        while (k < levels.size() && levels.get(k).stream().anyMatch(l -> l.covers(gutter))) k++;
        for (int j = k; j < levels.size(); j++) if (levels.get(j).stream().anyMatch(l -> l.covers(gutter))) return List.of();
        if (k == levels.size() && k > 0) return List.of();
        float top = b.y();
        List<Integer> added = new ArrayList<>();
        if (k > 0) {
            float at = (levels.get(k - 1).stream().map(Line::bottom).max(Float::compare).orElseThrow()
                    + levels.get(k).stream().map(Line::top).min(Float::compare).orElseThrow()) / 2;
            lines.set(i, new ArrayList<>(levels.subList(0, k).stream().flatMap(List::stream).toList()));
            cells.set(i, new DocumentModel.Box(b.x(), b.y(), b.width(), at - b.y()));
            heads.add(i);
            top = at;
        }
        List<Line> left = new ArrayList<>(), right = new ArrayList<>();
        for (List<Line> level : levels.subList(k, levels.size())) for (Line l : level) (l.right() <= gutter ? left : right).add(l);
        DocumentModel.Box leftBox = new DocumentModel.Box(b.x(), top, gutter - b.x(), b.bottom() - top);
        if (k > 0) {
            cells.add(leftBox);
            lines.add(left);
            added.add(cells.size() - 1);
        } else {
            cells.set(i, leftBox);
            lines.set(i, left);
        }
        cells.add(new DocumentModel.Box(gutter, top, b.right() - gutter, b.bottom() - top));
        lines.add(right);
        added.add(cells.size() - 1);
        return added;
    }

    /**
     * The share of the drawn boxes' outlines that lies on the outline of them all or on another box's side (within
     * {@link #SNAP}): 1 for a table's cells, which meet their neighbours all round, far less for frames apart.
     */
    private double tiled() {
        float left = Float.MAX_VALUE, top = Float.MAX_VALUE, right = -Float.MAX_VALUE, bottom = -Float.MAX_VALUE;
        for (int i = 0; i < drawn; i++) {
            DocumentModel.Box b = cells.get(i);
            left = Math.min(left, b.x());
            top = Math.min(top, b.y());
            right = Math.max(right, b.right());
            bottom = Math.max(bottom, b.bottom());
        }
        double met = 0, all = 0;
        for (int i = 0; i < drawn; i++) {
            DocumentModel.Box b = cells.get(i);
            all += 2 * (b.width() + b.height());
            met += side(i, b.x(), true, left, b.y(), b.bottom()) + side(i, b.right(), true, right, b.y(), b.bottom())
                    + side(i, b.y(), false, top, b.x(), b.right()) + side(i, b.bottom(), false, bottom, b.x(), b.right());
        }
        return all == 0 ? 1 : met / all;
    }

    /**
     * How much of one side of drawn box {@code box} meets the outline or another drawn box: the side lies at {@code at}
     * (an x when {@code upright}, else a y) and runs from {@code from} to {@code to}.
     */
    private float side(int box, float at, boolean upright, float outline, float from, float to) {
        if (Math.abs(at - outline) < SNAP) return to - from;
        List<float[]> met = new ArrayList<>();
        for (int j = 0; j < drawn; j++) {
            DocumentModel.Box o = cells.get(j);
            if (j == box) continue;
            boolean meets = upright ? Math.abs(o.x() - at) < SNAP || Math.abs(o.right() - at) < SNAP : Math.abs(o.y() - at) < SNAP || Math.abs(o.bottom() - at) < SNAP;
            float a = Math.max(from, upright ? o.y() : o.x()), b = Math.min(to, upright ? o.bottom() : o.right());
            if (meets && b > a) met.add(new float[] {a, b});
        }
        met.sort((p, q) -> Float.compare(p[0], q[0]));
        float length = 0, end = from;
        for (float[] m : met) {
            if (m[1] <= end) continue;
            length += m[1] - Math.max(m[0], end);
            end = m[1];
        }
        return length;
    }

    /**
     * Whether the grid is one column of two rows or more, each a box of its own with text: a table of one column (a
     * checklist, a list of items ruled apart), not boxes nested in a box.
     */
    private static boolean column(int[][] place, List<String> texts) {
        if (place.length < 2 || place[0].length != 1) return false;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int[] row : place) if (row[0] < 0 || texts.get(row[0]).isEmpty() || !seen.add(row[0])) return false;
        return true;
    }

    /** Whether some grid row holds content in two different cells, text in one of them at least. */
    private static boolean sideBySide(int[][] place, List<String> texts, boolean[] content) {
        for (int[] row : place) {
            int first = -1;
            for (int i : row) {
                if (i < 0 || !content[i] || i == first) continue;
                if (first >= 0 && (!texts.get(i).isEmpty() || !texts.get(first).isEmpty())) return true;
                if (first < 0 || texts.get(first).isEmpty()) first = i;
            }
        }
        return false;
    }

    /** The first kept index in [from, to), or {@code from} when none is kept. */
    private static int first(boolean[] keep, int from, int to) {
        for (int i = from; i < to; i++) if (keep[i]) return i;
        return from;
    }

    /** For each index, how many kept indexes come before it (the last entry: how many are kept in all). */
    private static int[] kept(boolean[] keep) {
        int[] out = new int[keep.length + 1];
        for (int i = 0; i < keep.length; i++) out[i + 1] = out[i] + (keep[i] ? 1 : 0);
        return out;
    }

    /** The distinct grid lines of the edges given, those closer than {@link #SNAP} made one (their first), ascending. */
    private static float[] grid(List<Float> edges) {
        List<Float> sorted = new ArrayList<>(edges);
        sorted.sort(null);
        List<Float> out = new ArrayList<>();
        for (float e : sorted) if (out.isEmpty() || e - out.getLast() >= SNAP) out.add(e);
        float[] a = new float[out.size()];
        for (int i = 0; i < a.length; i++) a[i] = out.get(i);
        return a;
    }

    /** The grid interval [lines[i], lines[i + 1]) holding {@code v}, or -1 outside the grid. */
    private static int interval(float[] lines, float v) {
        for (int i = 0; i + 1 < lines.length; i++) if (v >= lines[i] && v < lines[i + 1]) return i;
        return -1;
    }

    /** The index of the grid line nearest {@code v}. */
    private static int index(float[] lines, float v) {
        int best = 0;
        for (int i = 1; i < lines.length; i++) if (Math.abs(lines[i] - v) < Math.abs(lines[best] - v)) best = i;
        return best;
    }
}
