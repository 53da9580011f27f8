package dev.docapi.document;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A page's reading order by recursive XY-cut with a column-flow rule (issue 36). The page's items (text segments,
 * ruled tables, pictures) are cut into horizontal bands (items that overlap vertically); consecutive bands that
 * share an empty vertical strip (a gutter) make one region, read column by column (left to right, or right to left on
 * a right-to-left page), each column ordered the same way; a band that no gutter crosses is read as it stands. So a
 * two-column page reads column 1 then column 2, a title across both columns comes first, and a flyer whose blocks
 * share no gutter reads top to bottom. Runs of lines whose short cells align in rows are tables found by alignment
 * ({@link TextTables}: no rulings needed, so booktabs, row-ruled and unruled tables), placed as one item each.
 */
final class Layout {
    /** Pages with more items than this are not cut. */
    static final int MAX_ITEMS = 5000;
    /** A column is running text from this many long lines ({@link #runningText}). */
    private static final int MIN_RUNNING_LINES = 3;
    /** Dot leaders ("Introduction . . . . 4"): no words, so a contents line is a short cell beside its page number. */
    private static final Pattern LEADER = Pattern.compile("(\\s*[.·…_]){3,}");
    /** A number as a table's cell holds it: a sign, currency, thousands separators, a percent, brackets. */
    static final Pattern NUMBER = Pattern.compile("[-+(]?[$€£]?\\d[\\d,.]*%?\\)?");

    /** Something placed on the page: a text segment, or an atom (ruled table, picture, form value) that is not cut. */
    record Item(DocumentModel.Box box, PageReader.Segment segment, Object atom) {
        static Item of(PageReader.Segment s) {
            return new Item(s.box(), s, null);
        }

        float top() {
            return box.y();
        }

        float bottom() {
            return box.bottom();
        }

        float size() {
            return segment == null ? 0 : segment.size();
        }
    }

    /** An item in reading order and its flow: consecutive items of one flow may join into one paragraph. */
    record Placed(Item item, int flow) {
    }

    private final boolean rightToLeft;
    private final float minGutter;
    private final float bodySize;
    private final List<Placed> out = new ArrayList<>();
    private int flow;

    private final List<DocumentModel.Box> drawings;
    private final List<DocumentModel.Box> panels;

    private Layout(boolean rightToLeft, float bodySize, List<DocumentModel.Box> drawings, List<DocumentModel.Box> panels) {
        this.rightToLeft = rightToLeft;
        this.bodySize = bodySize;
        this.minGutter = Math.max(3f, 0.5f * bodySize);
        this.drawings = drawings;
        this.panels = panels;
    }

    /**
     * The items in reading order.
     *
     * @param rightToLeft whether the page's columns are read right to left (most of its text is Arabic or Hebrew)
     * @param bodySize    the document's body font size (points): gutters are at least half this wide
     * @param drawings    the page's figures drawn in vector paths (points from the top-left): text aligned inside one
     *                    is its labels (a chart's axes and legend), never a table
     * @param panels      the page's boxes drawn around or behind text ({@link Pictures#panel}): columns each in a panel
     *                    of its own are read one after another, never as rows across
     */
    static List<Placed> order(List<Item> items, boolean rightToLeft, float bodySize, List<DocumentModel.Box> drawings,
                              List<DocumentModel.Box> panels) {
        // cutting costs up to the square of the items: a page of loose glyphs (a map, a hostile file) keeps its drawing order
        if (items.size() > MAX_ITEMS) return items.stream().map(it -> new Placed(it, 0)).toList();
        // the text of a panel (a sidebar's, a box's) is read as a whole where the panel stands: ordered on its own, then
        // placed as one block among the rest
        List<Item> rest = new ArrayList<>(items);
        for (DocumentModel.Box panel : blocks(panels, items, bodySize)) {
            List<Item> inside = rest.stream().filter(it -> panel.holds(it.box())).toList();
            if (inside.stream().filter(it -> it.segment() != null).count() < 2 || inside.size() == rest.size()) continue;
            rest.removeAll(inside);
            // laid out without panels: one laid out already inside it (a box within a frame drawn line by line) is one of
            // its items, opened in its place; a page's panels are laid out one level deep whatever a file nests
            rest.add(new Item(panel, null, new Panel(order(inside, rightToLeft, bodySize, drawings, List.of()))));
        }
        Layout layout = new Layout(rightToLeft, bodySize, drawings, panels);
        for (List<Item> slab : slabs(rest, drawings)) {
            layout.region(slab);
            layout.flow++;
        }
        return rest.size() == items.size() ? layout.out : opened(layout.out);
    }

