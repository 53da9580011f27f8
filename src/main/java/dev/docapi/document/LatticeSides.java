package dev.docapi.document;

import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The cells a ruled table's rules leave open at its sides (issue 36), for {@link LatticeGrid}: a table drawn with
 * horizontal rules across its whole width but vertical rules only between its inner columns (a paper's table: no frame
 * at the sides) has drawn cells only between its outermost vertical rules. Where the table's top and bottom rules both
 * reach past its outermost cells and text stands in between, that strip is cut into cells: its rows lie between the
 * horizontal rules that cross the whole strip, its columns between the gaps that every line of the strip leaves open.
 * Points from the page's top-left.
 */
final class LatticeSides {
    /** Rules or edges closer than this (points) are one line. */
    private static final float NEAR = 2f;
    /** A gap in the strip's text at least this many times its font size parts two columns (a word space is ~0.3). */
    private static final float COLUMN_GAP = 1f;

    private LatticeSides() {
    }

    /** An open side's cell: top and left edges, points from the page's top-left, and its size. */
    record Box(float top, float left, float width, float height) {
    }

    /**
     * The cells beside the table's outermost cells that its rules leave open, empty when both sides are closed (or hold
     * no text).
     *
     * @param table       the table's area: its cells' union
     * @param horizontals the page's horizontal rulings (merged)
     */
    static List<Box> of(Rectangle2D.Float table, List<Line2D.Float> horizontals, LatticeText text) {
        float top = table.y, bottom = table.y + table.height, tableLeft = table.x, tableRight = table.x + table.width;
        List<Line2D.Float> across = new ArrayList<>();
        for (Line2D.Float r : horizontals) {
            if (r.y1 >= top - NEAR && r.y1 <= bottom + NEAR && r.x1 < tableRight && r.x2 > tableLeft) across.add(r);
        }
        // how far both the top rule and the bottom rule reach: the table's frame, had it one
        float left = -Float.MAX_VALUE, right = Float.MAX_VALUE;
        for (float edge : new float[] {top, bottom}) {
            List<Line2D.Float> at = across.stream().filter(r -> Math.abs(r.y1 - edge) <= NEAR).toList();
            if (at.isEmpty()) return List.of();
            left = Math.max(left, (float) at.stream().mapToDouble(r -> r.x1).min().getAsDouble());
            right = Math.min(right, (float) at.stream().mapToDouble(r -> r.x2).max().getAsDouble());
        }
        List<Box> out = new ArrayList<>();
        out.addAll(strip(table, across, text, left, tableLeft));
        out.addAll(strip(table, across, text, tableRight, right));
        return out;
    }

    /** The cells of the strip between {@code from} and {@code to} (points from the page's left), beside the table. */
    private static List<Box> strip(Rectangle2D.Float table, List<Line2D.Float> across, LatticeText text, float from, float to) {
        if (to - from <= NEAR) return List.of();
        float top = table.y, bottom = table.y + table.height;
        List<LatticeText.Glyph> glyphs = new ArrayList<>();
        for (LatticeText.Glyph g : text.glyphs) {
            if (!g.inside(from, top, to - from, bottom - top)) continue;
            float cx = (g.left() + g.right()) / 2, cy = (g.top() + g.bottom()) / 2;
            if (cx > from && cx < to && cy > top && cy < bottom && !g.text().isBlank()) glyphs.add(g);
        }
        if (glyphs.isEmpty()) return List.of();
        List<Float> rows = new ArrayList<>();
        for (Line2D.Float r : across) if (r.x1 <= from + NEAR && r.x2 >= to - NEAR) rows.add(r.y1);
        rows.add(top);
        rows.add(bottom);
        rows.sort(null);
        List<Float> ys = new ArrayList<>();
        for (float y : rows) if (ys.isEmpty() || y - ys.getLast() > NEAR) ys.add(y);
        List<Float> xs = columns(glyphs, from, to);
        List<Box> out = new ArrayList<>();
        for (int r = 0; r + 1 < ys.size(); r++) {
            for (int c = 0; c + 1 < xs.size(); c++) out.add(new Box(ys.get(r), xs.get(c), xs.get(c + 1) - xs.get(c), ys.get(r + 1) - ys.get(r)));
        }
        return out;
    }

    /** The strip's column edges: its sides and the middle of each gap its text leaves open from top to bottom. */
    private static List<Float> columns(List<LatticeText.Glyph> glyphs, float from, float to) {
        List<LatticeText.Glyph> byX = new ArrayList<>(glyphs);
        byX.sort(Comparator.comparingDouble(LatticeText.Glyph::left));
        List<Float> xs = new ArrayList<>(List.of(from));
        float reach = byX.getFirst().right();
        for (LatticeText.Glyph g : byX) {
            if (g.left() - reach >= COLUMN_GAP * Math.max(g.fontSize(), g.height())) xs.add((reach + g.left()) / 2);
            reach = Math.max(reach, g.right());
        }
        xs.add(to);
        return xs;
    }
}
