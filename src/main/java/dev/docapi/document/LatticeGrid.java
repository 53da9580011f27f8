package dev.docapi.document;

import dev.docapi.engines.tabula.Tabula;
import java.awt.geom.Line2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A page's rulings made into drawn cells and tables, as Tabula's lattice mode does (issue 36). Rulings are lines in
 * points from the page's top-left, each from its first end (the upper one; the left one on a level) to its other;
 * a ruling is horizontal or vertical when its ends' levels differ by less than {@value #EPSILON}. The steps follow
 * Tabula 1.0.5 so that tables, cells and their order stay what its child JVM gave: ends snapped together within the
 * smallest glyph's size, collinear rulings that (nearly) touch merged, crossings found with 2-point tolerance, each
 * cell the smallest rectangle at a crossing whose corners sit on the same rulings, tables the outlines of the cells
 * ({@link #areas}).
 */
final class LatticeGrid {
    private static final float EPSILON = 0.01f;
    /** How far (points) a ruling reaches past its end to cross a perpendicular one. */
    private static final float CROSS_REACH = 2f;
    /** How far (points) a ruling reaches past its end to join a collinear one. */
    private static final float JOIN_REACH = 1f;
    /** A page whose rulings cross more often than this is a drawing (a hatching, a chart's grid): no table is read. */
    static final int MAX_CROSSINGS = 20_000;

    /** The page's rulings as drawn (in any direction: slanted ones' ends take part in the snapping). */
    private final List<Line2D.Float> segments;

    private LatticeGrid(List<Line2D.Float> segments) {
        this.segments = segments;
    }

    /** The page's rulings (page coordinates, as drawn); null when fewer than two level and two upright ones: no cell. */
    static LatticeGrid of(List<Line2D.Float> segments) {
        List<Line2D.Float> h = new ArrayList<>(), v = new ArrayList<>();
        for (Line2D.Float s : segments) {
            if (horizontal(s)) h.add(s);
            else if (vertical(s)) v.add(s);
        }
        return h.size() < 2 || v.size() < 2 ? null : new LatticeGrid(segments);
    }

    /** A line within a degree of level or upright made exactly so (its first end kept). */
    static Line2D.Float normalized(Line2D.Float l) {
        double angle = Math.toDegrees(Math.atan2(l.y2 - l.y1, l.x2 - l.x1));
        if (angle < 0) angle += 360;
        if (near(angle, 0) || near(angle, 180)) return new Line2D.Float(l.x1, l.y1, l.x2, l.y1);
        if (near(angle, 90) || near(angle, 270)) return new Line2D.Float(l.x1, l.y1, l.x1, l.y2);
        return l;
    }

    private static boolean near(double angle, double to) {
        return Math.abs(angle - to) <= 1;
    }

    static boolean horizontal(Line2D.Float l) {
        return length(l) > 0 && Math.abs(l.y1 - l.y2) < EPSILON;
    }

    static boolean vertical(Line2D.Float l) {
        return length(l) > 0 && Math.abs(l.x1 - l.x2) < EPSILON;
    }

    private static double length(Line2D.Float l) {
        return Math.sqrt(Math.pow(l.x1 - l.x2, 2) + Math.pow(l.y1 - l.y2, 2));
    }

    /**
     * The tables of page {@code page} in Tabula's order ({@link #areas}), each with its drawn cells and their text (for
     * {@link DocumentReader#tabular}) and the cells its open sides hold ({@link LatticeSides}). None on a page without text;
     * null when its rulings cross more than {@value #MAX_CROSSINGS} times (a drawing: not read for tables).
     */
    List<Tabula.PdfTable> tables(int page, LatticeText text, float pageArea) {
        if (text.glyphs.isEmpty()) return List.of();
        List<Line2D.Float> all = new ArrayList<>();
        for (Line2D.Float l : segments) all.add((Line2D.Float) l.clone());
        snap(all, text.minWidth, text.minHeight);
        List<Line2D.Float> h = new ArrayList<>(), v = new ArrayList<>();
        for (Line2D.Float l : all) {
            if (horizontal(l)) h.add(l);
            else if (vertical(l)) v.add(l);
        }
        // Tabula merges once for the page and once more for the table pass
        h = collapse(collapse(h));
        v = collapse(collapse(v));
        List<Rectangle2D.Float> cells = cells(h, v);
        if (cells == null) return null;
        List<Rectangle2D.Float> areas;
        try {
            areas = areas(cells);
        } catch (IllegalStateException e) {
            // cells whose outline does not close: Tabula's detector fails on such a page, and it has no tables
            return List.of();
        }
        List<Tabula.PdfTable> out = new ArrayList<>();
        for (Rectangle2D.Float area : areas) {
            Tabula.PdfTable t = table(page, area, cells, h, text, pageArea);
            if (t != null) out.add(t);
        }
        return out;
    }

    // --- rulings

    private static float position(Line2D.Float l) {
        return vertical(l) ? l.x1 : l.y1;
    }

    private static float start(Line2D.Float l) {
        return vertical(l) ? l.y1 : l.x1;
    }

    private static float end(Line2D.Float l) {
        return vertical(l) ? l.y2 : l.x2;
    }

    private static void setStartEnd(Line2D.Float l, float start, float end) {
        if (vertical(l)) l.setLine(l.x1, start, l.x2, end);
        else l.setLine(start, l.y1, end, l.y2);
    }

    /** The ruling reaching {@code by} further at both ends (a ruling drawn backwards shrinks, as in Tabula). */
    private static Line2D.Float expand(Line2D.Float l, float by) {
        Line2D.Float r = (Line2D.Float) l.clone();
        boolean v = vertical(l);
        float s = start(l) - by, e = end(l) + by;
        if (v) r.setLine(r.x1, s, r.x2, e);
        else r.setLine(s, r.y1, e, r.y2);
        return r;
    }

    /**
     * Ruling ends closer than the smallest glyph's width (across) or height (down) moved to their mean, in one pass
     * over the ends sorted by x, then by y. As in Tabula, the last end of each sorted list is left where it is.
     */
    private static void snap(List<Line2D.Float> lines, float dx, float dy) {
        List<Point2D.Float> points = new ArrayList<>();
        Map<Line2D.Float, Point2D.Float[]> ends = new LinkedHashMap<>();
        for (Line2D.Float l : lines) {
            Point2D.Float p1 = new Point2D.Float(l.x1, l.y1), p2 = new Point2D.Float(l.x2, l.y2);
            ends.put(l, new Point2D.Float[] {p1, p2});
            points.add(p1);
            points.add(p2);
        }
        snapAxis(points, dx, true);
        snapAxis(points, dy, false);
        ends.forEach((l, p) -> l.setLine(p[0], p[1]));
    }

    private static void snapAxis(List<Point2D.Float> points, float within, boolean x) {
        points.sort(Comparator.comparingDouble(p -> x ? p.x : p.y));
        List<List<Point2D.Float>> groups = new ArrayList<>();
        groups.add(new ArrayList<>(List.of(points.getFirst())));
        for (Point2D.Float p : points.subList(1, points.size() - 1)) {
            List<Point2D.Float> last = groups.getLast();
            Point2D.Float first = last.getFirst();
            if (Math.abs(x ? p.x - first.x : p.y - first.y) < within) last.add(p);
            else groups.add(new ArrayList<>(List.of(p)));
        }
        for (List<Point2D.Float> g : groups) {
            float mean = 0;
            for (Point2D.Float p : g) mean += x ? p.x : p.y;
            mean /= g.size();
            for (Point2D.Float p : g) p.setLocation(x ? mean : p.x, x ? p.y : mean);
        }
    }

    /** Rulings of one direction merged where they lie on one line and (nearly) touch, sorted by position then start. */
    private static List<Line2D.Float> collapse(List<Line2D.Float> lines) {
        List<Line2D.Float> sorted = new ArrayList<>(lines);
        sorted.sort((a, b) -> {
            float diff = position(a) - position(b);
            return Float.compare(diff == 0 ? start(a) - start(b) : diff, 0f);
        });
        List<Line2D.Float> out = new ArrayList<>();
        for (Line2D.Float next : sorted) {
            Line2D.Float last = out.isEmpty() ? null : out.getLast();
            if (last != null && Math.abs(position(next) - position(last)) < EPSILON
                    && (last.intersectsLine(next) || expand(last, JOIN_REACH).intersectsLine(expand(next, JOIN_REACH)))) {
                float ls = start(last), le = end(last);
                boolean lastFlipped = ls > le, nextFlipped = start(next) > end(next);
                boolean different = lastFlipped != nextFlipped;
                float ns = different ? end(next) : start(next), ne = different ? start(next) : end(next);
                setStartEnd(last, lastFlipped ? Math.max(ns, ls) : Math.min(ns, ls), lastFlipped ? Math.min(ne, le) : Math.max(ne, le));
            } else if (length(next) != 0) {
                out.add(next);
            }
        }
        return out;
    }

    // --- crossings and cells

    /** A crossing's rulings, each reaching {@value #CROSS_REACH} further (how Tabula keys them). */
    private record Crossing(Line2D.Float h, Line2D.Float v) {
    }

    private static boolean same(Line2D.Float a, Line2D.Float b) {
        return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2;
    }

    /**
     * Where horizontal and vertical rulings cross, each reaching {@value #CROSS_REACH} past its ends: a sweep from left
     * to right over the horizontals' (reached) ends and the verticals, keyed by (y, x). As in Tabula, only one
     * horizontal per level is under way at a time (the first to start), and it ends where any of that level ends.
     */
    private static TreeMap<Point2D.Float, Crossing> crossings(List<Line2D.Float> hs, List<Line2D.Float> vs) {
        record Event(int type, float position, Line2D.Float ruling) {
        }
        final int vertical = 0, right = 1, left = 2;
        List<Event> events = new ArrayList<>();
        for (Line2D.Float h : hs) {
            events.add(new Event(left, h.x1 - CROSS_REACH, h));
            events.add(new Event(right, h.x2 + CROSS_REACH, h));
        }
        for (Line2D.Float v : vs) events.add(new Event(vertical, v.x1, v));
        events.sort((a, b) -> {
            if (Math.abs(a.position() - b.position()) < EPSILON) {
                if (a.type() == vertical && b.type() == left) return 1;
                if (a.type() == vertical && b.type() == right) return -1;
                if (a.type() == left && b.type() == vertical) return -1;
                if (a.type() == right && b.type() == vertical) return 1;
                return Double.compare(a.position(), b.position());
            }
            return Double.compare(a.position(), b.position());
        });
        TreeMap<Float, Line2D.Float> open = new TreeMap<>();
        TreeMap<Point2D.Float, Crossing> out = new TreeMap<>(Comparator.<Point2D.Float>comparingDouble(p -> p.y).thenComparingDouble(p -> p.x));
        for (Event e : events) {
            switch (e.type()) {
                case vertical -> {
                    for (Line2D.Float h : open.values()) {
                        Line2D.Float he = expand(h, CROSS_REACH), ve = expand(e.ruling(), CROSS_REACH);
                        if (!he.intersectsLine(ve)) continue;
                        out.put(new Point2D.Float(ve.x1, he.y1), new Crossing(he, ve));
                        if (out.size() > MAX_CROSSINGS) return out;
                    }
                }
                case right -> open.remove(e.ruling().y1);
                default -> open.putIfAbsent(e.ruling().y1, e.ruling());
            }
        }
        return out;
    }

    private static int compareRounded(double a, double b) {
        return Float.compare(Lattice.round2(a), Lattice.round2(b));
    }

    /**
     * The drawn cells: from each crossing, the first rectangle (by its lower then right corner) closed by the same
     * rulings; null past {@value #MAX_CROSSINGS} crossings.
     */
    private static List<Rectangle2D.Float> cells(List<Line2D.Float> hs, List<Line2D.Float> vs) {
        TreeMap<Point2D.Float, Crossing> at = crossings(hs, vs);
        // each crossing is looked for a cell among those after it: the work grows with their square
        if (at.size() > MAX_CROSSINGS) return null;
        List<Point2D.Float> points = new ArrayList<>(at.keySet());
        points.sort((a, b) -> {
            int y = compareRounded(a.y, b.y);
            return y != 0 ? y : compareRounded(a.x, b.x);
        });
        List<Rectangle2D.Float> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            Point2D.Float topLeft = points.get(i);
            Crossing hv = at.get(topLeft);
            List<Point2D.Float> below = new ArrayList<>(), beside = new ArrayList<>();
            for (Point2D.Float p : points.subList(i, points.size())) {
                if (p.x == topLeft.x && p.y > topLeft.y) below.add(p);
                if (p.y == topLeft.y && p.x > topLeft.x) beside.add(p);
            }
            outer:
            for (Point2D.Float down : below) {
                if (!same(hv.v(), at.get(down).v())) continue;
                for (Point2D.Float across : beside) {
                    if (!same(hv.h(), at.get(across).h())) continue;
                    Point2D.Float bottomRight = new Point2D.Float(across.x, down.y);
                    Crossing br = at.get(bottomRight);
                    if (br != null && same(br.h(), at.get(down).h()) && same(br.v(), at.get(across).v())) {
                        out.add(new Rectangle2D.Float(topLeft.x, topLeft.y, bottomRight.x - topLeft.x, bottomRight.y - topLeft.y));
                        break outer;
                    }
                }
            }
        }
        return out;
    }

    /**
     * The tables' areas, as Tabula traces them: the corners that an odd number of cells have (shared corners cancel out)
     * are paired up along each level and each upright line, in order, into edges; following the edges, alternately
     * along and across, closes outlines; each outline's bounds is an area. Cells that share corners make one area; cells
     * that do not can still be paired into one outline (Tabula's pairing does not check that an edge is drawn). Areas
     * that overlap by more than 0.4 pt in height are ordered left to right, others by their bottoms.
     *
     * @throws IllegalStateException when a level or line has an odd number of corners (Tabula then fails the page)
     */
    private static List<Rectangle2D.Float> areas(List<Rectangle2D.Float> cells) {
        java.util.Set<Point2D.Float> corners = new java.util.HashSet<>();
        for (Rectangle2D.Float c : new LinkedHashSet<>(cells)) {
            for (Point2D.Float p : List.of(new Point2D.Float(c.x, c.y), new Point2D.Float(c.x + c.width, c.y),
                    new Point2D.Float(c.x, c.y + c.height), new Point2D.Float(c.x + c.width, c.y + c.height))) {
                if (!corners.remove(p)) corners.add(p);
            }
        }
        Map<Point2D.Float, Point2D.Float> along = edges(corners, false), across = edges(corners, true);
        List<Rectangle2D.Float> out = new ArrayList<>();
        while (!along.isEmpty()) {
            Point2D.Float first = along.keySet().iterator().next(), at = first;
            float top = Float.MAX_VALUE, left = Float.MAX_VALUE, bottom = -Float.MAX_VALUE, right = -Float.MAX_VALUE;
            boolean level = true;
            do {
                top = Math.min(top, at.y);
                left = Math.min(left, at.x);
                bottom = Math.max(bottom, at.y);
                right = Math.max(right, at.x);
                Point2D.Float next = level ? along.remove(at) : across.remove(at);
                if (next == null) throw new IllegalStateException("an outline of cells does not close");
                (level ? across : along).remove(at);
                at = next;
                level = !level;
            } while (!at.equals(first) || !level);
            along.remove(first);
            across.remove(first);
            out.add(new Rectangle2D.Float(left, top, right - left, bottom - top));
        }
        out.sort(Comparator.<Rectangle2D.Float>comparingDouble(r -> r.y).thenComparingDouble(r -> r.x));
        return order(out);
    }

    /**
     * The corners paired in order along each level ({@code byX}: along each upright line instead): each corner to its
     * partner and back.
     */
    private static Map<Point2D.Float, Point2D.Float> edges(java.util.Set<Point2D.Float> corners, boolean byX) {
        List<Point2D.Float> sorted = new ArrayList<>(corners);
        Comparator<Point2D.Float> first = (a, b) -> compareRounded(byX ? a.x : a.y, byX ? b.x : b.y);
        sorted.sort(first.thenComparing((a, b) -> compareRounded(byX ? a.y : a.x, byX ? b.y : b.x)));
        Map<Point2D.Float, Point2D.Float> out = new HashMap<>();
        int i = 0;
        while (i < sorted.size()) {
            float line = byX ? sorted.get(i).x : sorted.get(i).y;
            while (i < sorted.size() && Math.abs((byX ? sorted.get(i).x : sorted.get(i).y) - line) < EPSILON) {
                if (i + 1 >= sorted.size()) throw new IllegalStateException("a corner has no partner");
                out.put(sorted.get(i), sorted.get(i + 1));
                out.put(sorted.get(i + 1), sorted.get(i));
                i += 2;
            }
        }
        return out;
    }

    /** The areas in Tabula's order: side by side (more than 0.4 pt of common height) left to right, else by bottom. */
    private static List<Rectangle2D.Float> order(List<Rectangle2D.Float> areas) {
        Comparator<Rectangle2D.Float> tabula = (a, b) -> {
            if (a.equals(b)) return 0;
            double overlap = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
            return overlap > 0.4 ? Double.compare(a.x, b.x) : Float.compare(a.y + a.height, b.y + b.height);
        };
        // an insertion sort: the order is not transitive, and a library sort may refuse it
        List<Rectangle2D.Float> out = new ArrayList<>();
        for (Rectangle2D.Float a : areas) {
            int at = out.size();
            while (at > 0 && tabula.compare(out.get(at - 1), a) > 0) at--;
            out.add(at, a);
        }
        return out;
    }

    // --- a table

    /** Whether {@code cell} holds {@code area} and reaches past it on some side (by more than a point). */
    private static boolean around(Rectangle2D.Float cell, Rectangle2D.Float area) {
        boolean holds = cell.x <= area.x + 1 && cell.y <= area.y + 1 && cell.getMaxX() >= area.getMaxX() - 1 && cell.getMaxY() >= area.getMaxY() - 1;
        return holds && (cell.x < area.x - 1 || cell.y < area.y - 1 || cell.getMaxX() > area.getMaxX() + 1 || cell.getMaxY() > area.getMaxY() + 1);
    }

    /** A cell placed in the table's grid, its box (merged with another placed at the same spot) and its words. */
    private static final class Placed {
        final Rectangle2D.Float box;
        final List<Rectangle2D.Float> parts = new ArrayList<>();

        Placed(Rectangle2D.Float box) {
            this.box = (Rectangle2D.Float) box.clone();
            parts.add(box);
        }
    }

    /**
     * The table in {@code area}: its cells placed row by row (a row's first cell after as many columns as the widest
     * row of cells below-left of it has), the text of each, the rows that hold text, and the open sides' cells. A frame
     * drawn around the page (a cell over half its area, {@code pageArea} in square points) is no cell of a table inside
     * it: Tabula takes every cell that meets the area, so each table inside a page's frame became the frame, and no
     * table was read.
     */
    private Tabula.PdfTable table(int page, Rectangle2D.Float area, List<Rectangle2D.Float> all, List<Line2D.Float> hs, LatticeText text, float pageArea) {
        List<Rectangle2D.Float> cells = new ArrayList<>();
        for (Rectangle2D.Float c : all) if (c.intersects(area) && !(c.width * c.height > pageArea / 2 && around(c, area))) cells.add(c);
        if (cells.isEmpty()) return null;
        Rectangle2D.Float bounds = (Rectangle2D.Float) cells.getFirst().clone();
        for (Rectangle2D.Float c : cells) Rectangle2D.union(bounds, c, bounds);
        TreeMap<Long, Placed> grid = new TreeMap<>();
        int rowCount = 0, colCount = 0;
        List<List<Rectangle2D.Float>> rows = rows(cells);
        for (int i = 0; i < rows.size(); i++) {
            List<Rectangle2D.Float> row = rows.get(i);
            Rectangle2D.Float first = row.getFirst();
            Rectangle2D.Float belowLeft = new Rectangle2D.Float(bounds.x, first.y + first.height, first.x - bounds.x,
                    bounds.y + bounds.height - (first.y + first.height));
            List<Rectangle2D.Float> inside = new ArrayList<>();
            for (Rectangle2D.Float c : cells) if (belowLeft.contains(c)) inside.add(c);
            int column = 0;
            for (List<Rectangle2D.Float> r : rows(inside)) column = Math.max(column, r.size());
            for (Rectangle2D.Float c : row) {
                long key = (long) i << 32 | column;
                Placed old = grid.get(key);
                Placed p = new Placed(c);
                if (old != null) {
                    Rectangle2D.union(p.box, old.box, p.box);
                    p.parts.addAll(old.parts);
                }
                grid.put(key, p);
                rowCount = Math.max(rowCount, i + 1);
                colCount = Math.max(colCount, column + 1);
                column++;
            }
        }
        Rectangle2D.Float table = (Rectangle2D.Float) area.clone();
        for (Placed p : grid.values()) Rectangle2D.union(table, p.box, table);
        List<List<String>> texts = new ArrayList<>();
        List<Tabula.CellBox> boxes = new ArrayList<>();
        int cols = 0;
        for (int r = 0; r < rowCount; r++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < colCount; c++) {
                Placed p = grid.get((long) r << 32 | c);
                if (p == null) {
                    row.add("");
                    continue;
                }
                row.add(words(p, text));
                if (p.box.width > 0 && p.box.height > 0) boxes.add(new Tabula.CellBox(p.box.y, p.box.x, p.box.width, p.box.height));
            }
            while (!row.isEmpty() && row.getLast().isEmpty()) row.removeLast();
            if (row.stream().allMatch(String::isEmpty)) continue;
            cols = Math.max(cols, row.size());
            texts.add(row);
        }
        for (List<String> r : texts) while (r.size() < cols) r.add("");
        if (texts.isEmpty() || cols == 0 || texts.size() * cols < 2) return null;
        float left = table.x, right = table.x + table.width;
        for (LatticeSides.Box b : LatticeSides.of(table, hs, text)) {
            boxes.add(new Tabula.CellBox(b.top(), b.left(), b.width(), b.height()));
            left = Math.min(left, b.left());
            right = Math.max(right, b.left() + b.width());
        }
        return new Tabula.PdfTable(page, table.y, left, right - left, table.height, texts, true, boxes);
    }

    /** Cells in rows: sorted by top (stable), a new row where the top changes. */
    private static List<List<Rectangle2D.Float>> rows(List<Rectangle2D.Float> cells) {
        List<Rectangle2D.Float> sorted = new ArrayList<>(cells);
        sorted.sort(Comparator.comparingDouble(c -> c.y));
        List<List<Rectangle2D.Float>> out = new ArrayList<>();
        float lastTop = Float.NaN;
        for (Rectangle2D.Float c : sorted) {
            if (out.isEmpty() || Math.abs(c.y - lastTop) >= EPSILON) out.add(new ArrayList<>());
            out.getLast().add(c);
            lastTop = c.y;
        }
        return out;
    }

    /**
     * The words of the glyphs wholly inside the cell's drawn boxes, in content order: a space where PDFBox's text
     * reading starts a new word or a blank glyph stands.
     */
    private static String words(Placed p, LatticeText text) {
        StringBuilder sb = new StringBuilder();
        for (Rectangle2D.Float part : p.parts) {
            int word = -1;
            boolean space = false;
            for (LatticeText.Glyph g : text.glyphs) {
                if (!g.inside(part.x, part.y, part.width, part.height)) continue;
                if (g.text().isBlank()) {
                    space = true;
                    continue;
                }
                if ((space || g.word() != word) && !sb.isEmpty()) sb.append(' ');
                sb.append(g.text());
                word = g.word();
                space = false;
            }
        }
        return sb.toString();
    }
}