    /** A panel's items in their own reading order, laid out as one block ({@link #order}). */
    private record Panel(List<Placed> placed) {
    }

    /**
     * The panels that may hold a block of text: two lines of body text high or more, and not holding every item (a frame
     * around the whole page).
     */
    private static List<DocumentModel.Box> blocks(List<DocumentModel.Box> panels, List<Item> items, float bodySize) {
        return panels.stream().filter(p -> p.height() >= 2 * bodySize && !items.stream().allMatch(it -> p.holds(it.box()))).toList();
    }

    /** The placed items with each panel's own in its place, every flow numbered anew (a panel's apart from the rest's). */
    private static List<Placed> opened(List<Placed> placed) {
        List<Placed> out = new ArrayList<>();
        java.util.Map<Object, Integer> flows = new java.util.HashMap<>();
        open(placed, "", out, flows);
        return out;
    }

    private static void open(List<Placed> placed, String source, List<Placed> out, java.util.Map<Object, Integer> flows) {
        int panels = 0;
        for (Placed p : placed) {
            if (p.item().atom() instanceof Panel panel) {
                open(panel.placed(), source + "/" + panels++, out, flows);
                continue;
            }
            out.add(new Placed(p.item(), flows.computeIfAbsent(source + ":" + p.flow(), k -> flows.size())));
        }
    }

    /**
     * The items in slabs, top to bottom, parted by the drawings set across columns of running text (a chart across both
     * columns of a page: 60 % of the text's width or more, no text beside it, at most one line of running text in it,
     * and lines of running text side by side both above and below it): what stands above a drawing, what stands in it
     * (its labels, read on their own), what stands below; each item by its middle. Columns above such a drawing are
     * read before it and those below after it, as a picture parts them; one slab when there is no such drawing. (A
     * table's shading is a drawing too, and drawings side by side in two columns make one box across both, with a
     * column's text in it: neither parts anything.)
     */
    private static List<List<Item>> slabs(List<Item> items, List<DocumentModel.Box> drawings) {
        float left = (float) items.stream().mapToDouble(it -> it.box().x()).min().orElse(0);
        float right = (float) items.stream().mapToDouble(it -> it.box().right()).max().orElse(0);
        List<DocumentModel.Box> across = new ArrayList<>();
        for (DocumentModel.Box d : drawings.stream().sorted(java.util.Comparator.comparingDouble(DocumentModel.Box::y)).toList()) {
            boolean wide = d.width() >= 0.6f * (right - left);
            boolean beside = items.stream().anyMatch(it -> middleY(it) > d.y() && middleY(it) < d.bottom() && (middleX(it) < d.x() || middleX(it) > d.right()));
            long prose = items.stream().filter(it -> middleY(it) > d.y() && middleY(it) < d.bottom() && runningLine(it)).count();
            boolean columns = sideBySide(items.stream().filter(it -> middleY(it) < d.y()).toList())
                    && sideBySide(items.stream().filter(it -> middleY(it) > d.bottom()).toList());
            if (wide && !beside && prose <= 1 && columns && (across.isEmpty() || d.y() >= across.getLast().bottom())) across.add(d);
        }
        if (across.isEmpty()) return List.of(items);
        List<List<Item>> slabs = new ArrayList<>();
        for (int i = 0; i <= 2 * across.size(); i++) slabs.add(new ArrayList<>());
        for (Item it : items) {
            float y = middleY(it);
            int slab = 0;
            for (DocumentModel.Box d : across) {
                if (y < d.y()) break;
                slab += y <= d.bottom() ? 1 : 2;
                if (y <= d.bottom()) break;
            }
            slabs.get(slab).add(it);
        }
        slabs.removeIf(List::isEmpty);
        return slabs;
    }

