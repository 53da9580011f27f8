package dev.docapi.engines.tabula;

import dev.docapi.shaded.tabula.Page;
import dev.docapi.shaded.tabula.Rectangle;
import dev.docapi.shaded.tabula.Ruling;
import dev.docapi.shaded.tabula.TextElement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The cells a lattice table's rules leave open at its sides (issue 36). A table drawn with horizontal rules across its
 * whole width but vertical rules only between its inner columns (a paper's table: no frame at the sides) gives Tabula
 * cells only between its outermost vertical rules, and the columns beyond them are lost. Where the table's top and
 * bottom rules both reach past its outermost cells and text stands in between, that strip is cut into cells: its rows
 * lie between the horizontal rules that cross the whole strip (a rule under a group of inner columns' heads does not,
 * so the head beside them spans both rows), its columns between the gaps that every line of the strip leaves open.
 * Runs in Tabula's child JVM, in Tabula's coordinates (points from the page's top-left).
 */
final class OpenSides {
    /** Rules or edges closer than this (points) are one line. */
    private static final float NEAR = 2f;
    /** A gap in the strip's text at least this many times its font size parts two columns (a word space is ~0.3). */
    private static final float COLUMN_GAP = 1f;

    private OpenSides() {
    }

    /** An open side's cells: a box, in points from the page's top-left, for each of its rows and columns. */
    record Box(float top, float left, float width, float height) {
    }

    /**
     * The cells beside the table's left and right outermost cells that its rules leave open, empty when both sides are
     * closed (or hold no text).
     *
     * @param table the table's area: its cells' union
     */
    static List<Box> of(Page page, Rectangle table) {
        List<Ruling> across = new ArrayList<>();
        for (Ruling r : page.getHorizontalRulings()) {
            if (r.getPosition() >= table.getTop() - NEAR && r.getPosition() <= table.getBottom() + NEAR
                    && r.getLeft() < table.getRight() && r.getRight() > table.getLeft()) across.add(r);
        }
        // how far both the top rule and the bottom rule reach: the table's frame, had it one
        float left = -Float.MAX_VALUE, right = Float.MAX_VALUE;
        for (float edge : new float[] {table.getTop(), table.getBottom()}) {
            List<Ruling> at = across.stream().filter(r -> Math.abs(r.getPosition() - edge) <= NEAR).toList();
            if (at.isEmpty()) return List.of();
            left = Math.max(left, (float) at.stream().mapToDouble(Ruling::getLeft).min().getAsDouble());
            right = Math.min(right, (float) at.stream().mapToDouble(Ruling::getRight).max().getAsDouble());
        }
        List<Box> out = new ArrayList<>();
        out.addAll(strip(page, table, across, left, table.getLeft()));
        out.addAll(strip(page, table, across, table.getRight(), right));
        return out;
    }

    /** The cells of the strip between {@code from} and {@code to} (points from the page's left), beside the table. */
    private static List<Box> strip(Page page, Rectangle table, List<Ruling> across, float from, float to) {
        if (to - from <= NEAR) return List.of();
        List<TextElement> text = new ArrayList<>();
        for (TextElement t : page.getText(new Rectangle(table.getTop(), from, to - from, table.getBottom() - table.getTop()))) {
            float cx = (t.getLeft() + t.getRight()) / 2, cy = (t.getTop() + t.getBottom()) / 2;
            if (cx > from && cx < to && cy > table.getTop() && cy < table.getBottom() && !t.getText().isBlank()) text.add(t);
        }
        if (text.isEmpty()) return List.of();
        List<Float> rows = new ArrayList<>();
        for (Ruling r : across) if (r.getLeft() <= from + NEAR && r.getRight() >= to - NEAR) rows.add(r.getPosition());
        rows.add(table.getTop());
        rows.add(table.getBottom());
        rows.sort(null);
        List<Float> ys = new ArrayList<>();
        for (float y : rows) if (ys.isEmpty() || y - ys.getLast() > NEAR) ys.add(y);
        List<Float> xs = columns(text, from, to);
        List<Box> out = new ArrayList<>();
        for (int r = 0; r + 1 < ys.size(); r++) {
            for (int c = 0; c + 1 < xs.size(); c++) out.add(new Box(ys.get(r), xs.get(c), xs.get(c + 1) - xs.get(c), ys.get(r + 1) - ys.get(r)));
        }
        return out;
    }

    /** The strip's column edges: its sides and the middle of each gap its text leaves open from top to bottom. */
    private static List<Float> columns(List<TextElement> text, float from, float to) {
        List<TextElement> byX = new ArrayList<>(text);
        byX.sort(Comparator.comparingDouble(TextElement::getLeft));
        List<Float> xs = new ArrayList<>(List.of(from));
        float reach = byX.getFirst().getRight();
        for (TextElement t : byX) {
            if (t.getLeft() - reach >= COLUMN_GAP * Math.max(t.getFontSize(), t.getHeight())) xs.add((reach + t.getLeft()) / 2);
            reach = Math.max(reach, t.getRight());
        }
        xs.add(to);
        return xs;
    }
}
