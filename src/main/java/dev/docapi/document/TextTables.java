package dev.docapi.document;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Tables found by the alignment of their text, without rulings (issue 36): booktabs tables (rules only above and below
 * the table and under its header), tables ruled between some rows only, and tables with no rules at all, as Tabula's
 * stream mode and pdfplumber's text strategy find them. A run of consecutive bands (lines, {@link Layout#bands}) is a
 * table when most of its bands hold two or more text runs apart from each other and most runs are short (a cell's
 * words, a number). Its columns come from the rows under the first ({@link #columns}): a header left-aligned over
 * right-aligned numbers or a header wider than its column still falls in the column it stands over, and a run that
 * covers two or more columns spans them (a merged cell). A line holding one run just under the previous row
 * continues that row's cell (a wrapped cell).
 *
 * <p>Guards, so that text that is not a table stays text: two columns of running text (lines of 4 words or more, 8
 * letters in Korean or Chinese) are no table; a list (its markers a column apart from its text) is no table; fewer
 * than 3 rows, or too few rows of several cells, is no table.
 */
final class TextTables {
    /** A table found: its box (points from the page's top-left), cells, average font size, and the band after it. */
    record Found(DocumentModel.Box box, DocumentModel.Table table, float size, int end) {
    }

    private TextTables() {
    }

    /**
     * The table that starts at band {@code start}, or null when none does there.
     *
     * @param bands     a region's bands, top to bottom
     * @param minGutter the narrowest gap between two columns, points
     */
    static Found at(List<List<Layout.Item>> bands, int start, float minGutter) {
        List<Layout.Item> first = text(bands.get(start));
        if (!row(first) || !beside(bands.get(start), left(first), right(first), minGutter)) return null;
        List<List<Layout.Item>> run = new ArrayList<>();
        List<Integer> at = new ArrayList<>(); // each row's band
        run.add(sorted(first));
        at.add(start);
        float left = left(run.getFirst()), right = right(run.getFirst()), widestGap = 0;
        for (int end = start + 1; end < bands.size(); end++) {
            List<Layout.Item> band = text(bands.get(end)), previous = run.getLast();
            if (!beside(bands.get(end), left, right, minGutter)) break;
            if (band.isEmpty()) continue; // a picture beside the rows, in a band of its own
            float height = lineHeight(band), gap = top(band) - bottom(previous);
            if (gap > 3 * height) break;
            // running text set further below the rows than any row below another (the columns of a paper's text under
            // its grid of authors: "ABSTRACT" beside the right column's first line) is the text after the table
            if (run.size() >= 3 && gap > Math.max(1.5f * widestGap, height) && band.stream().anyMatch(it -> it.segment() != null && Layout.running(it.segment().text()))) break;
            widestGap = Math.max(widestGap, gap);
            if (row(band) || cellsBeside(band)) {
                left = Math.min(left, left(band));
                right = Math.max(right, right(band));
            } else {
                // one run: a wrapped cell or a short cell on its own, standing within the table, or a group's head
                // outdented up to 2 em left of it ("Effectiveness" over "Employment")
                Layout.Item only = band.getFirst();
                float indent = Layout.shortCell(only.segment().text()) ? 4 * minGutter : minGutter;
                if (band.size() != 1 || only.box().x() < left - indent || only.box().right() > right + minGutter
                        || Layout.running(only.segment().text()) && !(end + 1 < bands.size() && wrapsOnto(band, text(bands.get(end + 1))))) break;
            }
            run.add(sorted(band));
            at.add(end);
        }
        // a short line under the last row, apart from it, is the text after the table (a caption, a note)
        while (run.size() > 1 && run.getLast().size() == 1 && !hugs(run.get(run.size() - 2), run.getLast())) {
            run.removeLast();
            at.removeLast();
        }
        return table(run, at.getLast() + 1);
    }

    /**
     * The first band of the table found at {@code start} ({@link #at}) with its head: up to 3 bands right above it
     * (no further apart than 1.6 of its rows' median pitch, none set larger than its cells) that are a header row of
     * long column heads ("Indicators", "Weight of indicator in 2006"), each run over one of its columns, or a group's
     * head on its own (in the cells' size, and not over a head row of words above rows of figures), its first column's
     * left edge within 2 em. {@code start} when none is.
     *
     * @param from the first band that may be taken (the bands before it are read already)
     */
    static int head(List<List<Layout.Item>> bands, int from, int start, Found found, float minGutter) {
        List<List<Layout.Item>> run = new ArrayList<>();
        for (List<Layout.Item> band : bands.subList(start, found.end())) if (!text(band).isEmpty()) run.add(text(band));
        List<Float> pitches = new ArrayList<>();
        for (int r = 1; r < run.size(); r++) pitches.add(top(run.get(r)) - top(run.get(r - 1)));
        List<float[]> columns = columns(run);
        if (pitches.isEmpty() || columns == null) return start;
        pitches.sort(null);
        float pitch = pitches.get(pitches.size() / 2);
        int head = start;
        // a first row of words over rows of figures ("Description | Quantity | Amount") is the table's head: the lines
        // above it are no group's head (an address over an invoice's items)
        List<List<DocumentModel.Cell>> rows = found.table().rows();
        boolean headOfWords = rows.getFirst().stream().filter(c -> !c.text().isBlank()).count() >= 2
                && rows.getFirst().stream().noneMatch(c -> c.text().codePoints().anyMatch(Character::isDigit))
                && rows.stream().skip(1).anyMatch(r -> r.stream().anyMatch(c -> Layout.NUMBER.matcher(c.text().strip()).matches()));
        for (int k = start - 1; k >= Math.max(from, start - 3); k--) {
            List<Layout.Item> band = bands.get(k), below = text(bands.get(head));
            if (band.isEmpty() || text(band).size() != band.size() || top(below) - top(band) > 1.6f * pitch) break;
            if (band.stream().anyMatch(it -> it.size() > 1.15f * found.size() || it.segment().text().strip().split("\\s+").length > 8)) break;
            boolean headRow = band.size() >= 2 && band.stream().allMatch(it -> columns.stream().anyMatch(c ->
                    Math.min(it.box().right(), c[1]) > Math.max(it.box().x(), c[0])));
            Layout.Item only = band.getFirst();
            // a group's head is set in its cells' size: a line set a tenth larger over the table is its heading
            boolean groupHead = band.size() == 1 && Layout.shortCell(only.segment().text()) && only.size() <= 1.1f * found.size() && !headOfWords
                    && Math.abs(only.box().x() - columns.getFirst()[0]) <= 4 * minGutter && only.box().right() < columns.get(1)[0];
            // the first row's head begun on the line above ("Revenue from contracts with" over "customers  12,345")
            boolean wrappedHead = head == start && wrapsOnto(text(band), below) && only.box().right() < columns.get(1)[0];
            if (!headRow && !groupHead && !wrappedHead) break;
            // the last line of the paragraph above (a caption's), set as it is and close under it, is no group's head
            if (!headRow && k > 0 && endsParagraph(text(bands.get(k - 1)), only)) break;
            head = k;
        }
        return head;
    }

    /**
     * Whether {@code band}, one run, is a row's head that wraps onto {@code next}, a row of cells: of two words or more,
     * not ending in a colon, going on in lower case on the next line (a group's head over its rows, "Type of institution"
     * over "Public 4-year", is a row of its own), and {@code next} hugs it with its first run under it, from its left
     * edge to its right (a statement's long line item, its figures on its last line).
     */
    private static boolean wrapsOnto(List<Layout.Item> band, List<Layout.Item> next) {
        if (band.size() != 1 || next.size() < 2 || !(row(next) || cellsBeside(next)) || !hugs(band, next)) return false;
        Layout.Item only = band.getFirst(), head = sorted(next).getFirst();
        String text = only.segment().text().strip(), rest = head.segment().text().strip();
        boolean goesOn = text.split("\\s+").length >= 2 && !rest.isEmpty() && Character.isLowerCase(rest.codePointAt(0));
        return goesOn && !text.endsWith(":") && head.box().x() >= only.box().x() - 2 && head.box().x() < only.box().right();
    }

    /** Whether {@code line} goes on the one line of {@code above}: at its left edge, its size, under it within half a line. */
    private static boolean endsParagraph(List<Layout.Item> above, Layout.Item line) {
        if (above.size() != 1) return false;
        Layout.Item first = above.getFirst();
        return Math.abs(first.box().x() - line.box().x()) <= 2 && Math.abs(first.segment().size() - line.segment().size()) <= 0.5f
                && first.box().width() > line.box().width() && line.top() - first.bottom() < 0.5f * lineHeight(List.of(line));
    }

    /**
     * A table without rules whose cells wrap over several lines, read as columns of running text by the layout
     * ({@link Layout}): a header row of one short line in the first column and in at least half the others, then rows
     * whose cells start beside their row's head. Each column's lines make blocks (lines closer than half a line); every
     * block of a column after the first starts beside one block of the first column (its row's head: from half a line
     * above it to its foot, so a number centred beside a head of two lines is in its row), one block a cell, and at
     * least two rows under the header have blocks side by side. A block of the first column alone is a row of its own
     * (a group's head; never a bulleted sentence); a short line above the header is a row over it ("Year" over the years). Null when the columns
     * are not such a table: two columns of running text have no header of short cells, and a paragraph of one column
     * starts beside no paragraph of the other, or two beside one.
     *
     * @param columns the region's columns left to right, each its items
     * @param end     the band after the region
     */
    static Found wrapped(List<List<Layout.Item>> columns, int end) {
        if (columns.size() < 2 || columns.stream().flatMap(List::stream).anyMatch(it -> it.segment() == null)) return null;
        List<List<List<Layout.Item>>> blocks = new ArrayList<>();
        for (List<Layout.Item> column : columns) {
            List<Layout.Item> byTop = new ArrayList<>(column);
            byTop.sort(Comparator.comparingDouble(Layout.Item::top));
            List<List<Layout.Item>> own = new ArrayList<>();
            for (Layout.Item it : byTop) {
                List<Layout.Item> last = own.isEmpty() ? null : own.getLast();
                if (last != null && it.top() - last.getLast().bottom() < 0.5f * lineHeight(List.of(it))) last.add(it);
                else own.add(new ArrayList<>(List.of(it)));
            }
            if (own.isEmpty()) return null;
            blocks.add(own);
        }
        List<List<Layout.Item>> heads = blocks.getFirst();
        Layout.Item head = heads.getFirst().getFirst();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[columns.size()]); // the heads over the header, if any
        boolean oneLineHeader = true;
        for (List<Layout.Item> h : heads) rows.add(new String[columns.size()]);
        for (int c = 0; c < columns.size(); c++) {
            for (List<Layout.Item> block : blocks.get(c)) {
                Layout.Item first = block.getFirst();
                int r = 0;
                if (first.top() >= head.top() - 0.5f * head.box().height()) {
                    r = 1;
                    while (r <= heads.size() && !beside(heads.get(r - 1), first)) r++;
                    if (r > heads.size()) return null;
                } else if (block.size() != 1 || !Layout.shortCell(first.segment().text())) {
                    return null;
                }
                if (rows.get(r)[c] != null) return null;
                if (r == 1 && block.size() != 1) oneLineHeader = false;
                rows.get(r)[c] = String.join(" ", block.stream().map(it -> it.segment().text().strip()).toList());
            }
        }
        // the header: one short line in its first column and in at least half the others
        String[] header = rows.get(1);
        if (!oneLineHeader || header[0] == null || filled(header) * 2 < columns.size() + 1) return null;
        for (String t : header) if (t != null && !Layout.shortCell(t)) return null;
        long sideBySide = rows.stream().skip(2).filter(row -> filled(row) >= 2).count();
        if (sideBySide < 2) return null;
        // a bulleted sentence alone in the first column is a list's item under the text beside (a résumé's job, its
        // dates set right, then what was done there), no group's head
        if (rows.stream().anyMatch(row -> filled(row) == 1 && row[0] != null && Structure.ITEM.matcher(row[0]).find() && Layout.running(row[0]))) return null;
        if (filled(rows.getFirst()) == 0) rows.removeFirst();
        List<List<DocumentModel.Cell>> cells = new ArrayList<>();
        for (String[] row : rows) {
            List<DocumentModel.Cell> out = new ArrayList<>();
            for (String t : row) out.add(new DocumentModel.Cell(t == null ? "" : t, 1, 1));
            cells.add(out);
        }
        return found(columns, new DocumentModel.Table(columns.size(), false, cells), end);
    }

    /** The table found over {@code items} (rows or columns of them): their box and average type size with it. */
    private static Found found(List<List<Layout.Item>> items, DocumentModel.Table table, int end) {
        DocumentModel.Box box = null;
        float size = 0;
        int n = 0;
        for (List<Layout.Item> group : items) {
            for (Layout.Item it : group) {
                box = box == null ? it.box() : box.union(it.box());
                size += it.size();
                n++;
            }
        }
        return new Found(box, table, size / n, end);
    }

    /** Whether a line starts beside a block of lines: its top from half a line above the block's to its foot. */
    private static boolean beside(List<Layout.Item> block, Layout.Item line) {
        float top = block.getFirst().top(), bottom = block.getLast().bottom();
        return line.top() >= top - 0.5f * block.getFirst().box().height() && line.top() < bottom;
    }

    /** The table over bands {@code start} to {@code end} (exclusive) as {@link #at} reads its rows, or null when they make none. */
    static Found over(List<List<Layout.Item>> bands, int start, int end) {
        List<List<Layout.Item>> run = new ArrayList<>();
        for (List<Layout.Item> band : bands.subList(start, end)) if (!text(band).isEmpty()) run.add(sorted(text(band)));
        return table(run, end);
    }

    /** A band's text runs, without the pictures beside them. */
    private static List<Layout.Item> text(List<Layout.Item> band) {
        return band.stream().filter(it -> it.segment() != null).toList();
    }

    /**
     * Whether a band's pictures all stand apart from the table's extent (a chart placed beside a sheet's cells): a
     * picture among the cells ends the table. The pictures beside it stay the layout's ({@link Layout}).
     */
    private static boolean beside(List<Layout.Item> band, float left, float right, float minGutter) {
        return band.stream().filter(it -> it.segment() == null)
                .allMatch(it -> it.box().x() >= right + minGutter || it.box().right() <= left - minGutter);
    }

    /** Whether a band is a table row candidate: two or more text runs, most of them no running text. */
    private static boolean row(List<Layout.Item> band) {
        if (band.size() < 2 || band.stream().anyMatch(it -> it.segment() == null)) return false;
        long running = band.stream().filter(it -> Layout.running(it.segment().text())).count();
        return running * 2 < band.size();
    }

    /**
     * Whether a band under a table's first row is one of its rows though most of its runs are running text: two or
     * more runs, one of them short at least (a long row head beside its number: "Further studies (in higher
     * education)" beside "15").
     */
    private static boolean cellsBeside(List<Layout.Item> band) {
        return band.size() >= 2 && band.stream().allMatch(it -> it.segment() != null)
                && band.stream().anyMatch(it -> !Layout.running(it.segment().text()));
    }

    private static Found table(List<List<Layout.Item>> run, int end) {
        List<float[]> columns = columns(run);
        if (columns == null) return null;
        int cols = columns.size();
        List<String[]> texts = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        List<Layout.Item> previous = null;
        int multi = 0, cells = 0, shortCells = 0, numbers = 0, markers = 0;
        List<int[]> header = pairHeads(run.getFirst(), columns);
        String wrappedHead = null; // a row head's lines before the line its row's cells stand on
        for (int b = 0; b < run.size(); b++) {
            List<Layout.Item> band = run.get(b);
            if (b > 0 && b + 1 < run.size() && wrapsOnto(band, run.get(b + 1)) && place(band.getFirst().box(), columns)[0] == 0) {
                wrappedHead = wrappedHead == null ? band.getFirst().segment().text().strip() : wrappedHead + " " + band.getFirst().segment().text().strip();
                continue;
            }
            String[] row = new String[cols];
            int[] span = new int[cols];
            for (int k = 0; k < band.size(); k++) {
                Layout.Item it = band.get(k);
                int[] at = band == run.getFirst() ? header.get(k) : place(it.box(), columns);
                int c = at[0];
                String t = it.segment().text().strip();
                row[c] = row[c] == null ? t : row[c] + " " + t;
                span[c] = Math.max(span[c], at[1] - at[0] + 1);
                cells++;
                if (Layout.shortCell(t)) shortCells++;
                if (Layout.NUMBER.matcher(t).matches()) numbers++;
                if (c == 0 && Structure.MARKER_ONLY.matcher(t).matches()) markers++;
            }
            if (wrappedHead != null && row[0] != null) row[0] = wrappedHead + " " + row[0];
            wrappedHead = null;
            int filled = filled(row);
            // a line just under a row, its first column empty where the row's is not: the row's cells wrapped; and a
            // line just under the first row, with fewer cells and each under one of that row's: its header wrapped
            if (previous != null && hugs(previous, band) && ((row[0] == null && texts.getLast()[0] != null)
                    || (texts.size() == 1 && filled < filled(texts.getFirst()) && under(row, texts.getFirst())))) {
                String[] last = texts.getLast();
                for (int c = 0; c < cols; c++) if (row[c] != null) last[c] = last[c] == null ? row[c] : last[c] + " " + row[c];
                previous = band;
                continue;
            }
            if (filled >= 2) multi++;
            texts.add(row);
            spans.add(span);
            previous = band;
        }
        boolean aligned = multi >= 3 && multi * 10 >= texts.size() * 6;
        boolean cellLike = shortCells * 10 >= cells * (cols >= 3 ? 7 : 8) || numbers * 10 >= cells * 3;
        // a list's markers stand in a column of their own
        boolean list = markers * 2 >= texts.size();
        List<List<String>> byColumn = new ArrayList<>();
        for (int c = 0; c < cols; c++) {
            List<String> column = new ArrayList<>();
            for (String[] row : texts) column.add(row[c] == null ? "" : row[c]);
            byColumn.add(column);
        }
        // two columns of numbers only, not a word among them, or most of the grid empty: a chart's axis and legend
        // labels (two charts side by side tick alike); a wide table of numbers is a table whose row heads stand apart
        boolean words = cols > 2 || texts.stream().flatMap(java.util.Arrays::stream).anyMatch(t -> t != null && t.codePoints().anyMatch(Character::isLetter));
        boolean sparse = texts.stream().mapToInt(TextTables::filled).sum() * 10 < texts.size() * cols * 4;
        if (!aligned || !cellLike || list || !words || sparse || blocks(byColumn) || texts.size() < 3) return null;
        List<List<DocumentModel.Cell>> rows = new ArrayList<>();
        for (int r = 0; r < texts.size(); r++) {
            List<DocumentModel.Cell> row = new ArrayList<>();
            for (int c = 0; c < cols; c++) {
                String t = texts.get(r)[c];
                int span = Math.max(1, spans.get(r)[c]);
                row.add(new DocumentModel.Cell(t == null ? "" : t, 1, span));
                c += span - 1;
            }
            rows.add(row);
        }
        return found(run, new DocumentModel.Table(cols, false, rows), end);
    }

    private static int filled(String[] row) {
        int n = 0;
        for (String s : row) if (s != null) n++;
        return n;
    }

    /** Whether every cell of {@code row} stands in a column where {@code above} has a cell. */
    private static boolean under(String[] row, String[] above) {
        for (int c = 0; c < row.length; c++) if (row[c] != null && above[c] == null) return false;
        return true;
    }

    /** A line of a label and its value: a label of one to four words, a colon, the value ("Invoice date: 12 March 2026"). */
    private static final java.util.regex.Pattern LABELLED = java.util.regex.Pattern.compile("([^:]{1,30}):\\s+\\S.*");

    /**
     * Whether columns of text (each top to bottom, "" where a column has no text in a row) are blocks set side by side,
     * read one after another, not a table's columns: lists ({@link #lists}), or a column of two or more label-and-value
     * lines beside a column with no colon at all (an invoice's number and dates beside the seller's address).
     */
    static boolean blocks(List<List<String>> columns) {
        if (lists(columns)) return true;
        boolean labelled = false, plain = false;
        for (List<String> column : columns) {
            List<String> lines = column.stream().map(String::strip).filter(t -> !t.isEmpty()).toList();
            if (lines.size() >= 2 && lines.stream().allMatch(TextTables::labelled)) labelled = true;
            else if (lines.stream().noneMatch(t -> t.contains(":"))) plain = true;
        }
        return labelled && plain;
    }

    private static boolean labelled(String line) {
        java.util.regex.Matcher m = LABELLED.matcher(line);
        return m.matches() && m.group(1).strip().split("\\s+").length <= 4;
    }

    /**
     * Whether columns of text (each top to bottom, "" where a column has no text in a row) are lists set side by side
     * (as slides set them), not a table: every column is a run of list items ({@link Structure#ITEM}: a bullet or a
     * number, then its text) under at most one line of its own (its head), with no gap between them; a line that is no
     * item continues the item above it (a narrow text box wraps its items), and items make at least half of every
     * column's lines under its head and of all the text. A table's column of bulleted cells has gaps, or a column
     * beside it is not a list.
     */
    static boolean lists(List<List<String>> columns) {
        int items = 0, filled = 0;
        for (List<String> column : columns) {
            int first = 0, last = column.size() - 1;
            while (first <= last && column.get(first).isBlank()) first++;
            while (last >= first && column.get(last).isBlank()) last--;
            int own = 0, lines = 0;
            for (int i = first; i <= last; i++) {
                String t = column.get(i).strip();
                if (t.isEmpty()) return false;
                filled++;
                boolean item = Structure.ITEM.matcher(t).find();
                if (item) own++;
                else if (i != first && own == 0) return false; // a second line before any item: no list's head
                if (i != first || item) lines++;
            }
            if (own * 2 < lines) return false;
            items += own;
        }
        return items >= 2 && items * 2 >= filled;
    }

    /**
     * The columns' extents (left and right, points), from the runs of the rows below the first (a header is often
     * wider than its column, or aligned another way): narrowest runs first, each run widens the one column it
     * overlaps or starts a new one; a run that overlaps two or more columns spans them and makes none. Null when
     * fewer than two columns remain.
     */
    private static List<float[]> columns(List<List<Layout.Item>> run) {
        List<DocumentModel.Box> boxes = new ArrayList<>();
        for (List<Layout.Item> band : run.size() > 1 ? run.subList(1, run.size()) : run) for (Layout.Item it : band) boxes.add(it.box());
        boxes.sort(Comparator.comparingDouble(DocumentModel.Box::width));
        List<float[]> columns = new ArrayList<>();
        for (DocumentModel.Box b : boxes) {
            List<float[]> over = columns.stream().filter(c -> Math.min(b.right(), c[1]) > Math.max(b.x(), c[0])).toList();
            if (over.isEmpty()) columns.add(new float[] {b.x(), b.right()});
            else if (over.size() == 1) {
                over.getFirst()[0] = Math.min(over.getFirst()[0], b.x());
                over.getFirst()[1] = Math.max(over.getFirst()[1], b.right());
            }
        }
        // columns that came to overlap as they widened are one
        columns.sort(Comparator.comparingDouble(c -> c[0]));
        List<float[]> merged = new ArrayList<>();
        for (float[] c : columns) {
            if (!merged.isEmpty() && c[0] < merged.getLast()[1]) merged.getLast()[1] = Math.max(merged.getLast()[1], c[1]);
            else merged.add(c);
        }
        for (int c = 0; c + 1 < merged.size(); ) {
            if (oneColumn(run, merged.get(c), merged.get(c + 1))) {
                merged.get(c)[1] = Math.max(merged.get(c)[1], merged.remove(c + 1)[1]);
            } else {
                c++;
            }
        }
        return merged.size() < 2 ? null : merged;
    }

    /**
     * Whether two neighbouring columns are one: runs reach across both in 2 rows or more, and rows with a run of
     * their own in each are at most a quarter as many (a narrow head set left over right-aligned figures, "$000's" over
     * "4,151,000", made a column of its own that the wider figures then spanned).
     */
    private static boolean oneColumn(List<List<Layout.Item>> run, float[] left, float[] right) {
        int across = 0, apart = 0;
        for (List<Layout.Item> band : run) {
            boolean inLeft = false, inRight = false;
            for (Layout.Item it : band) {
                boolean l = Math.min(it.box().right(), left[1]) > Math.max(it.box().x(), left[0]);
                boolean r = Math.min(it.box().right(), right[1]) > Math.max(it.box().x(), right[0]);
                if (l && r) across++;
                else if (l) inLeft = true;
                else if (r) inRight = true;
            }
            if (inLeft && inRight) apart++;
        }
        return across >= 2 && apart * 4 <= across;
    }

    /**
     * The first and last column a run stands in: the columns it overlaps, or the nearest when it overlaps none. A run
     * that reaches across the gutter into the next column by more than a third of that column spans it.
     */
    private static int[] place(DocumentModel.Box box, List<float[]> columns) {
        int first = -1, last = -1;
        for (int c = 0; c < columns.size(); c++) {
            float[] col = columns.get(c);
            float overlap = Math.min(box.right(), col[1]) - Math.max(box.x(), col[0]);
            boolean in = first < 0 ? overlap > 0 : overlap > (col[1] - col[0]) / 3;
            if (!in) continue;
            if (first < 0) first = c;
            last = c;
        }
        if (first >= 0) return new int[] {first, last};
        int nearest = 0;
        float best = Float.MAX_VALUE;
        for (int c = 0; c < columns.size(); c++) {
            float[] col = columns.get(c);
            float d = Math.max(col[0] - box.right(), box.x() - col[1]);
            if (d < best) {
                best = d;
                nearest = c;
            }
        }
        return new int[] {nearest, nearest};
    }

    /**
     * Where the first row's runs stand ({@link #place}), each run centred over a pair of columns spanning both
     * ({@link #overPair}) when two runs or more are (years over their "N" and "% Pos") and no other run stands in
     * their columns.
     */
    private static List<int[]> pairHeads(List<Layout.Item> band, List<float[]> columns) {
        List<int[]> placed = new ArrayList<>(), paired = new ArrayList<>();
        for (Layout.Item it : band) {
            int[] at = place(it.box(), columns);
            placed.add(at);
            paired.add(overPair(it.box(), columns, at));
        }
        int pairs = 0;
        for (int k = 0; k < band.size(); k++) {
            if (paired.get(k) == placed.get(k)) continue; // overPair gives back the place it was given when it pairs nothing
            int[] pair = paired.get(k);
            for (int j = 0; j < band.size(); j++) {
                if (j != k && placed.get(j)[1] >= pair[0] && placed.get(j)[0] <= pair[1]) return placed;
            }
            pairs++;
        }
        return pairs >= 2 ? paired : placed;
    }

    /**
     * A header's run set centred over two columns ("2007" over its "N" and "% Pos"): it spans both. Its middle lies in
     * the gutter between them and within a quarter of the pair's width of the pair's middle, it is narrower than the
     * pair, and no more than half of it stands over either column (a head set over its own column stands there); else
     * {@code at} as placed.
     */
    private static int[] overPair(DocumentModel.Box box, List<float[]> columns, int[] at) {
        if (at[0] != at[1]) return at;
        float middle = box.x() + box.width() / 2;
        for (int c = 0; c + 1 < columns.size(); c++) {
            float[] left = columns.get(c), right = columns.get(c + 1);
            float width = right[1] - left[0];
            float inLeft = Math.max(0, Math.min(box.right(), left[1]) - Math.max(box.x(), left[0]));
            float inRight = Math.max(0, Math.min(box.right(), right[1]) - Math.max(box.x(), right[0]));
            if (middle > left[1] && middle < right[0] && Math.abs(middle - (left[0] + right[1]) / 2) < width / 4 && box.width() < width
                    && 2 * inLeft < box.width() && 2 * inRight < box.width()) {
                return new int[] {c, c + 1};
            }
        }
        return at;
    }

    /** Whether {@code next} stands right under {@code band}, closer than half a line (a wrapped line of one cell). */
    private static boolean hugs(List<Layout.Item> band, List<Layout.Item> next) {
        return top(next) - bottom(band) < 0.5f * lineHeight(next);
    }

    private static List<Layout.Item> sorted(List<Layout.Item> band) {
        List<Layout.Item> out = new ArrayList<>(band);
        out.sort(Comparator.comparingDouble(it -> it.box().x()));
        return out;
    }

    /**
     * The band's line height: its runs' least, each at least 0.9 of its type size, as a drawn run's box is (an OCR
     * layer's box is its ink's, a capital's height: a scan's row-ruled table's padded rows stood further apart than
     * their boxes allowed).
     */
    private static float lineHeight(List<Layout.Item> band) {
        return (float) band.stream().mapToDouble(it -> Math.max(it.box().height(), 0.9f * it.segment().size())).min().orElse(1);
    }

    private static float left(List<Layout.Item> band) {
        return (float) band.stream().mapToDouble(it -> it.box().x()).min().orElse(0);
    }

    private static float right(List<Layout.Item> band) {
        return (float) band.stream().mapToDouble(it -> it.box().right()).max().orElse(0);
    }

    private static float top(List<Layout.Item> band) {
        return (float) band.stream().mapToDouble(Layout.Item::top).min().orElse(0);
    }

    private static float bottom(List<Layout.Item> band) {
        return (float) band.stream().mapToDouble(Layout.Item::bottom).max().orElse(0);
    }
}