    private static boolean runningLine(Item it) {
        return it.segment() != null && running(it.segment().text());
    }

    /** Whether two lines of running text among {@code items} stand side by side: level, one wholly left of the other. */
    private static boolean sideBySide(List<Item> items) {
        List<Item> lines = items.stream().filter(Layout::runningLine).toList();
        for (Item a : lines) {
            for (Item b : lines) {
                if (a.box().right() < b.box().x() && Math.min(a.box().bottom(), b.box().bottom()) > Math.max(a.box().y(), b.box().y())) return true;
            }
        }
        return false;
    }

    private static float middleY(Item it) {
        return it.box().y() + it.box().height() / 2;
    }

    private static float middleX(Item it) {
        return it.box().x() + it.box().width() / 2;
    }

    /**
     * The region's tables found by the alignment of their text ({@link TextTables}) in their place, the bands between
     * them read by {@link #flow}: a table's rows never join the columns of the text around it, nor the text around
     * it a table's columns.
     */
    private void region(List<Item> items) {
        List<List<Item>> bands = bands(items, bodySize);
        int from = 0, i = 0, grownTo = 0;
        while (i < bands.size()) {
            // columns of running text (a two-column page) are split first: a table is looked for within each column,
            // so that the lines of the column beside it do not become its cells. The bands of a region grown once
            // are not grown again (growing from each band would cost the square of the page's lines).
            Grown columns = i < grownTo || gutters(bands.get(i)).isEmpty() ? null : grow(bands, i);
            List<List<Item>> split = columns == null ? null : columns(columns.items(), columns.strips());
            if (split != null && runningText(split)) {
                // a table across the columns' gutter at their top (a paper's table over both columns) comes first
                TextTables.Found across = acrossColumns(bands, i, columns);
                if (across != null) {
                    flow(bands.subList(from, i));
                    out.add(new Placed(new Item(across.box(), null, across), ++flow));
                    flow++;
                    i = from = across.end();
                    continue;
                }
                // unless they are a table's columns whose cells wrap
                TextTables.Found wrapped = TextTables.wrapped(split, columns.end());
                if (wrapped != null && !inDrawing(wrapped.box())) {
                    flow(bands.subList(from, i));
                    out.add(new Placed(new Item(wrapped.box(), null, wrapped), ++flow));
                    flow++;
                    from = wrapped.end();
                }
                i = columns.end();
                continue;
            }
            if (columns != null) grownTo = columns.end();
            TextTables.Found found = TextTables.at(bands, i, minGutter);
            if (found == null || inDrawing(found.box())) {
                i++;
                continue;
            }
            // the table's head rows, above where its rows of short cells start, are its own
            int head = TextTables.head(bands, from, i, found, minGutter);
            TextTables.Found headed = head < i ? TextTables.over(bands, head, found.end()) : null;
            if (headed != null) {
                found = headed;
                i = head;
            }
            flow(bands.subList(from, i));
            flow++;
            out.add(new Placed(new Item(found.box(), null, found), flow));
            flow++;
            // pictures beside the table's rows come after it
            for (List<Item> band : bands.subList(i, found.end())) {
                for (Item it : band) if (it.segment() == null) out.add(new Placed(it, flow));
            }
            flow++;
            i = from = found.end();
        }
        flow(bands.subList(from, bands.size()));
    }

    /**
     * The table whose rows start at band {@code start} across a gutter of the columns of running text grown from there,
     * ending above their text: a paper's table set over both columns at a page's top, whose column gap falls on the
     * page's gutter, was split in two, each half read with its column's text. Null when there is none.
     */
    private TextTables.Found acrossColumns(List<List<Item>> bands, int start, Grown columns) {
        TextTables.Found found = TextTables.at(bands, start, minGutter);
        if (found == null || inDrawing(found.box()) || found.end() >= columns.end()) return null;
        DocumentModel.Box box = found.box();
        return columns.strips().stream().anyMatch(g -> box.x() < g[0] && box.right() > g[1]) ? found : null;
    }

    /**
     * Whether a box lies inside the page's drawings taller than 3 lines of body text: inside the extent of those it
     * overlaps (two charts side by side, whose axes' labels line up across both), with its labels' margin, and that
     * extent over 1.5 times as tall as the box (a table's shading drawn behind its rows is as tall as the table).
     */
    private boolean inDrawing(DocumentModel.Box box) {
        DocumentModel.Box extent = null;
        for (DocumentModel.Box d : drawings) {
            boolean overlaps = Math.min(box.right(), d.right()) > Math.max(box.x(), d.x()) && Math.min(box.bottom(), d.bottom()) > Math.max(box.y(), d.y());
            if (d.height() > 3 * bodySize && overlaps) extent = extent == null ? d : extent.union(d);
        }
        // the axes' labels stand outside the paths, up to a line and a half from them
        float margin = 1.5f * bodySize;
        return extent != null && extent.height() > 1.5f * box.height() && box.x() >= extent.x() - margin && box.right() <= extent.right() + margin
                && box.y() >= extent.y() - margin && box.bottom() <= extent.bottom() + margin;
    }

    private void flow(List<List<Item>> bands) {
        int i = 0;
        while (i < bands.size()) {
            List<Item> region = new ArrayList<>(bands.get(i));
            List<float[]> strips = gutters(region);
            int j = i + 1;
            if (strips.isEmpty() && j < bands.size()) {
                // a lone band (a heading over one column) joins the columns below when it stands within one of them
                Grown below = grow(bands, j);
                List<Item> lone = bands.get(i);
                Grown run;
                if (!below.strips().isEmpty() && startsAColumn(lone, below)) {
                    region.addAll(below.items());
                    strips = gutters(region);
                    j = below.end();
                } else if ((run = columnsBelow(bands, i)) != null) {
                    region = run.items();
                    strips = run.strips();
                    j = run.end();
                }
            } else if (!strips.isEmpty()) {
                Grown grown = grow(bands, i);
                region = grown.items();
                strips = grown.strips();
                j = grown.end();
            }
            List<List<Item>> columns = strips.isEmpty() ? List.of() : columns(region, strips);
            // short lines side by side (a form's labels and values, a key-value list) are rows, not columns; lists side
            // by side are read list by list
            if (strips.isEmpty()) {
                band(region, false);
            } else if (!runningText(columns) && !lists(columns) && !boxed(columns)) {
                band(region, true);
            } else {
                flow++;
                columns = withCellColumns(columns);
                if (rightToLeft) columns = columns.reversed();
                for (List<Item> column : columns) {
                    flow++;
                    region(column); // a strict part of the region: a gutter has items on both sides
                }
                flow++;
            }
            i = j;
        }
    }

    /**
     * Two or more lone bands from {@code start} on (lines and pictures that no gutter parts) with the columns of running
     * text under them, when the gutters between those columns stay open beside them and each column goes on from them
     * into those below within three lines: a paper's abstract beside a
     * column of photographs, each picture a band of its own, is the start of its columns. Read band by band, the
     * abstract's lines were cut from its last lines where the columns began. Null when there are no such columns.
     */
    private Grown columnsBelow(List<List<Item>> bands, int start) {
        int j = start + 1;
        while (j < bands.size() && gutters(bands.get(j)).isEmpty()) j++;
        if (j == start + 1 || j == bands.size()) return null;
        Grown below = grow(bands, j);
        if (below.strips().isEmpty() || !runningText(columns(below.items(), below.strips()))) return null;
        List<Item> lone = bands.subList(start, j).stream().flatMap(List::stream).toList();
        // each column goes on from the lone bands into the columns below: a slide's logo at its top left is no start of
        // the sidebar at its foot, with the slide's text between them in the other column
        List<List<Item>> above = columns(lone, below.strips()), under = columns(below.items(), below.strips());
        for (int c = 0; c < above.size(); c++) {
            if (above.get(c).isEmpty() || under.get(c).isEmpty()) continue;
            float gap = (float) (under.get(c).stream().mapToDouble(Item::top).min().orElse(0) - bottom(above.get(c)));
            if (gap > 3 * bodySize) return null;
        }
        List<Item> region = new ArrayList<>(lone);
        region.addAll(below.items());
        List<float[]> strips = gutters(region);
        boolean open = !strips.isEmpty() && strips.stream().allMatch(g -> below.strips().stream().anyMatch(b -> g[0] < b[1] && g[1] > b[0]));
        return open ? new Grown(region, strips, below.end()) : null;
    }

    /**
     * Whether the columns are boxes read one after another, their lines no rows of a table across them: a column holds a
     * panel's block (a sidebar beside a résumé's main column), or each column stands in a panel of its own, a box
     * drawn around or behind all its items and none of another column's (a flyer's boxes side by side, a paragraph in
     * one beside a list in the other).
     */
    private boolean boxed(List<List<Item>> columns) {
        if (columns.stream().anyMatch(c -> c.stream().anyMatch(it -> it.atom() instanceof Panel))) return true;
        for (List<Item> column : columns) {
            boolean own = panels.stream().anyMatch(p -> column.stream().allMatch(it -> p.holds(it.box()))
                    && columns.stream().filter(c -> c != column).flatMap(List::stream).noneMatch(it -> p.holds(it.box())));
            if (!own) return false;
        }
        return true;
    }

    /** Whether {@code a} and {@code b} stand in panels of their own: a panel holds all of each, none all of both. */
    private boolean parted(List<Item> a, List<Item> b) {
        List<DocumentModel.Box> holdA = panels.stream().filter(p -> a.stream().allMatch(it -> p.holds(it.box()))).toList();
        List<DocumentModel.Box> holdB = panels.stream().filter(p -> b.stream().allMatch(it -> p.holds(it.box()))).toList();
        return !holdA.isEmpty() && !holdB.isEmpty() && holdA.stream().noneMatch(holdB::contains);
    }

    /**
     * The columns, each column of short lines that all stand beside lines of the column on its left joined to that
     * column: a table's last column ("CSOs" over a "*" in each row) set apart from the rest of its table by a gutter
     * that the page's other lines leave clear. At least two columns stay.
     */
    private static List<List<Item>> withCellColumns(List<List<Item>> columns) {
        List<List<Item>> out = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            List<Item> column = columns.get(c);
            List<Item> lines = column.stream().filter(it -> it.segment() != null).toList();
            boolean cells = !out.isEmpty() && !lines.isEmpty() && lines.size() == column.size()
                    && lines.stream().noneMatch(it -> running(it.segment().text()))
                    && lines.stream().allMatch(it -> beside(it, column, List.of(out.getLast())));
            // joining two columns leaves one fewer
            if (cells && out.size() + columns.size() - c > 2) {
                List<Item> joined = new ArrayList<>(out.removeLast());
                joined.addAll(column);
                out.add(joined);
            } else {
                out.add(column);
            }
        }
        return out;
    }

    /**
     * Bands from {@code start} on, as many as keep a gutter in common (but not a lone line set larger than their text
     * that closes a gutter three or more bands of two items or more have kept, nor a band on one side of the gutters
     * only after a gap of over two lines across them all), their gutters, and the band after them.
     */
    private record Grown(List<Item> items, List<float[]> strips, int end) {
    }

    private Grown grow(List<List<Item>> bands, int start) {
        List<Item> region = new ArrayList<>(bands.get(start));
        List<float[]> strips = gutters(region);
        int j = start + 1;
        while (!strips.isEmpty() && j < bands.size()) {
            List<Item> candidate = new ArrayList<>(region);
            candidate.addAll(bands.get(j));
            List<float[]> s = gutters(candidate);
            // a lone line set larger than the region's text that closes one of the gutters three or more rows have kept
            // (a heading under a table of three columns, across its first two) stands under the region, not in it
            if (s.isEmpty() || s.size() < strips.size() && rows(bands.subList(start, j)) >= 3 && largerLine(bands.get(j), region)) break;
            // after a gap of over two lines across the whole region, a band on one side of its gutters only (an
            // invoice's "Bill to" under its seller's address and its number and dates) starts a region of its own
            if (bands.get(j).getFirst().top() - bottom(region) > 2 * bodySize && columns(bands.get(j), strips).stream().filter(c -> !c.isEmpty()).count() == 1) break;
            region = candidate;
            strips = s;
            j++;
        }
        return new Grown(region, strips, j);
    }

    private static float bottom(List<Item> items) {
        return (float) items.stream().mapToDouble(Item::bottom).max().orElse(0);
    }

    /** How many of {@code bands} hold two items or more (a table's rows, a page's lines side by side). */
    private static long rows(List<List<Item>> bands) {
        return bands.stream().filter(b -> b.size() >= 2).count();
    }

    /** Whether {@code band} is one line of text set 1.15 times the median size of {@code region}'s text or larger. */
    private static boolean largerLine(List<Item> band, List<Item> region) {
        if (band.size() != 1 || band.getFirst().segment() == null) return false;
        List<Float> sizes = region.stream().filter(it -> it.segment() != null).map(it -> it.segment().size()).sorted().toList();
        return !sizes.isEmpty() && band.getFirst().segment().size() >= 1.15f * sizes.get(sizes.size() / 2);
    }

    /**
     * Whether the lone band is the head of one of the columns below: it lies between two of their gutters and starts
     * where that column's lines start (a column's heading); a title centred over a form or a table stays above it, and
     * so does a line in a panel of its own over a column in another (a flyer's banner over its boxes).
     */
    private boolean startsAColumn(List<Item> lone, Grown below) {
        List<float[]> strips = below.strips();
        List<List<Item>> columns = columns(below.items(), strips);
        float left = (float) lone.stream().mapToDouble(it -> it.box().x()).min().orElse(0);
        for (int c = 0; c < columns.size(); c++) {
            float from = c == 0 ? -Float.MAX_VALUE : strips.get(c - 1)[1];
            float to = c == strips.size() ? Float.MAX_VALUE : strips.get(c)[0];
            boolean within = lone.stream().allMatch(it -> it.box().x() >= from && it.box().right() <= to);
            float columnLeft = (float) columns.get(c).stream().mapToDouble(it -> it.box().x()).min().orElse(Float.MAX_VALUE);
            if (within && Math.abs(left - columnLeft) <= 2 * minGutter && !parted(lone, columns.get(c))) return true;
        }
        return false;
    }

    /**
     * Whether some column holds running text: most of its lines have 4 words or more (8 characters in a script written
     * without spaces). Columns of short lines only (labels and their values, a list of names beside a list of numbers)
     * are read row by row instead, and so is a column of fewer than {@link #MIN_RUNNING_LINES} long lines each beside
     * a line of another column (a small table's titles beside its numbers and genres); a long line that wraps onto a
     * line of its own (a sub-caption beside another) is running text.
     */
    private static boolean runningText(List<List<Item>> columns) {
        for (List<Item> column : columns) {
            List<Item> lines = column.stream().filter(it -> it.segment() != null).toList();
            long long_ = lines.stream().filter(it -> running(it.segment().text())).count();
            if (lines.isEmpty() || long_ * 2 < lines.size()) continue;
            if (long_ >= MIN_RUNNING_LINES || !lines.stream().allMatch(it -> beside(it, column, columns))) return true;
        }
        return false;
    }

    /**
     * Whether a line of {@code column} has a line of another column on its level (a row's other cell): the same
     * font size within a fifth, its middle within a third of the lower line's height. Lines of a text box beside a
     * list of larger type overlap the items' lines, but stand between them.
     */
    private static boolean beside(Item line, List<Item> column, List<List<Item>> columns) {
        for (List<Item> other : columns) {
            if (other == column) continue;
            for (Item it : other) {
                if (it.segment() == null || Math.max(it.size(), line.size()) > 1.2f * Math.min(it.size(), line.size())) continue;
                float offset = Math.abs((it.top() + it.bottom()) - (line.top() + line.bottom())) / 2;
                if (offset < Math.min(it.box().height(), line.box().height()) / 3) return true;
            }
        }
        return false;
    }

    /** Whether the columns' lines are blocks side by side, lists or label-and-value lines ({@link TextTables#blocks}). */
    private static boolean lists(List<List<Item>> columns) {
        List<List<String>> texts = new ArrayList<>();
        for (List<Item> column : columns) {
            List<Item> byTop = new ArrayList<>(column);
            byTop.sort(Comparator.comparingDouble(Item::top));
            texts.add(byTop.stream().map(it -> it.segment() == null ? "" : it.segment().text()).toList());
        }
        return TextTables.blocks(texts);
    }

    /**
     * Whether a text is short enough for a table's cell: at most 5 words, and in a script whose words are long or
     * unspaced (Hangul, Han, Kana, Thai) at most 12 letters, as a line of Korean running text has 5 words too.
     */
    static boolean shortCell(String text) {
        String t = LEADER.matcher(text).replaceAll(" ").strip();
        if (t.split("\\s+").length > 5) return false;
        return !unspacedScript(t) || t.codePoints().filter(Character::isLetter).count() <= 12;
    }

    private static boolean unspacedScript(String t) {
        return t.codePoints().anyMatch(c -> Character.isIdeographic(c)
                || Character.UnicodeScript.of(c) == Character.UnicodeScript.HANGUL || Character.UnicodeScript.of(c) == Character.UnicodeScript.THAI);
    }

    private static float gap(Item a, Item b) {
        return Math.max(b.box().x() - a.box().right(), a.box().x() - b.box().right());
    }

    /**
     * Whether a line reads as running text: 4 words or more, 3 of them with a letter (a range of quarters, "Q2 2006 – Q1
     * 2010", is a cell's), or 8 letters in a script written without spaces. Korean is spaced, but its words are short
     * (a particle is part of its word): a line of it is running text from 4 words and 10 letters (a newspaper's narrow
     * column holds that; "연소득 5천만 원 이하" and "금리 1%대, 최대 1억 원" are a table's cells).
     */
    static boolean running(String line) {
        String t = LEADER.matcher(line).replaceAll(" ").strip();
        String[] words = t.split("\\s+");
        long lettered = java.util.Arrays.stream(words).filter(w -> w.codePoints().anyMatch(Character::isLetter)).count();
        if (korean(t)) return words.length >= 4 && lettered >= 3 && t.codePoints().filter(Character::isLetter).count() >= 10;
        if (words.length >= 4 && lettered >= 3) return true;
        return unspacedScript(t) && t.codePointCount(0, t.length()) >= 8;
    }

    /** Whether a text is Korean: it has Hangul and no Han or Kana (a Japanese or Chinese line is written unspaced). */
    private static boolean korean(String t) {
        return t.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HANGUL)
                && t.codePoints().noneMatch(c -> Character.isIdeographic(c) || Character.UnicodeScript.of(c) == Character.UnicodeScript.HIRAGANA
                || Character.UnicodeScript.of(c) == Character.UnicodeScript.KATAKANA);
    }

    /**
     * Items that no gutter splits, or short lines side by side ({@code rows}): line by line, each line along the page's
     * direction. In rows, the parts of a line that a gutter's width parts stay apart (a label and its value, a page
     * number and a running title), each its own block.
     */
    private void band(List<Item> items, boolean rows) {
        List<Item> sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparingDouble(it -> (it.top() + it.bottom()) / 2));
        List<List<Item>> lines = new ArrayList<>();
        for (Item it : sorted) {
            float c = (it.top() + it.bottom()) / 2;
            List<Item> line = lines.isEmpty() ? null : lines.getLast();
            if (line != null) {
                Item first = line.getFirst();
                float fc = (first.top() + first.bottom()) / 2;
                if (Math.abs(c - fc) < 0.4f * Math.max(1, Math.min(it.box().height(), first.box().height()))) {
                    line.add(it);
                    continue;
                }
            }
            lines.add(new ArrayList<>(List.of(it)));
        }
        for (List<Item> line : lines) {
            Comparator<Item> byX = Comparator.comparingDouble(it -> it.box().x());
            line.sort(rightToLeft ? byX.reversed() : byX);
            Item previous = null;
            for (Item it : line) {
                if (rows && (previous == null || gap(previous, it) >= minGutter)) flow++;
                out.add(new Placed(it, flow));
                previous = it;
            }
        }
    }

    /**
     * Items grouped into bands: runs of items that overlap vertically (by more than a quarter of the smaller's height:
     * a prime raised over a line's baseline, on a line of its own, is the line's; a tall picture by a quarter of its own).
     * A picture taller than a few lines joins the band it starts in but does not reach down: a figure set across the
     * gutter at a two-column page's foot would else chain the columns' last lines beside its labels into one band that
     * no gutter crosses. A low one (a box behind a heading, an icon) belongs to its line as text does.
     */
    static List<List<Item>> bands(List<Item> items, float bodySize) {
        List<Item> sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparingDouble(Item::top));
        List<List<Item>> bands = new ArrayList<>();
        float bottom = -Float.MAX_VALUE, reaching = 0; // the band's lowest reach, and the height of the item that reaches it
        for (Item it : sorted) {
            boolean tall = it.atom() instanceof Integer && it.box().height() > 3 * bodySize;
            float reach = tall ? it.top() : it.bottom();
            if (bands.isEmpty() || it.top() > bottom - 0.25f * (tall ? it.box().height() : Math.min(it.box().height(), reaching))) {
                bands.add(new ArrayList<>());
                bottom = reach;
                reaching = it.box().height();
            } else if (reach > bottom) {
                bottom = reach;
                reaching = it.box().height();
            }
            bands.getLast().add(it);
        }
        return bands;
    }

    /** The empty vertical strips between the items' horizontal extents, at least {@code minGutter} wide. */
    private List<float[]> gutters(List<Item> items) {
        List<Item> byX = new ArrayList<>(items);
        byX.sort(Comparator.comparingDouble(it -> it.box().x()));
        List<float[]> strips = new ArrayList<>();
        float reach = -Float.MAX_VALUE;
        for (Item it : byX) {
            if (reach != -Float.MAX_VALUE && it.box().x() - reach >= minGutter) strips.add(new float[] {reach, it.box().x()});
            reach = Math.max(reach, it.box().right());
        }
        return strips;
    }

    private static List<List<Item>> columns(List<Item> region, List<float[]> strips) {
        List<List<Item>> columns = new ArrayList<>();
        for (int c = 0; c <= strips.size(); c++) columns.add(new ArrayList<>());
        for (Item it : region) {
            int c = 0;
            while (c < strips.size() && it.box().x() >= strips.get(c)[1]) c++;
            columns.get(c).add(it);
        }
        return columns;
    }
}
